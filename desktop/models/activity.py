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

from desktop.panes.history_view import actor_label  # one wording of who wrote, shared with the editor

Row = dict[str, Any]
Index = QModelIndex | QPersistentModelIndex

GROUP_OPS = ("save_entity", "undo")
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


def _relation(side: Any, fallback_from: str | None) -> tuple[str, str, str]:
    if isinstance(side, list) and len(side) >= 2:  # create_relation: [to, relationType]
        return fallback_from or "?", str(side[0]), str(side[1])
    if isinstance(side, dict):
        return str(side.get("from", fallback_from)), str(side.get("to", "?")), str(side.get("relationType", "?"))
    return fallback_from or "?", "?", "?"


def recall_row(read: dict[str, Any]) -> Row:
    """A read of ``Memory.read_log`` as a row of this model (ids negated: they never meet change ids)."""
    names = read.get("entities") or []
    return {"id": -read["id"], "at": read["at"], "actor": read["client"], "op": RECALL,
            "entity": names[0] if names else None, "before": None,
            "after": {"tool": read["tool"], "query": read.get("query", ""), "entities": names,
                      "total": read.get("total", len(names)), "facts": read.get("facts", [])}}


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


def describe(row: Row, known: dict[int, Row] | None = None) -> str:
    """What ``row`` did, as one short sentence of HTML (names in bold), for people."""
    op, name = row.get("op", ""), row.get("entity") or ""
    if op == RECALL:
        return _describe_recall(row.get("after") or {})
    before, after = row.get("before"), row.get("after")
    b_name = _b(name)
    if op == "create_entity":
        kind = after.get("entityType") if isinstance(after, dict) else None
        return (ActivityModel.tr("created {name} ({type})").format(name=b_name, type=html.escape(kind)) if kind
                else ActivityModel.tr("created {name}").format(name=b_name))
    if op == "add_observations":
        added = after if isinstance(after, list) else []
        if len(added) == 1:
            return ActivityModel.tr("added to {name}: {text}").format(name=b_name, text=_quote(added[0]))
        return ActivityModel.tr("added %n observations to {name}", "", len(added)).format(name=b_name)
    if op == "delete_observations":
        gone = (before or {}).get("observations", []) if isinstance(before, dict) else []
        if len(gone) == 1:
            return ActivityModel.tr("removed from {name}: {text}").format(name=b_name, text=_quote(gone[0][0]))
        return ActivityModel.tr("removed %n observations from {name}", "", len(gone)).format(name=b_name)
    if op == "replace_observation":
        new = after.get("observation", "") if isinstance(after, dict) else ""
        return ActivityModel.tr("edited an observation of {name}: {text}").format(name=b_name, text=_quote(new))
    if op == "delete_entity":
        snap = before if isinstance(before, dict) else {}
        count = len(snap.get("observations", []))
        return ActivityModel.tr("deleted {name} ({type}, %n observations)", "", count).format(
            name=b_name, type=html.escape(str(snap.get("entityType", "?"))))
    if op in ("create_relation", "delete_relation", "end_relation", "reopen_relation"):
        src, dst, kind = _relation(after if op in ("create_relation", "reopen_relation") else before, name)
        template = {"create_relation": ActivityModel.tr("related {src} → {dst} ({type})"),
                    "delete_relation": ActivityModel.tr("removed the relation {src} → {dst} ({type})"),
                    "end_relation": ActivityModel.tr("ended the relation {src} → {dst} ({type})"),
                    "reopen_relation": ActivityModel.tr("reopened the relation {src} → {dst} ({type})")}[op]
        return template.format(src=_b(src), dst=_b(dst), type=html.escape(kind))
    if op in ("update_entity", "set_entity_type"):
        old = before.get("entityType") if isinstance(before, dict) else None
        new = after.get("entityType") if isinstance(after, dict) else None
        if old and new and old != new:
            return ActivityModel.tr("changed {name} from {old} to {new}").format(
                name=b_name, old=html.escape(old), new=html.escape(new))
        return ActivityModel.tr("updated the details of {name}").format(name=b_name)
    if op == "rename_entity":
        old = before.get("name", "?") if isinstance(before, dict) else "?"
        return ActivityModel.tr("renamed {old} to {new}").format(old=_b(old), new=b_name)
    simple = {"archive_entity": ActivityModel.tr("archived {name}"),
              "unarchive_entity": ActivityModel.tr("took {name} out of the archive"),
              "restore_entity": ActivityModel.tr("restored {name}"),
              "create_insight": ActivityModel.tr("proposed the insight {name}")}
    if op in simple:
        return simple[op].format(name=b_name)
    if op == "save_entity":
        count = len(after.get("rows", [])) if isinstance(after, dict) else 0
        return ActivityModel.tr("saved {name} (%n changes)", "", count).format(name=b_name)
    if op == "undo":
        payload = after if isinstance(after, dict) else {}
        original = (known or {}).get(payload.get("undo_of", -1))
        if original is not None and original.get("op") == "undo":  # undoing an undo redoes
            first = (known or {}).get((original.get("after") or {}).get("undo_of", -1))
            if first is not None:
                return ActivityModel.tr("redid: {what}").format(what=describe(first, known))
        if original is not None:
            return ActivityModel.tr("undid: {what}").format(what=describe(original, known))
        return ActivityModel.tr("undid change #{id} on {name}").format(id=payload.get("undo_of", "?"), name=b_name)
    if op == "decide_insight":
        status = after.get("status") if isinstance(after, dict) else None
        template = {"approved": ActivityModel.tr("approved the insight {name}"),
                    "dismissed": ActivityModel.tr("dismissed the insight {name}"),
                    "synced": ActivityModel.tr("wrote out the insight {name}")}.get(
            status or "", ActivityModel.tr("reviewed the insight {name}"))
        return template.format(name=b_name)
    if op == "mark_insight_stale":
        stale = isinstance(after, dict) and after.get("stale")
        return (ActivityModel.tr("marked the insight {name} as stale") if stale
                else ActivityModel.tr("found the insight {name} holds again")).format(name=b_name)
    if op == "reflect":
        info = after if isinstance(after, dict) else {}
        created, refreshed = int(info.get("created", 0)), int(info.get("refreshed", 0))
        found = (ActivityModel.tr("1 new insight") if created == 1
                 else ActivityModel.tr("{n} new insights").format(n=created))
        if refreshed:
            found += ", " + (ActivityModel.tr("1 refreshed") if refreshed == 1
                             else ActivityModel.tr("{n} refreshed").format(n=refreshed))
        return ActivityModel.tr("reflected on the memory: {found}").format(found=found)
    if op == "decay_confidence":
        changed = after.get("changed", 0) if isinstance(after, dict) else 0
        return ActivityModel.tr("let the confidence of %n insights fade with time", "", int(changed))
    words = html.escape(op.replace("_", " "))
    return f"{words} {b_name}" if name else words


