"""A page with one message and one button: nothing open yet, or the entity was deleted."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget


class MessagePage(QWidget):
    """A centred, wrapped message with a button under it (``button.clicked``)."""

    def __init__(self, text: str, button: str, tooltip: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(text, self)
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.button = QPushButton(button, self)
        self.button.setToolTip(tooltip)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.label)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignHCenter)
        layout.addStretch(2)
