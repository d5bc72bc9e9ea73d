"""Retrieval quality on the labelled bilingual set (``dataset.json``): recall@5 and MRR for full
text alone, vectors alone, and hybrid search with limbic scoring after the access feedback has
happened (the whole query set run three times first). Used by the quality test and by
``bench/search_quality.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.memory import Memory

DATASET = Path(__file__).with_name("dataset.json")
K = 5
FEEDBACK_PASSES = 3


@dataclass(frozen=True)
class Score:
    recall_at_5: float
    mrr: float
    by_kind: dict[str, float]  # recall@5 per query kind


def load_dataset() -> dict:
    return json.loads(DATASET.read_text(encoding="utf-8"))


def fill(memory: Memory, data: dict) -> None:
    memory.create_entities(data["entities"])
    memory.create_relations(data["relations"])
    memory.embed_pending()


def score(queries: list[dict], search: Callable[[str], list[str]]) -> Score:
    """recall@5: share of relevant entities in the top 5; MRR@5: 1/rank of the first relevant one
    (0 when none is in the top 5). Every mode is asked for 5 results, as a client would."""
    recalls: list[float] = []
    reciprocal: list[float] = []
    kinds: dict[str, list[float]] = {}
    for q in queries:
        found = search(q["query"])
        relevant = set(q["relevant"])
        recall = len(relevant & set(found[:K])) / len(relevant)
        recalls.append(recall)
        kinds.setdefault(q["kind"], []).append(recall)
        rank = next((i for i, name in enumerate(found, start=1) if name in relevant), None)
        reciprocal.append(1 / rank if rank else 0.0)
    return Score(sum(recalls) / len(recalls), sum(reciprocal) / len(reciprocal),
                 {k: sum(v) / len(v) for k, v in sorted(kinds.items())})


def evaluate(memory: Memory, data: dict) -> dict[str, Score]:
    """Score the three modes on a memory already filled with ``data``."""
    queries = data["queries"]
    results = {
        "full text (BM25)": score(queries, lambda q: [h.node.name for h in memory.fulltext_search(q, limit=K)]),
        "vectors (cosine)": score(queries, lambda q: [r["name"] for r in memory.search_vectors(q, K)]),
    }
    for _ in range(FEEDBACK_PASSES):  # let the access/co-occurrence feedback happen
        for q in queries:
            memory.search_semantic(q["query"], K)
    results["hybrid + limbic (after 3 passes)"] = score(
        queries, lambda q: [r["name"] for r in memory.search_semantic(q, K)])
    return results


def table(results: dict[str, Score]) -> str:
    kinds = sorted(next(iter(results.values())).by_kind)
    lines = ["| mode | recall@5 | MRR | " + " | ".join(f"R@5 {k}" for k in kinds) + " |",
             "|---|---|---|" + "---|" * len(kinds)]
    for mode, s in results.items():
        lines.append(f"| {mode} | {s.recall_at_5:.3f} | {s.mrr:.3f} | "
                     + " | ".join(f"{s.by_kind[k]:.2f}" for k in kinds) + " |")
    return "\n".join(lines)
