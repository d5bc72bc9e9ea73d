"""What the assistants wrote, as a Qt table model: when, which client, what happened in words.

Rows are ``change_log`` rows from ``Memory.activity`` (newest first) and the change feed. A
grouped change (one editor Save, one undo) shows as one row; the rows it groups are kept out of
sight and only lend their words to its tooltip.
"""

from __future__ import annotations

import html
import time
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QDate, QDateTime, QLocale, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor

from core.change_words import Words, words
from core.model import Change
from desktop.shared.history_view import actor_label  # one wording of who wrote, shared with the editor

Row = Change
Index = QModelIndex | QPersistentModelIndex

#: bookkeeping the core keeps for reflect and insight review: not something to take back from here
NOT_UNDOABLE = frozenset({"reflect", "decay_confidence", "create_insight", "decide_insight", "mark_insight_stale",
                          "recall"})
RECALL = "recall"  # a read from the read log, shown beside the writes (its id is the read's, negated)
RECALL_NAMES = 3  # entity names a recall row lists before "and N more"
#: client chip hues, most distinct first: the first few clients get colours far apart
CLIENT_HUES = (210, 130, 30, 280, 185, 330, 55, 0, 240, 100, 160, 300)
FRESH_SECONDS = 3.0  # how long a row that just arrived stays highlighted
QUOTE_CHARS = 60


def parse_at(at: str) -> datetime:
    """A change_log timestamp (ISO-8601 UTC, ``Z``) as an aware datetime."""
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


