"""SqliteVecStore: entity vectors in the vec0 table beside the graph, in the same file."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.errors import InvalidInput
from core.storage.sqlite.connection import atomic
from core.storage.sqlite.reads import IDS, id_chunks
from core.storage.sqlite.store import SqliteGraphStore


class SqliteVecStore:
    """Shares the graph store's connection and lock, so vectors and rows change together."""

    dimensions = 384

    def __init__(self, graph: SqliteGraphStore) -> None:
        self._graph = graph

    def upsert(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape != (len(ids), self.dimensions):
            raise InvalidInput(
                f"expected {len(ids)} vectors of {self.dimensions} floats, got shape {vectors.shape}"
            )
        with self._graph._lock, atomic(self._graph._conn) as conn:
            # vec0 has no UPSERT: delete, then insert.
            for chunk in id_chunks(list(ids)):
                conn.execute(f"DELETE FROM entity_embeddings WHERE rowid IN ({IDS})", (chunk,))
            conn.executemany(
                "INSERT INTO entity_embeddings(rowid, embedding) VALUES (?, ?)",
                [(int(i), v.tobytes()) for i, v in zip(ids, vectors, strict=True)],
            )

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest entity ids with their cosine distances, nearest first."""
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape != (self.dimensions,):
            raise InvalidInput(f"expected a vector of {self.dimensions} floats, got {query.shape}")
        with self._graph._lock:
            return [(int(r), float(d)) for r, d in self._graph._conn.execute(
                "SELECT rowid, distance FROM entity_embeddings WHERE embedding MATCH ? AND k = ? "
                "ORDER BY distance", (query.tobytes(), k))]

    def delete(self, ids: Sequence[int]) -> None:
        with self._graph._lock, atomic(self._graph._conn) as conn:
            for chunk in id_chunks(list(ids)):
                conn.execute(f"DELETE FROM entity_embeddings WHERE rowid IN ({IDS})", (chunk,))

    def count(self) -> int:
        with self._graph._lock:
            return self._graph._conn.execute("SELECT count(*) FROM entity_embeddings").fetchone()[0]
