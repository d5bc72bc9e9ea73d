"""Insights in SQLite: the reads and writes the one lifecycle (``core.reflect.lifecycle``) needs.

An insight is an ordinary entity (``entity_type = 'Insight'``) plus an ``insights`` row with its
review state; the rules (why a pending one is archived, decay, staleness) are the lifecycle's.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from core.history.undo import InsightState
from core.reflect.lifecycle import InsightFilter, InsightLifecycle, InsightRecord, LogRow, Rank
from core.reflect.model import InsightDraft, ReflectRules, StoredInsight
from core.storage.sqlite import embedding_state, history, indexing, reads
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database, format_ts
from core.storage.sqlite.detection import TOKEN_KEY, DetectionSession, graph_fingerprint, stored_insights
from core.storage.sqlite.reads import IDS

T = TypeVar("T")

_SELECT = """
SELECT i.entity_id, e.name, i.pattern, i.status, i.stale, i.confidence, i.base_confidence, i.evidence,
       coalesce(json_extract(e.props, '$.summary'), ''), e.created_at, i.confirmed_at, i.decided_at, i.decided_by
  FROM insights i JOIN entities e ON e.id = i.entity_id
"""
# review fields, the columns of the same names
_REVIEW = {k: k for k in ("pattern", "status", "stale", "evidence", "base_confidence", "confidence", "confirmed_at",
                          "decided_at", "decided_by")}


def _record(row: Sequence[Any]) -> InsightRecord:
    eid, name, pattern, status, stale, conf, base, evidence, summary, created, confirmed, decided, by = row
    return InsightRecord(eid, name, pattern, status, bool(stale), conf, base, evidence, summary,
                         created, confirmed, decided, by)


def _select(conn: Connection, where: str = "1", args: Sequence[Any] | dict[str, Any] = ()) -> list[InsightRecord]:
    return [_record(r) for r in conn.execute(f"{_SELECT} WHERE {where}", args)]


_DIALECT = ("1", ":", {"status": "i.status", "title": "e.name", "confirmed_at": "i.confirmed_at"}, "i.stale = 0",
            "i.entity_id IN (SELECT value FROM json_each(:ids))")


def _where(which: InsightFilter) -> tuple[str, dict[str, Any]]:
    return which.where(_DIALECT, lambda ids: json.dumps(list(ids)))


def insight_store(db: Database) -> InsightLifecycle:
    """The lifecycle over this database (it shares the graph store's connection and lock, so its
    writes interleave safely with every other write)."""
    return InsightLifecycle(SqliteInsightRows(db))


class SqliteInsightRows:
    """``core.reflect.lifecycle.InsightRows`` over the graph's ``Database``."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def now(self) -> str:
        return self.db.now()

    def stamp(self, moment: datetime) -> str:
        return format_ts(moment)

    @contextlib.contextmanager
    def detection(self, rules: ReflectRules) -> Iterator[DetectionSession]:
        """One consistent read of the graph for the detectors (a read transaction holding the
        working TEMP tables); nothing in the main database is written."""
        with self.db.lock:
            moment = self.db.clock()
            session = DetectionSession(self.db.conn, rules, now=format_ts(moment),
                                       cutoff=format_ts(moment - timedelta(days=rules.stale_after_days)))
            with self.db.snapshot():
                session.open()
                try:
                    yield session
                finally:
                    session.close()

    def records(self, which: InsightFilter) -> list[InsightRecord]:
        with self.db.locked() as conn:
            return _select(conn, *_where(which))

    def ranks(self, which: InsightFilter) -> list[Rank]:
        where, args = _where(which)
        with self.db.locked() as conn:
            return [(i, n, bool(s), c, f, e) for i, n, s, c, f, e in conn.execute(
                "SELECT i.entity_id, e.name, i.stale, i.confidence, i.confirmed_at, e.created_at "
                f"FROM insights i JOIN entities e ON e.id = i.entity_id WHERE {where}", args)]

    def counts(self) -> dict[str, int]:
        with self.db.locked() as conn:
            out = dict(conn.execute("SELECT status, count(*) FROM insights GROUP BY status"))
            out["stale"] = conn.execute("SELECT count(*) FROM insights WHERE stale").fetchone()[0]
        return out

    def write(self, work: Callable[[_Writes], T]) -> T:
        with self.db.write() as conn:
            return work(_Writes(conn))


