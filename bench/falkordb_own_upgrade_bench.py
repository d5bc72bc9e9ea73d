"""How long an older FalkorDB graph's first writable open takes while it is given the ``:Own``
index (entities' own words, ``core/storage/cypher/facts.py`` ``migrate_own``, run in the background
since session 5), how long the upgrade itself takes, searches meanwhile, and a later open.

A graph of ``--entities`` entities (5 facts each, ``recall_scale_bench.fill``) is written on a
server of its own, its ``:Own`` labels and upgrade marks removed (as a graph written before the
index left it), then opened twice; wall seconds of each ``Memory.open``, of the upgrade, and
p50 / max ms of ``search_semantic`` (full text only) while it runs, each checked to find its entity.

    .venv/bin/python bench/falkordb_own_upgrade_bench.py --entities 20000 100000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.recall_scale_bench import fill  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.storage.cypher import facts  # noqa: E402
from tests.graph_server import falkordb_server  # noqa: E402

SEARCHES, SEARCH_EVERY_S = 5, 2.0


def one(size: int, folder: Path) -> tuple[float, float, float, float, str]:
    with falkordb_server(folder / f"server-{size}") as url:
        server = {"backend": "falkordb", "graph_url": url}
        db = folder / f"g{size}.db"
        started = time.perf_counter()
        fill(db, size, 5, server)
        filled = time.perf_counter() - started
        with Memory.open(db, embeddings="none", **server) as memory:  # as a graph from before the index
            memory.graph.db.write(lambda tx: tx.write("MATCH (e:Own) REMOVE e:Own"))
            memory.graph.db.write(lambda tx: tx.write("MATCH (m:Meta) WHERE m.key IN $keys DELETE m",
                                                      {"keys": [facts.OWN_KEY, facts.OWN_CURSOR_KEY]}))
        timed, searches, upgraded = [], [], 0.0
        for _ in range(2):
            started = time.perf_counter()
            with Memory.open(db, embeddings="none", **server) as memory:
                timed.append(time.perf_counter() - started)
                graph: Any = memory.graph
                k = 0
                # Searched meanwhile, a few times (each finds the entity it names; the old own-words
                # query answers, and "entity" is in every name: what a graph not yet upgraded costs)
                while not graph.wait_upgrade(SEARCH_EVERY_S):
                    if k >= SEARCHES:
                        continue
                    name = f"entity-{(k * 7919) % size:06d}"
                    t0 = time.perf_counter()
                    hits = memory.search_semantic(name, 5, record=False)
                    searches.append((time.perf_counter() - t0) * 1000)
                    assert hits and hits[0]["name"] == name, (name, [h["name"] for h in hits])
                    k += 1
                if not upgraded:
                    upgraded = time.perf_counter() - started
                own = int(memory.graph.db.read("MATCH (e:Own) RETURN count(e)")[0][0])
        assert own == size, f"{own} of {size} entities have the :Own label"
        during = (f"{len(searches)}: {statistics.median(searches):.0f} / {max(searches):.0f}" if searches else "none")
        return filled, timed[0], upgraded, timed[1], during


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entities", type=int, nargs="+", default=[20_000])
    args = ap.parse_args()
    print("| entities | written in (s) | first open (s) | upgrade done after (s) | searches meanwhile: "
          "n, p50 / max ms | next open (s) |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.entities:
            filled, first, upgraded, again, during = one(size, Path(folder))
            print(f"| {size:,} | {filled:.1f} | {first:.2f} | {upgraded:.1f} | {during} | {again:.2f} |", flush=True)


if __name__ == "__main__":
    main()
