"""An in-memory copy of every entity vector, int8, searched with one pass over it; the nearest
few re-scored with the stored float vectors, so the answer is the exact one.

sqlite-vec scans its vec0 table brute force: ~60 ms for 100k × 384-d on 2 cores, and its one-bit
quantised pass recalled half the true neighbours of multilingual-e5 vectors (they share a large
common component, so most sign bits are alike). A matrix in memory is searched in ~1 ms at 10k.
It holds each vector as int8 codes scaled to the row's largest component, in a ``FactMatrix``
(``core.search.fact_matrix``, always searched by a full pass): a quarter of float32 (4.5 MB
instead of 17 at 10k entities). Their cosines are within ~1e-3 of the exact
ones, which reorders near ties, so a search takes the best ``pool(k)`` rows by int8 and re-scores
them with the float vectors read back from vec0 (a rowid lookup, ~10 µs a row): ids and distances
are those of an exact float32 search (``tests/storage/test_vector_cache.py``). vec0 stays the
durable copy; this cache follows it through a counter in db_metadata that every vector write
bumps, fetching only what changed since it last looked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.search.fact_matrix import FactMatrix, quantize
from core.storage.sqlite.connection import Connection, release_page_cache

if TYPE_CHECKING:  # numpy loads with the first vector, not with the server
    import numpy as np

VERSION_KEY = "vectors_version"
#: Rows read from vec0 at a time by a full load.
_LOAD_BLOCK = 1024


def pool(k: int) -> int:
    """How many int8 candidates a search re-scores for ``k`` results. Measured at 10k entities
    (200 queries near an entity): the exact top 50 was always within the int8 top 55."""
    return 2 * k + 16


def bump_version(conn: Connection, key: str = VERSION_KEY) -> None:
    """Mark that vectors changed (in the writer's transaction): entities' (``key``) or facts'."""
    conn.execute(
        "INSERT INTO db_metadata(key, value) VALUES (?, '1') "
        "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1", (key,))


def version(conn: Connection, key: str = VERSION_KEY) -> str | None:
    row = conn.execute("SELECT value FROM db_metadata WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def _unit(vector: np.ndarray) -> np.ndarray:
    import numpy as np

    vector = np.asarray(vector, dtype=np.float32).reshape(-1)
    return vector / max(float(np.linalg.norm(vector)), 1e-12)


class VectorCache:
    """Entity vectors by id, as int8 rows of one ``FactMatrix``, kept in step with vec0. Not
    thread-safe: callers hold the store's lock."""

    def __init__(self) -> None:
        self.matrix = FactMatrix(prefilter=False)  # allocated by the first load
        self._version: str | None = None
        self._synced_at = ""

    def put(self, ids: list[int], vectors: list[np.ndarray]) -> None:
        """Vectors written by this process: in the cache at once, whatever refresh() would find."""
        if self._version is not None and ids:  # not loaded yet: the first refresh reads everything
            import numpy as np

            self.matrix.put([int(i) for i in ids], quantize(np.asarray(vectors)).reshape(len(ids), -1))

    def forget(self, ids: list[int]) -> None:
        """Drop vectors deleted by this process (others' deletions are filtered by the caller)."""
        self.matrix.forget(ids)

    def refresh(self, conn: Connection, dims: int) -> None:
        """Catch up with vec0: nothing if the version is unchanged, else the rows embedded since
        the last look, or everything after a model change."""
        current = version(conn)
        if current == self._version and dims == self.matrix.dims and self._version is not None:
            return
        stamp = self._now_stamp(conn)  # before reading: later writes are picked up next time
        if dims != self.matrix.dims or self._version is None:
            self._load_all(conn, dims)
        else:
            changed = [r[0] for r in conn.execute(
                "SELECT entity_id FROM embedding_state WHERE embedded_at >= ?", (self._synced_at,))]
            self._upsert(conn, changed)
        self._synced_at = stamp
        self._version = current

    def search(self, query: np.ndarray, k: int, conn: Connection | None = None) -> list[tuple[int, float]]:
        """The ``k`` nearest ids with cosine distances (1 − cosine similarity), nearest first:
        exact when ``conn`` is given (the candidates re-scored from vec0), else from the int8 codes."""
        if not len(self.matrix) or k <= 0:
            return []
        q = _unit(query)
        found = [(i, 1.0 - d) for i, d in self.matrix.search(q, pool(k) if conn is not None else k)]
        if conn is not None:
            exact = self._stored_cosines(conn, q, [i for i, _ in found])
            found = [(i, exact.get(i, s)) for i, s in found]
        found.sort(key=lambda pair: -pair[1])
        return [(i, 1.0 - s) for i, s in found[:k]]

    def distances(self, query: np.ndarray, ids: list[int], conn: Connection | None = None) -> dict[int, float]:
        """Cosine distances from ``query`` to the cached vectors of ``ids`` (ids not cached are
        absent): exact when ``conn`` is given (read from vec0), else from the int8 codes."""
        q = _unit(query)
        found = self.matrix.distances(q, [int(i) for i in ids])
        if conn is not None:
            found.update({i: 1.0 - s for i, s in self._stored_cosines(conn, q, list(found)).items()})
        return found

    def _stored_cosines(self, conn: Connection, q: np.ndarray, ids: list[int]) -> dict[int, float]:
        """Cosines with the float vectors vec0 holds for ``ids`` (ids it has not are absent)."""
        import numpy as np

        found: list[int] = []
        blobs: list[bytes] = []
        width = self.matrix.dims * 4
        for eid in ids:
            row = conn.execute("SELECT embedding FROM entity_embeddings WHERE rowid = ?", (eid,)).fetchone()
            if row is not None and len(row[0]) == width:
                found.append(eid)
                blobs.append(row[0])
        if not found:
            return {}
        vectors = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(found), -1)
        sims = (vectors @ q) / np.maximum(np.linalg.norm(vectors, axis=1), 1e-12)
        return dict(zip(found, sims.tolist(), strict=True))

    # -- loading -----------------------------------------------------------------------------

    def _load_all(self, conn: Connection, dims: int) -> None:
        self.matrix.reset(dims)
        count = int(conn.execute("SELECT count(*) FROM entity_embeddings").fetchone()[0])
        # Sized for what is there plus an eighth: doubling from 1,024 left 10k vectors in a
        # 16,384-row matrix, and copied it at every step.
        self.matrix.reserve(max(1024, count + count // 8))
        # Read and quantised a block at a time: no float32 copy of every vector at once.
        cursor = conn.execute("SELECT rowid, embedding FROM entity_embeddings")
        while rows := cursor.fetchmany(_LOAD_BLOCK):
            self._add_blobs(rows)
        release_page_cache(conn)

    def _upsert(self, conn: Connection, ids: list[int]) -> None:
        rows = []
        for eid in ids:
            row = conn.execute("SELECT rowid, embedding FROM entity_embeddings WHERE rowid = ?", (eid,)).fetchone()
            if row is not None:
                rows.append(row)
        self._add_blobs(rows)

    @staticmethod
    def _now_stamp(conn: Connection) -> str:
        row = conn.execute("SELECT max(embedded_at) FROM embedding_state").fetchone()
        return row[0] or ""

    def _add_blobs(self, rows: list[tuple[int, bytes]]) -> None:
        import numpy as np

        width = self.matrix.dims * 4
        rows = [row for row in rows if len(row[1]) == width]
        if rows:
            vectors = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32).reshape(len(rows), -1)
            self.matrix.put([int(eid) for eid, _ in rows], quantize(vectors))
