"""One way for the dialogs to say how something went: a sentence in a label, coloured for success,
error or plain information in tones readable on the light and the dark palette alike."""

from __future__ import annotations

from typing import Literal

from PySide6.QtGui import QColor, QFont, QFontDatabase, QPalette
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

Tone = Literal["info", "success", "error", "muted"]

# (on a light window, on a dark window): dark enough on white, light enough on near-black
_TONES: dict[str, tuple[str, str]] = {
    "success": ("#1b6e2a", "#7fd18b"),
    "error": ("#b3261e", "#ff9a8f"),
}


def is_dark(widget: QWidget) -> bool:
    """Whether ``widget`` is drawn on a dark background."""
    return widget.palette().color(QPalette.ColorRole.Window).lightness() < 128


def tone_color(widget: QWidget, tone: Tone) -> QColor:
    """The text colour for ``tone`` on ``widget``'s palette."""
    if tone in _TONES:
        light, dark = _TONES[tone]
        return QColor(dark if is_dark(widget) else light)
    text = widget.palette().color(QPalette.ColorRole.WindowText)
    if tone == "muted":  # halfway to the background: secondary, still readable
        window = widget.palette().color(QPalette.ColorRole.Window)
        return QColor((text.red() * 2 + window.red()) // 3, (text.green() * 2 + window.green()) // 3,
                      (text.blue() * 2 + window.blue()) // 3)
    return text


def show_feedback(label: QLabel, text: str, tone: Tone = "info") -> None:
    """Put ``text`` in ``label`` in the colour of ``tone`` (an empty text hides the label)."""
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, tone_color(label.parentWidget() or label, tone))
    label.setPalette(palette)
    label.setText(text)
    label.setVisible(bool(text))


def monospace_font() -> QFont:
    """The system's fixed-width font, for paths, commands and configuration."""
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


def heading_font(widget: QWidget, scale: float = 1.6, bold: bool = True) -> QFont:
    """``widget``'s font, larger (and bold) for a title."""
    font = QFont(widget.font())
    font.setPointSizeF(font.pointSizeF() * scale)
    font.setBold(bold)
    return font


def section_heading(title: str, parent: QWidget) -> QWidget:
    """A small bold heading with a rule under it, to open a section of a dialog."""
    box = QWidget(parent)
    label = QLabel(title)
    label.setFont(heading_font(parent, 1.1))
    rule = QFrame()
    rule.setFrameShape(QFrame.Shape.HLine)
    rule.setFrameShadow(QFrame.Shadow.Sunken)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(2)
    layout.addWidget(label)
    layout.addWidget(rule)
    return box
