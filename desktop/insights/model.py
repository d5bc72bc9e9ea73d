"""Insights as a Qt list model, the delegate that paints one row, and the words the review pane shows.

``load_insights`` runs on a worker thread (through ``Core.read``): pending insights best first,
decided ones newest first, and the counts. The model only holds what came back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from core.memory import Memory
from desktop.insights.words import insight_summary, insight_title
from desktop.shared.ages import age_text

PENDING_LIMIT = 500
DECIDED_LIMIT = 300
DECIDED_STATUSES = ("approved", "dismissed", "synced")
InsightRole = Qt.ItemDataRole.UserRole + 1

Index = QModelIndex | QPersistentModelIndex


def pattern_label(pattern: str) -> str:
    """A reflect pattern's name for people: ``shared_technology`` → "Shared technology"."""
    labels = {
        "cross_project_solutions": InsightListModel.tr("Cross-project solution"),
        "shared_technology": InsightListModel.tr("Shared technology"),
        "training_opportunities": InsightListModel.tr("Training opportunity"),
        "technique_transfer": InsightListModel.tr("Technique transfer"),
        "concept_clusters": InsightListModel.tr("Concept cluster"),
        "stale_knowledge": InsightListModel.tr("Stale knowledge"),
        "under_connected_nodes": InsightListModel.tr("Under-connected nodes"),
        "duplicate_entities": InsightListModel.tr("Possible duplicates"),
        "repeated_observations": InsightListModel.tr("Repeated facts"),
        "superseded_facts": InsightListModel.tr("Updated fact"),
        "contradicting_facts": InsightListModel.tr("Facts that disagree"),
        "superseded_relations": InsightListModel.tr("Updated relation"),
    }
    return labels.get(pattern, pattern.replace("_", " ").capitalize())


def status_label(status: str) -> str:
    """A decided insight's status for people."""
    return {"pending": InsightListModel.tr("To review"), "approved": InsightListModel.tr("Approved"),
            "dismissed": InsightListModel.tr("Dismissed"),
            "synced": InsightListModel.tr("Approved, written out")}.get(status, status)


def role_label(role: str) -> str:
    """An evidence role (``open_problem``) as words ("open problem")."""
    words = {
        "open_problem": InsightListModel.tr("open problem"),
        "solved_problem": InsightListModel.tr("solved problem"),
        "project": InsightListModel.tr("project"),
        "source_project": InsightListModel.tr("source project"),
        "concept": InsightListModel.tr("concept"),
        "decision": InsightListModel.tr("decision"),
        "technology": InsightListModel.tr("technology"),
        "user": InsightListModel.tr("user"),
        "member": InsightListModel.tr("member"),
        "issue": InsightListModel.tr("issue"),
        "course": InsightListModel.tr("course"),
        "technique": InsightListModel.tr("technique"),
        "target_domain": InsightListModel.tr("target domain"),
        "home_domain": InsightListModel.tr("home domain"),
        "example": InsightListModel.tr("example"),
        "stale_node": InsightListModel.tr("stale"),
        "active": InsightListModel.tr("active"),
        "under_connected": InsightListModel.tr("under-connected"),
        "keep": InsightListModel.tr("kept"),
        "duplicate": InsightListModel.tr("duplicate"),
        "holder": InsightListModel.tr("holds the repeats"),
    }
    return words.get(role, role.replace("_", " "))


def evidence_names(insight: dict[str, Any]) -> list[str]:
    """The names of the entities an insight was built from, in the order reflect listed them."""
    entities = (insight.get("evidence") or {}).get("entities") or []
    return list(dict.fromkeys(e["name"] for e in entities if isinstance(e, dict) and e.get("name")))


@dataclass
class InsightLists:
    """What one load returned: pending (best first), decided (newest first), counts per status."""

    pending: list[dict[str, Any]]
    decided: list[dict[str, Any]]
    counts: dict[str, int]


def load_insights(memory: Memory) -> InsightLists:
    """Read every list the review pane shows (runs on a worker thread)."""
    pending = memory.surface_insights(limit=PENDING_LIMIT, status="pending")
    decided: list[dict[str, Any]] = []
    for status in DECIDED_STATUSES:
        decided.extend(memory.surface_insights(limit=DECIDED_LIMIT, status=status))
    decided.sort(key=lambda i: (i.get("decided_at") or "", i["title"]), reverse=True)
    return InsightLists(pending, decided[:DECIDED_LIMIT], memory.insight_counts())


