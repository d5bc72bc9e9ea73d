"""The fact matrix holds what it is given and little more: a full load is sized once (doubling left
up to half of it empty), and answers exactly as a matrix that grew row by row."""

from __future__ import annotations

import numpy as np

from core.search.fact_matrix import EXACT_AT_MOST, FactMatrix


def _rows(n: int, dims: int = 384, seed: int = 7) -> np.ndarray:
    return np.random.default_rng(seed).integers(-127, 128, size=(n, dims), dtype=np.int8)


def test_a_reserved_full_load_answers_as_a_grown_one_in_less_room() -> None:
    n = EXACT_AT_MOST + 1_500  # past the exact pass: the binary pre-filter is in play too
    rows, ids = _rows(n), list(range(10, 10 + n))
    grown, reserved = FactMatrix(), FactMatrix()
    grown.reset(384)
    reserved.reset(384)
    grown.put(ids, rows)
    reserved.reserve(n + n // 8)
    reserved.put(ids, rows)
    assert len(reserved._ids) == n + n // 8 < len(grown._ids)  # 10,687 rows of room, not 16,384
    for query in _rows(5, seed=11).astype(np.float32):
        assert reserved.search(query, 10) == grown.search(query, 10)
    more = _rows(2_000, seed=13)  # rows added after the load still find room
    reserved.put(list(range(10 + n, 10 + n + 2_000)), more)
    grown.put(list(range(10 + n, 10 + n + 2_000)), more)
    assert len(reserved) == len(grown) == n + 2_000
    query = _rows(1, seed=17)[0].astype(np.float32)
    assert reserved.search(query, 10) == grown.search(query, 10)


def test_reserve_never_shrinks_nor_loses_rows() -> None:
    matrix = FactMatrix()
    matrix.reset(384)
    matrix.put([1, 2, 3], _rows(3))
    matrix.reserve(2)  # less than it has: nothing changes
    assert len(matrix) == 3 and len(matrix._ids) == 1024
    matrix.reserve(5000)
    assert len(matrix._ids) == 5000 and matrix.search(_rows(1)[0].astype(np.float32), 1)[0][0] == 1