class _Writes:
    """``core.reflect.lifecycle.InsightWrites`` inside one SQLite transaction."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.reindex: list[int] = []
        self.created: list[tuple[InsightDraft, str]] = []  # new insights (and when), written on flush

    def record(self, title: str) -> InsightRecord | None:
        found = _select(self.conn, "e.name = ?", (title,))
        return found[0] if found else None

    def stored(self) -> dict[str, StoredInsight]:
        return stored_insights(self.conn)

    def taken(self, titles: Sequence[str]) -> set[str]:
        return set(reads.ids_by_name(self.conn, list(titles)))

    def live_records(self) -> list[InsightRecord]:
        return _select(self.conn, "i.status <> 'dismissed' AND i.confirmed_at IS NOT NULL")

    def create(self, draft: InsightDraft, now: str) -> None:
        # Queued and written together on flush: a first reflect creates hundreds of insights, each
        # three rows; together they are three statements and one fresh index pass.
        self.created.append((draft, now))

    def _write_created(self) -> list[int]:
        queued, self.created = self.created, []
        if not queued:
            return []
        drafts = [d for d, _ in queued]
        self.conn.executemany(
            "INSERT INTO entities(name, entity_type, props, created_at, updated_at, archived_at) "
            "VALUES (?, 'Insight', ?, ?, ?, ?)",
            [(d.title, json.dumps({"summary": d.summary, "pattern": d.pattern, "confidence": d.confidence},
                                  ensure_ascii=False), now, now, now) for d, now in queued])
        ids = reads.ids_by_name(self.conn, [d.title for d in drafts])
        eids = [ids[d.title] for d in drafts]
        self.conn.executemany("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                              [(eid, d.summary, now) for eid, (d, now) in zip(eids, queued, strict=True)])
        self.conn.executemany(
            "INSERT INTO insights(entity_id, pattern, confidence, base_confidence, status, evidence, "
            "stale, confirmed_at) VALUES (?, ?, ?, ?, 'pending', ?, 0, ?)",
            [(eid, d.pattern, d.confidence, d.confidence, d.evidence_json(), now)
             for eid, (d, now) in zip(eids, queued, strict=True)])
        return eids

    def props(self, entity_id: int) -> dict[str, Any]:
        props: dict[str, Any] = json.loads(
            self.conn.execute("SELECT props FROM entities WHERE id = ?", (entity_id,)).fetchone()[0])
        return props

    def set_text(self, entity_id: int, props: dict[str, Any], old_summary: str | None,
                 new_summary: str | None, now: str) -> list[list[str]]:
        self.conn.execute("UPDATE entities SET props = ?, updated_at = ? WHERE id = ?",
                          (json.dumps(props, ensure_ascii=False), now, entity_id))
        gone: list[list[str]] = []
        if new_summary is not None:
            gone = [list(g) for g in self.conn.execute(
                "DELETE FROM observations WHERE entity_id = ? AND content = ? RETURNING content, created_at",
                (entity_id, old_summary)).fetchall()]
            self.conn.execute("INSERT OR IGNORE INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                              (entity_id, new_summary, now))
        self.reindex.append(entity_id)
        embedding_state.invalidate(self.conn, [entity_id])  # its text changed
        return gone

    def set_review(self, entity_id: int, **fields: Any) -> None:
        if "stale" in fields:
            fields["stale"] = int(fields["stale"])
        sets = ", ".join(f"{_REVIEW[k]} = :{k}" for k in fields)
        self.conn.execute(f"UPDATE insights SET {sets} WHERE entity_id = :eid", {**fields, "eid": entity_id})

    def set_archived(self, entity_id: int, archived: bool, now: str, *, touch: bool) -> None:
        value = "coalesce(archived_at, :now)" if archived else "NULL"
        touched = ", updated_at = :now" if touch else ""
        self.conn.execute(f"UPDATE entities SET archived_at = {value}{touched} WHERE id = :id",
                          {"now": now, "id": entity_id})

    def link(self, entity_id: int, targets: Sequence[int], rel_type: str, now: str) -> list[str]:
        names = dict(self.conn.execute(f"SELECT id, name FROM entities WHERE id IN ({IDS})",
                                       (json.dumps(list(targets)),)).fetchall())
        linked: list[int] = []
        for target in targets:
            if target in names and self.conn.execute(
                    "INSERT INTO relations(from_entity, to_entity, relation_type, created_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (entity_id, target, rel_type, now)).rowcount:
                linked.append(target)
        # Both ends' embedded text lists their relations: re-embed them.
        embedding_state.invalidate(self.conn, [entity_id, *linked])
        return [names[t] for t in linked]

    def confirm(self, patterns: Sequence[str], now: str) -> None:
        self.conn.execute(
            "UPDATE insights SET confirmed_at = ?, confidence = base_confidence "
            "WHERE status <> 'dismissed' AND stale = 0 AND pattern IN (SELECT value FROM json_each(?))",
            (now, json.dumps(list(patterns))))

    def adopt(self, title: str, review: dict[str, Any]) -> bool:
        row = self.conn.execute("SELECT id FROM entities WHERE name = ? AND entity_type = 'Insight'",
                                (title,)).fetchone()
        if row is None:
            return False
        fields = {**review, "stale": int(review["stale"])}
        return bool(self.conn.execute(
            f"INSERT INTO insights(entity_id, {', '.join(_REVIEW[k] for k in fields)}) "
            f"VALUES (:eid, {', '.join(':' + k for k in fields)}) ON CONFLICT(entity_id) DO NOTHING",
            {**fields, "eid": row[0]}).rowcount)

    def log(self, rows: Sequence[LogRow]) -> None:
        history.write(self.conn, [(at, actor, op, entity, history.dumps(before), history.dumps(after))
                                  for at, actor, op, entity, before, after in rows])

    def flush(self) -> None:
        created = self._write_created()
        if created:
            indexing.reindex(self.conn, created, fresh=True)  # new rows: nothing of theirs to delete first
        indexing.reindex(self.conn, self.reindex)
        self.reindex = []

    def fingerprint(self) -> str:
        return graph_fingerprint(self.conn)

    def fingerprint_after(self, created: int) -> str:
        return graph_fingerprint(self.conn)  # SQLite sees its own writes

    def set_token(self, token: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)", (TOKEN_KEY, token))


# -- an insight's review state inside an edit session (``core.history.undo.EditSession``) -------

def insight_state(conn: Connection, title: str) -> InsightState | None:
    """The review state of the insight ``title``, read in the session's transaction."""
    row = conn.execute(
        "SELECT i.status, e.archived_at IS NOT NULL, i.decided_at, i.decided_by, i.confirmed_at, i.confidence, "
        "i.stale, i.base_confidence FROM insights i JOIN entities e ON e.id = i.entity_id WHERE e.name = ?",
        (title,)).fetchone()
    if row is None:
        return None
    status, archived, decided_at, decided_by, confirmed_at, confidence, stale, base = row
    return InsightState(status, bool(archived), decided_at, decided_by, confirmed_at, float(confidence),
                        bool(stale), float(base))


def set_insight_state(conn: Connection, title: str, state: InsightState, now: str) -> None:
    """Write ``state`` (review fields, archived or not) on the insight ``title``."""
    conn.execute("UPDATE entities SET archived_at = CASE WHEN ? THEN coalesce(archived_at, ?) ELSE NULL END, "
                 "updated_at = ? WHERE name = ?", (state.archived, now, now, title))
    conn.execute("UPDATE insights SET status = ?, decided_at = ?, decided_by = ?, confirmed_at = ?, confidence = ? "
                 "WHERE entity_id = (SELECT id FROM entities WHERE name = ?)",
                 (state.status, state.decided_at, state.decided_by, state.confirmed_at, state.confidence, title))
