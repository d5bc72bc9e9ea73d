"""SqliteVecStore: entity vectors in the vec0 table beside the graph, and every fact's own int8
vector (``fact_vectors``), in the same file; both searched from memory. Which entities need
(re-)embedding is ``embedding_state`` (a row per entity embedded, dropped when its text changes),
which facts is ``fact_due`` (filled by triggers); the rules they follow are ``core.embeddings.state``'s.

A fact's vector is stored as int8: the unit vector scaled so its largest component is ±127 (384
bytes for 384 dimensions, a quarter of float32). Cosine ranking divides by the stored vector's own
norm, so the scale needs no storing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from core.embeddings import state
from core.embeddings.context import still_current
from core.embeddings.text import HEAD_FACTS
from core.search.fact_matrix import FactMatrix, quantize
from core.storage.sqlite import embedding_state
from core.storage.sqlite.connection import Connection, atomic, release_page_cache
from core.storage.sqlite.database import Database
from core.storage.sqlite.reads import IDS, id_chunks
from core.storage.sqlite.vector_cache import VectorCache, bump_version, version

if TYPE_CHECKING:  # numpy loads with the first vector, not with the server
    import numpy as np

FACTS_VERSION_KEY = "fact_vectors_version"
FACT_MODEL_KEY = "fact_model"
FACT_DIMENSIONS_KEY = "fact_dimensions"
_META = "SELECT value FROM db_metadata WHERE key = ?"


class SqliteVecStore(state.Lease):
    """Shares the graph store's ``Database`` (connection and lock), so vectors and rows change
    together, and its ``VectorCache``, from which the graph's deletions drop vectors too."""

    def __init__(self, db: Database, cache: VectorCache) -> None:
        self.db = db
        self.cache = cache
        self.facts = FactMatrix()
        self._facts_version: str | None = None
        self._facts_synced_at = ""
        stored = self._meta("embedding_dimensions")
        self.dimensions = int(stored) if stored else state.DEFAULT_DIMENSIONS

    # -- what the rules read and write (``core.embeddings.state``) ----------------------------

    def _meta(self, key: str) -> str | None:
        with self.db.locked() as conn:
            row = conn.execute(_META, (key,)).fetchone()
            return row[0] if row else None

    def _update_meta(self, key: str, update: Callable[[str | None], str | None]) -> str | None:
        with self.db.locked() as conn, atomic(conn):
            row = conn.execute(_META, (key,)).fetchone()
            old = row[0] if row else None
            new = update(old)
            if new is None:
                conn.execute("DELETE FROM db_metadata WHERE key = ?", (key,))
            elif new != old:
                conn.execute("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)", (key, new))
            return new

    def _clock(self) -> datetime:
        return self.db.clock()

    @staticmethod
    def _texts(conn: Connection, ids: Sequence[int]) -> dict[int, str]:
        """The embedding text of each entity in ``ids`` (``state.text_of``), from its current rows."""
        rows: dict[int, tuple[str, str, dict[str, Any], list[str], list[tuple[str, str]], list[tuple[str, str]]]] = {}
        for chunk in id_chunks(list(ids)):
            for eid, name, etype, props in conn.execute(
                    f"SELECT id, name, entity_type, props FROM entities WHERE id IN ({IDS})", (chunk,)):
                rows[eid] = (name, etype, json.loads(props), [], [], [])
            for eid, content in conn.execute(
                "SELECT entity_id, content FROM (SELECT entity_id, content, row_number() OVER "
                f"(PARTITION BY entity_id ORDER BY id) AS n FROM observations WHERE entity_id IN ({IDS})) "
                "WHERE n <= ? ORDER BY entity_id, n", (chunk, HEAD_FACTS)
            ):
                rows[eid][3].append(content)
            for side, (near, far) in enumerate((("from_entity", "to_entity"), ("to_entity", "from_entity"))):
                for eid, rtype, other in conn.execute(
                    f"SELECT r.{near}, r.relation_type, o.name FROM relations r JOIN entities o ON o.id = r.{far} "
                    f"WHERE r.{near} IN ({IDS}) AND r.ended_at IS NULL ORDER BY r.id", (chunk,)):
                    (rows[eid][4], rows[eid][5])[side].append((rtype, other))
        return {eid: state.text_of(*r) for eid, r in rows.items()}

    # -- the embedding lifecycle -------------------------------------------------------------

    def prepare(self, model_id: str, dimensions: int) -> bool:
        """Fit the table to the model's vector size; True if it was rebuilt (all re-embedded).

        A different model of the same size keeps its old vectors searchable until each entity is
        re-embedded (the state rows say which are stale); a different size cannot, so the table is
        recreated empty and the re-index starts from nothing. Facts likewise (``_prepare_facts``).
        """
        with self.db.write() as conn:
            rebuilt = False
            stored = conn.execute(_META, ("embedding_dimensions",)).fetchone()
            if (int(stored[0]) if stored else state.DEFAULT_DIMENSIONS) != dimensions:
                conn.execute("DROP TABLE IF EXISTS entity_embeddings")
                conn.execute(f"CREATE VIRTUAL TABLE entity_embeddings USING vec0("
                             f"embedding float[{int(dimensions)}] distance_metric=cosine)")
                bump_version(conn)
                conn.execute("DELETE FROM embedding_state")
                rebuilt = True
            conn.executemany("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)",
                             [("embedding_dimensions", str(dimensions)), ("embedding_model", model_id)])
            facts_dropped = self._prepare_facts(conn, model_id, dimensions)
            if facts_dropped or dimensions != self.dimensions:
                self._facts_version = None  # reload the matrix whole (not on every start: 500k rows)
            self.dimensions = dimensions
            return rebuilt or facts_dropped

    @staticmethod
    def _prepare_facts(conn: Connection, model_id: str, dimensions: int) -> bool:
        """Another model makes every fact due (old vectors stay searchable meanwhile if they have the
        same size; another size drops them). True if dropped."""
        meta = dict(conn.execute("SELECT key, value FROM db_metadata WHERE key IN (?, ?)",
                                 (FACT_MODEL_KEY, FACT_DIMENSIONS_KEY)).fetchall())
        dropped = meta.get(FACT_DIMENSIONS_KEY) not in (None, str(dimensions))
        if dropped:
            conn.execute("DELETE FROM fact_vectors")
        if meta.get(FACT_MODEL_KEY) != model_id:
            conn.execute("INSERT OR IGNORE INTO fact_due(observation_id) SELECT o.id FROM observations o "
                         "LEFT JOIN fact_vectors v ON v.observation_id = o.id "
                         "WHERE v.observation_id IS NULL OR v.model_id != ?", (model_id,))
        if dropped or meta.get(FACT_MODEL_KEY) != model_id or meta.get(FACT_DIMENSIONS_KEY) != str(dimensions):
            conn.executemany("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)",
                             [(FACT_MODEL_KEY, model_id), (FACT_DIMENSIONS_KEY, str(dimensions))])
            bump_version(conn, FACTS_VERSION_KEY)  # other processes look again (nothing to do on an ordinary start)
        return dropped

    def pending(self, model_id: str, limit: int) -> dict[int, str]:
        """Up to ``limit`` entities lacking a current vector from ``model_id``, oldest first, with their text."""
        with self.db.locked() as conn:
            return self._texts(conn, [r[0] for r in conn.execute(
                "SELECT e.id FROM entities e LEFT JOIN embedding_state s ON s.entity_id = e.id "
                "WHERE s.entity_id IS NULL OR s.model_id != ? ORDER BY e.id LIMIT ?", (model_id, limit))])

    def newest_pending(self, model_id: str, newest: int) -> list[int]:
        """Among the ``newest`` entities (highest ids), the ids of those lacking a current vector from
        ``model_id``: what was just written. Reads ``newest`` rows, not the table."""
        with self.db.locked() as conn:
            return [r[0] for r in conn.execute(
                "SELECT e.id FROM (SELECT id FROM entities ORDER BY id DESC LIMIT ?) e "
                "LEFT JOIN embedding_state s ON s.entity_id = e.id WHERE s.entity_id IS NULL OR s.model_id != ? "
                "ORDER BY e.id", (newest, model_id))]

    def store_embedded(self, model_id: str, embedded: dict[int, tuple[str, np.ndarray]]) -> int:
        """Store vectors (id → (text hash, vector)) still matching the entity's text; count stored."""
        with self.db.write() as conn:
            fresh = state.current_vectors(embedded, self._texts(conn, list(embedded)))
            if not fresh:
                return 0
            embedding_state.write_vectors(conn, list(fresh), [v for _, v in fresh.values()])
            now = self.db.now()
            conn.executemany(
                "INSERT INTO embedding_state(entity_id, text_hash, model_id, embedded_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(entity_id) DO UPDATE SET text_hash = excluded.text_hash, "
                "model_id = excluded.model_id, embedded_at = excluded.embedded_at",
                [(eid, h, model_id, now) for eid, (h, _) in fresh.items()])
            return len(fresh)

    def texts(self, ids: Sequence[int]) -> dict[int, str]:
        """The current embedding text of each of ``ids``."""
        with self.db.locked() as conn:
            return self._texts(conn, ids)

    def release_memory(self) -> None:
        """Give back the page cache's pages (the embedder, once it caught up: the process goes idle)."""
        with self.db.locked() as conn:
            release_page_cache(conn)

    def forget_state(self) -> None:
        """Every entity and fact becomes due for re-embedding (vectors stay searchable meanwhile)."""
        with self.db.write() as conn:
            conn.execute("DELETE FROM embedding_state")
            conn.execute("INSERT OR IGNORE INTO fact_due(observation_id) SELECT id FROM observations")

    def progress(self, model_id: str, *, in_memory: bool = False) -> tuple[int, int]:
        """(entities embedded with ``model_id``, all entities); ``in_memory``: of the entities
        ``read_graph`` returns only (archived ones, pending insights among them, left out)."""
        with self.db.locked() as conn:
            if in_memory:
                done, total = conn.execute(
                    "SELECT count(s.entity_id), count(*) FROM entities e LEFT JOIN embedding_state s "
                    "ON s.entity_id = e.id AND s.model_id = ? WHERE e.archived_at IS NULL", (model_id,)).fetchone()
                return int(done), int(total)
            done = conn.execute("SELECT count(*) FROM embedding_state WHERE model_id = ?", (model_id,)).fetchone()[0]
            return int(done), int(conn.execute("SELECT count(*) FROM entities").fetchone()[0])

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        """Cosine distance from ``vector`` to the stored vectors of ``ids`` (from the in-memory int8
        copy: within ~1e-3 of the float distance; ``search`` answers exactly)."""
        import numpy as np

        with self.db.locked() as conn:
            self.cache.refresh(conn, self.dimensions)
            return self.cache.distances(np.asarray(vector, dtype=np.float32).reshape(-1), [int(i) for i in ids])

    def upsert(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        vectors = state.vectors_of(ids, vectors, self.dimensions)
        with self.db.write() as conn:
            embedding_state.write_vectors(conn, list(ids), list(vectors))
            self.cache.put(list(ids), list(vectors))

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest entity ids with their cosine distances, nearest first."""
        query = state.query_of(vector, self.dimensions)
        with self.db.locked() as conn:
            self.cache.refresh(conn, self.dimensions)
            return self.cache.search(query, k, conn)

    def delete(self, ids: Sequence[int]) -> None:
        with self.db.write() as conn:
            embedding_state.delete_vectors(conn, list(ids))
            self.cache.forget(list(ids))

    def count(self) -> int:
        with self.db.locked() as conn:
            return int(conn.execute("SELECT count(*) FROM entity_embeddings").fetchone()[0])

    # -- facts ---------------------------------------------------------------------------------

    def pending_facts(self, model_id: str, limit: int) -> dict[int, str]:
        """Up to ``limit`` facts (observation id → text) lacking a current vector, oldest first."""
        with self.db.locked() as conn:
            return dict(conn.execute(
                "SELECT d.observation_id, o.content FROM fact_due d JOIN observations o ON o.id = d.observation_id "
                "ORDER BY d.observation_id LIMIT ?", (limit,)).fetchall())

    def newest_pending_facts(self, model_id: str, newest: int) -> list[int]:
        """The due facts among the ``newest`` observations (what was just written)."""
        with self.db.locked() as conn:
            return [r[0] for r in conn.execute(
                "SELECT observation_id FROM fact_due WHERE observation_id > "
                "(SELECT coalesce(max(id), 0) FROM observations) - ? ORDER BY observation_id", (newest,))]

    def fact_texts(self, ids: Sequence[int]) -> dict[int, str]:
        return {oid: text for oid, (_, text) in self.fact_owners(ids).items()}

    def store_facts(self, model_id: str, embedded: dict[int, tuple[str, np.ndarray]]) -> int:
        """Store the vectors (id → (hash of the text in context, vector)) of facts whose text in context
        (``core.embeddings.context``) is still the one embedded; count stored. One renamed or edited
        meanwhile stays due."""
        import numpy as np

        with self.db.write() as conn:
            current: dict[int, tuple[str, str | None, str | None]] = {}
            for chunk in id_chunks(list(embedded)):
                for oid, content, name, etype in conn.execute(
                        "SELECT o.id, o.content, e.name, e.entity_type FROM observations o "
                        f"LEFT JOIN entities e ON e.id = o.entity_id WHERE o.id IN ({IDS})", (chunk,)):
                    current[oid] = (content, name, etype)
            fresh = [(i, h, v) for i, (h, v) in embedded.items() if i in current and still_current(h, *current[i])]
            if not fresh:
                return 0
            packed = quantize(np.stack([v for _, _, v in fresh]))
            now = self.db.now()
            conn.executemany(
                "INSERT OR REPLACE INTO fact_vectors(observation_id, model_id, text_hash, embedded_at, vector) "
                "VALUES (?, ?, ?, ?, ?)",
                [(i, model_id, h, now, packed[k].tobytes()) for k, (i, h, _) in enumerate(fresh)])
            conn.execute(f"DELETE FROM fact_due WHERE observation_id IN ({IDS})",
                         (json.dumps([i for i, _, _ in fresh]),))
            bump_version(conn, FACTS_VERSION_KEY)
            return len(fresh)

    def fact_progress(self, model_id: str) -> tuple[int, int]:
        """(facts with a current vector, all facts)."""
        with self.db.locked() as conn:
            total = conn.execute("SELECT count(*) FROM observations").fetchone()[0]
            return total - conn.execute("SELECT count(*) FROM fact_due").fetchone()[0], total

    def search_facts(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest facts (observation id, cosine distance), nearest first."""
        with self.db.locked() as conn:
            self._sync_facts(conn)
            return self.facts.search(vector, k)

    def fact_distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        with self.db.locked() as conn:
            self._sync_facts(conn)
            return self.facts.distances(vector, list(ids))

    def fact_owners(self, ids: Sequence[int]) -> dict[int, tuple[int, str]]:
        """observation id → (entity id, text) for the facts that still exist."""
        out: dict[int, tuple[int, str]] = {}
        with self.db.locked() as conn:
            for chunk in id_chunks(list(ids)):
                for oid, eid, content in conn.execute(
                        f"SELECT id, entity_id, content FROM observations WHERE id IN ({IDS})", (chunk,)):
                    out[oid] = (eid, content)
        return out

    def _sync_facts(self, conn: Connection) -> None:
        """Catch the in-memory matrix up with ``fact_vectors``: nothing when its version is the
        same, else the rows stored since the last look, and the ids gone when there are fewer."""
        import numpy as np

        current = version(conn, FACTS_VERSION_KEY)
        if current == self._facts_version and self._facts_version is not None:
            return
        stamp = conn.execute("SELECT coalesce(max(embedded_at), '') FROM fact_vectors").fetchone()[0]
        if self._facts_version is None or self.facts.dims != self.dimensions:
            self.facts.reset(self.dimensions)
            since = ""
        else:
            since = self._facts_synced_at
        rows = conn.execute("SELECT observation_id, vector FROM fact_vectors WHERE embedded_at >= ?",
                            (since,)).fetchall()
        width = self.dimensions
        rows = [r for r in rows if len(r[1]) == width]
        if rows:
            block = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.int8).reshape(len(rows), width)
            if not since:  # a full load: sized once for what is there plus an eighth
                self.facts.reserve(len(rows) + len(rows) // 8)
            self.facts.put([r[0] for r in rows], block)
            del block
            if not since:
                release_page_cache(conn)
        stored = conn.execute("SELECT count(*) FROM fact_vectors").fetchone()[0]
        if stored < len(self.facts):  # some went (a fact deleted or changed): drop them here too
            have = {r[0] for r in conn.execute("SELECT observation_id FROM fact_vectors")}
            self.facts.forget(self.facts.ids() - have)
        self._facts_synced_at = stamp
        self._facts_version = current
