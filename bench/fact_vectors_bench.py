"""What compact fact vectors cost in recall, against float32, on real text and the real model.

Every LoCoMo fact of ``--conversations`` (pooled) and every question is embedded with the bundled
model; the exact float32 top-10 of each question is the reference. Measured: the share of it that
the int8 rows (as stored, ``fact_vectors``) find exactly, and that the binary pre-filter with an
int8 re-rank finds when it re-ranks a given share of the facts (at 500k facts the search re-ranks
4,000 = 0.8%; past 8,000 facts it always pre-filters).

    .venv/bin/python bench/fact_vectors_bench.py --data ../shared/data/locomo-dev.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.locomo_bench import default_data, facts_of, parse_range  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.search import fact_matrix  # noqa: E402
from core.search.fact_matrix import FactMatrix  # noqa: E402
from core.storage.sqlite.fact_vectors import quantize  # noqa: E402

K = 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(default_data()))
    parser.add_argument("--conversations", default="0-4")
    args = parser.parse_args()
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    convs = [data[i] for i in parse_range(args.conversations)]
    facts = list(dict.fromkeys(t for c in convs for _, t, _, _ in facts_of(c)))
    questions = [qa["question"] for c in convs for qa in c["qa"]]
    with Memory.open(":memory:") as memory:
        provider = memory.embedder
        docs = np.concatenate([provider.embed_documents(facts[s:s + 256]) for s in range(0, len(facts), 256)])
        queries = np.stack([provider.embed_query(q) for q in questions])
    exact = np.argsort(-(queries @ docs.T), axis=1)[:, :K]
    ids = list(range(len(facts)))

    def recall(matrix: FactMatrix) -> float:
        hits = 0
        for q, truth in zip(queries, exact, strict=True):
            found = {i for i, _ in matrix.search(q, K)}
            hits += len(found & set(truth.tolist()))
        return hits / (K * len(queries))

    rows = []
    matrix = FactMatrix()
    matrix.reset(docs.shape[1])
    matrix.put(ids, quantize(docs))
    fact_matrix.EXACT_AT_MOST = len(facts) + 1
    rows.append(("int8, exact", recall(matrix)))
    fact_matrix.EXACT_AT_MOST = 0
    fact_matrix.RERANK_AT_LEAST = fact_matrix.RERANK_PER_RESULT = 0
    for share in (0.10, fact_matrix.RERANK_SHARE, 0.05, 0.02, 0.008):
        fact_matrix.RERANK_SHARE = share
        rows.append((f"binary pre-filter, re-rank {share:.1%} ({int(share * len(facts))}) in int8",
                     recall(matrix)))
    print(f"{len(facts):,} facts, {len(questions):,} questions; share of the float32 top-{K} found:\n")
    print("| vectors | recall of float32 top-10 | bytes per fact |\n|---|---|---|")
    print(f"| float32 | 1.000 | {4 * docs.shape[1]} |")
    for label, value in rows:
        print(f"| {label} | {value:.3f} | {docs.shape[1]} (+{docs.shape[1] // 8} in memory for the bits) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
