"""Imports and exports run against real SQLite files, full text only (no model needed)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings


@pytest.fixture
def open_memory(tmp_path: Path) -> Iterator[Callable[[str], Memory]]:
    """Open (and later close) a fresh memory file named ``name`` in the test's folder."""
    opened: list[Memory] = []

    def open_(name: str) -> Memory:
        memory = Memory(Settings(db=tmp_path / f"{name}.db", embeddings="none"))
        opened.append(memory)
        return memory

    yield open_
    for memory in opened:
        memory.close()


@pytest.fixture
def mem(open_memory: Callable[[str], Memory]) -> Memory:
    return open_memory("source")


def sample_graph(memory: Memory) -> None:
    """A small graph with every feature an export must carry: types, observations in order,
    properties, a title-keyed label, an archived entity, unicode, relations with properties."""
    memory.create_entities(
        [
            {
                "name": "Ada Lovelace",
                "entityType": "Person",
                "observations": ["wrote the first program", "born 1815", "«poète» des maths"],
            },
            {"name": "Analytical Engine", "entityType": "Technology", "observations": ["never built"]},
            {"name": "Canción", "entityType": "Song", "observations": []},
        ]
    )
    memory.merge_node(
        "Decision",
        "Use punched cards",
        {"summary": "from Jacquard", "confidence": 0.9, "tags": ["io", "history"]},
    )
    memory.merge_node("Person", "Ada Lovelace", {"summary": "mathematician", "links": {"wiki": "x"}})
    memory.create_relations(
        [
            {"from": "Ada Lovelace", "to": "Analytical Engine", "relationType": "wrote programs for"},
            {"from": "Analytical Engine", "to": "Use punched cards", "relationType": "SOLVED_BY"},
        ]
    )
    memory.merge_relation("Ada Lovelace", "INSPIRED_BY", "Canción", {"weight": 2})
    memory.archive_node("Canción")
