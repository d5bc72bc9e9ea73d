"""How to connect one assistant: its snippet (to copy) and a button that adds Hipocampo to its
configuration file, with the outcome told in a sentence right below."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QTextOption
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from core.clients import TITLES, ClientConfigError, InstallResult, config_path, display_path, install_into, snippet
from desktop.dialogs.feedback import monospace_font, show_feedback

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