def plain(text_html: str) -> str:
    """The sentence without its markup (for tooltips, status messages and tests)."""
    return html.unescape(text_html.replace("<b>", "").replace("</b>", ""))


def matches(row: Row, actor: str | None, since: str | None, until: str | None) -> bool:
    """Whether ``row`` passes the pane's filters (the same ones ``Memory.activity`` applies)."""
    at = row.get("at", "")
    return ((actor is None or row.get("actor") == actor) and (since is None or at >= since)
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
        self._ids = {r["id"] for r in self._rows}
        self.endResetModel()

    def append_older(self, rows: list[Row]) -> None:
        """Add a page of older rows (newest first) at the bottom."""
        self._take(rows)
        older = [r for r in rows if self._shown(r) and r["id"] not in self._ids]
        if older:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(older) - 1)
            self._rows.extend(older)
            self._ids.update(r["id"] for r in older)
            self.endInsertRows()
        self._refresh_marks()

    def prepend_new(self, rows: list[Row]) -> list[Row]:
        """Add rows that were just written (oldest first, as the feed sends them) at the top,
        highlighted for a moment; returns those that became visible."""
        self._take(rows)
        fresh = [r for r in reversed(rows) if self._shown(r) and r["id"] not in self._ids]
        gone = [i for i, r in enumerate(self._rows) if r["id"] in self._covered]
        for i in reversed(gone):  # a group arrived after the rows it gathers
            self.beginRemoveRows(QModelIndex(), i, i)
            self._ids.discard(self._rows.pop(i)["id"])
            self.endRemoveRows()
        if fresh:
            self.beginInsertRows(QModelIndex(), 0, len(fresh) - 1)
            self._rows[:0] = fresh
            self._ids.update(r["id"] for r in fresh)
            stamp = time.monotonic()
            self._fresh.update((r["id"], stamp) for r in fresh)
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
            self._ids.discard(r["id"])
            self._fresh.pop(r["id"], None)
        writes = [r["id"] for r in self._rows if r["id"] > 0]
        reads = [-r["id"] for r in self._rows if r["id"] < 0]
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
            if r.get("op") == "reflect":
                self._reflections.setdefault((r["actor"], r["at"]), [])
        for r in rows:
            stamp = (r["actor"], r["at"])
            if r.get("op") != "reflect" and stamp in self._reflections and r["id"] not in self._covered:
                self._covered.add(r["id"])
                self._reflections[stamp].append(r["id"])
            self._known[r["id"]] = r
            if r.get("op") in GROUP_OPS and isinstance(r.get("after"), dict):
                self._covered.update(r["after"].get("rows", []))
                if r["op"] == "undo" and "undo_of" in r["after"]:
                    self._undone[r["after"]["undo_of"]] = r["id"]
            if r["id"] < 0:  # a read: its own sequence
                read = -r["id"]
                self.oldest_read = read if self.oldest_read is None else min(self.oldest_read, read)
                self.newest_read = max(self.newest_read, read)
            elif self.oldest_id is None or r["id"] < self.oldest_id:
                self.oldest_id = r["id"]

    def _shown(self, row: Row) -> bool:
        return row["id"] not in self._covered

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
            if r["id"] in fading:
                fading.discard(r["id"])
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
        return next((i for i, r in enumerate(self._rows) if r["id"] == change_id), -1)

    def actors(self) -> set[str]:
        return {r["actor"] for r in self._known.values()}

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
            return self.hue_of(row["actor"])
        if role == self.UndoneRole:
            return self.undone_by(row["id"])
        if role == self.FreshRole:
            started = self._fresh.get(row["id"])
            return 0.0 if started is None else max(0.0, 1.0 - (time.monotonic() - started) / FRESH_SECONDS)
        if role == self.HtmlRole:
            return describe(row, self._known)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.WHEN:
                return relative_time(row["at"])
            if column == self.CLIENT:
                return actor_label(row["actor"])
            return plain(describe(row, self._known))
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        return None

    def _tooltip(self, row: Row, column: int) -> str:
        if column == self.WHEN:
            return full_time(row["at"])
        if column == self.CLIENT:
            if row.get("op") == RECALL:
                return self.tr("Read by {actor}").format(actor=row["actor"])
            return self.tr("Written by {actor}").format(actor=row["actor"])
        lines = [plain(describe(row, self._known))]
        if row.get("op") == RECALL:
            info = row.get("after") or {}
            lines.append(self.tr("through {tool}").format(tool=info.get("tool", "?")))
            lines += ["  • " + f"{n}: {' '.join(str(f).split())[:QUOTE_CHARS]}" for n, f in info.get("facts", [])[:8]]
            return "\n".join(lines)
        members = row.get("after", {}).get("rows", []) if row.get("op") in GROUP_OPS else []
        if row.get("op") == "reflect":
            members = sorted(self._reflections.get((row["actor"], row["at"]), []))
        parts = ["  • " + plain(describe(self._known[m], self._known)) for m in members if m in self._known]
        if len(parts) > 12:
            parts = parts[:10] + ["  " + self.tr("… and {n} more").format(n=len(parts) - 10)]
        lines += parts
        undone_by = self.undone_by(row["id"])
        if undone_by is not None:
            lines.append(self.tr("Undone since (change #{id}).").format(id=undone_by))
        return "\n".join(lines)
