"""A whole SQLite memory as backend-neutral rows, read in pages and written back with their ids
(``core.io.migrate`` moves a memory between backends with these)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from core.storage.sqlite import embedding_state, indexing
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database

TABLES = {"entities": "entities", "relations": "relations", "changes": "change_log"}


class SqliteTransfer:
    def __init__(self, db: Database) -> None:
        self.db = db

    def last_id(self, kind: str) -> int:
        with self.db.locked() as conn:
            return int(conn.execute(f"SELECT coalesce(max(id), 0) FROM {TABLES[kind]}").fetchone()[0])

    def page(self, kind: str, after: int, size: int) -> list[dict[str, Any]]:
        """Rows of ``kind`` with id > ``after``, in id order (insights and vectors by entity id)."""
        with self.db.locked() as conn:
            read: Callable[[Connection, int, int], list[dict[str, Any]]] = getattr(self, f"_read_{kind}")
            return read(conn, after, size)

    def write(self, kind: str, rows: Sequence[dict[str, Any]]) -> None:
        if rows:
            with self.db.write() as conn:
                getattr(self, f"_write_{kind}")(conn, rows)

    def counts(self) -> dict[str, int]:
        with self.db.locked() as conn:
            return {k: int(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for k, t in (
                ("entities", "entities"), ("observations", "observations"), ("relations", "relations"),
                ("insights", "insights"), ("changes", "change_log"), ("vectors", "embedding_state"))}

    # -- reading -------------------------------------------------------------------------------

    @staticmethod
    def _read_entities(conn: Any, after: int, size: int) -> list[dict[str, Any]]:
        rows = [{"id": i, "name": n, "type": t, "props": json.loads(p), "created_at": c, "updated_at": u,
                 "archived_at": a, "obs": []} for i, n, t, p, c, u, a in conn.execute(
            "SELECT id, name, entity_type, props, created_at, updated_at, archived_at FROM entities "
            "WHERE id > ? ORDER BY id LIMIT ?", (after, size))]
        by_id = {r["id"]: r for r in rows}
        if rows:
            for eid, content, created in conn.execute(
                "SELECT entity_id, content, created_at FROM observations WHERE entity_id BETWEEN ? AND ? ORDER BY id",
                (rows[0]["id"], rows[-1]["id"])):
                if eid in by_id:
                    by_id[eid]["obs"].append([content, created])
        return rows

    @staticmethod
    def _read_relations(conn: Any, after: int, size: int) -> list[dict[str, Any]]:
        return [{"id": i, "from": f, "to": t, "type": rt, "props": json.loads(p), "created_at": c, "ended_at": e}
                for i, f, t, rt, p, c, e in conn.execute(
                    "SELECT r.id, f.name, t.name, r.relation_type, r.props, r.created_at, r.ended_at FROM relations r "
                    "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
                    "WHERE r.id > ? ORDER BY r.id LIMIT ?", (after, size))]

    @staticmethod
    def _read_changes(conn: Any, after: int, size: int) -> list[dict[str, Any]]:
        return [{"id": i, "at": at, "actor": who, "op": op, "entity": ent, "before": b, "after": a}
                for i, at, who, op, ent, b, a in conn.execute(
                    "SELECT id, at, actor, op, entity, before, after FROM change_log WHERE id > ? ORDER BY id LIMIT ?",
                    (after, size))]

    @staticmethod
    def _read_insights(conn: Any, after: int, size: int) -> list[dict[str, Any]]:
        keys = ["id", "name", "pattern", "confidence", "base", "status", "stale", "evidence", "confirmed_at",
                "decided_at", "decided_by"]
        return [dict(zip(keys, r, strict=True)) for r in conn.execute(
            "SELECT i.entity_id, e.name, i.pattern, i.confidence, i.base_confidence, i.status, i.stale, i.evidence, "
            "i.confirmed_at, i.decided_at, i.decided_by FROM insights i JOIN entities e ON e.id = i.entity_id "
            "WHERE i.entity_id > ? ORDER BY i.entity_id LIMIT ?", (after, size))]

    @staticmethod
    def _read_vectors(conn: Any, after: int, size: int) -> list[dict[str, Any]]:
        import numpy as np

        rows = []
        for eid, h, model in conn.execute(
            "SELECT entity_id, text_hash, model_id FROM embedding_state WHERE entity_id > ? ORDER BY entity_id "
            "LIMIT ?", (after, size)):
            blob = conn.execute("SELECT embedding FROM entity_embeddings WHERE rowid = ?", (eid,)).fetchone()
            if blob is not None:
                rows.append({"id": eid, "hash": h, "model": model,
                             "v": np.frombuffer(blob[0], dtype=np.float32).tolist()})
        return rows

    # -- writing (ids kept) --------------------------------------------------------------------

    @staticmethod
    def _write_entities(conn: Any, rows: Sequence[dict[str, Any]]) -> None:
        conn.executemany(
            "INSERT INTO entities(id, name, entity_type, props, created_at, updated_at, archived_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(r["id"], r["name"], r["type"], json.dumps(r["props"], ensure_ascii=False), r["created_at"],
              r["updated_at"], r["archived_at"]) for r in rows])
        conn.executemany("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                         [(r["id"], o, t) for r in rows for o, t in r["obs"]])
        indexing.reindex(conn, [r["id"] for r in rows], fresh=True)

    @staticmethod
    def _write_relations(conn: Any, rows: Sequence[dict[str, Any]]) -> None:
        names = {n for r in rows for n in (r["from"], r["to"])}
        ids = dict(conn.execute("SELECT name, id FROM entities WHERE name IN (SELECT value FROM json_each(?))",
                                (json.dumps(list(names)),)).fetchall())
        conn.executemany(
            "INSERT INTO relations(id, from_entity, to_entity, relation_type, props, created_at, ended_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(r["id"], ids[r["from"]], ids[r["to"]], r["type"], json.dumps(r["props"], ensure_ascii=False),
              r["created_at"], r["ended_at"]) for r in rows])

    @staticmethod
    def _write_changes(conn: Any, rows: Sequence[dict[str, Any]]) -> None:
        conn.executemany("INSERT INTO change_log(id, at, actor, op, entity, before, after) "
                         "VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(r["id"], r["at"], r["actor"], r["op"], r["entity"], r["before"], r["after"]) for r in rows])

    @staticmethod
    def _write_insights(conn: Any, rows: Sequence[dict[str, Any]]) -> None:
        conn.executemany(
            "INSERT OR REPLACE INTO insights(entity_id, pattern, confidence, base_confidence, status, stale, evidence, "
            "confirmed_at, decided_at, decided_by) SELECT id, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM entities WHERE name = ?",
            [(r["pattern"], r["confidence"], r["base"], r["status"], int(r["stale"]), r["evidence"], r["confirmed_at"],
              r["decided_at"], r["decided_by"], r["name"]) for r in rows])

    @staticmethod
    def _write_vectors(conn: Any, rows: Sequence[dict[str, Any]]) -> None:
        embedding_state.write_vectors(conn, [r["id"] for r in rows], [r["v"] for r in rows])
        conn.executemany(
            "INSERT OR REPLACE INTO embedding_state(entity_id, text_hash, model_id, embedded_at) "
            "VALUES (?, ?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))", [(r["id"], r["hash"], r["model"]) for r in rows])
