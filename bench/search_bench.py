"""Semantic search at scale: indexing throughput, search_semantic latency (query embedding
included) and what the one-bit coarse pass costs in recall.

    .venv/bin/python bench/search_bench.py --entities 10000
    .venv/bin/python bench/search_bench.py --entities 100000 --db /tmp/s100k.db   # reuse a DB

Entities come from bench/core_bench.py's generator (Zipf vocabulary, 3 observations each); when
``--db`` already holds them only the missing vectors are computed. Queries are the 63 Spanish and
English questions of tests/quality/dataset.json plus 37 made of corpus words.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from core_bench import CUM_ZIPF, TYPES, WORDS, sentence  # noqa: E402

from core.memory import Memory  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def fill_with_noisy_copies(mem: Memory, rng: random.Random) -> None:
    """Store, for every entity still without a vector, a real vector plus Gaussian noise."""
    import numpy as np

    from core.embeddings.text import text_hash

    model = mem.embedder.model_id
    conn = mem.graph.db.conn
    real = [np.frombuffer(b, dtype=np.float32) for (b,) in conn.execute("SELECT embedding FROM entity_embeddings")]
    noise = np.random.default_rng(7)
    while due := mem.vectors.pending(model, 2000):
        vectors = {}
        for eid, text in due.items():
            v = real[rng.randrange(len(real))] + noise.normal(0, 0.02, 384).astype(np.float32)
            vectors[eid] = (text_hash(text), v / np.linalg.norm(v))
        mem.vectors.store_embedded(model, vectors)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entities", type=int, default=10_000)
    ap.add_argument("--db", type=Path, default=None)
    ap.add_argument("--real-vectors", type=int, default=None,
                    help="embed only this many entities for real; give the rest a noisy copy of one "
                         "of them (latency does not depend on the values; saves hours at 100k)")
    args = ap.parse_args()
    tmp = tempfile.TemporaryDirectory()
    db = args.db or Path(tmp.name) / "search.db"
    rng = random.Random(42)
    with Memory.open(db) as mem:
        have = mem.health_check()["counts"]["entities"]
        for start in range(have, args.entities, 5000):
            mem.create_entities([
                {"name": f"entity-{i:06d}", "entityType": rng.choice(TYPES),
                 "observations": [f"{sentence(rng)} #{i}-{k}" for k in range(3)]}
                for i in range(start, min(args.entities, start + 5000))
            ], actor="bench")
        t0 = time.perf_counter()
        if args.real_vectors is None:
            embedded = mem.embed_pending()
        else:
            embedded = 0
            while embedded < args.real_vectors and (stored := mem.indexer.run_once()) > 0:
                embedded += stored
        t_embed = time.perf_counter() - t0
        if args.real_vectors is not None:
            fill_with_noisy_copies(mem, rng)
        n = mem.health_check()["counts"]["entities"]

        quality = json.loads((ROOT / "tests/quality/dataset.json").read_text(encoding="utf-8"))
        queries = [q["query"] for q in quality["queries"]]
        queries += [" ".join(rng.choices(WORDS, cum_weights=CUM_ZIPF, k=rng.randint(2, 6))) for _ in range(37)]
        mem.search_semantic("warm up the model", 10)

        t_total, t_query_embed, t_knn, t_text = [], [], [], []
        recall_hits = recall_all = 0
        conn = mem.graph.db.conn
        mem.vectors.search(mem.embedder.embed_query("load the vector cache"), 1)
        for q in queries:
            t = time.perf_counter()
            mem.search_semantic(q, 10)
            t_total.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            qv = mem.embedder.embed_query(q)
            t_query_embed.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            approx = mem.vectors.search(qv, 30)
            t_knn.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            mem.fulltext_search(q, limit=30)
            t_text.append((time.perf_counter() - t) * 1000)
            exact = {r for r, _ in conn.execute(
                "SELECT rowid, distance FROM entity_embeddings WHERE embedding MATCH ? AND k = 10",
                (qv.tobytes(),))}
            recall_hits += len(exact & {i for i, _ in approx[:10]})
            recall_all += len(exact)

    print(f"\nsearch_semantic over {n:,} entities ({len(queries)} queries, limit 10)\n")
    if embedded:
        print(f"indexing: {embedded:,} entities embedded in {t_embed:.0f} s = {embedded / t_embed:,.0f} entities/s\n")
    print("| step | median ms | p95 ms |\n|---|---|---|")
    for name, values in [("search_semantic (all of it)", t_total), ("  query embedding", t_query_embed),
                         ("  vector KNN (30)", t_knn), ("  full text BM25 (30)", t_text)]:
        print(f"| {name} | {statistics.median(values):.1f} | {percentile(values, 0.95):.1f} |")
    print(f"\nKNN recall@10 against sqlite-vec's exact brute force: {recall_hits / recall_all:.3f}")


if __name__ == "__main__":
    main()
