"""The labelled set (tests/data/hygiene_labelled.json) holds the goals: merge proposals precision
≥ 0.95 and recall ≥ 0.8; repeated facts likewise. bench/hygiene_bench.py prints the same table."""

from __future__ import annotations

import json

from bench.hygiene_bench import LABELLED, evaluate


def test_the_set_is_big_enough_and_balanced() -> None:
    data = json.loads(LABELLED.read_text(encoding="utf-8"))
    entities = data["entities"]
    assert len(entities) + len(data["facts"]) >= 100
    assert sum(c["duplicate"] for c in entities) >= 40 and sum(not c["duplicate"] for c in entities) >= 40


def test_precision_and_recall_meet_the_goals() -> None:
    result = evaluate()
    for what in ("entities", "facts"):
        assert result[what]["precision"] >= 0.95, result["misses"]
        assert result[what]["recall"] >= 0.8, result["misses"]
