"""A fact's words are found as soon as it is written and not once it is gone, however often the
same words were asked for before (FalkorDB keeps each word's count of facts while no fact is
written or deleted): after an add, a delete, another process's write, and a rolled back
transaction."""

from __future__ import annotations

from typing import cast

import pytest

from core.memory import Memory
from core.protocols import FactText


def found(mem: Memory, query: str) -> set[str]:
    graph = cast(FactText, mem.graph)
    return {text for eid, items in graph.facts_of(
        sorted({eid for _, eid, _ in graph.fact_search(query, limit=10)})).items() for _, text in items}


def test_words_asked_again_follow_every_write(mem: Memory) -> None:
    mem.create_entities([{"name": "Zoo", "entityType": "Place", "observations": ["The zebra enclosure is new"]}])
    assert found(mem, "zebra okapi") == {"The zebra enclosure is new"}
    assert found(mem, "zebra okapi") == {"The zebra enclosure is new"}  # asked again: the same
    mem.add_observations([{"entityName": "Zoo", "contents": ["An okapi arrived in May"]}])
    assert "An okapi arrived in May" in found(mem, "zebra okapi")
    mem.delete_observations([{"entityName": "Zoo", "observations": ["An okapi arrived in May"]}])
    assert found(mem, "okapi") == set()
    with pytest.raises(RuntimeError), mem.transaction():
        mem.add_observations([{"entityName": "Zoo", "contents": ["A second okapi is expected"]}])
        assert found(mem, "okapi") == {"The zebra enclosure is new", "A second okapi is expected"}
        raise RuntimeError("rolled back")
    assert found(mem, "okapi") == set()


def test_a_rolled_back_write_leaves_no_stale_count(mem: Memory) -> None:
    mem.create_entities([{"name": "Zoo", "entityType": "Place", "observations": ["The zebra enclosure is new"]}])
    with pytest.raises(RuntimeError), mem.transaction():
        mem.add_observations([{"entityName": "Zoo", "contents": ["The lions sleep all day"]}])
        assert found(mem, "giraffe") == set()  # no giraffe yet, as the graph stands inside
        raise RuntimeError("rolled back")
    # The same number of facts written again, one of them the word asked for inside.
    mem.add_observations([{"entityName": "Zoo", "contents": ["A giraffe calf was born"]}])
    assert found(mem, "giraffe") == {"The zebra enclosure is new", "A giraffe calf was born"}


def test_another_process_write_is_found_by_words_asked_before(mem: Memory) -> None:
    mem.create_entities([{"name": "Lab", "entityType": "Place", "observations": ["The centrifuge hums"]}])
    assert found(mem, "centrifuge pipette") == {"The centrifuge hums"}
    with Memory(mem.settings) as other:
        other.add_observations([{"entityName": "Lab", "contents": ["A pipette went missing"]}])
    assert "A pipette went missing" in found(mem, "centrifuge pipette")
