"""change_log and time travel: what the graph held on a given date."""

from __future__ import annotations

from core.memory import Memory
from tests.conftest import SteppingClock


def test_every_write_is_logged_with_its_actor(mem: Memory) -> None:
    mem.create_entities([{"name": "A", "observations": ["x"]}], actor="claude-desktop")
    mem.add_observations([{"entityName": "A", "contents": ["y"]}], actor="cursor")
    mem.create_entities([{"name": "B"}])
    mem.create_relations([{"from": "A", "to": "B", "relationType": "r"}], actor="gui")
    mem.delete_observations([{"entityName": "A", "observations": ["x"]}], actor="gui")
    mem.delete_entities(["B"], actor="import")
    log = list(reversed(mem.history()))
    assert [(e["op"], e["actor"], e["entity"]) for e in log] == [
        ("create_entity", "claude-desktop", "A"),
        ("add_observations", "cursor", "A"),
        ("create_entity", "cli", "B"),
        ("create_relation", "gui", "A"),
        ("delete_observations", "gui", "A"),
        ("delete_entity", "import", "B"),
    ]
    assert log[-1]["before"]["relations"][0]["relationType"] == "r"  # enough to undo
    assert [e["op"] for e in mem.history("A")][0] == "delete_observations"


def test_query_at_date_across_edits_and_deletions(mem: Memory, clock: SteppingClock) -> None:
    t0 = clock.now
    mem.create_entities([{"name": "Ana", "entityType": "Person", "observations": ["likes tea"]},
                         {"name": "Bob", "observations": ["plays chess"]}])
    mem.create_relations([{"from": "Ana", "to": "Bob", "relationType": "knows"}])
    t1 = clock.advance(days=1)
    mem.add_observations([{"entityName": "Ana", "contents": ["moved to Lisbon"]}])
    t2 = clock.advance(days=1)
    mem.delete_observations([{"entityName": "Ana", "observations": ["likes tea"]}])
    mem.delete_entities(["Bob"])
    t3 = clock.advance(days=1)
    mem.create_entities([{"name": "Carla"}])

    before_anything = mem.query_at_date(t0.replace(year=2025))
    assert before_anything.entities == [] and before_anything.relations == []

    at_t0 = mem.query_at_date(t0).dump()
    assert at_t0["entities"] == [
        {"name": "Ana", "entityType": "Person", "observations": ["likes tea"]},
        {"name": "Bob", "entityType": "Generic", "observations": ["plays chess"]},
    ]
    assert at_t0["relations"] == [{"from": "Ana", "to": "Bob", "relationType": "knows"}]

    at_t1 = mem.query_at_date(t1).dump()
    assert at_t1["entities"][0]["observations"] == ["likes tea", "moved to Lisbon"]
    assert [e["name"] for e in at_t1["entities"]] == ["Ana", "Bob"]

    at_t2 = mem.query_at_date(t2).dump()  # the deletions happened at t2 itself
    assert at_t2["entities"] == [{"name": "Ana", "entityType": "Person",
                                  "observations": ["moved to Lisbon"]}]
    assert at_t2["relations"] == []

    assert [e.name for e in mem.query_at_date(t3).entities] == ["Ana", "Carla"]
    assert mem.query_at_date(t3.isoformat()) is not None


def test_query_at_date_sees_type_changes(mem: Memory, clock: SteppingClock) -> None:
    mem.merge_node("Concept", "Idea", {})
    t0 = clock.now
    clock.advance(hours=1)
    mem.merge_node("Decision", "Idea", {"title": "Idea"})
    assert mem.query_at_date(t0).entities[0].entityType == "Concept"
    assert mem.query_at_date(clock.now).entities[0].entityType == "Decision"
