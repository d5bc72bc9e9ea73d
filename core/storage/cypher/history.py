"""change_log on a Cypher server: ``:Change`` nodes, and the graph as it stood on a past date.

The rows hold exactly what SQLite's change_log holds (before/after as JSON text), so history,
the change feed, the activity pane and time travel read the same on every backend.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from core.history.changes import entity_history
from core.history.rewind import rewind
from core.model import Change, KnowledgeGraph
from core.storage.cypher import rows as R
from core.storage.cypher.seams import Dialect

CHANGE = "c.id, c.at, c.actor, c.op, c.entity, c.before, c.after"


def change_dicts(found: list[list[Any]]) -> list[Change]:
    """``Change`` rows from ``RETURN {CHANGE}`` records."""
    return [Change.decode(*r) for r in found]


class HistoryMixin:
    """The change_log reads of ``CypherGraphStore`` (``self.db`` is its dialect)."""

    db: Dialect

    def history(self, name: str | None = None, *, limit: int = 100) -> list[Change]:
        """The latest change_log rows, newest first, for one entity or for all."""
        where = "WHERE c.entity = $name " if name is not None else ""
        return change_dicts(self.db.read(f"MATCH (c:Change) {where}RETURN {CHANGE} ORDER BY c.id DESC LIMIT $limit",
                                         {"name": name, "limit": limit}))

    def changes_since(self, after_id: int, *, limit: int = 500) -> list[Change]:
        """change_log rows newer than ``after_id``, oldest first."""
        return change_dicts(self.db.read(f"MATCH (c:Change) WHERE c.id > $after RETURN {CHANGE} ORDER BY c.id "
                                         "LIMIT $limit", {"after": after_id, "limit": limit}))

    def latest_change_id(self) -> int:
        found = self.db.read("MATCH (c:Counter {name: 'change'}) RETURN c.value")
        return int(found[0][0]) if found else 0

    def data_version(self) -> int:
        """Moves whenever any client writes to this memory."""
        return int(self.db.version())

    def activity(self, *, before_id: int | None = None, actor: str | None = None,
                 since: datetime | str | None = None, until: datetime | str | None = None,
                 limit: int = 200) -> list[Change]:
        """change_log rows newest first, filtered by writer and time span, paged by id."""
        since, until = (R.format_ts(t) if isinstance(t, datetime) else t for t in (since, until))
        return change_dicts(self.db.read(
            "MATCH (c:Change) WHERE ($before IS NULL OR c.id < $before) AND ($actor IS NULL OR c.actor = $actor) "
            "AND ($since IS NULL OR c.at >= $since) AND ($until IS NULL OR c.at < $until) "
            f"RETURN {CHANGE} ORDER BY c.id DESC LIMIT $limit",
            {"before": before_id, "actor": actor, "since": since, "until": until, "limit": limit}))

    def activity_actors(self) -> list[dict[str, Any]]:
        """Everyone who has written: actor, number of changes, time of the latest, latest first."""
        found = self.db.read("MATCH (c:Change) RETURN c.actor, count(c), max(c.at) AS last ORDER BY last DESC, c.actor")
        return [{"actor": who, "changes": int(n), "last_at": last} for who, n, last in found]

    def relation_type_counts(self) -> dict[str, int]:
        """How many relations of each type there are, most used first."""
        return {t: int(n) for t, n in self.db.read(
            "MATCH ()-[r:REL]->() RETURN r.type, count(r) AS n ORDER BY n DESC, r.type")}

    def entity_history(self, name: str, *, limit: int = 100) -> list[Change]:
        """change_log rows about the entity now called ``name`` (``core.history.changes.entity_history``)."""
        return entity_history(self, name, limit)

    def last_rename(self, name: str, at_most: int) -> tuple[int, str] | None:
        found = self.db.read("MATCH (c:Change {entity: $n}) WHERE c.op = 'rename_entity' AND c.id <= $u "
                             "RETURN c.id, c.before ORDER BY c.id DESC LIMIT 1", {"n": name, "u": at_most})
        return (found[0][0], json.loads(found[0][1])["name"]) if found else None

    def about(self, names: list[str], limit: int) -> list[Change]:
        quoted = [json.dumps(n, ensure_ascii=False) for n in names]
        return change_dicts(self.db.read(
            f"MATCH (c:Change) WHERE c.entity IN $names OR (c.entity IS NOT NULL AND c.op CONTAINS 'relation' "
            f"AND any(q IN $quoted WHERE c.after CONTAINS q OR c.before CONTAINS q)) RETURN {CHANGE} "
            "ORDER BY c.id DESC", {"names": names, "quoted": quoted}))

    def query_at_date(self, when: datetime | str) -> KnowledgeGraph:
        """The graph as it stood at ``when``: the live rows created by then, plus what change_log says was
        deleted or overwritten after then."""
        when = R.format_ts(when) if isinstance(when, datetime) else when
        entities: dict[str, dict[str, Any]] = {}
        for name, etype, obs, obs_at in self.db.read(
            "MATCH (e:Entity) WHERE e.created_at <= $w RETURN e.name, e.type, e.obs, e.obs_at ORDER BY e.id",
            {"w": when},
        ):
            entities[name] = {"type": etype, "obs": {o: t for o, t in zip(obs or [], obs_at or [], strict=True)
                                                     if t <= when}}
        relations: dict[tuple[str, str, str], str] = {}
        for src, dst, rtype, created in self.db.read(
            "MATCH (a:Entity)-[r:REL]->(b:Entity) WHERE r.created_at <= $w AND (r.ended_at IS NULL OR r.ended_at > $w) "
            "RETURN a.name, b.name, r.type, r.created_at ORDER BY r.id", {"w": when},
        ):
            relations[(src, dst, rtype)] = created
        changes = self.db.read(
            "MATCH (c:Change) WHERE c.at > $w AND c.before IS NOT NULL RETURN c.op, c.entity, c.before, c.after "
            "ORDER BY c.id DESC", {"w": when},
        )
        return rewind(entities, relations, ((op, e, b, a) for op, e, b, a in changes), when)
