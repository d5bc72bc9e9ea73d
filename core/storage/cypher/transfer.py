"""A whole memory on a Cypher server as backend-neutral rows, read in pages and written back with
their ids (``core.io.migrate`` moves a memory between backends with these)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from core.storage.cypher import rows as R
from core.storage.cypher.store import CypherGraphStore

MATCHES = {"entities": "MATCH (x:Entity)", "relations": "MATCH ()-[x:REL]->()", "changes": "MATCH (x:Change)"}
COUNTERS = {"entities": "entity", "relations": "relation", "changes": "change"}


class CypherTransfer:
    def __init__(self, store: CypherGraphStore) -> None:
        self._store = store
        self._db = store.db

    def last_id(self, kind: str) -> int:
        return int(self._db.read(f"{MATCHES[kind]} RETURN coalesce(max(x.id), 0)")[0][0])

    def page(self, kind: str, after: int, size: int) -> list[dict[str, Any]]:
        read: Callable[[int, int], list[dict[str, Any]]] = getattr(self, f"_read_{kind}")
        return read(after, size)

    def write(self, kind: str, rows: Sequence[dict[str, Any]]) -> None:
        if rows:
            self._store.write(lambda tx: getattr(self, f"_write_{kind}")(tx, rows))

    def counts(self) -> dict[str, int]:
        read = self._db.read
        return {
            "entities": int(read("MATCH (e:Entity) RETURN count(e)")[0][0]),
            "observations": int(read("MATCH (e:Entity) RETURN coalesce(sum(size(e.obs)), 0)")[0][0]),
            "relations": int(read("MATCH ()-[r:REL]->() RETURN count(r)")[0][0]),
            "insights": int(read("MATCH (e:Entity) WHERE e.ins_status IS NOT NULL RETURN count(e)")[0][0]),
            "changes": int(read("MATCH (c:Change) RETURN count(c)")[0][0]),
            "vectors": int(read("MATCH (e:Entity) WHERE e.emb_model IS NOT NULL MATCH (v:Vec {id: e.id}) "
                                "RETURN count(v)")[0][0]),
        }

    # -- reading -------------------------------------------------------------------------------

    def _read_entities(self, after: int, size: int) -> list[dict[str, Any]]:
        out = []
        for (found,) in self._db.read(f"MATCH (e:Entity) WHERE e.id > $a RETURN {R.ENTITY} ORDER BY e.id LIMIT $n",
                                      {"a": after, "n": size}):
            row = R.row_of(found)
            out.append({"id": row["id"], "name": row["name"], "type": row["type"], "props": row["props"],
                        "created_at": row["created_at"], "updated_at": row["updated_at"],
                        "archived_at": row["archived_at"],
                        "obs": [[o, t] for o, t in zip(row["obs"], row["obs_at"], strict=True)]})
        return out

    def _read_relations(self, after: int, size: int) -> list[dict[str, Any]]:
        return [{"id": i, "from": f, "to": t, "type": rt, "props": json.loads(p or "{}"), "created_at": c,
                 "ended_at": e} for i, f, t, rt, p, c, e in self._db.read(
            "MATCH (a:Entity)-[r:REL]->(b:Entity) WHERE r.id > $a RETURN r.id, a.name, b.name, r.type, r.props, "
            "r.created_at, r.ended_at ORDER BY r.id LIMIT $n", {"a": after, "n": size})]

    def _read_changes(self, after: int, size: int) -> list[dict[str, Any]]:
        return [{"id": i, "at": at, "actor": who, "op": op, "entity": ent, "before": b, "after": a}
                for i, at, who, op, ent, b, a in self._db.read(
                    "MATCH (c:Change) WHERE c.id > $a RETURN c.id, c.at, c.actor, c.op, c.entity, c.before, c.after "
                    "ORDER BY c.id LIMIT $n", {"a": after, "n": size})]

    def _read_insights(self, after: int, size: int) -> list[dict[str, Any]]:
        keys = ["id", "name", "pattern", "confidence", "base", "status", "stale", "evidence", "confirmed_at",
                "decided_at", "decided_by"]
        return [dict(zip(keys, r, strict=True)) for r in self._db.read(
            "MATCH (e:Entity) WHERE e.ins_status IS NOT NULL AND e.id > $a RETURN e.id, e.name, e.ins_pattern, "
            "e.ins_confidence, e.ins_base, e.ins_status, e.ins_stale, e.ins_evidence, e.ins_confirmed_at, "
            "e.ins_decided_at, e.ins_decided_by ORDER BY e.id LIMIT $n", {"a": after, "n": size})]

    def _read_vectors(self, after: int, size: int) -> list[dict[str, Any]]:
        return [{"id": i, "hash": h, "model": m, "v": list(v)} for i, h, m, v in self._db.read(
            "MATCH (e:Entity) WHERE e.id > $a AND e.emb_model IS NOT NULL MATCH (v:Vec {id: e.id}) "
            "RETURN e.id, e.emb_hash, e.emb_model, v.embedding ORDER BY e.id LIMIT $n", {"a": after, "n": size})]

    # -- writing (ids kept, counters moved past them) -------------------------------------------

    @staticmethod
    def _advance(tx: Any, kind: str, rows: Sequence[dict[str, Any]]) -> None:
        tx.next_ids(COUNTERS[kind], 0)  # loads the counter
        tx.counters[COUNTERS[kind]] = max(tx.counters[COUNTERS[kind]], max(r["id"] for r in rows))

    def _write_entities(self, tx: Any, rows: Sequence[dict[str, Any]]) -> None:
        self._store.put_rows(tx, [{**r, "obs": [o for o, _ in r["obs"]], "obs_at": [t for _, t in r["obs"]]}
                              for r in rows], create=True)
        self._advance(tx, "entities", rows)

    def _write_relations(self, tx: Any, rows: Sequence[dict[str, Any]]) -> None:
        tx.write("UNWIND $rels AS p MATCH (a:Entity {name: p.f}), (b:Entity {name: p.t}) "
                 "CREATE (a)-[:REL {id: p.id, type: p.type, props: p.props, created_at: p.c, ended_at: p.e}]->(b)",
                 {"rels": [{"f": r["from"], "t": r["to"], "id": r["id"], "type": r["type"],
                            "props": R.dumps(r["props"]), "c": r["created_at"], "e": r["ended_at"]} for r in rows]})
        self._advance(tx, "relations", rows)

    def _write_changes(self, tx: Any, rows: Sequence[dict[str, Any]]) -> None:
        tx.write("UNWIND $rows AS r CREATE (c:Change) SET c = r", {"rows": list(rows)})
        self._advance(tx, "changes", rows)

    @staticmethod
    def _write_insights(tx: Any, rows: Sequence[dict[str, Any]]) -> None:
        tx.write("UNWIND $rows AS r MATCH (e:Entity {name: r.name}) SET e.ins_pattern = r.pattern, "
                 "e.ins_confidence = r.confidence, e.ins_base = r.base, e.ins_status = r.status, "
                 "e.ins_stale = r.stale, "
                 "e.ins_evidence = r.evidence, e.ins_confirmed_at = r.confirmed_at, e.ins_decided_at = r.decided_at, "
                 "e.ins_decided_by = r.decided_by", {"rows": [{**r, "stale": int(r["stale"])} for r in rows]})

    def _write_vectors(self, tx: Any, rows: Sequence[dict[str, Any]]) -> None:
        from core.storage.cypher.vectors import CypherVectorStore

        CypherVectorStore.replace_rows(self._db, tx, [{"id": r["id"], "v": [float(x) for x in r["v"]]} for r in rows])
        tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e.emb_hash = r.hash, e.emb_model = r.model",
                 {"rows": [{"id": r["id"], "hash": r["hash"], "model": r["model"]} for r in rows]})
