"""Memory-core benchmark: bulk load, then single operations at scale.

    .venv/bin/python bench/core_bench.py [--entities 100000] [--relations 200000] [--db PATH]
        [--backend falkordb --graph-url redis://127.0.0.1:6379] [--embeddings none|onnx]

Loads N entities (3 observations each) and 2N relations through ``Memory`` (the same path every
caller uses), then times each operation a number of times and prints median / p95 in ms, plus
bytes on disk per entity. Not a test: figures go to bench/RESULTS.md by hand. Embeddings are off
by default, so no background embedder competes with the timed calls.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.memory import Memory  # noqa: E402

REAL_WORDS = ("memoria proyecto python sqlite grafo búsqueda canción decisión problema servidor cliente "
              "vector modelo idea nota reunión equipo tarea error prueba datos usuario sistema red "
              "knowledge graph search embedding release deploy bug feature design review meeting").split()
_SYLLABLES = [c + v for c in "bcdfglmnprstvz" for v in "aeiou"]


def _vocabulary(size: int = 5000) -> list[str]:
    """Real words first, then made-up ones: a Zipf-ranked vocabulary like real notes have."""
    rng = random.Random(7)
    words = list(REAL_WORDS)
    while len(words) < size:
        words.append("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4))))
    return words


WORDS = _vocabulary()
CUM_ZIPF = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(WORDS))))
TYPES = ["Person", "Project", "Concept", "Technology", "Decision", "Problem", "Note", "Session"]
RELS = ["USES", "DEPENDS_ON", "RELATED_TO", "BELONGS_TO", "KNOWS", "IMPLEMENTS"]


def sentence(rng: random.Random, n: int = 9) -> str:
    return " ".join(rng.choices(WORDS, cum_weights=CUM_ZIPF, k=n))


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entities", type=int, default=100_000)
    ap.add_argument("--relations", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=200)
    ap.add_argument("--db", type=Path, default=None)
    ap.add_argument("--backend", default="sqlite", choices=["sqlite", "falkordb"])
    ap.add_argument("--graph-url", default="redis://127.0.0.1:6379", help="FalkorDB server (--backend falkordb)")
    ap.add_argument("--embeddings", default="none", choices=["none", "onnx"])
    args = ap.parse_args()
    n = args.entities
    n_rel = args.relations if args.relations is not None else 2 * n
    rng = random.Random(42)
    tmp = tempfile.TemporaryDirectory()
    db = args.db or Path(tmp.name) / "bench.db"

    server = {} if args.backend == "sqlite" else {
        "backend": args.backend, "graph_url": args.graph_url, "graph_name": f"bench-{time.time_ns()}"}
    with Memory.open(db, embeddings=args.embeddings, **server) as mem:
        t_entities = 0.0
        batch = 5_000
        for start in range(0, n, batch):
            items = [
                {"name": f"entity-{i:06d}", "entityType": rng.choice(TYPES),
                 "observations": [f"{sentence(rng)} #{i}-{k}" for k in range(3)]}
                for i in range(start, min(n, start + batch))
            ]
            t0 = time.perf_counter()  # time the load, not the making of random text
            mem.create_entities(items, actor="bench")
            t_entities += time.perf_counter() - t0
        t1 = time.perf_counter()
        pairs: set[tuple[int, int, str]] = set()
        while len(pairs) < n_rel:
            a, b = rng.randrange(n), rng.randrange(n)
            if a != b:
                pairs.add((a, b, rng.choice(RELS)))
        rel_list = list(pairs)
        for start in range(0, n_rel, 10_000):
            mem.create_relations([
                {"from": f"entity-{a:06d}", "to": f"entity-{b:06d}", "relationType": t}
                for a, b, t in rel_list[start : start + 10_000]
            ], actor="bench")
        t_relations = time.perf_counter() - t1
        if args.backend == "sqlite":
            mem.graph.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # size the main file honestly
            size = db.stat().st_size
        else:  # the server's whole memory (one graph on a fresh server)
            size = int(mem.graph.db.redis.info("memory")["used_memory"])

        counter = iter(range(10**9))
        results: list[tuple[str, list[float]]] = []
        r = args.repeat
        results.append(("create_entities (1)", timed(lambda: mem.create_entities([
            {"name": f"new-{next(counter)}", "entityType": "Note",
             "observations": [sentence(rng), sentence(rng), sentence(rng)]}]), r)))
        results.append(("add_observations (1)", timed(lambda: mem.add_observations([
            {"entityName": f"entity-{rng.randrange(n):06d}", "contents": [sentence(rng)]}]), r)))
        results.append(("search_nodes (selective)", timed(
            lambda: mem.search_nodes(f"#{rng.randrange(n)}-1"), r)))
        results.append(("search_nodes (entity name)", timed(
            lambda: mem.search_nodes(f"entity-{rng.randrange(n):06d}"), r)))
        results.append(("open_nodes (5)", timed(lambda: mem.open_nodes(
            [f"entity-{rng.randrange(n):06d}" for _ in range(5)]), r)))
        results.append(("get_neighbours (2 hops)", timed(
            lambda: mem.get_neighbours(f"entity-{rng.randrange(n):06d}", 2), r)))
        results.append(("read_graph page (100)", timed(
            lambda: mem.read_graph(limit=100, offset=rng.randrange(n - 100)), r)))
        results.append(("fulltext_search (BM25, 10)", timed(
            lambda: mem.fulltext_search(" ".join(rng.choices(WORDS, cum_weights=CUM_ZIPF, k=2))), r)))
        results.append(("graph_overview (300 of all)", timed(lambda: mem.graph_overview(), max(5, r // 10))))
        saved = iter(range(10**9))
        saves: list[int] = []

        def save() -> None:  # the editor's Save: the type, one observation added, one relation added
            k = next(saved)
            name = f"entity-{(k * 7919) % n:06d}"
            node = mem.entity_for_edit(name)
            saves.append(mem.save_entity(name, expected_version=node["version"], entity_type="Edited",
                                         add_observations=[f"saved {k}"],
                                         add_relations=[{"from": name, "to": f"entity-{(k * 104729 + 1) % n:06d}",
                                                         "relationType": "SAVED"}])["change_id"])

        results.append(("entity_for_edit + save_entity", timed(save, r)))
        results.append(("undoable_change (what Undo would take back)", timed(mem.undoable_change, r)))
        results.append(("undo_change of a Save, by id", timed(lambda: mem.undo_change(saves.pop()), r)))
        results.append(("delete_entities (1)", timed(
            lambda: mem.delete_entities([f"entity-{rng.randrange(n):06d}"]), r)))
        if args.backend != "sqlite":
            mem.graph.db.drop()
    print(f"\nHipocampo core benchmark ({args.backend}): {n:,} entities × 3 observations, {n_rel:,} relations\n")
    print("| step | figure |\n|---|---|")
    print(f"| bulk load entities | {n / t_entities:,.0f} entities/s ({t_entities:.1f} s) |")
    print(f"| bulk load relations | {n_rel / t_relations:,.0f} relations/s ({t_relations:.1f} s) |")
    print(f"| database size | {size / 1e6:,.1f} MB = {size / n:,.0f} bytes/entity (no vectors) |")
    print("\n| operation | median ms | p95 ms |\n|---|---|---|")
    for name, times in results:
        times.sort()
        print(f"| {name} | {statistics.median(times):.2f} | {times[int(len(times) * 0.95) - 1]:.2f} |")


if __name__ == "__main__":
    main()
