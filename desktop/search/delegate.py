"""Paints one search result: name, type chip and score on the first line, the snippet below,
matched words marked. Colours come from the palette, so light and dark themes both read well."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from desktop.search.model import SearchHit, SearchResultsModel, Span
from desktop.shared.chips import draw_chip, mark_colour
from desktop.shared.type_colours import type_colour  # a type has one colour in every pane

PAD = 8
GAP = 6
SCORE_BAR = 44


def draw_marked(painter: QPainter, rect: QRect, text: str, spans: list[Span], font: QFont,
                colour: QColor, mark: QColor) -> None:
    """Draw ``text`` on one line in ``rect``, spans on a marked background and in bold, cut with
    "…" where it no longer fits."""
    bold = QFont(font)
    bold.setBold(True)
    pieces: list[tuple[str, bool]] = []
    at = 0
    for start, length in spans:
        if start > at:
            pieces.append((text[at:start], False))
        pieces.append((text[start:start + length], True))
        at = start + length
    if at < len(text):
        pieces.append((text[at:], False))
    x = rect.left()
    painter.save()
    painter.setPen(colour)
    for piece, marked in pieces:
        piece_font = bold if marked else font
        metrics = QFontMetrics(piece_font)
        room = rect.left() + rect.width() - x
        shown = piece
        if metrics.horizontalAdvance(piece) > room:
            # Only what does not fit is cut: a last letter that fits is drawn, never dropped for
            # want of room for an ellipsis it does not need ("Nginx" was shown as "Ngin").
            if room <= metrics.horizontalAdvance("…"):
                break
            shown = metrics.elidedText(piece, Qt.TextElideMode.ElideRight, room)
        width = metrics.horizontalAdvance(shown)
        box = QRect(x, rect.top(), width, rect.height())
        if marked and shown != "…" and width > 0:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(mark)
            painter.drawRoundedRect(QRectF(box).adjusted(-1, 1, 1, -1), 3, 3)
            painter.setPen(colour)
        painter.setFont(piece_font)
        # No clipping to the advance: a bold glyph may reach past it by a pixel or two
        painter.drawText(box, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
                         | Qt.TextFlag.TextDontClip, shown)
        x += width
        if shown != piece:
            break
    painter.restore()


class SnippetDelegate(QStyledItemDelegate):
    """Two lines per result; the score as a small bar with its number (meaning mode only)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        line = QFontMetrics(option.font).height()
        return QSize(240, 2 * line + 2 * PAD + 4)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        hit: SearchHit | None = index.data(SearchResultsModel.HitRole)
        if hit is None:
            super().paint(painter, option, index)
            return
        self.initStyleOption(option, index)
        option.text = ""
        widget: QWidget | None = option.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawPrimitive(QStyle.PrimitiveElement.PE_PanelItemViewItem, option, painter, widget)
        palette = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text_colour = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        muted = QColor(text_colour)
        muted.setAlpha(170)
        mark = mark_colour(palette) if not selected else QColor(0, 0, 0, 0)

        area = option.rect.adjusted(PAD, PAD // 2 + 2, -PAD, -PAD // 2 - 2)
        line = QFontMetrics(option.font).height()
        top = QRect(area.left(), area.top(), area.width(), line + 2)
        small = QFont(option.font)
        small.setPointSizeF(max(6.0, option.font.pointSizeF() * 0.85))

        right = top.right()
        if hit.score is not None:
            right = self._draw_score(painter, top, hit.score, index.data(SearchResultsModel.TopScoreRole) or 1.0,
                                     small, muted, palette, selected)
        name_font = QFont(option.font)
        name_font.setBold(True)
        chip_text = hit.entity_type
        chip_width = QFontMetrics(small).horizontalAdvance(chip_text) + 12
        room = right - top.left() - GAP
        name_width = QFontMetrics(name_font).horizontalAdvance(hit.name) + 4
        chip_on_top = name_width + GAP + chip_width <= room  # else the chip leads the second line
        name_width = min(name_width, room)
        draw_marked(painter, QRect(top.left(), top.top(), name_width, top.height()), hit.name, hit.name_spans,
                    name_font, text_colour, mark)
        second = QRect(area.left(), top.bottom() + 3, area.width(), line + 2)
        if chip_on_top:
            draw_chip(painter, top.left() + name_width + GAP, top.center().y(), chip_text, small, palette,
                      base=type_colour(chip_text))
        elif chip_width < second.width() // 2:
            draw_chip(painter, second.left(), second.center().y(), chip_text, small, palette,
                      base=type_colour(chip_text))
            second.setLeft(second.left() + chip_width + GAP)

        snippet_colour = text_colour if selected else muted
        if hit.snippet:
            draw_marked(painter, second, hit.snippet, hit.snippet_spans, option.font, snippet_colour, mark)
        else:
            italic = QFont(option.font)
            italic.setItalic(True)
            painter.save()
            painter.setFont(italic)
            painter.setPen(muted)
            painter.drawText(second, Qt.AlignmentFlag.AlignVCenter, self.tr("no observations yet"))
            painter.restore()

    @staticmethod
    def _draw_score(painter: QPainter, line: QRect, score: float, top_score: float, font: QFont,
                    colour: QColor, palette: QPalette, selected: bool) -> int:
        """Draw the number and a bar at the right end; return the x where they begin. The score is
        a calibrated relevance (0–1): the bar is its share, comparable between searches."""
        metrics = QFontMetrics(font)
        label = f"{score:.2f}"
        label_width = metrics.horizontalAdvance("0.00") + 2
        label_rect = QRect(line.right() - label_width, line.top(), label_width, line.height())
        bar = QRect(label_rect.left() - GAP - SCORE_BAR, line.center().y() - 2, SCORE_BAR, 5)
        fill = QColor(palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight))
        track = QColor(palette.color(QPalette.ColorRole.Mid))
        track.setAlpha(90)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(track)
        painter.drawRoundedRect(QRectF(bar), 2.5, 2.5)
        share = max(0.05, min(1.0, score))
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(bar.left(), bar.top(), bar.width() * share, bar.height()), 2.5, 2.5)
        painter.setFont(font)
        painter.setPen(colour)
        painter.drawText(label_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, label)
        painter.restore()
        return bar.left() - GAP
