"""What the graph view draws: nodes coloured by type and their labels (relations are one path,
drawn by the view).

Drawn cheaply on purpose (measured for 2,000 nodes and 4,000 relations): plain Qt discs without
outlines, no shadows or gradients, labels that ignore the zoom so text stays crisp.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

# Mid-tone colours that stay readable on a light and on a dark background alike. The base
# Engrama labels always get the same colour; other types get one of the rest by a stable hash.
TYPE_COLOURS: dict[str, str] = {
    "Project": "#4c8df6",
    "Concept": "#a070e0",
    "Person": "#e96aa1",
    "Technology": "#22b3a0",
    "Decision": "#f29b38",
    "Problem": "#e5534b",
    "Domain": "#7fb13a",
    "Client": "#d6b02a",
    "Insight": "#4fc3f7",
    "Generic": "#9aa3ad",
}
_OTHER_COLOURS = ("#6f8fd8", "#c77ddb", "#52b96b", "#e0875a", "#3fb8c9", "#b58c6b", "#d46a8f", "#8c9be8",
                  "#c4a23a", "#5fa8a0")
MAX_LABEL_CHARS = 32


def type_colour(entity_type: str) -> QColor:
    """The colour of ``entity_type``: fixed for the common types, stable for any other."""
    known = TYPE_COLOURS.get(entity_type)
    if known is not None:
        return QColor(known)
    return QColor(_OTHER_COLOURS[zlib.crc32(entity_type.encode("utf-8")) % len(_OTHER_COLOURS)])


@dataclass
class GraphStyle:
    """Colours taken from the widget's palette, so light and dark themes both read well."""

    background: QColor
    text: QColor
    edge: QColor
    edge_strong: QColor
    ring: QColor
    highlight: QColor
    label_back: QColor

    @classmethod
    def from_palette(cls, palette: QPalette) -> GraphStyle:
        base = palette.color(QPalette.ColorRole.Base)
        text = palette.color(QPalette.ColorRole.Text)
        dark = base.lightness() < 128
        edge = QColor(text)
        edge.setAlpha(60 if dark else 55)
        strong = QColor(palette.color(QPalette.ColorRole.Highlight))
        strong.setAlpha(230)
        label_back = QColor(base)
        label_back.setAlpha(200)
        return cls(base, text, edge, strong, base, palette.color(QPalette.ColorRole.Highlight), label_back)


def node_radius(degree: int, focus: bool) -> float:
    """Bigger for better-connected nodes, growing slowly so hubs don't swamp the picture."""
    radius = 6.0 + 2.0 * min(degree, 60) ** 0.5
    return radius * 1.25 if focus else radius


class NodeItem:
    """One entity: a plain disc in its type's colour (a plain Qt item, so painting never calls back
    into Python) and its label, which is drawn above every disc."""

    def __init__(self, name: str, entity_type: str, degree: int, style: GraphStyle, focus: bool = False) -> None:
        self.name = name
        self.entity_type = entity_type
        self.degree = degree
        self.focus = focus
        self.selected = False
        self.disc = QGraphicsEllipseItem()
        self.disc.setData(0, name)
        self.disc.setZValue(2)
        self.disc.setCursor(Qt.CursorShape.PointingHandCursor)
        self.disc.setToolTip(QCoreApplication.translate("GraphPane", "{name}\n{type}").format(
            name=name, type=entity_type))
        self.label = LabelItem(name, self)
        self.restyle(style)

    def add_to(self, scene: QGraphicsScene) -> None:
        scene.addItem(self.disc)
        scene.addItem(self.label)

    def remove_from(self, scene: QGraphicsScene) -> None:
        scene.removeItem(self.disc)
        scene.removeItem(self.label)

    def pos(self) -> QPointF:
        return self.disc.pos()

    def set_pos(self, point: QPointF) -> None:
        self.disc.setPos(point)
        self.label.follow()

    def radius(self) -> float:
        return self.disc.rect().width() / 2

    def restyle(self, style: GraphStyle) -> None:
        radius = node_radius(self.degree, self.focus)
        self.disc.setRect(QRectF(-radius, -radius, 2 * radius, 2 * radius))
        self.disc.setBrush(QBrush(type_colour(self.entity_type)))
        if self.selected:  # measured: a ring round every disc costs a third of the frame rate
            ring = QPen(style.highlight, 3.0)
            ring.setCosmetic(True)
            self.disc.setPen(ring)
        else:
            self.disc.setPen(Qt.PenStyle.NoPen)
        self.disc.setZValue(3 if self.selected else 2)
        self.label.restyle(style, bold=self.focus or self.selected)


_FONTS: dict[bool, tuple[QFont, QFontMetricsF]] = {}


def _label_font(bold: bool) -> tuple[QFont, QFontMetricsF]:
    """The labels' font (a little smaller than the application's) and its metrics, made once."""
    if bold not in _FONTS:
        font = QFont()
        font.setPointSizeF(max(8.0, font.pointSizeF() - 0.5))
        font.setBold(bold)
        _FONTS[bold] = (font, QFontMetricsF(font))
    return _FONTS[bold]


class LabelItem(QGraphicsItem):
    """A node's name under it, at a fixed size on screen, on a soft plate so lines don't cross it."""

    def __init__(self, text: str, owner: NodeItem) -> None:
        super().__init__()
        self.owner = owner
        self.full_text = text
        self.text = text if len(text) <= MAX_LABEL_CHARS else text[: MAX_LABEL_CHARS - 1] + "…"
        self.wanted = False  # shown at this zoom level (the view decides)
        self.hovered = False
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._font = QFont()
        self._text_colour = QColor()
        self._back = QColor()
        self._rect = QRectF()
        self.above = False  # placed over the disc, when below it would cover another label
        self.setVisible(False)

    def restyle(self, style: GraphStyle, *, bold: bool) -> None:
        self.prepareGeometryChange()
        self._font, metrics = _label_font(bold)
        width = metrics.horizontalAdvance(self.text) + 8
        height = metrics.height() + 2
        self._rect = QRectF(-width / 2, -3 - height if self.above else 3, width, height)
        self._text_colour = style.text
        self._back = style.label_back
        self.setZValue(5)
        self.follow()

    def follow(self) -> None:
        """Hang just below (or sit just above) the owner's disc; the radius is in scene units, so
        the gap scales with the zoom while the text does not."""
        pos = self.owner.disc.pos()
        radius = self.owner.disc.rect().bottom()
        self.setPos(pos.x(), pos.y() - radius if self.above else pos.y() + radius)

    def place(self, above: bool) -> None:
        """Put the label above or below its disc."""
        if above != self.above:
            self.prepareGeometryChange()
            self.above = above
            height = self._rect.height()
            self._rect.moveTop(-3 - height if above else 3)
            self.follow()

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        return self._rect

    def size_on_screen(self) -> tuple[float, float]:
        """Width and height in pixels (the label ignores zoom), with the gap to the disc."""
        return self._rect.width(), self._rect.height() + 3

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self._back)
        painter.drawRoundedRect(self._rect, 4, 4)
        painter.setFont(self._font)
        painter.setPen(self._text_colour)
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)
