"""Connecting assistants: for each one its snippet (to copy) and a button that adds Hipocampo to its
configuration file, with the outcome told in a sentence right below (:class:`ConnectClientPanel`);
a line saying whether the app serves assistants now (:class:`EndpointStatus`); and Help → Connect an
assistant, the dialog with one tab per assistant (:class:`ConnectDialog`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication, QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.clients import (
    CLIENTS,
    TITLES,
    ClientConfigError,
    InstallResult,
    config_path,
    display_path,
    install_into,
    snippet,
)
from desktop.dialogs.feedback import monospace_font, show_feedback
from desktop.resources import app_icon

MAX_SNIPPET_LINES = 12


class ConnectClientPanel(QWidget):
    """One supported client: where its configuration lives, the snippet, Copy and Add."""

    #: a sentence saying what was done, for a status bar
    status_message = Signal(str)
    #: Hipocampo was written into the client's file
    installed = Signal(object)  # InstallResult

    def __init__(self, client: str, db: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.client = client
        self.db = db
        title = TITLES[client]
        where = display_path(config_path(client))

        if client == "claude-code":
            intro = self.tr("Run this command in a terminal, or let Hipocampo add the server to {file} "
                            "for you.").format(file=where)
        else:
            intro = self.tr("{client} reads its servers from {file}. Let Hipocampo add itself there, "
                            "or paste this into the file yourself.").format(client=title, file=where)
        self.intro = QLabel(intro)
        self.intro.setWordWrap(True)
        self.intro.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.snippet = QPlainTextEdit(snippet(client, db))
        self.snippet.setObjectName("snippet")
        self.snippet.setReadOnly(True)
        self.snippet.setFont(monospace_font())
        self.snippet.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere if client == "claude-code"
                                     else QTextOption.WrapMode.NoWrap)
        lines = min(self.snippet.document().blockCount(), MAX_SNIPPET_LINES)
        if client == "claude-code":
            lines = 2
        metrics = self.snippet.fontMetrics()
        self.snippet.setFixedHeight(int(metrics.lineSpacing() * (lines + 0.6)) + 10)

        self.copy_button = QPushButton(self.tr("Copy"))
        self.copy_button.clicked.connect(self.on_copy)
        self.add_button = QPushButton(self.tr("Add to {client}").format(client=title))
        self.add_button.clicked.connect(self.on_add)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.add_button)
        self.hooks_button: QPushButton | None = None
        if client == "claude-code":  # the one client whose hook format is verified (core/hooks.py)
            self.hooks_button = QPushButton(self.tr("Add session hooks"))
            self.hooks_button.setToolTip(self.tr(
                "Each new session starts with the memory's brief, and Claude is reminded to save what it "
                "learned (~/.claude/settings.json; a backup is kept)"))
            self.hooks_button.clicked.connect(self.on_add_hooks)
            buttons.addWidget(self.hooks_button)
        buttons.addStretch(1)

        self.note = QLabel(self._note())
        self.note.setWordWrap(True)
        show_feedback(self.note, self.note.text(), "muted")

        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result.setVisible(False)

        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.snippet)
        layout.addLayout(buttons)
        layout.addWidget(self.result)
        layout.addStretch(1)
        layout.addWidget(self.note)

    def _note(self) -> str:
        if self.client == "claude-desktop":
            return self.tr("Tip: in Claude Desktop, Settings → Developer → Edit Config opens the same file.")
        if self.client == "claude-code":
            return self.tr("Servers you add for all your projects live under “mcpServers” in that file; "
                           "“claude mcp list” shows them.")
        if self.client == "cursor":
            return self.tr("For one project only, put the same lines in .cursor/mcp.json inside it.")
        return self.tr("For one project only, put the same lines in opencode.json at its root.")

    def on_copy(self) -> None:
        QGuiApplication.clipboard().setText(self.snippet.toPlainText())
        show_feedback(self.result, self.tr("Copied to the clipboard."), "info")

    def on_add(self) -> None:
        try:
            result = install_into(self.client, self.db)
        except ClientConfigError as exc:
            show_feedback(self.result, str(exc), "error")
            self.status_message.emit(str(exc))
            return
        sentence = self.describe(result)
        show_feedback(self.result, sentence, "success")
        self.status_message.emit(sentence)
        self.installed.emit(result)

    def on_add_hooks(self) -> None:
        from core.hooks import install_hooks

        try:
            done = install_hooks(self.db)
        except ClientConfigError as exc:
            show_feedback(self.result, str(exc), "error")
            self.status_message.emit(str(exc))
            return
        where = display_path(done.path)
        if done.action == "unchanged":
            sentence = self.tr("Claude Code already runs Hipocampo's hooks ({file}).").format(file=where)
        elif done.backup is not None:
            sentence = self.tr("Session hooks added to {file} (backup: {backup}). New sessions start with the "
                               "brief.").format(file=where, backup=done.backup.name)
        else:
            sentence = self.tr("Session hooks added to {file}. New sessions start with the brief.").format(file=where)
        show_feedback(self.result, sentence, "success")
        self.status_message.emit(sentence)

    def describe(self, result: InstallResult) -> str:
        """What :func:`install_into` did, as one or two sentences."""
        title = TITLES[result.client]
        where = display_path(result.path)
        if result.action == "unchanged":
            return self.tr("{client} is already set up: {file} starts Hipocampo.").format(client=title, file=where)
        if result.backup is not None:
            text = self.tr("Added to {file} (backup: {backup}).").format(file=where, backup=result.backup.name)
        else:
            text = self.tr("Added to {file}.").format(file=where)
        if result.beside:
            text += " " + self.tr("Your existing “{other}” server was kept; Hipocampo is “{key}” beside it.").format(
                other=result.beside, key=result.key)
        return text + " " + self.tr("Restart {client} to use it.").format(client=title)


class EndpointStatus(QLabel):
    """Whether the app serves assistants now, kept up to date while a live hub starts or stops.

    ``endpoint`` is the hub's info (a dict with ``url``, maybe ``running``), an object with ``url``
    and ``running`` and a ``changed`` signal (the hub itself), or None. The signal is connected to
    this label's own slot (Qt drops it with the label), and :meth:`detach` disconnects it when its
    dialog closes: nothing of a closed dialog stays connected to the hub."""

    def __init__(self, endpoint: dict[str, Any] | Any | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("endpoint")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.endpoint = endpoint
        self._signal = getattr(endpoint, "changed", None)
        if self._signal is not None and hasattr(self._signal, "connect"):
            self._signal.connect(self.refresh)
        else:
            self._signal = None
        self.refresh()

    def detach(self) -> None:
        """Stop following the hub's ``changed`` (the dialog is closing)."""
        signal, self._signal = self._signal, None
        if signal is not None:
            try:
                signal.disconnect(self.refresh)
            except (RuntimeError, TypeError):  # already gone with the hub
                pass

    def set_endpoint(self, endpoint: dict[str, Any] | Any | None) -> None:
        """Show ``endpoint`` from now on (without following its ``changed``)."""
        self.endpoint = endpoint
        self.refresh()

    @Slot()
    def refresh(self) -> None:
        endpoint = self.endpoint
        if isinstance(endpoint, dict) or endpoint is None:
            url, running = (endpoint or {}).get("url"), (endpoint or {}).get("running", True)
        else:
            url, running = getattr(endpoint, "url", None), getattr(endpoint, "running", True)
        if url and running:
            text = self.tr("Assistants connect to {url} while this app is open, so what they write "
                           "appears here as they write it.").format(url=url)
        else:
            text = self.tr("Each assistant starts Hipocampo by itself when it needs its memory; while this "
                           "app is open they share it, and what they write appears here as they write it.")
        show_feedback(self, text, "muted")


