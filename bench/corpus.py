"""A realistic graph for benchmarks: entities built from the retrieval-quality set's sentences.

Each entity takes its name and type from one of the quality set's entities (plus a number, so
names are unique) and four observations drawn from all of the set's Spanish and English sentences
(~75 characters each), so an entity's embedded text is ~100 tokens and common words ("the",
"para", "team") match a realistic share of the graph. Two relations per entity.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

DATASET = Path(__file__).resolve().parents[1] / "tests" / "quality" / "dataset.json"
RELATION_TYPES = ["USES", "DEPENDS_ON", "RELATED_TO", "BELONGS_TO", "KNOWS", "IMPLEMENTS"]


def realistic_graph(n: int, *, seed: int = 11) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """``n`` entities (4 observations each) and ``2n`` relations, the same for the same seed."""
    data = json.loads(DATASET.read_text(encoding="utf-8"))
    bases = [(e["name"], e["entityType"]) for e in data["entities"]]
    sentences = [o for e in data["entities"] for o in e["observations"]]
    rng = random.Random(seed)
    entities = []
    for i in range(n):
        base, etype = bases[i % len(bases)]
        entities.append({
            "name": f"{base} {i:06d}",
            "entityType": etype,
            "observations": [f"{s} ({i}.{k})" for k, s in enumerate(rng.sample(sentences, 4))],
        })
    relations = [
        {"from": entities[i]["name"], "to": entities[rng.randrange(n)]["name"],
         "relationType": rng.choice(RELATION_TYPES)}
        for i in range(n) for _ in range(2)
    ]
    return entities, relations
