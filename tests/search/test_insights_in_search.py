"""An approved insight lists the entities it is about ("3 node(s) have fewer than 2 real
connections: Ana García (Person, 0 edges), …"); searching for one of those names finds the entity
itself, the insight only well below it: a name the insight lists is no match of its own. (Reported
on a new user's memory: "ana" ranked the "Under-connected nodes" insight at 0.99, level with Ana
García, and "billing" put it above Ana García, whose own fact is about billing.) The insight is
still found by what it says."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.reflect.patterns import UNDER_CONNECTED_TITLE
from core.settings import Settings

NEW_USER = [
    {"name": "Ana García", "entityType": "Person", "observations": [
        "Ana leads the billing team.", "She prefers short meetings."]},
    {"name": "Billing service", "entityType": "Project", "observations": ["Handles invoices and payments."]},
    {"name": "Analytical Engine", "entityType": "Concept", "observations": [
        "Mechanical general-purpose computer programmed with punched cards"]},
]


@pytest.fixture(params=["sqlite", "falkordb"])
def approved(request: pytest.FixtureRequest, tmp_path: Path,
             local_embedder: OnnxEmbeddingProvider) -> Iterator[Memory]:
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "insight.db", **server), embedder=local_embedder) as memory:
        memory.create_entities(NEW_USER)
        memory.reflect()
        memory.decide_insight(UNDER_CONNECTED_TITLE, "approve")
        memory.embed_pending()
        yield memory


def scores(memory: Memory, query: str) -> dict[str, float]:
    return {hit["name"]: hit["score"] for hit in memory.search_semantic(query, 5, record=False)}


@pytest.mark.parametrize("query", ["ana", "Ana García", "billing"])
def test_an_insight_does_not_rank_with_the_entities_it_lists(approved: Memory, query: str) -> None:
    found = scores(approved, query)
    assert UNDER_CONNECTED_TITLE in found  # listed, and in the answer: not hidden
    real = {"ana": ["Ana García"], "Ana García": ["Ana García"], "billing": ["Billing service", "Ana García"]}[query]
    for name in real:
        assert found[name] > found[UNDER_CONNECTED_TITLE] + 0.1, found
    assert list(found)[: len(real)] == real  # the order is the scores' order


def test_an_insight_is_found_by_what_it_says(approved: Memory) -> None:
    hits = approved.search_semantic("nodes with fewer than two real connections", 5, record=False)
    assert hits and hits[0]["name"] == UNDER_CONNECTED_TITLE
