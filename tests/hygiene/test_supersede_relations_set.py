"""The labelled superseded-relations sets (tests/data/supersession_relations*.json) hold the goals:
precision ≥ 0.9 and recall ≥ 0.8; bench/supersession_relations_bench.py prints the same table."""

from __future__ import annotations

import json

import pytest

from bench.supersession_relations_bench import CASES, evaluate


@pytest.mark.parametrize("name", [CASES.name, "supersession_relations_holdout.json",
                                  "supersession_relations_holdout3.json", "supersession_relations_holdout4.json",
                                  "supersession_relations_holdout4b.json", "supersession_relations_holdout6.json"])
def test_precision_and_recall_meet_the_goals(name: str) -> None:
    cases = json.loads((CASES.parent / name).read_text(encoding="utf-8"))["cases"]
    least = min(10, len(cases) // 3)  # a second batch is smaller
    assert sum(c["label"] == "update" for c in cases) >= least and sum(c["label"] == "none" for c in cases) >= least
    result = evaluate(cases)
    assert result["precision"] >= 0.9, result["wrong"]
    assert result["recall"] >= 0.8, result["wrong"]