def relative_time(at: str, now: datetime | None = None) -> str:
    """"just now", "5 min ago", "3 h ago", "yesterday 14:02", "Mon 14:02", "12 Mar 14:02"."""
    moment = parse_at(at).astimezone()
    now = (now or datetime.now(UTC)).astimezone()
    seconds = (now - moment).total_seconds()
    if seconds < 45:
        return ActivityModel.tr("just now")
    if seconds < 3600:
        return ActivityModel.tr("%n min ago", "", max(1, round(seconds / 60)))
    days = (now.date() - moment.date()).days
    clock = moment.strftime("%H:%M")
    if days == 0:
        return ActivityModel.tr("%n h ago", "", int(seconds // 3600))
    if days == 1:
        return ActivityModel.tr("yesterday {time}").format(time=clock)
    locale = QLocale()  # day and month names in the user's language, not Python's C locale
    if days < 7:
        return f"{locale.dayName(moment.isoweekday(), QLocale.FormatType.ShortFormat)} {clock}"
    day = QDate(moment.year, moment.month, moment.day)
    if moment.year == now.year:
        return f"{locale.toString(day, 'd MMM')} {clock}"
    return locale.toString(day, "d MMM yyyy")


def full_time(at: str) -> str:
    moment = parse_at(at)
    return QLocale().toString(QDateTime.fromSecsSinceEpoch(int(moment.timestamp())), QLocale.FormatType.LongFormat)


def _b(name: Any) -> str:
    return f"<b>{html.escape(str(name))}</b>"


def _quote(text: Any) -> str:
    text = " ".join(str(text).split())
    short = text if len(text) <= QUOTE_CHARS else text[:QUOTE_CHARS - 1].rstrip() + "…"
    return "“" + html.escape(short) + "”"


def recall_row(read: dict[str, Any]) -> Change:
    """A read of ``Memory.read_log`` as a row of this model (ids negated: they never meet change ids)."""
    names = read.get("entities") or []
    return Change(-read["id"], read["at"], read["client"], RECALL, names[0] if names else None, None,
                  {"tool": read["tool"], "query": read.get("query", ""), "entities": names,
                   "total": read.get("total", len(names)), "facts": read.get("facts", [])})


def _describe_recall(info: dict[str, Any]) -> str:
    names, total = list(info.get("entities") or []), int(info.get("total") or 0)
    query = str(info.get("query") or "")
    shown = ", ".join(_b(n) for n in names[:RECALL_NAMES])
    more = max(total, len(names)) - min(len(names), RECALL_NAMES)
    if more > 0:
        shown = ActivityModel.tr("{names} and {n} more").format(names=shown, n=more)
    if not names:
        return (ActivityModel.tr("searched for {query} and found nothing").format(query=_quote(query)) if query
                else ActivityModel.tr("read the memory and found nothing"))
    if query and info.get("tool") != "open_nodes":
        return ActivityModel.tr("recalled {names} for {query}").format(names=shown, query=_quote(query))
    return ActivityModel.tr("recalled {names}").format(names=shown)


def describe(row: Change, known: dict[int, Change] | None = None) -> str:
    """What ``row`` did, as one short sentence of HTML (names in bold), for people."""
    if row.op == RECALL:
        return _describe_recall(row.after or {})
    return say(words(row, known))


def say(wd: Words) -> str:  # noqa: C901 - one sentence per kind of change
    """``wd`` (the core's reading of a change) in this language, names in bold."""
    n = {k: _b(v) for k, v in wd.names.items()}
    v = {k: html.escape(str(x)) for k, x in wd.values.items()}
    count, key = wd.count or 0, wd.key
    if key in ("added_one", "removed_one", "edited_observation"):
        template = {"added_one": ActivityModel.tr("added to {name}: {text}"),
                    "removed_one": ActivityModel.tr("removed from {name}: {text}"),
                    "edited_observation": ActivityModel.tr("edited an observation of {name}: {text}")}[key]
        return template.format(name=n["name"], text=_quote(wd.values["text"]))
    if key in ("added_many", "removed_many"):
        return (ActivityModel.tr("added %n observations to {name}", "", count) if key == "added_many"
                else ActivityModel.tr("removed %n observations from {name}", "", count)).format(name=n["name"])
    if key == "deleted":
        return ActivityModel.tr("deleted {name} ({type}, %n observations)", "", count).format(
            name=n["name"], type=v["type"])
    if key in ("create_relation", "delete_relation", "end_relation", "reopen_relation", "update_relation"):
        template = {"create_relation": ActivityModel.tr("related {src} → {dst} ({type})"),
                    "update_relation": ActivityModel.tr(
                        "changed the properties of the relation {src} → {dst} ({type})"),
                    "delete_relation": ActivityModel.tr("removed the relation {src} → {dst} ({type})"),
                    "end_relation": ActivityModel.tr("ended the relation {src} → {dst} ({type})"),
                    "reopen_relation": ActivityModel.tr("reopened the relation {src} → {dst} ({type})")}[key]
        return template.format(src=n["src"], dst=n["dst"], type=v["type"])
    if key in ("retyped", "updated_retyped", "updated"):
        old, new = wd.values.get("old"), wd.values.get("new")
        if old and new and old != new:
            return ActivityModel.tr("changed {name} from {old} to {new}").format(
                name=n["name"], old=v["old"], new=v["new"])
        return ActivityModel.tr("updated the details of {name}").format(name=n["name"])
    if key == "renamed":
        return ActivityModel.tr("renamed {old} to {new}").format(old=n["old"], new=n["new"])
    if key == "merged":
        merged = ", ".join(_b(m) for m in wd.values.get("merged", []))
        return ActivityModel.tr("merged {merged} into {name}").format(merged=merged, name=n["name"])
    if key in ("redid", "undid") and wd.inner is not None:
        template = ActivityModel.tr("redid: {what}") if key == "redid" else ActivityModel.tr("undid: {what}")
        return template.format(what=say(wd.inner))
    if key == "reflected":
        created, refreshed = wd.values["created"], wd.values["refreshed"]
        found = (ActivityModel.tr("1 new insight") if created == 1
                 else ActivityModel.tr("{n} new insights").format(n=created))
        if refreshed:
            found += ", " + (ActivityModel.tr("1 refreshed") if refreshed == 1
                             else ActivityModel.tr("{n} refreshed").format(n=refreshed))
        return ActivityModel.tr("reflected on the memory: {found}").format(found=found)
    if key == "faded":
        return ActivityModel.tr("let the confidence of %n insights fade with time", "", count)
    if key == "saved":
        return ActivityModel.tr("saved {name} (%n changes)", "", count).format(name=n["name"])
    if key == "undid_unknown":
        return ActivityModel.tr("undid change #{id} on {name}").format(id=v["undo_of"], name=n["name"])
    simple = {"created": ActivityModel.tr("created {name}"),
              "created_typed": ActivityModel.tr("created {name} ({type})"),
              "archive_entity": ActivityModel.tr("archived {name}"),
              "unarchive_entity": ActivityModel.tr("took {name} out of the archive"),
              "restore_entity": ActivityModel.tr("restored {name}"),
              "create_insight": ActivityModel.tr("proposed the insight {name}"),
              "insight_approved": ActivityModel.tr("approved the insight {name}"),
              "insight_dismissed": ActivityModel.tr("dismissed the insight {name}"),
              "insight_synced": ActivityModel.tr("wrote out the insight {name}"),
              "insight_reviewed": ActivityModel.tr("reviewed the insight {name}"),
              "insight_stale": ActivityModel.tr("marked the insight {name} as stale"),
              "insight_holds": ActivityModel.tr("found the insight {name} holds again")}
    if key in simple:
        return simple[key].format(name=n.get("name", ""), type=v.get("type", ""))
    op_words = html.escape(wd.op.replace("_", " "))
    return f"{op_words} {n['name']}" if wd.names.get("name") else op_words


def plain(text_html: str) -> str:
    """The sentence without its markup (for tooltips, status messages and tests)."""
    return html.unescape(text_html.replace("<b>", "").replace("</b>", ""))


def matches(row: Row, actor: str | None, since: str | None, until: str | None) -> bool:
    """Whether ``row`` passes the pane's filters (the same ones ``Memory.activity`` applies)."""
    at = row.at
    return ((actor is None or row.actor == actor) and (since is None or at >= since)
            and (until is None or at < until))


class ActivityModel(QAbstractTableModel):
    """Newest first. Columns: when, client, what. ``RowRole`` gives the change_log row."""

    WHEN, CLIENT, WHAT = range(3)
    RowRole = Qt.ItemDataRole.UserRole + 1
    HtmlRole = Qt.ItemDataRole.UserRole + 2
    FreshRole = Qt.ItemDataRole.UserRole + 3  # 0..1: how recently the row arrived live
    UndoneRole = Qt.ItemDataRole.UserRole + 4  # the id of the undo that took it back and stands
    HueRole = Qt.ItemDataRole.UserRole + 5  # the client's chip colour (a hue, 0–359)

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Row] = []
        self._ids: set[int] = set()
        self._known: dict[int, Row] = {}  # every row seen, shown or grouped away
        self._covered: set[int] = set()
        self._reflections: dict[tuple[str, str], list[int]] = {}  # (actor, at) of a reflect → its rows
        self._undone: dict[int, int] = {}
        self._fresh: dict[int, float] = {}
        self._hues: dict[str, int] = {}
        self.oldest_id: int | None = None  # the oldest change read so far (for the next page)
        self.oldest_read: int | None = None  # the oldest read (of the read log) so far, and the newest
        self.newest_read: int = 0
        self.fresh_colour = QColor(255, 200, 0, 90)

    # -- filling -----------------------------------------------------------------------------

    def assign_hues(self, actors: list[str]) -> None:
        """Give each client a chip colour of its own, the most distinct ones first; names are
        taken in sorted order, so the same set of clients always gets the same colours."""
        for actor in sorted(actors):
            self.hue_of(actor)

    def hue_of(self, actor: str) -> int:
        hue = self._hues.get(actor)
        if hue is None:
            hue = CLIENT_HUES[len(self._hues) % len(CLIENT_HUES)]
            self._hues[actor] = hue
        return hue

    def set_rows(self, rows: list[Row]) -> None:
        """Replace everything with ``rows`` (newest first)."""
        self.beginResetModel()
        self._rows, self._ids, self._known, self._covered, self._undone, self._fresh = [], set(), {}, set(), {}, {}
        self._reflections = {}
        self.oldest_id, self.oldest_read, self.newest_read = None, None, 0
        self._take(rows)
        self._rows = [r for r in rows if self._shown(r)]
        self._ids = {r.id for r in self._rows}
        self.endResetModel()

    def append_older(self, rows: list[Row]) -> None:
        """Add a page of older rows (newest first) at the bottom."""
        self._take(rows)
        older = [r for r in rows if self._shown(r) and r.id not in self._ids]
        if older:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(older) - 1)
            self._rows.extend(older)
            self._ids.update(r.id for r in older)
            self.endInsertRows()
        self._refresh_marks()

    def prepend_new(self, rows: list[Row]) -> list[Row]:
        """Add rows that were just written (oldest first, as the feed sends them) at the top,
        highlighted for a moment; returns those that became visible."""
        self._take(rows)
        fresh = [r for r in reversed(rows) if self._shown(r) and r.id not in self._ids]
        gone = [i for i, r in enumerate(self._rows) if r.id in self._covered]
        for i in reversed(gone):  # a group arrived after the rows it gathers
            self.beginRemoveRows(QModelIndex(), i, i)
            self._ids.discard(self._rows.pop(i).id)
            self.endRemoveRows()
        if fresh:
            self.beginInsertRows(QModelIndex(), 0, len(fresh) - 1)
            self._rows[:0] = fresh
            self._ids.update(r.id for r in fresh)
            stamp = time.monotonic()
            self._fresh.update((r.id, stamp) for r in fresh)
            self.endInsertRows()
        self._refresh_marks()
        return fresh

    def trim(self, keep: int) -> bool:
        """Drop shown rows beyond the newest ``keep`` (the next page is read again from there);
        returns whether any went. A live stream must not grow the table without end: every row
        inserted on top makes the tree view walk all of them."""
        if len(self._rows) <= keep:
            return False
        self.beginRemoveRows(QModelIndex(), keep, len(self._rows) - 1)
        dropped, self._rows = self._rows[keep:], self._rows[:keep]
        self.endRemoveRows()
        for r in dropped:
            self._ids.discard(r.id)
            self._fresh.pop(r.id, None)
        writes = [r.id for r in self._rows if r.id > 0]
        reads = [-r.id for r in self._rows if r.id < 0]
        self.oldest_id = min(writes) if writes else None
        self.oldest_read = min(reads) if reads else None
        return True

    def learn(self, rows: list[Row]) -> None:
        """Take note of rows the filters keep out of sight: an undo by another client still
        strikes through the change it undid."""
        self._take(rows)
        self._refresh_marks()

    def _take(self, rows: list[Row]) -> None:
        # One reflect writes its insights' rows and then a summary row, all with one timestamp:
        # the summary stands for them (and lists them in its tooltip).
        for r in rows:
            if r.op == "reflect":
                self._reflections.setdefault((r.actor, r.at), [])
        for r in rows:
            stamp = (r.actor, r.at)
            if r.op != "reflect" and stamp in self._reflections and r.id not in self._covered:
                self._covered.add(r.id)
                self._reflections[stamp].append(r.id)
            self._known[r.id] = r
            self._covered.update(r.members)
            if r.undo_of is not None:
                self._undone[r.undo_of] = r.id
            if r.id < 0:  # a read: its own sequence
                read = -r.id
                self.oldest_read = read if self.oldest_read is None else min(self.oldest_read, read)
                self.newest_read = max(self.newest_read, read)
            elif self.oldest_id is None or r.id < self.oldest_id:
                self.oldest_id = r.id

    def _shown(self, row: Row) -> bool:
        return row.id not in self._covered

    def _refresh_marks(self) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, self.WHAT))

    def fade(self) -> bool:
        """Move the highlight of fresh rows on; returns whether any is still highlighted."""
        now = time.monotonic()
        fading = set(self._fresh)
        self._fresh = {i: t for i, t in self._fresh.items() if now - t < FRESH_SECONDS}
        # Only the fresh rows change colour, and they are the newest, on top: repainting every row
        # ten times a second cost the GUI thread ~3 ms a tick while clients streamed writes in.
        last = -1
        for row, r in enumerate(self._rows):
            if not fading:
                break
            if r.id in fading:
                fading.discard(r.id)
                last = row
        if last >= 0:
            self.dataChanged.emit(self.index(0, 0), self.index(last, self.WHAT))
        return bool(self._fresh)

    def tick(self) -> None:
        """Relative times moved on: repaint the first column."""
        if self._rows:
            self.dataChanged.emit(self.index(0, self.WHEN), self.index(len(self._rows) - 1, self.WHEN))

    # -- reading -----------------------------------------------------------------------------

    def row_at(self, row: int) -> Row:
        return self._rows[row]

    def undone_by(self, change_id: int) -> int | None:
        """The undo that took ``change_id`` back and still stands (not itself undone, i.e.
        redone), or None."""
        undo = self._undone.get(change_id)
        return undo if undo is not None and self.undone_by(undo) is None else None

    def was_undone(self, change_id: int) -> bool:
        """Whether any undo ever targeted ``change_id`` (the core then refuses to undo it again:
        its undo row redoes or undoes it)."""
        return change_id in self._undone

    def known(self, change_id: int) -> Row | None:
        """Any row read so far by id, shown or grouped away."""
        return self._known.get(change_id)

    def row_of(self, change_id: int) -> int:
        return next((i for i, r in enumerate(self._rows) if r.id == change_id), -1)

    def actors(self) -> set[str]:
        return {r.actor for r in self._known.values()}

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt's name)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else 3

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return (self.tr("When"), self.tr("Client"), self.tr("What happened"))[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row, column = self._rows[index.row()], index.column()
        if role == self.RowRole:
            return row
        if role == self.HueRole:
            return self.hue_of(row.actor)
        if role == self.UndoneRole:
            return self.undone_by(row.id)
        if role == self.FreshRole:
            started = self._fresh.get(row.id)
            return 0.0 if started is None else max(0.0, 1.0 - (time.monotonic() - started) / FRESH_SECONDS)
        if role == self.HtmlRole:
            return describe(row, self._known)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.WHEN:
                return relative_time(row.at)
            if column == self.CLIENT:
                return actor_label(row.actor)
            return plain(describe(row, self._known))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        return None

    def _tooltip(self, row: Row, column: int) -> str:
        if column == self.WHEN:
            return full_time(row.at)
        if column == self.CLIENT:
            if row.op == RECALL:
                return self.tr("Read by {actor}").format(actor=row.actor)
            return self.tr("Written by {actor}").format(actor=row.actor)
        lines = [plain(describe(row, self._known))]
        if row.op == RECALL:
            info = row.after or {}
            lines.append(self.tr("through {tool}").format(tool=info.get("tool", "?")))
            lines += ["  • " + f"{n}: {' '.join(str(f).split())[:QUOTE_CHARS]}" for n, f in info.get("facts", [])[:8]]
            return "\n".join(lines)
        members = row.members
        if row.op == "reflect":
            members = sorted(self._reflections.get((row.actor, row.at), []))
        parts = ["  • " + plain(describe(self._known[m], self._known)) for m in members if m in self._known]
        if len(parts) > 12:
            parts = parts[:10] + ["  " + self.tr("… and {n} more").format(n=len(parts) - 10)]
        lines += parts
        undone_by = self.undone_by(row.id)
        if undone_by is not None:
            lines.append(self.tr("Undone since (change #{id}).").format(id=undone_by))
        return "\n".join(lines)
