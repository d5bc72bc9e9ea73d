"""The welcome screen: what Hipocampo does, where the memory is, the memories other tools already
keep here (to bring along), and how to connect each assistant.

Shown once: when it closes (however it closes) ``first_run_done`` is saved in the user's settings
file (``core.settings.settings_file()``), so it never opens by itself again. Help → Connect an
assistant opens its own dialog (``desktop.dialogs.connect_client.ConnectDialog``).

The search for other tools' memories (``core.io.discover.find_memories``) runs on a thread of its
own, so the screen shows at once; each memory found is offered with its counts, and its Import…
button asks the app to import it through the usual preview (``import_requested``).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, QObject, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.clients import display_path
from core.io.discover import ENGRAMA, MCP_MEMORY_V2, OFFICIAL, FoundMemory, find_memories
from core.settings import Settings, save_user_settings
from desktop.dialogs.connect_client import EndpointStatus, client_tabs
from desktop.dialogs.feedback import heading_font, monospace_font, section_heading, show_feedback
from desktop.resources import app_icon

log = logging.getLogger(__name__)


class _Finder(QObject):
    """Runs ``find_memories`` on a thread and hands the result to the GUI thread."""

    found = Signal(list)

    def start(self, exclude: Path) -> None:
        def run() -> None:
            try:
                memories = find_memories(exclude=exclude)
            except Exception:  # looking is a courtesy: never an error in the person's face
                log.warning("Looking for other tools' memories failed", exc_info=True)
                memories = []
            self.found.emit(memories)

        threading.Thread(target=run, name="hipocampo-discover", daemon=True).start()


class FirstRunDialog(QDialog):
    """Welcome, the memory file, the endpoint, other tools' memories, one tab per assistant."""

    #: files to import through the usual preview (the app opens its import dialog)
    import_requested = Signal(list)
    #: the search for other tools' memories finished (with what it found)
    memories_found = Signal(list)

    def __init__(self, settings: Settings, endpoint: dict[str, Any] | Any | None = None,
                 parent: QWidget | None = None, *, settings_path: Path | None = None,
                 discover: bool = True) -> None:
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
        # Follows a live hub as it starts or stops, through its own slot: no lambda outlives the dialog.
        self.endpoint_label = EndpointStatus(endpoint, self)

        self.found: list[FoundMemory] = []
        self.import_buttons: dict[Path, QPushButton] = {}
        self.others_heading = section_heading(self.tr("Bring your memory along"), self)
        self.others_note = QLabel(self.tr("Looking for memories other tools keep on this computer…"))
        self.others_note.setWordWrap(True)
        show_feedback(self.others_note, self.others_note.text(), "muted")
        self.others = QGridLayout()
        self.others.setColumnStretch(0, 1)
        self.others.setHorizontalSpacing(12)

        self.tabs, self.panels = client_tabs(self.db, self)

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
        layout.addWidget(self.others_heading)
        layout.addWidget(self.others_note)
        layout.addLayout(self.others)
        layout.addSpacing(6)
        layout.addWidget(section_heading(self.tr("Connect an assistant"), self))
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self.resize(720, self.sizeHint().height())
        self._finder: _Finder | None = None
        if discover:
            self._finder = _Finder()  # not a child: it may outlive the dialog until its thread ends
            self._finder.found.connect(self.show_found)
            self._finder.start(self.db)
        else:
            self.show_found([])

    @staticmethod
    def should_show(settings: Settings) -> bool:
        """Whether the welcome screen is still due (it has never been closed)."""
        return not settings.first_run_done

    def set_endpoint(self, endpoint: dict[str, Any] | Any | None) -> None:
        """Show whether the app is serving assistants now (see :class:`EndpointStatus`)."""
        self.endpoint_label.set_endpoint(endpoint)

    @Slot(list)
    def show_found(self, memories: list[FoundMemory]) -> None:
        """List the memories other tools keep, each with its counts and an Import… button."""
        self.found = list(memories)
        self.others_heading.setVisible(bool(self.found))
        self.others_note.setVisible(bool(self.found))
        if self.found:
            show_feedback(self.others_note, self.tr(
                "You already have a memory from another tool. Import it to keep what your assistants "
                "learned; you will see what it adds before anything changes."), "muted")
        for row, memory in enumerate(self.found):
            label = QLabel(self._describe(memory), self)
            label.setObjectName("foundMemory")
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            where = QLabel(display_path(memory.path), self)
            where.setFont(monospace_font())
            where.setWordWrap(True)
            where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            button = QPushButton(self.tr("Import…"), self)
            button.setToolTip(self.tr("See what it adds, then import it"))
            button.clicked.connect(lambda _checked=False, path=memory.path: self.on_import(path))
            self.import_buttons[memory.path] = button
            self.others.addWidget(label, 2 * row, 0)
            self.others.addWidget(where, 2 * row + 1, 0)
            self.others.addWidget(button, 2 * row, 1, 2, 1, Qt.AlignmentFlag.AlignVCenter)
            for widget in (label, where, button):
                widget.setVisible(True)  # added to a dialog already on screen
        if self.found and self.isVisible():
            self.resize(self.width(), max(self.height(), self.sizeHint().height()))
        self.memories_found.emit(self.found)

    def _describe(self, memory: FoundMemory) -> str:
        source = {OFFICIAL: self.tr("Official memory server"), MCP_MEMORY_V2: self.tr("MCP Memory v2"),
                  ENGRAMA: self.tr("Engrama")}[memory.source]
        locale = QLocale()
        entities = (self.tr("1 entity") if memory.entities == 1 else
                    self.tr("{n} entities").format(n=locale.toString(memory.entities)))
        relations = (self.tr("1 relation") if memory.relations == 1 else
                     self.tr("{n} relations").format(n=locale.toString(memory.relations)))
        text = self.tr("{source}: {entities}, {relations}").format(
            source=source, entities=entities, relations=relations)
        if memory.insights:
            text += (self.tr(", 1 insight") if memory.insights == 1 else
                     self.tr(", {n} insights").format(n=locale.toString(memory.insights)))
        if memory.via not in ("", "default"):
            text += " " + self.tr("(set in {place})").format(place=memory.via)
        return text

    def on_import(self, path: Path) -> None:
        self.import_requested.emit([path])

    def on_open_folder(self) -> None:
        folder = self.db.parent
        folder.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def done(self, result: int) -> None:  # accept, reject, Esc and the close button all end here
        self.endpoint_label.detach()
        if self._finder is not None:
            try:
                self._finder.found.disconnect(self.show_found)
            except (RuntimeError, TypeError):
                pass
        try:
            save_user_settings({"first_run_done": True}, self.settings_path)
        except (OSError, ValueError) as exc:  # not worth stopping anyone: it will just show again
            log.warning("Could not record that the welcome screen was seen: %s", exc)
        super().done(result)

