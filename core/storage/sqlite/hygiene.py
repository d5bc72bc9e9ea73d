"""``core.hygiene.store.HygieneStore`` on SQLite: alias lookups through ``entity_aliases``
(migration 005), the detector's reads, and the row that groups one merge."""

from __future__ import annotations

import json
from collections.abc import Sequence

from core.storage.sqlite import indexing, reads
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database
from core.storage.sqlite.reads import IDS

_LIVE = "archived_at IS NULL AND entity_type <> 'Insight'"
_LIVE_E = _LIVE.replace(" AND ", " AND e.")
_TOKENS_PAGE = 20_000  # names' words stored per transaction (a page: an interrupted backfill resumes)


class SqliteHygiene:
    def __init__(self, db: Database) -> None:
        self.db = db

    def resolve_aliases(self, names: Sequence[str]) -> dict[str, str]:
        if not names:
            return {}
        with self.db.locked() as conn:
            rows = conn.execute(
                "SELECT a.alias, e.name FROM entity_aliases a JOIN entities e ON e.id = a.entity_id "
                "WHERE a.alias IN (SELECT value FROM json_each(?)) "
                "AND NOT EXISTS (SELECT 1 FROM entities x WHERE x.name = a.alias) ORDER BY e.id",
                (json.dumps(list(dict.fromkeys(names))),)).fetchall()
        found: dict[str, str] = {}
        for alias, name in rows:
            found.setdefault(alias, name)
        return found

    def alias_matches(self, folded_query: str) -> list[str]:
        with self.db.locked() as conn:  # the (folded, entity_id) index holds all it needs
            return [r[0] for r in conn.execute(
                "SELECT e.name FROM entities e WHERE e.id IN (SELECT a.entity_id FROM entity_aliases a "
                "INDEXED BY idx_entity_aliases_folded WHERE instr(a.folded, ?) > 0) AND e.archived_at IS NULL "
                "ORDER BY e.id", (folded_query,))]

    def entity_rows(self) -> list[tuple[int, str, str]]:
        with self.db.locked() as conn:
            return [tuple(r) for r in conn.execute(f"SELECT id, name, entity_type FROM entities WHERE {_LIVE}")]

    def entity_name_rows(self) -> list[tuple[int, str, str, str | None]]:
        with self.db.locked() as conn:
            return [tuple(r) for r in conn.execute(
                "SELECT e.id, e.name, e.entity_type, CASE WHEN k.name = e.name THEN k.tokens END "
                f"FROM entities e LEFT JOIN entity_name_tokens k ON k.entity_id = e.id WHERE e.{_LIVE_E}")]

    def store_name_tokens(self, rows: Sequence[tuple[int, str, str]]) -> None:
        for start in range(0, len(rows), _TOKENS_PAGE):
            with self.db.write() as conn:
                indexing.store_name_tokens(conn, rows[start : start + _TOKENS_PAGE])

    def neighbours(self, ids: Sequence[int]) -> dict[int, set[int]]:
        out: dict[int, set[int]] = {i: set() for i in ids}
        with self.db.locked() as conn:
            for chunk in reads.id_chunks(list(ids)):
                for a, b in conn.execute(
                        "SELECT from_entity, to_entity FROM relations WHERE ended_at IS NULL "
                        f"AND from_entity IN ({IDS}) UNION ALL SELECT to_entity, from_entity FROM relations "
                        f"WHERE ended_at IS NULL AND to_entity IN ({IDS})", (chunk, chunk)):
                    out[a].add(b)
        return out

    def repeated_fact_rows(self) -> list[tuple[int, str, list[str]]]:
        with self.db.locked() as conn:
            rows = conn.execute(
                "SELECT e.id, e.name, o.content FROM observations o JOIN entities e ON e.id = o.entity_id "
                f"WHERE o.entity_id IN (SELECT entity_id FROM observations GROUP BY entity_id HAVING count(*) > 1) "
                f"AND e.{_LIVE.replace(' AND ', ' AND e.')} ORDER BY o.entity_id, o.id").fetchall()
        out: dict[int, tuple[int, str, list[str]]] = {}
        for eid, name, content in rows:
            out.setdefault(eid, (eid, name, []))[2].append(content)
        return list(out.values())

    def single_valued(self, types: Sequence[str]) -> list[tuple[int, str, list[tuple[str, str, str]],
                                                                 list[tuple[str, str]]]]:
        if not types:
            return []
        with self.db.locked() as conn:
            return _single_valued(conn, types)

    def relations_of(self, ids: Sequence[int]) -> list[tuple[int, str, list[tuple[str, str, str]],
                                                             list[tuple[str, str]]]]:
        out: dict[int, tuple[int, str, list[tuple[str, str, str]], list[tuple[str, str]]]] = {}
        with self.db.locked() as conn:
            for chunk in reads.id_chunks(sorted(set(ids))):
                for eid, props in conn.execute(f"SELECT id, props FROM entities WHERE id IN ({IDS}) AND {_LIVE}",
                                               (chunk,)):
                    out[eid] = (eid, props or "{}", [], [])
                for eid, rtype, name, created in conn.execute(
                        "SELECT r.from_entity, r.relation_type, t.name, r.created_at FROM relations r "
                        f"JOIN entities t ON t.id = r.to_entity WHERE r.from_entity IN ({IDS}) "
                        "AND r.ended_at IS NULL ORDER BY r.from_entity, r.id", (chunk,)):
                    if eid in out:
                        out[eid][2].append((rtype, name, created))
                for eid, content, at in conn.execute(
                        f"SELECT entity_id, content, created_at FROM observations WHERE entity_id IN ({IDS}) "
                        "ORDER BY entity_id, id", (chunk,)):
                    if eid in out:
                        out[eid][3].append((content, at))
        return list(out.values())


def _single_valued(conn: Connection, types: Sequence[str]) -> list[tuple[int, str, list[tuple[str, str, str]],
                                                                list[tuple[str, str]]]]:
    kinds = json.dumps(list(types))
    facts: dict[int, list[tuple[str, str]]] = {}
    for eid, content, at in conn.execute(
            "SELECT o.entity_id, o.content, o.created_at FROM (SELECT from_entity AS eid, min(created_at) AS since "
            "FROM relations WHERE relation_type IN (SELECT value FROM json_each(?)) AND ended_at IS NULL "
            "GROUP BY from_entity) r JOIN observations o ON o.entity_id = r.eid AND o.created_at >= r.since "
            "ORDER BY o.entity_id, o.id", (kinds,)):
        facts.setdefault(eid, []).append((content, at))
    ids = sorted({*facts, *(r[0] for r in conn.execute(
        "SELECT from_entity FROM relations WHERE relation_type IN (SELECT value FROM json_each(?)) "
        "AND ended_at IS NULL GROUP BY from_entity HAVING count(*) > 1", (kinds,)))})
    out: dict[int, tuple[int, str, list[tuple[str, str, str]], list[tuple[str, str]]]] = {}
    for chunk in reads.id_chunks(ids):
        for eid, props, rtype, name, created in conn.execute(
                "SELECT r.from_entity, f.props, r.relation_type, t.name, r.created_at FROM relations r "
                "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
                f"WHERE r.from_entity IN ({IDS}) AND r.relation_type IN (SELECT value FROM json_each(?)) "
                f"AND r.ended_at IS NULL AND f.{_LIVE.replace(' AND ', ' AND f.')} ORDER BY r.from_entity, r.id",
                (chunk, kinds)):
            out.setdefault(eid, (eid, props, [], facts.get(eid, [])))[2].append((rtype, name, created))
    return list(out.values())
