"""SqliteVecStore: entity vectors in the vec0 table beside the graph, and every fact's own int8
vector (``fact_vectors``), in the same file; both searched from memory."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

from core.errors import InvalidInput
from core.search.fact_matrix import FactMatrix
from core.storage.sqlite import embedding_state, fact_vectors
from core.storage.sqlite.connection import Connection, release_page_cache
from core.storage.sqlite.database import Database, format_ts
from core.storage.sqlite.vector_cache import VectorCache

if TYPE_CHECKING:  # numpy loads with the first vector, not with the server
    import numpy as np


class SqliteVecStore:
    """Shares the graph store's ``Database`` (connection and lock), so vectors and rows change
    together, and its ``VectorCache``, from which the graph's deletions drop vectors too."""

    def __init__(self, db: Database, cache: VectorCache) -> None:
        self.db = db
        self.cache = cache
        self.facts = FactMatrix()
        self._facts_version: str | None = None
        self._facts_synced_at = ""
        with db.locked() as conn:
            self.dimensions = embedding_state.vector_dimensions(conn)

    # -- the embedding lifecycle -------------------------------------------------------------

    def prepare(self, model_id: str, dimensions: int) -> bool:
        """Fit the table to the model's vector size; True if it was rebuilt (all re-embedded)."""
        with self.db.locked() as conn:
            rebuilt = embedding_state.prepare_for_model(conn, model_id, dimensions)
            facts_dropped = fact_vectors.prepare_for_model(conn, model_id, dimensions)
            if facts_dropped or dimensions != self.dimensions:
                self._facts_version = None  # reload the matrix whole (not on every start: 500k rows)
            self.dimensions = dimensions
            return rebuilt or facts_dropped

    def pending(self, model_id: str, limit: int) -> dict[int, str]:
        """Up to ``limit`` entities lacking a current vector from ``model_id``, with their text."""
        with self.db.locked() as conn:
            ids = embedding_state.pending_ids(conn, model_id, limit)
            return embedding_state.texts_for(conn, ids)

    def newest_pending(self, model_id: str, newest: int) -> list[int]:
        """Among the ``newest`` entities, the ids of those lacking a current vector from ``model_id``."""
        with self.db.locked() as conn:
            return embedding_state.newest_pending_ids(conn, model_id, newest)

    def store_embedded(self, model_id: str, embedded: dict[int, tuple[str, np.ndarray]]) -> int:
        """Store vectors (id → (text hash, vector)) still matching the entity's text; count stored."""
        with self.db.locked() as conn:
            return embedding_state.store(conn, model_id, embedded, self.db.now())

    def texts(self, ids: Sequence[int]) -> dict[int, str]:
        """The current embedding text of each of ``ids``."""
        with self.db.locked() as conn:
            return embedding_state.texts_for(conn, ids)

    def take_lease(self, owner: str, seconds: float,
                   holder_gone: Callable[[str], bool] = lambda _owner: False) -> bool:
        """Hold the background-embedding lease for ``seconds`` (renewing it if ours); False while
        another live process holds it (one ``holder_gone`` says is dead loses it at once)."""
        with self.db.locked() as conn:
            now = self.db.clock()
            return embedding_state.take_lease(conn, owner, format_ts(now),
                                              format_ts(now + timedelta(seconds=seconds)), holder_gone)

    def lease(self) -> dict[str, str] | None:
        """Who holds the background-embedding lease, and until when."""
        with self.db.locked() as conn:
            return embedding_state.lease(conn)

    def drop_lease(self, owner: str) -> None:
        with self.db.locked() as conn:
            embedding_state.drop_lease(conn, owner)

    def release_memory(self) -> None:
        """Give back the page cache's pages (the embedder, once it caught up: the process goes idle)."""
        with self.db.locked() as conn:
            release_page_cache(conn)

    def forget_state(self) -> None:
        """Every entity becomes due for re-embedding (vectors stay searchable meanwhile)."""
        with self.db.write() as conn:
            conn.execute("DELETE FROM embedding_state")
            fact_vectors.forget(conn)

    def progress(self, model_id: str, *, in_memory: bool = False) -> tuple[int, int]:
        """(entities embedded with ``model_id``, all entities); ``in_memory``: of the entities
        ``read_graph`` returns only (archived ones, pending insights among them, left out)."""
        with self.db.locked() as conn:
            return embedding_state.counts(conn, model_id, in_memory=in_memory)

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        """Cosine distance from ``vector`` to the stored vectors of ``ids`` (from the in-memory int8
        copy: within ~1e-3 of the float distance; ``search`` answers exactly)."""
        import numpy as np

        with self.db.locked() as conn:
            self.cache.refresh(conn, self.dimensions)
            return self.cache.distances(np.asarray(vector, dtype=np.float32).reshape(-1), [int(i) for i in ids])

    def upsert(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        import numpy as np

        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape != (len(ids), self.dimensions):
            raise InvalidInput(
                f"expected {len(ids)} vectors of {self.dimensions} floats, got shape {vectors.shape}"
            )
        with self.db.write() as conn:
            embedding_state.write_vectors(conn, list(ids), list(vectors))
            self.cache.put(list(ids), list(vectors))

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest entity ids with their cosine distances, nearest first."""
        import numpy as np

        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape != (self.dimensions,):
            raise InvalidInput(f"expected a vector of {self.dimensions} floats, got {query.shape}")
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
        """Up to ``limit`` facts (observation id → text) lacking a current vector."""
        with self.db.locked() as conn:
            return fact_vectors.pending(conn, limit)

    def newest_pending_facts(self, model_id: str, newest: int) -> list[int]:
        """The due facts among the ``newest`` observations."""
        with self.db.locked() as conn:
            return fact_vectors.newest_pending(conn, newest)

    def fact_texts(self, ids: Sequence[int]) -> dict[int, str]:
        with self.db.locked() as conn:
            return fact_vectors.texts(conn, ids)

    def store_facts(self, model_id: str, embedded: dict[int, tuple[str, np.ndarray]]) -> int:
        """Store fact vectors (id → (hash of the text in context, vector)) still current; count stored."""
        with self.db.locked() as conn:
            return fact_vectors.store(conn, model_id, embedded, self.db.now())

    def fact_progress(self, model_id: str) -> tuple[int, int]:
        """(facts with a current vector, all facts)."""
        with self.db.locked() as conn:
            return fact_vectors.counts(conn)

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
        with self.db.locked() as conn:
            return fact_vectors.owners(conn, ids)

    def _sync_facts(self, conn: Connection) -> None:
        """Catch the in-memory matrix up with ``fact_vectors``: nothing when its version is the
        same, else the rows stored since the last look, and the ids gone when there are fewer."""
        import numpy as np

        current = fact_vectors.version(conn)
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
