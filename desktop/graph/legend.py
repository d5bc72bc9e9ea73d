"""The graph pane's legend: which colour is which type, and how many entities of each."""

from __future__ import annotations

from PySide6.QtCore import QLocale, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QMouseEvent, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from desktop.shared.type_colours import type_colour  # a type has one colour in every pane

MAX_ROWS = 12  # more types than this are summed up in one last row


class GraphLegend(QWidget):
    """A small panel beside the graph (in its own column, so it never covers a node): a coloured
    dot, the type, its count; click a type to ask for it (the pane shows an overview of that type)."""

    type_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, int]] = []
        self._rest = (0, 0)  # types and entities not listed
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip(self.tr("Click a type to see its best-connected entities"))

    def set_counts(self, counts: dict[str, int]) -> None:
        """Show ``counts`` (type → entities), largest first."""
        ordered = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        self._rows = ordered[:MAX_ROWS]
        rest = ordered[MAX_ROWS:]
        self._rest = (len(rest), sum(n for _, n in rest))
        self.setVisible(bool(ordered))
        self.updateGeometry()
        self.adjustSize()
        self.update()

    def types(self) -> list[str]:
        return [t for t, _ in self._rows]

    def _lines(self) -> list[tuple[str | None, str, str]]:
        locale = QLocale()
        lines: list[tuple[str | None, str, str]] = [(t, t, locale.toString(n)) for t, n in self._rows]
        if self._rest[0]:
            lines.append((None, self.tr("{count} more types").format(count=locale.toString(self._rest[0])),
                          locale.toString(self._rest[1])))
        return lines

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        metrics = QFontMetrics(self.font())
        lines = self._lines()
        if not lines:
            return QSize(0, 0)
        name_w = max(metrics.horizontalAdvance(name) for _, name, _ in lines)
        count_w = max(metrics.horizontalAdvance(count) for _, _, count in lines)
        row = metrics.height() + 4
        return QSize(12 + 14 + name_w + 14 + count_w + 12, 10 + row * len(lines) + 6)

    def _row_height(self) -> int:
        return QFontMetrics(self.font()).height() + 4

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        back = QColor(palette.color(QPalette.ColorRole.Window))
        back.setAlpha(225)
        border = QColor(palette.color(QPalette.ColorRole.Text))
        border.setAlpha(40)
        painter.setPen(border)
        painter.setBrush(back)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6)
        metrics = QFontMetrics(self.font())
        row = self._row_height()
        muted = QColor(palette.color(QPalette.ColorRole.Text))
        muted.setAlpha(150)
        y = 8
        for etype, name, count in self._lines():
            if etype is not None:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(type_colour(etype))
                painter.drawEllipse(QRectF(12, y + (row - 10) / 2, 10, 10))
            painter.setPen(palette.color(QPalette.ColorRole.Text) if etype is not None else muted)
            painter.drawText(12 + 16, y + metrics.ascent() + 2, name)
            painter.setPen(muted)
            painter.drawText(self.width() - 12 - metrics.horizontalAdvance(count), y + metrics.ascent() + 2, count)
            y += row

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        index = int((event.position().y() - 8) // self._row_height())
        if 0 <= index < len(self._rows):
            self.type_clicked.emit(self._rows[index][0])
        event.accept()
