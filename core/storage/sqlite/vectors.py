"""SqliteVecStore: entity vectors in the vec0 table beside the graph, in the same file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

from core.errors import InvalidInput
from core.storage.sqlite import embedding_state
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
        with db.locked() as conn:
            self.dimensions = embedding_state.vector_dimensions(conn)

    # -- the embedding lifecycle -------------------------------------------------------------

    def prepare(self, model_id: str, dimensions: int) -> bool:
        """Fit the table to the model's vector size; True if it was rebuilt (all re-embedded)."""
        with self.db.locked() as conn:
            rebuilt = embedding_state.prepare_for_model(conn, model_id, dimensions)
            self.dimensions = dimensions
            return rebuilt

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

    def forget_state(self) -> None:
        """Every entity becomes due for re-embedding (vectors stay searchable meanwhile)."""
        with self.db.write() as conn:
            conn.execute("DELETE FROM embedding_state")

    def progress(self, model_id: str) -> tuple[int, int]:
        """(entities embedded with ``model_id``, all entities)."""
        with self.db.locked() as conn:
            return embedding_state.counts(conn, model_id)

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        """Cosine distance from ``vector`` to the stored vectors of ``ids``."""
        with self.db.locked() as conn:
            return embedding_state.distances(conn, vector, ids)

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
            return self.cache.search(query, k)

    def delete(self, ids: Sequence[int]) -> None:
        with self.db.write() as conn:
            embedding_state.delete_vectors(conn, list(ids))
            self.cache.forget(list(ids))

    def count(self) -> int:
        with self.db.locked() as conn:
            return conn.execute("SELECT count(*) FROM entity_embeddings").fetchone()[0]
