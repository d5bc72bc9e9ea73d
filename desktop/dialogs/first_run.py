"""The welcome screen: what Hipocampo does, where the memory is, and how to connect each assistant.

Shown once: when it closes (however it closes) ``first_run_done`` is saved in the user's settings
file (``core.settings.settings_file()``), so it never opens by itself again; the app's "Connect an
assistant" command may still open it on purpose.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.clients import CLIENTS, TITLES
from core.settings import Settings, save_user_settings
from desktop.dialogs.connect_client import ConnectClientPanel
from desktop.dialogs.feedback import heading_font, monospace_font, section_heading, show_feedback
from desktop.resources import app_icon

log = logging.getLogger(__name__)


class FirstRunDialog(QDialog):
    """Welcome, the memory file, the endpoint, and one tab per supported assistant."""

    def __init__(self, settings: Settings, endpoint: dict[str, Any] | Any | None = None,
                 parent: QWidget | None = None, *, settings_path: Path | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.settings_path = settings_path
        self.db = Path(settings.db).expanduser().absolute()
        self.setWindowTitle(self.tr("Welcome to Hipocampo"))
        self.setWindowIcon(app_icon())

        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(64, 64))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        headline = QLabel(self.tr("Welcome to Hipocampo"))
        headline.setFont(heading_font(self, 1.8))
        tagline = QLabel(self.tr("A memory for your AI assistants, kept on this computer."))
        tagline.setObjectName("tagline")
        show_feedback(tagline, tagline.text(), "muted")
        titles = QVBoxLayout()
        titles.setSpacing(2)
        titles.addWidget(headline)
        titles.addWidget(tagline)
        top = QHBoxLayout()
        top.setSpacing(16)
        top.addWidget(icon)
        top.addLayout(titles, 1)
        top.setAlignment(titles, Qt.AlignmentFlag.AlignVCenter)

        about = QLabel(self.tr(
            "Claude, Cursor, opencode and other assistants save what they learn — people, projects, "
            "decisions, preferences — into a knowledge graph here, and recall it in later conversations. "
            "In this window you can see that graph, search it by meaning, correct it, and approve the "
            "connections Hipocampo notices. Nothing leaves your computer."))
        about.setWordWrap(True)

        self.path_label = QLabel(str(self.db))
        self.path_label.setObjectName("memoryPath")
        self.path_label.setFont(monospace_font())
        self.path_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.path_label.setWordWrap(True)
        open_folder = QPushButton(self.tr("Open folder"))
        open_folder.clicked.connect(self.on_open_folder)
        where = QHBoxLayout()
        where.addWidget(self.path_label, 1)
        where.addWidget(open_folder, 0, Qt.AlignmentFlag.AlignTop)
        self.endpoint_label = QLabel()
        self.endpoint_label.setObjectName("endpoint")
        self.endpoint_label.setWordWrap(True)
        self.endpoint_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._endpoint = endpoint
        self.set_endpoint(endpoint)
        changed = getattr(endpoint, "changed", None)
        if changed is not None and hasattr(changed, "connect"):  # a live hub: follow it as it starts or stops
            # A slot of this dialog, not a lambda: Qt drops the connection when the dialog is deleted.
            changed.connect(self.on_endpoint_changed)

        self.tabs = QTabWidget()
        self.panels: dict[str, ConnectClientPanel] = {}
        for client in CLIENTS:
            panel = ConnectClientPanel(client, self.db)
            self.panels[client] = panel
            self.tabs.addTab(panel, TITLES[client])

        buttons = QDialogButtonBox()
        self.start_button = buttons.addButton(self.tr("Start using Hipocampo"),
                                              QDialogButtonBox.ButtonRole.AcceptRole)
        self.start_button.setDefault(True)
        buttons.accepted.connect(self.accept)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(24, 20, 24, 16)
        layout.setSpacing(10)
        layout.addLayout(top)
        layout.addWidget(about)
        layout.addSpacing(6)
        layout.addWidget(section_heading(self.tr("Your memory"), self))
        layout.addLayout(where)
        layout.addWidget(self.endpoint_label)
        layout.addSpacing(6)
        layout.addWidget(section_heading(self.tr("Connect an assistant"), self))
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self.resize(720, self.sizeHint().height())

    @staticmethod
    def should_show(settings: Settings) -> bool:
        """Whether the welcome screen is still due (it has never been closed)."""
        return not settings.first_run_done

    def set_endpoint(self, endpoint: dict[str, Any] | Any | None) -> None:
        """Show whether the app is serving assistants now: ``endpoint`` is the hub's info (a dict with
        ``url``, maybe ``running``), an object with ``url`` and ``running`` (the hub itself), or None."""
        if isinstance(endpoint, dict) or endpoint is None:
            url, running = (endpoint or {}).get("url"), (endpoint or {}).get("running", True)
        else:
            url, running = getattr(endpoint, "url", None), getattr(endpoint, "running", True)
        running = bool(url) and bool(running)
        if running:
            text = self.tr("Assistants connect to {url} while this app is open, so what they write "
                           "appears here as they write it.").format(url=url)
        else:
            text = self.tr("Each assistant starts Hipocampo by itself when it needs its memory; while this "
                           "app is open they share it, and what they write appears here as they write it.")
        show_feedback(self.endpoint_label, text, "muted")

    def on_endpoint_changed(self) -> None:
        self.set_endpoint(self._endpoint)

    def on_open_folder(self) -> None:
        folder = self.db.parent
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def done(self, result: int) -> None:  # accept, reject, Esc and the close button all end here
        try:
            save_user_settings({"first_run_done": True}, self.settings_path)
        except (OSError, ValueError) as exc:  # not worth stopping anyone: it will just show again
            log.warning("Could not record that the welcome screen was seen: %s", exc)
        super().done(result)

