"""Colours and small widgets the editor shares, taken from the palette so light and dark both read."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QWidget


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


# Palette references, so the banner follows a light or dark palette by itself.
BANNER_STYLE = ("#editorBanner { background: palette(alternate-base); border: 1px solid palette(highlight);"
                " border-radius: 4px; }")
