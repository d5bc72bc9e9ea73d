"""The entity vector cache holds int8 codes (a quarter of float32) and still searches as an exact
float32 search: the same ids in the same order with the same distances, near ties included,
whether the vectors were written by this process or loaded from vec0 by another one. Distances
to given ids come from the codes, within a thousandth."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from core.memory import Memory
from core.settings import Settings
from core.storage.sqlite.vector_cache import VectorCache

DIMS = 384


def _vectors(n: int, seed: int = 3) -> np.ndarray:
    """Like multilingual-e5's: a large common component, small differences, and near-twins."""
    rng = np.random.default_rng(seed)
    common = rng.normal(size=DIMS).astype(np.float32)
    out = common + 0.35 * rng.normal(size=(n, DIMS)).astype(np.float32)
    out[n // 2 :: 7] = out[n // 2 - 1 : n - 1 : 7][: len(out[n // 2 :: 7])] + 1e-3 * rng.normal(
        size=(len(out[n // 2 :: 7]), DIMS)).astype(np.float32)  # near-twins: cosines a hair apart
    return out


def _exact(vectors: np.ndarray, ids: list[int], query: np.ndarray, k: int) -> list[tuple[int, float]]:
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    sims = unit @ (query / np.linalg.norm(query))
    order = np.argsort(-sims, kind="stable")[:k]
    return [(ids[i], float(1.0 - sims[i])) for i in order]


def _same(got: list[tuple[int, float]], want: list[tuple[int, float]], every: dict[int, float]) -> None:
    """The exact top k: the same distances rank by rank, each the id's own exact distance (ids
    may differ only between twins whose float32 cosines are within 1e-6)."""
    assert len(got) == len(want)
    assert np.allclose([d for _, d in got], [d for _, d in want], atol=1e-6)
    assert all(abs(every[i] - d) < 1e-6 for i, d in got)
    assert sum(a != b for (a, _), (b, _) in zip(got, want, strict=True)) <= 2


def _cache_bytes(cache: VectorCache) -> int:
    return sum(v.nbytes for v in vars(cache.matrix).values() if isinstance(v, np.ndarray))


def test_int8_cache_answers_as_an_exact_float_search(tmp_path: Path) -> None:
    n = 1_500
    vectors = _vectors(n)
    db = tmp_path / "v.db"
    with Memory(Settings(db=db, embeddings="none")) as mem:
        mem.create_entities([{"name": f"e{i}", "entityType": "t"} for i in range(n)])
        ids = [mem.get_node(f"e{i}").id for i in range(n)]
        mem.vectors.upsert(ids[:10], vectors[:10])
        mem.vectors.search(vectors[0], 1)  # the cache loads: the rest arrives through put()
        mem.vectors.upsert(ids[10:], vectors[10:])
        queries = np.concatenate([vectors[n // 2 - 1 :: 97] + 1e-4, _vectors(20, seed=9)])
        for query in queries:
            every = dict(_exact(vectors, ids, query, n))
            for k in (1, 10, 40):
                _same(mem.vectors.search(query, k), _exact(vectors, ids, query, k), every)
        some = ids[::37]
        want = {i: d for i, d in _exact(vectors, ids, queries[0], n)}
        got = mem.vectors.distances(queries[0], some)  # from the codes (a search's candidates: exact)
        assert set(got) == set(some) and all(abs(got[i] - want[i]) < 2e-3 for i in some)
        with mem.vectors.db.locked() as conn:  # with a connection: the stored floats, exactly
            exact = mem.vectors.cache.distances(queries[0], some, conn)
        assert all(abs(exact[i] - want[i]) < 1e-6 for i in some)
        cache = mem.vectors.cache
        # one byte a dimension (with room for an eighth more), not four
        assert _cache_bytes(cache) < 0.4 * n * DIMS * 4
    with Memory(Settings(db=db, embeddings="none")) as other:  # a full load from vec0
        for query in queries[:8]:
            every = dict(_exact(vectors, ids, query, n))
            _same(other.vectors.search(query, 10), _exact(vectors, ids, query, 10), every)
        assert _cache_bytes(other.vectors.cache) < 0.4 * n * DIMS * 4


def test_without_a_connection_the_codes_answer_within_a_thousandth() -> None:
    n = 800
    vectors = _vectors(n, seed=5)
    cache = VectorCache()
    cache.matrix.reset(DIMS)  # as a load from an empty vec0 leaves it
    cache._version = "loaded"
    cache.put(list(range(n)), list(vectors))
    query = vectors[3] + 0.1
    exact = dict(_exact(vectors, list(range(n)), query, n))
    approx = cache.distances(query, list(range(n)))
    assert max(abs(approx[i] - exact[i]) for i in range(n)) < 2e-3
    top = cache.search(query, 10)
    assert len({i for i, _ in top} & {i for i, _ in _exact(vectors, list(range(n)), query, 10)}) >= 8
