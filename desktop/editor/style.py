"""Colours and small widgets the editor shares, taken from the palette so light and dark both read."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def error_color(palette: QPalette) -> QColor:
    """A red that stays readable on the palette's background."""
    return QColor("#ff7b72") if is_dark(palette) else QColor("#b3261e")


def error_label(parent: QWidget) -> QLabel:
    """A hidden, word-wrapped label for a problem shown next to its field."""
    label = QLabel(parent)
    label.setWordWrap(True)
    label.setStyleSheet(f"color: {error_color(parent.palette()).name()};")
    label.setVisible(False)
    return label


def lay_out_list_section(owner: QWidget, view: QWidget, error: QLabel, buttons: Sequence[QPushButton]) -> None:
    """The editor's list sections: the list, its in-place error below it, then its buttons on the left."""
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    for button in buttons:
        row.addWidget(button)
    row.addStretch(1)
    layout = QVBoxLayout(owner)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(4)
    layout.addWidget(view, 1)
    layout.addWidget(error)
    layout.addLayout(row)


# Palette references, so the banner follows a light or dark palette by itself.
BANNER_STYLE = ("#editorBanner { background: palette(alternate-base); border: 1px solid palette(highlight);"
                " border-radius: 4px; }")
