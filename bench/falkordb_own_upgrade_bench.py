"""How long an older FalkorDB graph's first writable open takes while it is given the ``:Own``
index (entities' own words, ``core/storage/cypher/facts.py`` ``migrate_own``), and a later open.

A graph of ``--entities`` entities (5 facts each, ``recall_scale_bench.fill``) is written on a
server of its own, its ``:Own`` labels and upgrade marks removed (as a graph written before the
index left it), then opened twice; wall seconds of each ``Memory.open``.

    .venv/bin/python bench/falkordb_own_upgrade_bench.py --entities 20000 100000
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.recall_scale_bench import fill  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.storage.cypher import facts  # noqa: E402
from tests.graph_server import falkordb_server  # noqa: E402


def one(size: int, folder: Path) -> tuple[float, float, float]:
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
        timed = []
        for _ in range(2):
            started = time.perf_counter()
            with Memory.open(db, embeddings="none", **server) as memory:
                timed.append(time.perf_counter() - started)
                own = int(memory.graph.db.read("MATCH (e:Own) RETURN count(e)")[0][0])
        assert own == size, f"{own} of {size} entities have the :Own label"
        return filled, timed[0], timed[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entities", type=int, nargs="+", default=[20_000])
    args = ap.parse_args()
    print("| entities | written in (s) | first open, upgrading (s) | next open (s) |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.entities:
            filled, first, again = one(size, Path(folder))
            print(f"| {size:,} | {filled:.1f} | {first:.1f} | {again:.2f} |", flush=True)


if __name__ == "__main__":
    main()
