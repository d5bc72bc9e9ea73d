"""A long observation in a window of its own: all of it, read-only, without freezing the app.

Qt lays out a paragraph as one piece: one of several megabytes froze the window for seconds. The
viewer shows the text in lines of a few thousand characters (broken at spaces where it can), and
Copy puts the exact text, unbroken, on the clipboard.
"""

from __future__ import annotations

from PySide6.QtCore import QLocale
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

LINE_CHARS = 2000


def display_lines(text: str, width: int = LINE_CHARS) -> str:
    """``text`` with every line longer than ``width`` broken (at a space when one is near) for display."""
    out: list[str] = []
    for line in text.split("\n"):
        start = 0  # indexes, not slices of the rest: one line can be megabytes long
        while len(line) - start > width:
            cut = line.rfind(" ", start + width // 2, start + width)
            cut = cut + 1 if cut > 0 else start + width
            out.append(line[start:cut])
            start = cut
        out.append(line[start:])
    return "\n".join(out)


class ObservationViewer(QDialog):
    """The whole of one observation, to read and copy."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.text = text
        self.setWindowTitle(self.tr("Observation"))
        size = QLocale().formattedDataSize(len(text.encode("utf-8")))
        self.about = QLabel(self.tr("{size}, {chars} characters. Long lines are shown broken; Copy copies "
                                    "the text as it is stored.").format(size=size, chars=QLocale().toString(len(text))))
        self.about.setWordWrap(True)
        self.body = QPlainTextEdit(self)
        self.body.setReadOnly(True)
        self.body.setPlainText(display_lines(text))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = buttons.addButton(self.tr("Copy"), QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.on_copy)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.about)
        layout.addWidget(self.body, 1)
        layout.addWidget(buttons)
        self.resize(760, 560)

    def on_copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text)
