"""Facts' compact vectors, the same on every backend: a fact is found by meaning as soon as its
vector is stored, by this process and by another one already open on the same memory, and a
deleted fact is no longer found by either."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock

CELLO = "Marta toca el violonchelo en una orquesta de cámara los domingos"
FILLER = [f"Marta filed expense report number {i} for the quarterly audit" for i in range(12)]


@pytest.fixture
def other(backend: str, tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest,
          mem: Memory) -> Iterator[Memory]:
    """A second process's view of ``mem``'s memory, opened (and its fact vectors loaded) first."""
    server = {} if backend == "sqlite" else request.getfixturevalue(
        {"falkordb": "graph_settings", "neo4j": "neo4j_settings"}[backend])
    with Memory(Settings(db=tmp_path / "contract.db", **{"backend": backend, **server}), clock=clock) as m:
        yield m


def nearest(mem: Memory, text: str, k: int = 3) -> list[str]:
    """The texts of the ``k`` facts nearest to ``text`` by meaning (the fact vectors alone)."""
    found = mem.vectors.search_facts(mem.embedder.embed_query(text), k)
    texts = mem.vectors.fact_texts([fid for fid, _ in found])
    return [texts[fid] for fid, _ in found if fid in texts]


def test_a_stored_fact_is_found_by_meaning_here_and_in_another_process(mem: Memory, other: Memory) -> None:
    mem.create_entities([{"name": "Marta", "entityType": "Person", "observations": FILLER}])
    mem.embed_pending()
    question = "which instrument does Marta play on Sundays?"
    assert CELLO not in nearest(other, question)  # loaded now, before the fact exists
    mem.add_observations([{"entityName": "Marta", "contents": [CELLO]}])
    mem.embed_pending()
    assert nearest(mem, question)[0] == CELLO
    assert nearest(other, question)[0] == CELLO  # caught up, not loaded again
    assert other.search_semantic(question, 1)[0]["observations"][0] == CELLO


def test_a_deleted_fact_is_found_by_neither(mem: Memory, other: Memory) -> None:
    mem.create_entities([{"name": "Marta", "entityType": "Person", "observations": [*FILLER, CELLO]}])
    mem.embed_pending()
    question = "which instrument does Marta play on Sundays?"
    assert nearest(other, question)[0] == CELLO
    mem.delete_observations([{"entityName": "Marta", "observations": [CELLO]}])
    assert CELLO not in nearest(mem, question, 20) and CELLO not in nearest(other, question, 20)
    found = other.vectors.search_facts(other.embedder.embed_query(question), 20)
    assert len(found) == len(FILLER)  # the gone fact takes no place among the nearest
