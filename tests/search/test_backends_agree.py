"""The same memory answers ``search_semantic`` the same on SQLite and on FalkorDB: the same entities
in the same order, with the same facts shown, for questions matched by a fact's words, by meaning
across languages, by an entity's name, type or summary, and by nothing (an empty answer on both).
FalkorDB reads entities' own words from an index of their own (``:Own``) and each search's heads
once; SQLite is the reference."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock

ENTITIES = [
    {"name": "Marta Ruiz", "entityType": "Person", "observations": [
        "Marta works as a dentist in Valencia", "Marta plays the cello in a quartet on Sundays",
        "Marta's brother lives in Lisbon"]},
    {"name": "Invoice 2291", "entityType": "Document", "observations": [
        "The invoice for the kitchen renovation was paid late in March", "Amount 4,300 euros, bank transfer"]},
    {"name": "Project Kestrel", "entityType": "Project", "observations": [
        "Kestrel stores its events in PostgreSQL", "The Kestrel team meets every Tuesday at ten",
        "Kestrel's deadline moved to the end of June"]},
    {"name": "Garden", "entityType": "Place", "observations": [
        "Tulips planted along the path in October", "El limonero necesita riego dos veces por semana"]},
    {"name": "Bicycle", "entityType": "Thing", "observations": ["The chain was repaired in the garage"]},
]
SUMMARIES = {"Project Kestrel": "An event-sourcing service for the logistics department"}
QUESTIONS = [
    "who is the dentist", "¿qué base de datos usa el proyecto?", "Marta Ruiz", "Project", "logistics department",
    "when was the invoice paid", "bicycle chain repair", "how often does the lemon tree need water",
    "kitchen renovation March", "qwxz vbnm",
]


def answers(memory: Memory) -> list[list[tuple[str, list[str], int]]]:
    return [[(h["name"], h["observations"], h["other_observations"])
             for h in memory.search_semantic(q, 5, record=False)] for q in QUESTIONS]


@pytest.fixture
def both(tmp_path: Path, local_embedder: OnnxEmbeddingProvider, graph_settings: dict[str, Any]
         ) -> Iterator[tuple[Memory, Memory]]:
    opened = []
    for name, server in (("sqlite", {}), ("falkordb", graph_settings)):
        memory = Memory(Settings(db=tmp_path / f"{name}.db", **server), embedder=local_embedder, clock=SteppingClock())
        opened.append(memory)
        memory.create_entities(ENTITIES)
        for entity, summary in SUMMARIES.items():
            memory.merge_node("Project", entity, {"summary": summary})
        memory.embed_pending()
    try:
        yield opened[0], opened[1]
    finally:
        for memory in opened:
            memory.close()


def test_sqlite_and_falkordb_answer_alike(both: tuple[Memory, Memory]) -> None:
    sqlite, falkordb = both
    want = answers(sqlite)
    assert want[QUESTIONS.index("Marta Ruiz")][0][0] == "Marta Ruiz"
    assert want[QUESTIONS.index("logistics department")][0][0] == "Project Kestrel"  # its summary's words
    assert answers(falkordb) == want


def test_an_entity_renamed_or_summarised_just_now_is_found_by_its_own_words(both: tuple[Memory, Memory]) -> None:
    for memory in both:
        memory.merge_node("Thing", "Bicycle", {"summary": "a red tandem from Zaragoza"})
        memory.create_entities([{"name": "Quetzal aviary", "entityType": "Place", "observations": []}])
        assert memory.search_semantic("tandem Zaragoza", 3, record=False)[0]["name"] == "Bicycle"
        assert memory.search_semantic("Quetzal aviary", 3, record=False)[0]["name"] == "Quetzal aviary"
