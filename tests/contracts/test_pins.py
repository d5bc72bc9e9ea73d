"""Pins (what the brief always shows) and the brief itself, as every backend must keep them."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput, NotFound
from core.memory import Memory
from tests.conftest import SteppingClock


def seed(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Ada", "entityType": "Person", "observations": ["wrote the first program", "liked poetry"]},
        {"name": "Engine", "entityType": "Machine", "observations": ["analytical", "never built"]},
    ])


def test_an_entity_and_a_fact_are_pinned_once_and_unpinned(mem: Memory, clock: SteppingClock) -> None:
    seed(mem)
    assert mem.pin("Ada") is True
    clock.advance(seconds=1)
    assert mem.pin("Engine", "never built") is True
    assert mem.pin("Ada") is False  # pinned already: nothing changes
    assert [(p["name"], p["fact"]) for p in mem.pins()] == [("Ada", None), ("Engine", "never built")]
    assert mem.pin("Ada", pinned=False) is True
    assert mem.pin("Ada", pinned=False) is False
    assert [(p["name"], p["fact"]) for p in mem.pins()] == [("Engine", "never built")]


def test_pinning_what_does_not_exist_is_refused_and_changes_nothing(mem: Memory) -> None:
    seed(mem)
    mem.pin("Ada")
    with pytest.raises(NotFound, match="No entity named 'Nobody'"):
        mem.pin("Nobody")
    with pytest.raises(NotFound, match="has no observation"):
        mem.pin("Ada", "wrote the second program")
    with pytest.raises(InvalidInput):
        mem.pin("  ")
    assert [(p["name"], p["fact"]) for p in mem.pins()] == [("Ada", None)]


def test_pins_follow_renames_and_go_with_their_entity(mem: Memory) -> None:
    seed(mem)
    mem.pin("Ada")
    mem.pin("Engine", "analytical")
    mem.rename_entity("Ada", "Ada Lovelace")
    mem.delete_entities(["Engine"])
    assert [(p["name"], p["fact"]) for p in mem.pins()] == [("Ada Lovelace", None)]


def test_a_pinned_fact_that_changed_is_not_shown(mem: Memory) -> None:
    seed(mem)
    mem.pin("Engine", "never built")
    mem.delete_observations([{"entityName": "Engine", "observations": ["never built"]}])
    assert mem.pins() == []
    assert "never built" not in mem.brief().text


def test_the_brief_puts_pins_first_and_says_what_is_left(mem: Memory, clock: SteppingClock) -> None:
    seed(mem)
    for i in range(30):
        clock.advance(seconds=1)
        mem.create_entities([{"name": f"Note {i}", "entityType": "Note", "observations": [f"detail {i}"]}])
    mem.pin("Engine", "never built")
    brief = mem.brief(200)
    body = brief.text.splitlines()
    assert body[2] == "## Pinned by the user" and body[3].startswith("- Engine (Machine): never built")
    assert brief.tokens <= 200
    assert "Note 29" in brief.text  # the newest come next
    assert f"{brief.entities_total - brief.entities_shown} more entities" in body[-1]
    assert "search_semantic" in body[-1]
