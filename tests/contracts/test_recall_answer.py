"""search_semantic's answer, the same on every backend: entities with at most ``per_entity`` of
their facts, how many others they have, relevance in 0–1 in the results' order, ``max_tokens``
respected, bad bounds refused with nothing changed."""

from __future__ import annotations

import json

import pytest

from core.errors import InvalidInput
from core.memory import Memory

NOTES = [f"Zanzibar spice farm visit number {i}, cloves and vanilla" for i in range(30)]


@pytest.fixture
def filled(mem: Memory) -> Memory:
    mem.create_entities([{"name": "Zanzibar trip", "entityType": "Travel", "observations": NOTES},
                         {"name": "Kafka cluster", "entityType": "Technology",
                          "observations": ["Three brokers handle the event stream"]}])
    mem.embed_pending()
    return mem


def test_an_answer_is_entities_with_a_few_facts_each(filled: Memory) -> None:
    hits = filled.search_semantic("Zanzibar spice farm cloves", 5)
    top = hits[0]
    assert top["name"] == "Zanzibar trip" and 1 <= len(top["observations"]) <= 3
    assert set(top["observations"]) <= set(NOTES) and top["other_observations"] == 30 - len(top["observations"])
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    one = filled.search_semantic("Zanzibar spice farm cloves", 5, per_entity=1)[0]
    assert len(one["observations"]) == 1 and one["other_observations"] == 29


def test_max_tokens_bounds_the_answer(filled: Memory) -> None:
    hits = filled.search_semantic("Zanzibar spice farm cloves", 5, max_tokens=25)
    size = len(json.dumps([{k: h[k] for k in ("name", "entityType", "observations", "score")} for h in hits],
                          ensure_ascii=False)) // 4
    assert hits and size <= 40  # the best one, trimmed to fit (JSON punctuation aside)


def test_bad_bounds_are_refused(filled: Memory) -> None:
    before = filled.latest_change_id()
    for kwargs in ({"per_entity": -1}, {"max_tokens": 0}, {"per_entity": "3"}):
        with pytest.raises(InvalidInput):
            filled.search_semantic("Zanzibar", 5, **kwargs)
    assert filled.latest_change_id() == before
