"""How fast the graph pane's whole-memory overview is at 10k and 100k entities: communities
(``Memory.graph_communities``: igraph's Leiden over every current relation) and the picture the pane
draws from them (read and laid out on its worker thread, as ``load_graph`` does in the app).

    .venv/bin/python bench/graph_overview_bench.py                     # 10k and 100k, SQLite
    .venv/bin/python bench/graph_overview_bench.py --sizes 10000 --runs 5
    .venv/bin/python bench/graph_overview_bench.py --falkordb --sizes 10000   # a FalkorDB server of its own

The memory has communities to find: groups of 5–2,000 entities (most small, a few large), each
mostly of one of 14 types (lower-case ones among them, as assistants write them), ~85 % of the
relations inside a group; ~1.7 relations per entity, a few entities without any.

Rows (median of ``--runs``, ms):
- ``communities, first``: a fresh store (no partition kept), the whole computation: reading the ids,
  types and relations, Leiden, naming the groups;
- ``communities, kept``: the same call again, nothing written (the partition is kept);
- ``after a write``: one new related entity, then the call (Leiden again, from the last partition);
- ``overview picture``: ``load_graph`` for the overview as the pane asks for it (communities,
  type counts, the groups' layout), after a write so nothing is kept;
- ``open a group``: ``load_graph`` for the largest community (its 300 best-connected members,
  relations among them, force layout).

Figures go in ``bench/RESULTS.md`` by hand; nothing asserts on time.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402

TYPES = ["person", "Project", "technology", "note", "Decision", "organization", "Problem", "plan", "Concept",
         "preference", "todo", "event", "idea", "Domain"]


def clustered_memory(settings: Settings, entities: int, seed: int = 5) -> tuple[int, int]:
    """Write a memory of ``entities`` entities in planted communities; (entities, relations)."""
    rng = random.Random(seed)
    sizes: list[int] = []
    while sum(sizes) < entities:
        sizes.append(min(entities - sum(sizes), int(5 + rng.paretovariate(1.1) * 12) if rng.random() > 0.02
                         else rng.randint(800, 2000)))
    names: list[list[str]] = []
    records = []
    for g, size in enumerate(sizes):
        main = rng.choice(TYPES)
        group = [f"{main} {g}.{i}" for i in range(size)]
        names.append(group)
        for name in group:
            records.append({"name": name, "entityType": main if rng.random() < 0.7 else rng.choice(TYPES)})
    flat = [n for group in names for n in group]
    rels = set()
    for group in names:
        for i, name in enumerate(group[1:], 1):  # a spanning tree inside each group, then some more
            rels.add((name, group[rng.randrange(i)]))
    extra = int(entities * 1.7) - len(rels)
    while extra > 0:
        if rng.random() < 0.85:
            group = rng.choice(names)
            if len(group) < 2:
                continue
            a, b = rng.sample(group, 2)
        else:
            a, b = rng.sample(flat, 2)
        if (a, b) not in rels:
            rels.add((a, b))
            extra -= 1
    with Memory(settings) as memory:
        for i in range(0, len(records), 5000):
            memory.create_entities(records[i:i + 5000])
        rel_list = [{"from": a, "to": b, "relationType": "RELATED_TO"} for a, b in rels]
        for i in range(0, len(rel_list), 10000):
            memory.create_relations(rel_list[i:i + 10000])
    return len(records), len(rels)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def measure(settings: Settings, runs: int) -> dict[str, list[float]]:
    from desktop.graph.data import GraphRequest, load_graph

    rows: dict[str, list[float]] = {k: [] for k in ("communities, first", "communities, kept", "after a write",
                                                    "overview picture", "open a group")}
    for run in range(runs):
        with Memory(settings) as memory:
            start = time.perf_counter()
            view = memory.graph_communities()
            rows["communities, first"].append(_ms(start))
            start = time.perf_counter()
            memory.graph_communities()
            rows["communities, kept"].append(_ms(start))
            hub = view.communities[0].name
            memory.create_entities([{"name": f"bench new {run}", "entityType": "note"}])
            memory.create_relations([{"from": f"bench new {run}", "to": hub, "relationType": "RELATED_TO"}])
            start = time.perf_counter()
            memory.graph_communities()
            rows["after a write"].append(_ms(start))
            memory.add_observations([{"entityName": hub, "contents": [f"bench {run}"]}])
            start = time.perf_counter()
            snap = load_graph(memory, GraphRequest("overview"))
            rows["overview picture"].append(_ms(start))
            assert snap.groups, "the overview should draw communities"
            start = time.perf_counter()
            load_graph(memory, GraphRequest("community", name=hub))
            rows["open a group"].append(_ms(start))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="a folder to keep the generated memories in (reused)")
    parser.add_argument("--falkordb", action="store_true", help="on a FalkorDB server started for the bench")
    args = parser.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="graph-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        url = None
        if args.falkordb:
            from tests.graph_server import falkordb_server

            url = stack.enter_context(falkordb_server(folder))
        table: dict[int, dict[str, list[float]]] = {}
        for size in args.sizes:
            path = folder / f"clustered-{size}.db"
            server = {"backend": "falkordb", "graph_url": url, "graph_name": f"clustered{size}"} if url else {}
            settings = Settings(db=path, embeddings="none", **server)
            if url or not path.exists():
                start = time.perf_counter()
                n, r = clustered_memory(settings, size)
                print(f"wrote {n:,} entities, {r:,} relations in {time.perf_counter() - start:.0f} s",
                      file=sys.stderr)
            with Memory(settings) as memory:
                view = memory.graph_communities()
                print(f"{size:,}: {len(view.communities)} communities listed of "
                      f"{len(view.communities) + view.others[0]}, largest {view.communities[0].size:,}, "
                      f"{view.unlinked:,} without relations", file=sys.stderr)
            table[size] = measure(settings, args.runs)
    names = list(next(iter(table.values())))
    print(f"| ms (median of {args.runs}) | " + " | ".join(f"{s:,} entities" for s in table) + " |")
    print("|---|" + "---:|" * len(table))
    for name in names:
        print(f"| {name} | " + " | ".join(f"{statistics.median(table[s][name]):.0f}" for s in table) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
