"""Paints the activity table's cells: the client as a coloured chip, what happened as a sentence
with names in bold, rows that just arrived briefly lit, undone changes struck through."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QAbstractTextDocumentLayout, QColor, QFont, QFontMetrics, QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from desktop.activity.model import ActivityModel
from desktop.shared.chips import draw_chip, is_dark

PAD = 6


def fresh_colour(palette: QPalette) -> QColor:
    """The glow of a row that just arrived: warm, readable on light and dark bases."""
    return QColor(255, 196, 0, 70) if is_dark(palette) else QColor(255, 196, 0, 95)


class ActivityDelegate(QStyledItemDelegate):
    """One line per change; the height fits one line of text plus padding."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        size = super().sizeHint(option, index)
        return QSize(size.width(), QFontMetrics(option.font).height() + 2 * PAD + 2)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        self.initStyleOption(option, index)
        widget: QWidget | None = option.widget
        style = widget.style() if widget is not None else None
        text = option.text
        option.text = ""
        if style is not None:
            style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, widget)
        palette = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        fresh = float(index.data(ActivityModel.FreshRole) or 0.0)
        if fresh > 0 and not selected:
            glow = fresh_colour(palette)
            glow.setAlpha(int(glow.alpha() * fresh))
            painter.fillRect(option.rect, glow)
        undone = index.data(ActivityModel.UndoneRole) is not None
        colour = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        muted = QColor(colour)
        muted.setAlpha(150)
        area = option.rect.adjusted(PAD, 0, -PAD, 0)
        column = index.column()
        if column == ActivityModel.CLIENT:
            font = QFont(option.font)
            font.setPointSizeF(max(6.0, option.font.pointSizeF() * 0.9))
            metrics = QFontMetrics(font)
            label = metrics.elidedText(text, Qt.TextElideMode.ElideRight, max(20, area.width() - 14))
            painter.save()
            painter.setClipRect(option.rect)
            draw_chip(painter, area.left(), area.center().y(), label, font, palette, key=text,
                      hue=index.data(ActivityModel.HueRole))
            painter.restore()
        elif column == ActivityModel.WHAT:
            self._paint_sentence(painter, area, str(index.data(ActivityModel.HtmlRole) or ""), option.font,
                                 muted if undone else colour, undone)
        else:
            painter.save()
            painter.setPen(muted if not selected else colour)
            painter.setFont(option.font)
            painter.drawText(area, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                             QFontMetrics(option.font).elidedText(text, Qt.TextElideMode.ElideRight, area.width()))
            painter.restore()

    def _paint_sentence(self, painter: QPainter, area: QRect, sentence: str, font: QFont, colour: QColor,
                        undone: bool) -> None:
        doc = QTextDocument()
        doc.setDefaultFont(font)
        doc.setDocumentMargin(0)
        tag = ""
        if undone:
            tag = " <span style='font-size:small'>· " + self.tr("undone") + "</span>"
            sentence = f"<s>{sentence}</s>"
        doc.setHtml(f"<span style='white-space:pre'>{sentence}{tag}</span>")
        cut = doc.idealWidth() > area.width()
        ellipsis = QFontMetrics(font).horizontalAdvance("…") + 2
        painter.save()
        painter.setClipRect(area.adjusted(0, 0, -ellipsis if cut else 0, 0))
        top = area.top() + (area.height() - doc.size().height()) / 2
        painter.translate(area.left(), top)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text, colour)
        doc.documentLayout().draw(painter, context)
        painter.restore()
        if cut:  # the sentence goes on: say so rather than clip it mid-letter
            painter.save()
            painter.setPen(colour)
            painter.setFont(font)
            painter.drawText(QRect(area.right() - ellipsis, area.top(), ellipsis, area.height()),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, "…")
            painter.restore()
