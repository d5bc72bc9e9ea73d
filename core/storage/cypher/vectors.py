"""CypherVectorStore: each entity's vector on a ``:Vec {id}`` node of its own, searched by the
server's vector index (the dialect says why the vector is not on the entity node); each fact's
int8 vector on its ``:Fact`` node, searched in this process (``cypher.fact_vectors``).

Which model embedded an entity, and from what text, is kept on the entity node (``emb_model``,
``emb_hash``); every write that changes an entity's text clears ``emb_model``, so it is embedded
again, while its old vector stays searchable meanwhile.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

from core.embeddings import state
from core.storage.cypher import facts
from core.storage.cypher.fact_vectors import FactVectorsMixin, newest_due
from core.storage.cypher.store import CypherGraphStore

if TYPE_CHECKING:  # numpy loads with the first vector
    import numpy as np

class CypherVectorStore(FactVectorsMixin, state.Lease):
    """Shares the graph store's dialect, so vectors live and die with their entities; each fact's
    vector too (``cypher.facts``)."""

    def __init__(self, graph: CypherGraphStore) -> None:
        self._graph = graph
        self._db = graph.db
        stored = graph.get_metadata("embedding_dimensions")
        self.dimensions = int(stored) if stored else state.DEFAULT_DIMENSIONS
        if not graph.read_only:
            self._db.create_vector_index(self.dimensions)
        self._open_facts()  # facts' int8 vectors (a graph with float32 ones is converted)

    # -- the embedding lifecycle -------------------------------------------------------------

    def prepare(self, model_id: str, dimensions: int) -> bool:
        """Fit the index to the model's vector size; True if it was rebuilt (all re-embedded)."""
        rebuilt = False
        if dimensions != self.dimensions or self._graph.get_metadata("embedding_dimensions") is None:
            rebuilt = dimensions != self.dimensions
            if rebuilt:
                self._db.drop_vector_index()

                def clear(tx: Any) -> None:
                    tx.write("MATCH (v:Vec) DELETE v")
                    tx.write("MATCH (e:Entity) SET e.emb_model = null, e.emb_hash = null")
                    self._drop_fact_vectors(tx)

                self._graph.write(clear)
                self._db.create_vector_index(dimensions)
            self.dimensions = dimensions
        self._graph.set_metadata("embedding_dimensions", str(dimensions))
        self._graph.set_metadata("embedding_model", model_id)
        return rebuilt

    def _texts(self, reader: Any, ids: Sequence[int]) -> dict[int, str]:
        """The embedding text of each entity in ``ids`` (``state.text_of``), from its current rows."""
        ids = [int(i) for i in ids]
        if not ids:
            return {}
        found: dict[int, tuple[str, str, dict[str, Any], list[str], list[tuple[str, str]], list[tuple[str, str]]]] = {
            eid: (name, etype, json.loads(props or "{}"), list(obs or []), [], []) for eid, name, etype, props, obs
            in reader.read("UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN e.id, e.name, e.type, e.props, e.obs",
                           {"ids": ids})}
        for eid, out, rtype, other in reader.read(
            "UNWIND $ids AS i MATCH (e:Entity {id: i})-[r:REL]-(o:Entity) WHERE r.ended_at IS NULL "
            "RETURN i, startNode(r) = e, r.type, o.name ORDER BY r.id", {"ids": ids}
        ):
            (found[eid][4] if out else found[eid][5]).append((rtype, other))
        return {eid: state.text_of(*r) for eid, r in found.items()}

    def pending(self, model_id: str, limit: int) -> dict[int, str]:
        """Up to ``limit`` entities lacking a current vector from ``model_id``, with their text."""
        ids = [r[0] for r in self._db.read(
            "MATCH (e:Entity) WHERE e.emb_model IS NULL OR e.emb_model <> $m RETURN e.id ORDER BY e.id LIMIT $n",
            {"m": model_id, "n": limit})]
        return self._texts(self._db, ids)

    def newest_pending(self, model_id: str, newest: int) -> list[int]:
        """Among the ``newest`` entities, the ids of those lacking a current vector from ``model_id``."""
        return newest_due(self._graph.memo, "Entity", "entity", "e.emb_model", model_id, newest)

    def texts(self, ids: Sequence[int]) -> dict[int, str]:
        """The current embedding text of each of ``ids``."""
        return self._texts(self._db, ids)

    def store_embedded(self, model_id: str, embedded: dict[int, tuple[str, np.ndarray]]) -> int:
        """Store vectors (id → (text hash, vector)) still matching the entity's text; count stored."""
        if not embedded:
            return 0

        def write(tx: Any) -> int:
            fresh = state.current_vectors(embedded, self._texts(tx, list(embedded)))
            if fresh:
                self._replace(tx, [{"id": int(i), "v": [float(x) for x in v]} for i, (_, v) in fresh.items()])
                tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e.emb_hash = r.h, e.emb_model = $m",
                         {"rows": [{"id": int(i), "h": h} for i, (h, _) in fresh.items()], "m": model_id})
            return len(fresh)

        return int(self._graph.write(write))

    def progress(self, model_id: str, *, in_memory: bool = False) -> tuple[int, int]:
        """(entities embedded with ``model_id``, all entities); ``in_memory``: of the entities
        ``read_graph`` returns only (archived ones, pending insights among them, left out)."""
        where = " WHERE e.archived_at IS NULL" if in_memory else ""
        done, total = self._db.read(f"MATCH (e:Entity){where} RETURN sum(CASE WHEN e.emb_model = $m THEN 1 "
                                    "ELSE 0 END), count(e)", {"m": model_id})[0]
        return int(done or 0), int(total)

    def forget_state(self) -> None:
        """Every entity and fact becomes due for re-embedding (vectors stay searchable meanwhile)."""
        def write(tx: Any) -> None:
            tx.write("MATCH (e:Entity) SET e.emb_model = null")
            self._forget_facts(tx)

        self._graph.write(write)

    def _meta(self, key: str) -> str | None:
        return cast("str | None", self._graph.get_metadata(key))

    def _update_meta(self, key: str, update: Callable[[str | None], str | None]) -> str | None:
        def write(tx: Any) -> str | None:
            found = tx.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": key})
            old = found[0][0] if found else None
            new = update(old)
            if new is None and old is not None:
                tx.write("MATCH (m:Meta {key: $k}) DELETE m", {"k": key})
            elif new != old:
                tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": key, "v": new})
            return new

        return cast("str | None", self._graph.write(write))

    def _clock(self) -> datetime:
        return cast(datetime, self._graph.clock())

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        """Cosine distance from ``vector`` to the stored vectors of ``ids``."""
        return facts.vector_distances(self._db, "Vec", vector, ids)

    def upsert(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        vectors = state.vectors_of(ids, vectors, self.dimensions)
        rows = [{"id": int(i), "v": [float(x) for x in v]} for i, v in zip(ids, vectors, strict=True)]
        self._graph.write(lambda tx: self._replace(tx, rows))

    def _replace(self, tx: Any, rows: list[dict[str, Any]]) -> None:
        self.replace_rows(self._db, tx, rows)

    @staticmethod
    def replace_rows(db: Any, tx: Any, rows: list[dict[str, Any]]) -> None:
        """New ``:Vec`` nodes for ``rows`` (id, v) of existing entities, old ones deleted first."""
        ids = [r["id"] for r in rows]
        tx.write("UNWIND $ids AS i MATCH (v:Vec {id: i}) DELETE v", {"ids": ids})
        tx.write(f"UNWIND $rows AS r MATCH (e:Entity {{id: r.id}}) CREATE (v:Vec {{id: r.id}}) "
                 f"SET v.embedding = {db.vector_value('r.v')}", {"rows": rows})

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest entity ids with their cosine distances, nearest first."""
        query = state.query_of(vector, self.dimensions)
        if k <= 0:
            return []
        found = self._db.read(f"{self._db.VECTOR_CALL} RETURN node.id, score ORDER BY score, node.id",
                              {"k": int(k), "v": [float(x) for x in query]})
        return [(int(i), float(s)) for i, s in found]

    def delete(self, ids: Sequence[int]) -> None:
        def write(tx: Any) -> None:
            params = {"ids": [int(i) for i in ids]}
            tx.write("UNWIND $ids AS i MATCH (v:Vec {id: i}) DELETE v", params)
            tx.write("UNWIND $ids AS i MATCH (e:Entity {id: i}) SET e.emb_model = null", params)

        self._graph.write(write)

    def count(self) -> int:
        return int(self._db.read("MATCH (v:Vec) RETURN count(v)")[0][0])
