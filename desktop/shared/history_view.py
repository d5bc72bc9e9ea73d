"""A list of change_log rows in people's words: who (the assistant's name, you, the command line,
an import), what, and when. One editor Save or one undo shows as one line."""

from __future__ import annotations

from datetime import datetime

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

from core.change_words import Words, words
from core.model import Change
from desktop.shared.ages import age_text


def actor_label(actor: str) -> str:
    """Who made a change, for people: 'you (this app)', 'command line', 'import' or the client's name."""
    return {"gui": HistoryView.tr("you (this app)"), "cli": HistoryView.tr("command line"),
            "import": HistoryView.tr("import")}.get(actor, actor)


def _clip(text: str, at_most: int = 48) -> str:
    text = " ".join(text.split())
    return text if len(text) <= at_most else text[: at_most - 1] + "…"


def describe_change(row: Change, by_id: dict[int, Change] | None = None) -> str:
    """What one change_log row did, in a short sentence without its author."""
    return say(words(row, by_id))


def say(wd: Words) -> str:  # noqa: C901 - one sentence per kind of change
    """``wd`` (the core's reading of a change) in this language, for one entity's history."""
    n, v, count = wd.names, wd.values, wd.count or 0
    key = wd.key
    if key in ("added_one", "removed_one", "edited_observation"):
        template = {"added_one": HistoryView.tr("added “{text}”"), "removed_one": HistoryView.tr("deleted “{text}”"),
                    "edited_observation": HistoryView.tr("edited an observation to “{text}”")}[key]
        return template.format(text=_clip(v["text"]))
    if key in ("added_many", "removed_many"):
        template = (HistoryView.tr("added {n} observations") if key == "added_many"
                    else HistoryView.tr("deleted {n} observations"))
        return template.format(n=count)
    if key == "renamed":
        return HistoryView.tr("renamed {old} to {new}").format(old=n["old"], new=n["new"])
    if key == "retyped":
        return HistoryView.tr("set the type to {type}").format(type=v["new"])
    if key in ("create_relation", "delete_relation", "end_relation", "reopen_relation", "update_relation") \
            and n["dst"] != "?":
        template = {"create_relation": HistoryView.tr("added {src} —{type}→ {dst}"),
                    "update_relation": HistoryView.tr("changed the properties of {src} —{type}→ {dst}"),
                    "delete_relation": HistoryView.tr("removed {src} —{type}→ {dst}"),
                    "end_relation": HistoryView.tr("ended {src} —{type}→ {dst}"),
                    "reopen_relation": HistoryView.tr("made {src} —{type}→ {dst} current again")}[key]
        return template.format(src=n["src"], type=v["type"], dst=n["dst"])
    if key == "saved":
        parts = [say(p) for p in wd.parts]
        return "; ".join(parts) if parts else HistoryView.tr("saved {n} changes").format(n=count)
    if key == "merged":
        return HistoryView.tr("merged {merged} into {name}").format(
            merged=", ".join(f"“{m}”" for m in v.get("merged", [])), name=n["name"])
    if key in ("undid", "redid") and wd.inner is not None:
        what = say(wd.inner)
        if key == "redid":  # the undo of an undo: it undid the undo
            what = HistoryView.tr("undid: {what}").format(what=what)
        return HistoryView.tr("undid: {what}").format(what=what)
    if key == "undid_unknown":
        return HistoryView.tr("undid a change")
    simple = {"created": HistoryView.tr("created {name}"), "created_typed": HistoryView.tr("created {name}"),
              "deleted": HistoryView.tr("deleted {name}"),
              "restore_entity": HistoryView.tr("restored {name}"), "archive_entity": HistoryView.tr("archived {name}"),
              "unarchive_entity": HistoryView.tr("brought {name} back from the archive"),
              "updated": HistoryView.tr("updated the properties of {name}"),
              "updated_retyped": HistoryView.tr("updated the properties of {name}")}
    name = n.get("name", n.get("src", ""))
    if key in simple:
        return simple[key].format(name=name)
    return HistoryView.tr("{op} {name}").format(op=wd.op.replace("_", " "), name=name).strip()


def grouped(rows: list[Change]) -> list[Change]:
    """``rows`` without the ones a Save or an undo row stands for (newest first, as given)."""
    covered = {i for r in rows for i in r.members}
    return [r for r in rows if r.id not in covered]


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

    def set_rows(self, rows: list[Change], now: datetime | None = None) -> None:
        """Show ``rows`` (change_log rows, newest first)."""
        self.clear()
        by_id = {r.id: r for r in rows}
        for row in grouped(rows):
            what = describe_change(row, by_id)
            text = HistoryView.tr("{what}\n{who} · {when}").format(
                who=actor_label(row.actor), what=what, when=age_text(row.at, now))
            item = QListWidgetItem(text)
            item.setToolTip(HistoryView.tr("Change #{id} by {actor} at {at}").format(
                id=row.id, actor=row.actor, at=row.at.replace("T", " ")[:19]))
            item.setData(Qt.ItemDataRole.UserRole, row.id)
            self.addItem(item)
        if not rows:
            empty = QListWidgetItem(HistoryView.tr("No changes recorded yet."))
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.addItem(empty)
