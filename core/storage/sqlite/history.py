"""change_log: every write with its actor, and the graph as it stood on a past date.

Creations are logged compactly (the rows carry their own ``created_at``); anything that removes or
overwrites data logs the *before* state in full, so history can be shown, a deletion undone, and
``query_at_date`` can rebuild what was there.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from core.graph_rules import dumps as dumps  # the change_log's JSON, read as history.dumps too
from core.history.rewind import rewind
from core.model import Change, KnowledgeGraph
from core.storage.sqlite import activity as activity_log
from core.storage.sqlite import turns
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database
from core.storage.sqlite.reads import IDS, id_chunks

LogRow = tuple[str, str, str, str | None, str | None, str | None]  # at, actor, op, entity, before, after


# The import this thread is running, if any: its change_log rows carry its id (see imports.py).
# It lives with the turns at the write lock, which the connection consults before every write.
current_import = turns.current_import


def write(conn: Connection, rows: Sequence[LogRow]) -> None:
    tag = getattr(current_import, "id", None)
    conn.executemany(
        "INSERT INTO change_log(at, actor, op, entity, before, after, import_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(*row, tag) for row in rows],
    )


def changes_since(conn: Connection, after_id: int, limit: int) -> list[Change]:
    """change_log rows with ``id > after_id``, oldest first (the live-refresh feed)."""
    return [Change.decode(*r) for r in conn.execute(
        "SELECT id, at, actor, op, entity, before, after FROM change_log WHERE id > ? ORDER BY id LIMIT ?",
        (after_id, limit))]


def latest_change_id(conn: Connection) -> int:
    """The newest change_log id (0 for a memory never written)."""
    return int(conn.execute("SELECT coalesce(max(id), 0) FROM change_log").fetchone()[0])


def data_version(conn: Connection) -> int:
    """SQLite's ``PRAGMA data_version``: changes when another connection commits to the file."""
    return int(conn.execute("PRAGMA data_version").fetchone()[0])


def entity_snapshots(conn: Connection, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Everything needed to restore each entity: row, observations, relations touching it."""
    snaps: dict[int, dict[str, Any]] = {}
    for chunk in id_chunks(ids):
        for eid, name, etype, props, created, updated, archived in conn.execute(
            "SELECT id, name, entity_type, props, created_at, updated_at, archived_at "
            f"FROM entities WHERE id IN ({IDS})",
            (chunk,),
        ):
            snaps[eid] = {
                "name": name, "entityType": etype, "props": json.loads(props),
                "created_at": created, "updated_at": updated, "archived_at": archived,
                "observations": [], "relations": [],
            }
        for eid, content, created in conn.execute(
            f"SELECT entity_id, content, created_at FROM observations WHERE entity_id IN ({IDS}) "
            "ORDER BY id",
            (chunk,),
        ):
            snaps[eid]["observations"].append([content, created])
        for column, once in (("from_entity", ""), ("to_entity", " AND r.from_entity <> r.to_entity")):
            for eid, src, dst, rtype, props, created, ended in conn.execute(  # a relation to itself: once
                f"SELECT r.{column}, f.name, t.name, r.relation_type, r.props, r.created_at, r.ended_at "
                "FROM relations r JOIN entities f ON f.id = r.from_entity "
                f"JOIN entities t ON t.id = r.to_entity WHERE r.{column} IN ({IDS}){once}",
                (chunk,),
            ):
                snaps[eid]["relations"].append(
                    {"from": src, "to": dst, "relationType": rtype, "props": json.loads(props),
                     "created_at": created, "ended_at": ended}
                )
    return snaps


def query_at_date(conn: Connection, when: str) -> KnowledgeGraph:
    """The graph as it stood at ``when`` (an ISO-8601 UTC timestamp, compared as text).

    Built from the live rows created by then, plus what change_log says was deleted or
    overwritten after then.
    """
    entities: dict[str, dict[str, Any]] = {}
    for eid, name, etype, _created in conn.execute(
        "SELECT id, name, entity_type, created_at FROM entities WHERE created_at <= ?", (when,)
    ):
        entities[name] = {"type": etype, "obs": {}, "id": eid}
    for name, content, created in conn.execute(
        "SELECT e.name, o.content, o.created_at FROM observations o JOIN entities e "
        "ON e.id = o.entity_id WHERE o.created_at <= ? ORDER BY o.id",
        (when,),
    ):
        if name in entities:
            entities[name]["obs"][content] = created
    relations: dict[tuple[str, str, str], str] = {}
    for src, dst, rtype, created in conn.execute(
        "SELECT f.name, t.name, r.relation_type, r.created_at FROM relations r "
        "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
        "WHERE r.created_at <= ? AND (r.ended_at IS NULL OR r.ended_at > ?)",
        (when, when),
    ):
        relations[(src, dst, rtype)] = created

    # Undo, newest first, every change made after `when`.
    return rewind(entities, relations, conn.execute(
        "SELECT op, entity, before, after FROM change_log WHERE at > ? AND before IS NOT NULL "
        "ORDER BY id DESC",
        (when,),
    ), when)


class HistoryMixin:
    """change_log reads of ``SqliteGraphStore`` (which provides ``db``): history, the live feed,
    activity, and the graph as of a past date."""

    db: Database

    def query_at_date(self, when: datetime | str) -> KnowledgeGraph:
        """The graph as it stood at ``when``: entities, observations and relations as of then."""
        stamp = self.db.stamp(when)
        assert stamp is not None  # a time was given
        with self.db.locked() as conn:
            return query_at_date(conn, stamp)

    def history(self, name: str | None = None, *, limit: int = 100) -> list[Change]:
        """The latest change_log rows, newest first, for one entity or for all."""
        where, args = ("WHERE entity = ?", [name]) if name is not None else ("", [])
        with self.db.locked() as conn:
            return [Change.decode(*r) for r in conn.execute(
                f"SELECT id, at, actor, op, entity, before, after FROM change_log {where} "
                "ORDER BY id DESC LIMIT ?", [*args, limit])]

    def changes_since(self, after_id: int, *, limit: int = 500) -> list[Change]:
        """change_log rows newer than ``after_id``, oldest first."""
        with self.db.locked() as conn:
            return changes_since(conn, after_id, limit)

    def latest_change_id(self) -> int:
        with self.db.locked() as conn:
            return latest_change_id(conn)

    def activity(self, *, before_id: int | None = None, actor: str | None = None,
                 since: datetime | str | None = None, until: datetime | str | None = None,
                 limit: int = 200) -> list[Change]:
        """change_log rows newest first, filtered by writer and time span, paged by id."""
        since, until = self.db.stamp(since), self.db.stamp(until)
        with self.db.locked() as conn:
            return activity_log.activity(conn, before_id=before_id, actor=actor, since=since,
                                         until=until, limit=limit)

    def activity_actors(self) -> list[dict[str, Any]]:
        with self.db.locked() as conn:
            return activity_log.actors(conn)

    def data_version(self) -> int:
        with self.db.locked() as conn:
            return data_version(conn)