def client_tabs(db: Path, parent: QWidget | None = None) -> tuple[QTabWidget, dict[str, ConnectClientPanel]]:
    """One tab per supported assistant, each with its :class:`ConnectClientPanel`."""
    tabs = QTabWidget(parent)
    panels: dict[str, ConnectClientPanel] = {}
    for client in CLIENTS:
        panels[client] = ConnectClientPanel(client, db)
        tabs.addTab(panels[client], TITLES[client])
    return tabs, panels


class ConnectDialog(QDialog):
    """Help → Connect an assistant: the endpoint's state and one tab per assistant, then Close."""

    #: a sentence saying what was done, for a status bar
    status_message = Signal(str)

    def __init__(self, db: Path, endpoint: dict[str, Any] | Any | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.db = Path(db).expanduser().absolute()
        self.setWindowTitle(self.tr("Connect an assistant"))
        self.setWindowIcon(app_icon())
        intro = QLabel(self.tr("Each assistant keeps its own list of servers. Add Hipocampo to the ones you "
                               "use; they will read and write this memory:"))
        intro.setWordWrap(True)
        path = QLabel(str(self.db))
        path.setObjectName("memoryPath")
        path.setFont(monospace_font())
        path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        path.setWordWrap(True)
        self.endpoint_label = EndpointStatus(endpoint, self)
        self.tabs, self.panels = client_tabs(self.db, self)
        for panel in self.panels.values():
            panel.status_message.connect(self.status_message)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.close_button = buttons.button(QDialogButtonBox.StandardButton.Close)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 16, 20, 12)
        layout.setSpacing(8)
        layout.addWidget(intro)
        layout.addWidget(path)
        layout.addWidget(self.endpoint_label)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self.resize(720, self.sizeHint().height())

    def done(self, result: int) -> None:  # Close, Esc and the title bar's button all end here
        self.endpoint_label.detach()
        super().done(result)
