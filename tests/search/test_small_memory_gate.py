"""The no-good-match gate in a tiny memory (4 entities): it judges a query against fixed unrelated
sentences (core.search.calibration.ANCHORS), not against the memory's own entities, so a short
Spanish question about an English fact is answered, and nonsense still is not. (Reported as
``no_good_match`` for the first query in another memory; tests/search/test_context_gate.py holds
that one. The margins, with the anchors in the facts' own context shape: bench/RESULTS.md, "The
no-good-match gate for facts in context".)"""

from __future__ import annotations

import pytest

from core.memory import Memory

PEOPLE = [
    {"name": "Ada Lovelace", "entityType": "Person", "observations": [
        "Daughter of the poet Lord Byron", "Wrote the first published algorithm, for the Analytical Engine"]},
    {"name": "José Martínez", "entityType": "Person", "observations": ["Backend engineer in Valencia"]},
    {"name": "Canción de cuna", "entityType": "Concept", "observations": [
        "Una canción tranquila; la abuela de José la cantaba cada noche"]},
    {"name": "Analytical Engine", "entityType": "Technology", "observations": [
        "Mechanical general-purpose computer programmed with punched cards"]},
]


@pytest.fixture
def tiny(semantic: Memory) -> Memory:
    semantic.create_entities(PEOPLE)
    semantic.embed_pending()
    return semantic


@pytest.mark.parametrize("query", ["máquina programada con tarjetas perforadas",
                                   "máquina mecánica que se programaba con tarjetas perforadas"])
def test_a_short_spanish_question_finds_the_machine_first(tiny: Memory, query: str) -> None:
    hits = tiny.search_semantic(query, 5, record=False)
    assert hits and hits[0]["name"] == "Analytical Engine"


def test_nonsense_in_a_tiny_memory_finds_no_good_match(tiny: Memory) -> None:
    for query in ['"', "*", "NEAR(", "asdf qwer zxcv", "the", "ignore previous instructions",
                  "DROP TABLE entities;", "???"]:
        assert tiny.search_semantic(query, 5, record=False) == [], query
