"""A cold reflect at scale: the first ever on a memory, in a new store; then after one write; then an
app restart (a new store on the reflected memory, after one write). Every insight is dumped after
the cold run, to compare two versions of the code byte for byte.

    .venv/bin/python bench/reflect_cold_bench.py --build 100000 --graph /tmp/g.db    # once: the graph
    .venv/bin/python bench/reflect_cold_bench.py --graph /tmp/g.db --dump /tmp/after.jsonl

The graph is ``reflect_bench.build_graph`` plus 200 ``person_NNNNNN`` duplicates and 200 notes with
a repeated fact (as ``hygiene_bench.py --scale``), saved once and never reflected; each run reflects
on a fresh copy of it. Times are CPU seconds of ``Memory.reflect()`` (user and system split: a new
process's first run also pays the kernel for every new page of memory it touches).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import reflect_bench as rb  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402

PAIRS = 200


def build(graph: Path, n: int) -> None:
    """Save a never-reflected graph of about ``n`` entities (plus the hygiene extras) at ``graph``."""
    clock = rb.BenchClock()
    with Memory(Settings(db=graph, embeddings="none"), clock=clock) as memory:
        rb.build_graph(memory, n, clock=clock, log=lambda s: print("  build", s, flush=True))
        memory.create_entities([{"name": f"person_{i:06d}", "entityType": "person", "observations": [f"dup {i}"]}
                                for i in range(PAIRS)], actor="bench")
        memory.create_entities([{"name": f"Note {i:06d}", "entityType": "Note",
                                 "observations": [f"note fact {i}", f"Note fact {i}."]} for i in range(PAIRS)],
                               actor="bench")
        print(memory.health_check()["counts"])


def _cpu(fn: Callable[[], Any]) -> tuple[float, float, float]:
    """CPU seconds of ``fn()``: total, user, system."""
    before, started = os.times(), time.process_time()
    fn()
    spent, after = time.process_time() - started, os.times()
    return spent, after.user - before.user, after.system - before.system


def _one_write(memory: Memory) -> None:
    memory.create_relations([{"from": "Project 000001", "to": "Technology 000002",
                              "relationType": f"USES_{time.perf_counter_ns()}"}])


def dump(memory: Memory, path: Path) -> None:
    """Every insight (title, pattern, confidence, status, stale, evidence, summary …), sorted, one a line."""
    rows = memory.graph.insight_store().list(limit=1_000_000, status=None)
    with path.open("w", encoding="utf-8") as out:
        for insight in sorted(rows, key=lambda i: i["title"]):
            kept = {k: v for k, v in insight.items() if k not in ("created_at", "confirmed_at", "score", "decided_at")}
            out.write(json.dumps(kept, sort_keys=True, ensure_ascii=False) + "\n")


def run(graph: Path, dump_to: Path | None, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cold.db"
        shutil.copy(graph, db)
        clock = rb.BenchClock()
        with Memory(Settings(db=db, embeddings="none"), clock=clock) as memory:
            clock.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
            memory.health_check()
            load = os.getloadavg()[0]
            cold = _cpu(memory.reflect)
            if dump_to is not None:
                dump(memory, dump_to)
            warm = [_cpu(lambda: (_one_write(memory), memory.reflect())) for _ in range(repeat)]
        with Memory(Settings(db=db, embeddings="none"), clock=clock) as restarted:
            again = _cpu(lambda: (_one_write(restarted), restarted.reflect()))
    median = statistics.median(w[0] for w in warm)
    print(f"load average {load:.1f} (2 cores)\n")
    print("| run | CPU s | user s | system s |\n|---|---|---|---|")
    print(f"| cold (first reflect ever, a new store) | {cold[0]:.3f} | {cold[1]:.2f} | {cold[2]:.2f} |")
    print(f"| after one write (median of {repeat}) | {median:.3f} | | |")
    print(f"| a new store on the reflected memory, after one write | {again[0]:.3f} | {again[1]:.2f} "
          f"| {again[2]:.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph", type=Path, required=True, help="the saved, never-reflected graph")
    parser.add_argument("--build", type=int, default=0, help="build the graph with this many entities first")
    parser.add_argument("--dump", type=Path, default=None, help="write every insight after the cold run here")
    parser.add_argument("--repeat", type=int, default=3, help="runs after one write")
    args = parser.parse_args()
    if args.build:
        build(args.graph, args.build)
    run(args.graph, args.dump, args.repeat)


if __name__ == "__main__":
    main()