class InsightListModel(QAbstractListModel):
    """A list of insight dicts (``Memory.surface_insights`` rows); the dict is under ``InsightRole``."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[dict[str, Any]] = []

    def set_insights(self, rows: list[dict[str, Any]]) -> None:
        """Replace every row (the pane restores the selection by title)."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[dict[str, Any]]:
        return list(self._rows)

    def insight(self, row: int) -> dict[str, Any] | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, title: str) -> int:
        """The row holding ``title``, or -1."""
        return next((i for i, r in enumerate(self._rows) if r["title"] == title), -1)

    def titles(self) -> list[str]:
        return [r["title"] for r in self._rows]

    def rowCount(self, parent: Index | None = None) -> int:  # noqa: N802 (Qt's name)
        return 0 if parent is not None and parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return insight_title(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return insight_summary(row) or insight_title(row)
        if role == InsightRole:
            return row
        return None


class InsightDelegate(QStyledItemDelegate):
    """Two lines per insight: the title, then pattern · age (or status); confidence as a bar."""

    BAR_WIDTH = 56
    PAD = 6

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:  # noqa: N802
        metrics = QFontMetrics(option.font)
        return QSize(240, metrics.height() * 2 + self.PAD * 2 + 2)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        insight = index.data(InsightRole)
        if not isinstance(insight, dict):
            return super().paint(painter, option, index)
        painter.save()
        style = option.widget.style() if option.widget is not None else None
        if style is not None:  # the selection and hover background, as the platform draws it
            bare = QStyleOptionViewItem(option)
            self.initStyleOption(bare, index)
            bare.text = ""
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, bare, painter, option.widget)
        palette = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        rect = option.rect.adjusted(self.PAD + 2, self.PAD, -self.PAD, -self.PAD)
        line = QFontMetrics(option.font).height()
        right = self._paint_right(painter, option, insight, rect, selected)

        title_font = QFont(option.font)
        title_font.setBold(True)
        title_font.setItalic(bool(insight.get("stale")))
        painter.setFont(title_font)
        painter.setPen(palette.color(text_role))
        title_rect = QRect(rect.left(), rect.top(), right - rect.left() - self.PAD, line)
        title = QFontMetrics(title_font).elidedText(insight_title(insight), Qt.TextElideMode.ElideRight,
                                                    title_rect.width())
        painter.drawText(title_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, title)

        parts = [pattern_label(insight.get("pattern", ""))]
        if insight.get("status") == "pending":
            parts.append(age_text(insight.get("created_at")))
            if insight.get("stale"):
                parts.append(InsightListModel.tr("evidence changed"))
        else:
            parts.append(age_text(insight.get("decided_at")))
        painter.setFont(option.font)
        muted = palette.color(text_role)
        if not selected:
            muted = palette.color(QPalette.ColorRole.PlaceholderText)
        painter.setPen(muted)
        sub_rect = QRect(rect.left(), rect.top() + line + 2, right - rect.left() - self.PAD, line)
        sub = QFontMetrics(option.font).elidedText(" · ".join(p for p in parts if p), Qt.TextElideMode.ElideRight,
                                                   sub_rect.width())
        painter.drawText(sub_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, sub)
        painter.restore()

    def _paint_right(self, painter: QPainter, option: QStyleOptionViewItem, insight: dict[str, Any],
                     rect: QRect, selected: bool) -> int:
        """Confidence bar and percentage (pending) or the status word (decided); returns its left edge."""
        palette = option.palette
        metrics = QFontMetrics(option.font)
        text_color = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        if insight.get("status") != "pending":
            word = status_label(insight.get("status", ""))
            width = metrics.horizontalAdvance(word) + 4
            painter.setPen(text_color if selected or insight.get("status") != "dismissed"
                           else palette.color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(QRect(rect.right() - width, rect.top(), width, rect.height()),
                             Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, word)
            return rect.right() - width
        confidence = float(insight.get("confidence") or 0.0)
        percent = f"{round(confidence * 100)} %"
        text_w = metrics.horizontalAdvance("100 %") + 2
        left = rect.right() - self.BAR_WIDTH - text_w - 6
        bar = QRect(left, rect.center().y() - 3, self.BAR_WIDTH, 6)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        track = palette.color(QPalette.ColorRole.Mid)
        track.setAlpha(110)
        painter.setBrush(track)
        painter.drawRoundedRect(bar, 3, 3)
        fill = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight)
        painter.setBrush(fill)
        painter.drawRoundedRect(QRect(bar.left(), bar.top(), max(6, int(bar.width() * confidence)), bar.height()), 3, 3)
        painter.setPen(text_color)
        painter.drawText(QRect(bar.right() + 6, rect.top(), text_w, rect.height()),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, percent)
        return left
