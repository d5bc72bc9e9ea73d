"""The in-process int8 vector search (``core.search.fact_matrix.FactMatrix``): one exact pass over
every row, as SQLite's entity vector cache searches, and the facts' search past its exact size.

    .venv/bin/python bench/matrix_scan_bench.py [--rows 100000] [--repeat 30] [--repo PATH]

``--repo`` times another checkout's matrix (e.g. an older commit unpacked with ``git archive``),
for a before/after on the same machine. Prints median and p95 ms per search (k=10, 384 dims).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import time
from pathlib import Path

import numpy as np


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=30)
    ap.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    args = ap.parse_args()
    sys.path.insert(0, str(args.repo))
    try:
        fm = importlib.import_module("core.search.fact_matrix")
    except ImportError:  # before it moved out of core/storage
        fm = importlib.import_module("core.storage.fact_matrix")
    rng = np.random.default_rng(7)
    dims = 384
    vectors = (rng.normal(size=dims) + 0.35 * rng.normal(size=(args.rows, dims))).astype(np.float32)
    matrix = fm.FactMatrix()
    matrix.reset(dims)
    matrix.reserve(args.rows)
    matrix.put(list(range(args.rows)), fm.quantize(vectors))
    queries = vectors[:: max(1, args.rows // args.repeat)][: args.repeat] + 0.01
    print(f"\nFactMatrix search, {args.rows:,} rows × {dims} dims, k=10 ({args.repo})\n")
    print("| search | median ms | p95 ms |\n|---|---|---|")
    for label, exact_at_most in (("exact pass over every row", args.rows + 1), ("sign-bit pre-filter + re-rank", 0)):
        fm.EXACT_AT_MOST = exact_at_most
        times = []
        for q in queries:
            t0 = time.perf_counter()
            matrix.search(q, 10)
            times.append((time.perf_counter() - t0) * 1e3)
        times.sort()
        print(f"| {label} | {statistics.median(times):.2f} | {times[int(len(times) * 0.95) - 1]:.2f} |")


if __name__ == "__main__":
    main()
