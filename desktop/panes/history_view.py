"""A list of change_log rows in people's words: who (the assistant's name, you, the command line,
an import), what, and when. One editor Save or one undo shows as one line."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from desktop.models.insights import age_text

GROUP_OPS = ("save_entity", "merge_entities", "undo")


def actor_label(actor: str) -> str:
    """Who made a change, for people: 'you (this app)', 'command line', 'import' or the client's name."""
    return {"gui": HistoryView.tr("you (this app)"), "cli": HistoryView.tr("command line"),
            "import": HistoryView.tr("import")}.get(actor, actor)


def _clip(text: str, at_most: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= at_most else text[: at_most - 1] + "…"


def describe_change(row: dict[str, Any], by_id: dict[int, dict[str, Any]] | None = None) -> str:
    """What one change_log row did, in a short sentence without its author."""
    op, name = row.get("op", ""), row.get("entity") or ""
    before, after = row.get("before"), row.get("after")
    by_id = by_id or {}
    if op == "create_entity":
        return HistoryView.tr("created {name}").format(name=name)
    if op == "delete_entity":
        return HistoryView.tr("deleted {name}").format(name=name)
    if op == "restore_entity":
        return HistoryView.tr("restored {name}").format(name=name)
    if op == "archive_entity":
        return HistoryView.tr("archived {name}").format(name=name)
    if op == "unarchive_entity":
        return HistoryView.tr("brought {name} back from the archive").format(name=name)
    if op == "update_entity":
        return HistoryView.tr("updated the properties of {name}").format(name=name)
    if op == "add_observations" and isinstance(after, list):
        if len(after) == 1:
            return HistoryView.tr("added “{text}”").format(text=_clip(after[0]))
        return HistoryView.tr("added {n} observations").format(n=len(after))
    if op == "delete_observations" and isinstance(before, dict):
        gone = before.get("observations", [])
        if len(gone) == 1:
            return HistoryView.tr("deleted “{text}”").format(text=_clip(gone[0][0]))
        return HistoryView.tr("deleted {n} observations").format(n=len(gone))
    if op == "replace_observation" and isinstance(after, dict):
        return HistoryView.tr("edited an observation to “{text}”").format(text=_clip(after["observation"]))
    if op == "rename_entity" and isinstance(before, dict) and isinstance(after, dict):
        return HistoryView.tr("renamed {old} to {new}").format(old=before["name"], new=after["name"])
    if op == "set_entity_type" and isinstance(after, dict):
        return HistoryView.tr("set the type to {type}").format(type=after["entityType"])
    if op == "create_relation" and isinstance(after, list):
        return HistoryView.tr("added {src} —{type}→ {dst}").format(src=name, type=after[1], dst=after[0])
    if op in ("delete_relation", "end_relation", "reopen_relation"):
        snap = before if op == "delete_relation" else after
        if isinstance(snap, dict):
            text = {"delete_relation": HistoryView.tr("removed {src} —{type}→ {dst}"),
                    "end_relation": HistoryView.tr("ended {src} —{type}→ {dst}"),
                    "reopen_relation": HistoryView.tr("made {src} —{type}→ {dst} current again")}[op]
            return text.format(src=snap["from"], type=snap["relationType"], dst=snap["to"])
    if op == "save_entity" and isinstance(after, dict):
        parts = [describe_change(by_id[i], by_id) for i in after.get("rows", []) if i in by_id]
        return "; ".join(parts) if parts else HistoryView.tr("saved {n} changes").format(n=len(after.get("rows", [])))
    if op == "merge_entities" and isinstance(after, dict):
        return HistoryView.tr("merged {merged} into {name}").format(
            merged=", ".join(f"“{n}”" for n in after.get("merged", [])), name=name)
    if op == "undo" and isinstance(after, dict):
        undone = by_id.get(after.get("undo_of", -1))
        if undone is not None:
            return HistoryView.tr("undid: {what}").format(what=describe_change(undone, by_id))
        return HistoryView.tr("undid a change")
    return HistoryView.tr("{op} {name}").format(op=op.replace("_", " "), name=name).strip()


def grouped(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``rows`` without the ones a Save or an undo row stands for (newest first, as given)."""
    covered = {i for r in rows if r.get("op") in GROUP_OPS and isinstance(r.get("after"), dict)
               for i in r["after"].get("rows", [])}
    return [r for r in rows if r["id"] not in covered]


class WrappedRows(QStyledItemDelegate):
    """Rows as tall as their text wrapped to the list's width (Qt's own guess cut lines off)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        view = self.parent()
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        style = view.style() if isinstance(view, QWidget) else None
        margin = (style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, opt, view) + 1) * 2 if style else 6
        width = max(80, view.viewport().width() - margin - 4) if isinstance(view, QAbstractItemView) else 300
        text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        bound = opt.fontMetrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt.TextFlag.TextWordWrap, text)
        return QSize(width, bound.height() + margin)


class HistoryView(QListWidget):
    """Changes to one entity, newest first: "added 2 observations", then "claude-code · 3 minutes ago"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setAlternatingRowColors(True)
        self.setSpacing(1)
        self.setResizeMode(QListView.ResizeMode.Adjust)  # rows re-wrap when the pane's width changes
        self.setItemDelegate(WrappedRows(self))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self.scheduleDelayedItemsLayout()  # ask every row its height again at the new width

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        self.scheduleDelayedItemsLayout()  # filled while hidden (another tab): widths were a guess

    def set_rows(self, rows: list[dict[str, Any]], now: datetime | None = None) -> None:
        """Show ``rows`` (change_log rows, newest first)."""
        self.clear()
        by_id = {r["id"]: r for r in rows}
        for row in grouped(rows):
            what = describe_change(row, by_id)
            text = HistoryView.tr("{what}\n{who} · {when}").format(
                who=actor_label(row["actor"]), what=what, when=age_text(row["at"], now))
            item = QListWidgetItem(text)
            item.setToolTip(HistoryView.tr("Change #{id} by {actor} at {at}").format(
                id=row["id"], actor=row["actor"], at=row["at"].replace("T", " ")[:19]))
            item.setData(Qt.ItemDataRole.UserRole, row["id"])
            self.addItem(item)
        if not rows:
            empty = QListWidgetItem(HistoryView.tr("No changes recorded yet."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.addItem(empty)
