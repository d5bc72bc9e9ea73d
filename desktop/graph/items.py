"""What the graph view draws: nodes coloured by type and their labels (relations are one path,
drawn by the view).

Drawn cheaply on purpose (measured for 2,000 nodes and 4,000 relations): plain Qt discs without
outlines, no shadows or gradients, labels that ignore the zoom so text stays crisp.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QLocale, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QGraphicsEllipseItem,
    QGraphicsItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from desktop.graph.layout import group_radius
from desktop.shared.type_colours import type_colour

MAX_LABEL_CHARS = 32

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


def node_radius(degree: int, focus: bool, group: int = 0) -> float:
    """Bigger for better-connected nodes, growing slowly so hubs don't swamp the picture; a
    community's disc by its size (its area grows a little slower than its membership)."""
    if group:
        return group_radius(group)
    radius = 6.0 + 2.0 * min(degree, 60) ** 0.5
    return radius * 1.25 if focus else radius




class NodeItem:
    """One entity: a plain disc in its type's colour (a plain Qt item, so painting never calls back
    into Python) and its label, which is drawn above every disc."""

    def __init__(self, name: str, entity_type: str, degree: int, style: GraphStyle, focus: bool = False,
                 group: int = 0, group_types: dict[str, int] | None = None) -> None:
        self.name = name
        self.entity_type = entity_type
        self.degree = degree
        self.focus = focus
        self.group = group  # a community of this many entities, named after ``name`` (0: an entity)
        self.group_types = dict(group_types or {})  # …its members by type: slices of its disc
        self._slices: list[QGraphicsEllipseItem] = []
        self.selected = False
        self.disc = QGraphicsEllipseItem()
        self.disc.setData(0, name)
        self.disc.setZValue(2)
        self.disc.setCursor(Qt.CursorShape.PointingHandCursor)
        self.label = LabelItem(self._label_text(), self)
        self._tip()
        self.restyle(style)

    def _slice(self, radius: float) -> None:
        """A community's disc as a pie of its members' types (the commonest few; the rest grey)."""
        for item in self._slices:
            item.setParentItem(None)
            if item.scene() is not None:
                item.scene().removeItem(item)
        self._slices = []
        total = sum(self.group_types.values())
        if not self.group or total <= 0 or len(self.group_types) < 2:
            return
        start = 90 * 16  # from twelve o'clock, clockwise
        for etype, count in sorted(self.group_types.items(), key=lambda kv: (-kv[1], kv[0])):
            span = round(-count / total * 360 * 16)
            if not span:
                continue
            item = QGraphicsEllipseItem(QRectF(-radius, -radius, 2 * radius, 2 * radius), self.disc)
            item.setStartAngle(start)
            item.setSpanAngle(span)
            item.setBrush(QBrush(type_colour(etype)))
            item.setPen(Qt.PenStyle.NoPen)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            item.setAcceptHoverEvents(False)
            self._slices.append(item)
            start += span

    def _label_text(self) -> str:
        if not self.group:
            return self.name
        return QCoreApplication.translate("GraphPane", "{name} · {count}").format(
            name=_elide(self.name, MAX_LABEL_CHARS - 8), count=QLocale().toString(self.group))

    def _tip(self) -> None:
        if self.group:
            tip = QCoreApplication.translate("GraphPane", "A group of {count} related entities around {name}, "
                                             "mostly {type}\nDouble-click to open it").format(
                count=QLocale().toString(self.group), name=self.name, type=self.entity_type)
        else:
            tip = QCoreApplication.translate("GraphPane", "{name}\n{type}").format(
                name=self.name, type=self.entity_type)
        self.disc.setToolTip(tip)

    def rename(self, name: str) -> None:
        """The entity is called ``name`` now: its key, label and tooltip follow."""
        self.name = name
        self.disc.setData(0, name)
        self.label.set_text(self._label_text())
        self._tip()

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
        radius = node_radius(self.degree, self.focus, self.group)
        self.disc.setRect(QRectF(-radius, -radius, 2 * radius, 2 * radius))
        self.disc.setBrush(QBrush(type_colour(self.entity_type)))
        self._slice(radius)
        if self.selected:  # measured: a ring round every disc costs a third of the frame rate
            ring = QPen(style.highlight, 3.0)
            ring.setCosmetic(True)
            self.disc.setPen(ring)
        else:
            self.disc.setPen(Qt.PenStyle.NoPen)
        self.disc.setZValue(3 if self.selected else 2)
        self.label.restyle(style, bold=self.focus or self.selected)


def _elide(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def label_height() -> float:
    """A label's height on screen with its gap to the disc (pixels)."""
    return _label_font(False)[1].height() + 5


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
        self.text = _elide(text, MAX_LABEL_CHARS)
        self.shift = 0.0  # pixels sideways, so a name by the view's edge stays whole
        self._bold = False
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

    def set_text(self, text: str) -> None:
        self.full_text = text
        self.text = _elide(text, MAX_LABEL_CHARS)
        self._measure()
        self.update()

    def restyle(self, style: GraphStyle, *, bold: bool) -> None:
        self._bold = bold
        self._measure()
        self._text_colour = style.text
        self._back = style.label_back
        self.setZValue(5)
        self.follow()

    def _measure(self) -> None:
        self.prepareGeometryChange()
        self._font, metrics = _label_font(self._bold)
        width = metrics.horizontalAdvance(self.text) + 8
        height = metrics.height() + 2
        self._rect = QRectF(-width / 2 + self.shift, -3 - height if self.above else 3, width, height)

    def follow(self) -> None:
        """Hang just below (or sit just above) the owner's disc; the radius is in scene units, so
        the gap scales with the zoom while the text does not."""
        pos = self.owner.disc.pos()
        radius = self.owner.disc.rect().bottom()
        self.setPos(pos.x(), pos.y() - radius if self.above else pos.y() + radius)

    def place(self, above: bool, shift: float = 0.0) -> None:
        """Put the label above or below its disc, ``shift`` pixels sideways."""
        if above != self.above or shift != self.shift:
            self.prepareGeometryChange()
            self.above, self.shift = above, shift
            height = self._rect.height()
            self._rect.moveTop(-3 - height if above else 3)
            self._rect.moveLeft(-self._rect.width() / 2 + shift)
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
