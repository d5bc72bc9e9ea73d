"""Rounded chips (a type, an actor) and the theme test the delegates that draw them share."""

from __future__ import annotations

import zlib

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette


def is_dark(palette: QPalette) -> bool:
    """Whether the palette is a dark theme (light text on a dark base)."""
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def chip_colours(key: str, palette: QPalette, hue: int | None = None,
                 base: QColor | None = None) -> tuple[QColor, QColor]:
    """A background and text colour for a chip, per theme: from ``base`` (a type's colour in the
    graph), else ``hue`` (0–359), else a hue derived from ``key``."""
    saturation = 1.0
    if base is not None:
        hue, saturation = max(0, base.hslHue()), base.hslSaturationF()
    elif hue is None:
        hue = zlib.crc32(key.encode("utf-8")) % 360
    if is_dark(palette):
        return (QColor.fromHsl(hue, int(120 * saturation), 62),
                QColor.fromHsl(hue, int(200 * saturation), 215))
    return QColor.fromHsl(hue, int(170 * saturation), 222), QColor.fromHsl(hue, int(190 * saturation), 62)


def mark_colour(palette: QPalette) -> QColor:
    """The background behind matched words: the selection colour, softened."""
    colour = QColor(palette.color(QPalette.ColorRole.Highlight))
    colour.setAlpha(110 if is_dark(palette) else 70)
    return colour


def draw_chip(painter: QPainter, x: int, mid_y: int, text: str, font: QFont, palette: QPalette,
              key: str | None = None, hue: int | None = None, base: QColor | None = None) -> int:
    """Draw a rounded chip with ``text`` whose left edge is ``x``; return its right edge."""
    metrics = QFontMetrics(font)
    width = metrics.horizontalAdvance(text) + 12
    height = metrics.height() + 2
    rect = QRect(x, mid_y - height // 2, width, height)
    background, foreground = chip_colours(key or text, palette, hue, base)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(background)
    painter.drawRoundedRect(QRectF(rect), height / 2, height / 2)
    painter.setFont(font)
    painter.setPen(foreground)
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()
    return rect.right()
