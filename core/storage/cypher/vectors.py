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
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from core.embeddings.text import HEAD_FACTS, entity_text, text_hash
from core.errors import InvalidInput
from core.hygiene.store import current_relation
from core.storage.cypher import facts
from core.storage.cypher import rows as R
from core.storage.cypher.fact_vectors import FactVectorsMixin, newest_due
from core.storage.cypher.store import CypherGraphStore

if TYPE_CHECKING:  # numpy loads with the first vector
    import numpy as np

DEFAULT_DIMENSIONS = 384
LEASE_KEY = "embedding_lease"


class CypherVectorStore(FactVectorsMixin):
    """Shares the graph store's dialect, so vectors live and die with their entities; each fact's
    vector too (``cypher.facts``)."""

    def __init__(self, graph: CypherGraphStore) -> None:
        self._graph = graph
        self._db = graph.db
        stored = graph.get_metadata("embedding_dimensions")
        self.dimensions = int(stored) if stored else DEFAULT_DIMENSIONS
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
        ids = [int(i) for i in ids]
        if not ids:
            return {}
        found: dict[int, dict[str, Any]] = {}
        for eid, name, etype, props, obs in reader.read(
            "UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN e.id, e.name, e.type, e.props, e.obs", {"ids": ids}
        ):
            decoded = json.loads(props or "{}")
            summary = decoded.get("summary")
            found[eid] = {"name": name, "type": etype, "summary": summary if isinstance(summary, str) else None,
                          "obs": list(obs or [])[:HEAD_FACTS], "rels": [], "props": decoded}
        for eid, arrow, rtype, other in reader.read(
            "UNWIND $ids AS i MATCH (e:Entity {id: i})-[r:REL]-(o:Entity) WHERE r.ended_at IS NULL "
            "RETURN i, CASE WHEN startNode(r) = e THEN '→' ELSE '←' END, r.type, o.name ORDER BY r.id", {"ids": ids}
        ):
            if arrow != "→" or current_relation(found[eid]["props"], rtype, other):  # superseded: left out
                found[eid]["rels"].append((arrow, rtype, other))
        # SQLite lists outgoing relations before incoming ones
        return {eid: entity_text(r["name"], r["type"], r["obs"],
                                 sorted(r["rels"], key=lambda x: x[0] != "→"), r["summary"])
                for eid, r in found.items()}

    def pending(self, model_id: str, limit: int) -> dict[int, str]:
        """Up to ``limit`` entities lacking a current vector from ``model_id``, with their text."""
        ids = [r[0] for r in self._db.read(
            "MATCH (e:Entity) WHERE e.emb_model IS NULL OR e.emb_model <> $m RETURN e.id ORDER BY e.id LIMIT $n",
            {"m": model_id, "n": limit})]
        return self._texts(self._db, ids)

    def newest_pending(self, model_id: str, newest: int) -> list[int]:
        """Among the ``newest`` entities, the ids of those lacking a current vector from ``model_id``."""
        return newest_due(self._db, "Entity", "entity", "e.emb_model", model_id, newest)

    def texts(self, ids: Sequence[int]) -> dict[int, str]:
        """The current embedding text of each of ``ids``."""
        return self._texts(self._db, ids)

    def store_embedded(self, model_id: str, embedded: dict[int, tuple[str, np.ndarray]]) -> int:
        """Store vectors (id → (text hash, vector)) still matching the entity's text; count stored."""
        if not embedded:
            return 0

        def write(tx: Any) -> int:
            current = self._texts(tx, list(embedded))
            fresh = [{"id": int(eid), "h": h, "v": [float(x) for x in v]} for eid, (h, v) in embedded.items()
                     if eid in current and text_hash(current[eid]) == h]
            if fresh:
                self._replace(tx, fresh)
                tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e.emb_hash = r.h, e.emb_model = $m",
                         {"rows": [{"id": r["id"], "h": r["h"]} for r in fresh], "m": model_id})
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

    def take_lease(self, owner: str, seconds: float,
                   holder_gone: Callable[[str], bool] = lambda _owner: False) -> bool:
        """Hold the background-embedding lease for ``seconds``; False while another live process holds it."""
        now = self._graph.clock()

        def write(tx: Any) -> bool:
            found = tx.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": LEASE_KEY})
            if found:
                lease = json.loads(found[0][0])
                if lease["owner"] != owner and lease["until"] > R.format_ts(now) and not holder_gone(lease["owner"]):
                    return False
            tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": LEASE_KEY, "v": json.dumps(
                {"owner": owner, "until": R.format_ts(now + timedelta(seconds=seconds))})})
            return True

        return bool(self._graph.write(write))

    def lease(self) -> dict[str, str] | None:
        """Who holds the background-embedding lease, and until when."""
        value = self._graph.get_metadata(LEASE_KEY)
        return json.loads(value) if value else None

    def drop_lease(self, owner: str) -> None:
        def write(tx: Any) -> None:
            found = tx.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": LEASE_KEY})
            if found and json.loads(found[0][0])["owner"] == owner:
                tx.write("MATCH (m:Meta {key: $k}) DELETE m", {"k": LEASE_KEY})

        self._graph.write(write)

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        """Cosine distance from ``vector`` to the stored vectors of ``ids``."""
        return facts.vector_distances(self._db, "Vec", vector, ids)

    def upsert(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        import numpy as np

        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape != (len(ids), self.dimensions):
            raise InvalidInput(f"expected {len(ids)} vectors of {self.dimensions} floats, got shape {vectors.shape}")
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
        import numpy as np

        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape != (self.dimensions,):
            raise InvalidInput(f"expected a vector of {self.dimensions} floats, got {query.shape}")
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
