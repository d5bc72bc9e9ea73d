"""What former names cost search_nodes: a memory whose entities carry ``--aliases`` merged names in
all, searched for words no name holds (so the alias fallback runs in full on every call).

    .venv/bin/python bench/alias_search_bench.py [--entities 2000] [--aliases 10000] [--repeat 200]

Prints the median and p95 ms of ``search_nodes`` and of the alias lookup alone (``alias_hits``),
on SQLite (and on FalkorDB with ``--falkordb URL``). Run it from two checkouts to compare.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from core.hygiene.service import alias_hits
from core.memory import Memory
from core.settings import Settings


def timed(call, repeat: int) -> tuple[float, float]:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[int(0.95 * (len(times) - 1))]


def run(settings: Settings, entities: int, aliases: int, repeat: int) -> list[tuple[str, float, float]]:
    with Memory(settings) as mem:
        per = max(1, aliases // entities)
        mem.create_entities([{"name": f"Persona {i}", "entityType": "Person", "observations": [f"dato {i}"]}
                             for i in range(entities)])
        for i in range(entities):
            mem.merge_node("Person", f"Persona {i}", {"aliases": [f"Señora_Núñez_{i}_{k}" for k in range(per)]})
        queries = ["ñandú polar", "zzz", "NÚÑEZ_99999"]
        rows = []
        for q in queries:
            rows.append((f"search_nodes({q!r})", *timed(lambda q=q: mem.search_nodes(q), repeat)))
            rows.append((f"alias_hits({q!r})", *timed(lambda q=q: alias_hits(mem, q), repeat)))
        return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entities", type=int, default=2000)
    parser.add_argument("--aliases", type=int, default=10000)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--falkordb", help="redis://host:port of a FalkorDB server (a fresh graph is used)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        backends = [("sqlite", Settings(db=Path(tmp) / "a.db", embeddings="none"))]
        if args.falkordb:
            backends.append(("falkordb", Settings(db=Path(tmp) / "b.db", embeddings="none", backend="falkordb",
                                                  graph_url=args.falkordb, graph_name=f"aliasbench{time.time_ns()}")))
        print(f"{args.entities:,} entities, {args.aliases:,} aliases, {args.repeat} calls each")
        print("| backend | call | median ms | p95 ms |\n|---|---|---|---|")
        for name, settings in backends:
            for call, median, p95 in run(settings, args.entities, args.aliases, args.repeat):
                print(f"| {name} | {call} | {median:.2f} | {p95:.2f} |")


if __name__ == "__main__":
    main()
