"""The banner that says someone else changed (or deleted) the entity while you were editing."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from desktop.editor.style import BANNER_STYLE


class ConflictBanner(QFrame):
    """"Changed by claude-code while you were editing" with Reload (discard mine) and Merge."""

    reload_requested = Signal()
    merge_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("editorBanner")
        self.title = QLabel(self)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.title.setWordWrap(True)
        self.detail = QLabel(self)
        self.detail.setWordWrap(True)
        self.reload_button = QPushButton(self.tr("Reload (discard mine)"), self)
        self.reload_button.setToolTip(self.tr("Throw away your unsaved edits and show the entity as it is now"))
        self.merge_button = QPushButton(self.tr("Merge"), self)
        self.merge_button.setToolTip(self.tr("Keep your edits, re-applied on top of the new state; "
                                             "then review and save"))
        self.reload_button.clicked.connect(self.reload_requested.emit)
        self.merge_button.clicked.connect(self.merge_requested.emit)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addStretch(1)
        buttons.addWidget(self.reload_button)
        buttons.addWidget(self.merge_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addWidget(self.title)
        layout.addWidget(self.detail)
        layout.addLayout(buttons)
        self.setStyleSheet(BANNER_STYLE)
        self.hide()

    def show_change(self, who: str, what: str, *, deleted: bool = False) -> None:
        """Say who changed the entity and what; a deletion cannot be merged."""
        if deleted:
            self.title.setText(self.tr("Deleted by {who} while you were editing").format(who=who))
        else:
            self.title.setText(self.tr("Changed by {who} while you were editing").format(who=who))
        self.detail.setText(what)
        self.detail.setVisible(bool(what))
        self.merge_button.setVisible(not deleted)
        self.show()
