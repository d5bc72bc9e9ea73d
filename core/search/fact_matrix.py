"""Facts' vectors in memory, int8, searched by cosine: exactly while few, through a binary
pre-filter with an exact re-rank when many.

int8 rows (a quarter of float32) are turned into floats a block at a time, so memory stays at
one byte per dimension. Past ``EXACT_AT_MOST`` rows a full pass costs too much per query, so each
row also keeps a 1-bit code of its vector minus the mean vector (centred: multilingual-e5 vectors
share a large common component, and the sign bits of raw vectors are mostly alike); the Hamming
distance picks ``RERANK_SHARE`` of the facts and the int8 rows give their exact cosine. Backend-neutral:
a store feeds it (ids, int8 rows) and tells it what went away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads with the first vector, not with the server
    import numpy as np

EXACT_AT_MOST = 8_000
# Re-ranked past the pre-filter: a share of all facts (its recall of the float32 top-10 depends on
# the share, not the count: 0.98 at 10%, 0.94 at 5%, 0.55 at 0.8% on LoCoMo's facts), at least a
# few thousand.
RERANK_SHARE = 0.08
RERANK_PER_RESULT = 40
RERANK_AT_LEAST = 4_000
_BLOCK = 16_384
_SCAN = 1_024  # rows a search converts to float32 at a time


def quantize(vectors: np.ndarray) -> np.ndarray:
    """Each row scaled to ±127 at its largest component, as int8: the rows every store keeps."""
    import numpy as np

    vectors = np.atleast_2d(np.asarray(vectors, dtype=np.float32))
    peak = np.maximum(np.abs(vectors).max(axis=1, keepdims=True), 1e-12)
    rows: np.ndarray = np.clip(np.rint(vectors * (127.0 / peak)), -127, 127).astype(np.int8)
    return rows


class FactMatrix:
    """Unit vectors by fact id. Not thread-safe: callers hold their store's lock."""

    def __init__(self, *, prefilter: bool = True) -> None:
        #: past ``EXACT_AT_MOST`` rows, pre-filter by sign bits (False: every search a full exact pass)
        self.prefilter = prefilter
        self.dims = 0
        self._size = 0
        self._rows: dict[int, int] = {}
        # Made by ``reset`` (numpy loads then): nothing reads them before, as ``_rows`` is empty.
        self._ready = False
        self._q: np.ndarray  # int8 (capacity, dims)
        self._inv_norm: np.ndarray  # float32 (capacity,): 1 / |row|
        self._ids: np.ndarray  # int64 (capacity,), -1 for a removed row
        self._codes: np.ndarray | None = None   # uint64 (dims / 64, capacity): a word's bits in a row
        self._mean: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self._rows)

    def reset(self, dims: int) -> None:
        import numpy as np

        self.dims = dims
        self._ready = True
        self._size = 0
        self._rows = {}
        self._q = np.zeros((1024, dims), dtype=np.int8)
        self._inv_norm = np.zeros(1024, dtype=np.float32)
        self._ids = np.full(1024, -1, dtype=np.int64)
        self._codes = None
        self._mean = None

    def ids(self) -> set[int]:
        return set(self._rows)

    def reserve(self, capacity: int) -> None:
        """Room for ``capacity`` rows in one step (a full load: doubling left up to half of it empty)."""
        import numpy as np

        if not self._ready or capacity <= len(self._ids):
            return
        self._q = np.concatenate([self._q[: self._size], np.zeros((capacity - self._size, self.dims), np.int8)])
        self._inv_norm = np.concatenate([self._inv_norm[: self._size], np.zeros(capacity - self._size, np.float32)])
        self._ids = np.concatenate([self._ids[: self._size], np.full(capacity - self._size, -1, dtype=np.int64)])
        if self._codes is not None:
            self._codes = np.hstack([self._codes[:, : self._size],
                                     np.zeros((self._codes.shape[0], capacity - self._size), np.uint64)])

    def put(self, ids: list[int], rows: np.ndarray) -> None:
        """Add or replace ``rows`` (int8, one per id)."""
        import numpy as np

        if not ids:
            return
        rows = np.asarray(rows, dtype=np.int8).reshape(len(ids), -1)
        if rows.shape[1] != self.dims:
            return
        norms = np.concatenate([np.linalg.norm(rows[start : start + _BLOCK].astype(np.float32), axis=1)
                                for start in range(0, len(rows), _BLOCK)])  # no float copy of a full load
        for k, fid in enumerate(ids):
            slot = self._rows.get(int(fid))
            if slot is None:
                if self._size == len(self._ids):  # doubling: appends stay amortised O(1)
                    self._grow()
                slot = self._size
                self._size += 1
                self._rows[int(fid)] = slot
            self._q[slot] = rows[k]
            self._inv_norm[slot] = 1.0 / max(float(norms[k]), 1e-6)
            self._ids[slot] = int(fid)
            if self._codes is not None:
                self._codes[:, slot] = self._code(rows[k : k + 1])[0]

    def forget(self, ids: list[int] | set[int]) -> None:
        for fid in ids:
            slot = self._rows.pop(int(fid), None)
            if slot is not None:
                self._ids[slot] = -1

    def search(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest fact ids with cosine distances (1 − similarity), nearest first."""
        import numpy as np

        if not self._rows or k <= 0:
            return []
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        q = q / max(float(np.linalg.norm(q)), 1e-12)
        if not self.prefilter or len(self._rows) <= EXACT_AT_MOST:
            slots = np.arange(self._size)
        else:
            slots = self._prefilter(q, max(RERANK_AT_LEAST, RERANK_PER_RESULT * k, int(RERANK_SHARE * len(self._rows))))
        sims = self._cosines(q, slots)
        sims[self._ids[slots] < 0] = -np.inf
        k = min(k, len(slots))
        top = np.argpartition(-sims, k - 1)[:k]
        top = top[np.argsort(-sims[top], kind="stable")]
        return [(int(self._ids[slots[t]]), float(1.0 - sims[t])) for t in top if np.isfinite(sims[t])]

    def distances(self, query: np.ndarray, ids: list[int]) -> dict[int, float]:
        import numpy as np

        known = [(fid, self._rows[fid]) for fid in ids if fid in self._rows]
        if not known:
            return {}
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        q = q / max(float(np.linalg.norm(q)), 1e-12)
        sims = self._cosines(q, np.array([s for _, s in known]))
        return {fid: float(1.0 - s) for (fid, _), s in zip(known, sims, strict=True)}

    # -- internals -----------------------------------------------------------------------------

    def _cosines(self, q: np.ndarray, slots: np.ndarray) -> np.ndarray:
        """The cosines of ``slots``' rows with the unit ``q``, converted to float32 ``_SCAN`` rows at a
        time into one reused buffer (1.5 MB at 384 dims; a pass over 100k rows: 7 ms, not 19 with
        a new 16k-row float copy per block)."""
        import numpy as np

        out = np.empty(len(slots), dtype=np.float32)
        contiguous = len(slots) == self._size and (len(slots) == 0 or slots[-1] == self._size - 1)
        buffer = np.empty((min(_SCAN, len(slots)), self.dims), dtype=np.float32)
        for start in range(0, len(slots), _SCAN):
            end = min(start + _SCAN, len(slots))
            rows = buffer[: end - start]
            np.copyto(rows, self._q[start:end] if contiguous else self._q[slots[start:end]], casting="unsafe")
            np.matmul(rows, q, out=out[start:end])
        out *= self._inv_norm[: self._size] if contiguous else self._inv_norm[slots]
        return out

    def _prefilter(self, q: np.ndarray, n: int) -> np.ndarray:
        """The ``n`` live slots whose centred sign bits are nearest to the query's."""
        import numpy as np

        codes = self._codes if self._codes is not None else self._build_codes()
        qcode = self._code_float(q)
        hamming = np.zeros(self._size, dtype=np.uint16)
        for word in range(codes.shape[0]):  # one contiguous row of words at a time
            hamming += np.bitwise_count(codes[word, : self._size] ^ qcode[word])
        hamming[self._ids[: self._size] < 0] = np.iinfo(np.uint16).max
        n = min(n, self._size)
        return np.sort(np.argpartition(hamming, n - 1)[:n])

    def _build_codes(self) -> np.ndarray:
        import numpy as np

        total = np.zeros(self.dims, dtype=np.float64)
        for start in range(0, self._size, _BLOCK):  # the mean, a block at a time (no float copy)
            end = min(self._size, start + _BLOCK)
            live = self._ids[start:end] >= 0
            block = self._q[start:end][live].astype(np.float32) * self._inv_norm[start:end][live, None]
            total += block.sum(axis=0)
        self._mean = (total / max(1, len(self._rows))).astype(np.float32)
        codes = np.zeros(((self.dims + 63) // 64, len(self._ids)), dtype=np.uint64)
        for start in range(0, self._size, _BLOCK):
            end = min(self._size, start + _BLOCK)
            codes[:, start:end] = self._code(self._q[start:end]).T
        self._codes = codes
        return codes

    def _code(self, rows: np.ndarray) -> np.ndarray:
        import numpy as np

        unit = rows.astype(np.float32)
        unit /= np.maximum(np.linalg.norm(unit, axis=1, keepdims=True), 1e-6)
        return self._pack(unit - (self._mean if self._mean is not None else 0.0) > 0)

    def _code_float(self, q: np.ndarray) -> np.ndarray:
        code: np.ndarray = self._pack((q - (self._mean if self._mean is not None else 0.0))[None, :] > 0)[0]
        return code

    def _pack(self, bits: np.ndarray) -> np.ndarray:
        import numpy as np

        width = (self.dims + 63) // 64 * 64
        padded = np.zeros((bits.shape[0], width), dtype=bool)
        padded[:, : bits.shape[1]] = bits
        packed: np.ndarray = np.packbits(padded, axis=1).view(np.uint64)
        return packed

    def _grow(self) -> None:
        import numpy as np

        self._q = np.vstack([self._q, np.zeros_like(self._q)])
        self._inv_norm = np.concatenate([self._inv_norm, np.zeros_like(self._inv_norm)])
        self._ids = np.concatenate([self._ids, np.full(len(self._ids), -1, dtype=np.int64)])
        if self._codes is not None:
            self._codes = np.hstack([self._codes, np.zeros_like(self._codes)])
