"""Reading change_log for people: newest first, by writer, by time span, page by page."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from core.errors import InvalidInput
from core.memory import Memory
from tests.conftest import SteppingClock


def _write_three_days(memory: Memory, clock: SteppingClock) -> None:
    memory.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["maths"]}],
                           actor="claude-code")
    clock.advance(hours=1)
    memory.create_entities([{"name": "Babbage", "entityType": "Person"}], actor="cursor")
    clock.advance(days=1)
    memory.create_relations([{"from": "Ada", "to": "Babbage", "relationType": "knows"}], actor="claude-code")
    clock.advance(days=1)
    memory.add_observations([{"entityName": "Ada", "contents": ["poet's daughter"]}], actor="opencode")
    memory.delete_entities(["Babbage"], actor="cursor")


def test_activity_is_newest_first_and_pages_by_id(memory: Memory, clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    everything = memory.activity()
    assert [r.op for r in everything] == [
        "delete_entity", "add_observations", "create_relation", "create_entity", "create_entity"]
    assert everything[0].before["name"] == "Babbage"  # the snapshot comes back decoded
    first = memory.activity(limit=2)
    rest = memory.activity(before_id=first[-1].id, limit=10)
    assert [r.id for r in first + rest] == [r.id for r in everything]


def test_activity_filters_by_actor_and_time_span(memory: Memory, clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    assert [r.entity for r in memory.activity(actor="cursor")] == ["Babbage", "Babbage"]
    assert memory.activity(actor="nobody") == []
    day_two = memory.activity(since=datetime(2026, 1, 2, tzinfo=UTC), until=datetime(2026, 1, 3, tzinfo=UTC))
    assert [r.op for r in day_two] == ["create_relation"]
    as_text = memory.activity(since="2026-01-03T00:00:00.000Z", actor="opencode")
    assert [r.op for r in as_text] == ["add_observations"]


def test_activity_actors_latest_first_with_counts(memory: Memory, clock: SteppingClock) -> None:
    assert memory.activity_actors() == []
    _write_three_days(memory, clock)
    actors = memory.activity_actors()
    assert [(a["actor"], a["changes"]) for a in actors] == [("cursor", 2), ("opencode", 1), ("claude-code", 2)]
    assert actors[0]["last_at"].startswith("2026-01-03")


@pytest.mark.parametrize("kwargs", [{"before_id": 0}, {"before_id": "5"}, {"limit": 0},
                                    {"limit": True}, {"since": 20260101}])
def test_bad_activity_arguments_are_refused(memory: Memory, kwargs: dict) -> None:
    memory.create_entities([{"name": "Ada", "entityType": "Person"}])
    with pytest.raises(InvalidInput):
        memory.activity(**kwargs)
    assert memory.get_node("Ada") is not None
