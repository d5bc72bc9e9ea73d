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
    assert [(e.op, e.actor, e.entity) for e in log] == [
        ("create_entity", "claude-desktop", "A"),
        ("add_observations", "cursor", "A"),
        ("create_entity", "cli", "B"),
        ("create_relation", "gui", "A"),
        ("delete_observations", "gui", "A"),
        ("delete_entity", "import", "B"),
    ]
    assert log[-1].before["relations"][0]["relationType"] == "r"  # enough to undo
    assert [e.op for e in mem.history("A")][0] == "delete_observations"


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


def test_a_deletion_can_be_undone(mem: Memory, clock: SteppingClock) -> None:
    import pytest

    from core.errors import Conflict, NotFound

    mem.merge_node("Person", "Ana", {"summary": "colleague"})
    mem.add_observations([{"entityName": "Ana", "contents": ["likes tea", "moved to Lisbon"]}])
    mem.create_entities([{"name": "Bob"}, {"name": "Carla"}])
    mem.create_relations([{"from": "Ana", "to": "Bob", "relationType": "knows"},
                          {"from": "Carla", "to": "Ana", "relationType": "mentors"}])
    before = mem.get_node("Ana")
    clock.advance(hours=1)
    mem.delete_entities(["Ana"])
    mem.delete_entities(["Carla"])  # one relation's other end is gone for good
    clock.advance(hours=1)
    restored = mem.restore_entity("Ana", actor="gui")
    assert (restored.label, restored.props, restored.observations, restored.created_at) == (
        "Person", {"summary": "colleague"}, ["likes tea", "moved to Lisbon"], before.created_at)
    assert mem.read_graph().dump()["relations"] == [{"from": "Ana", "to": "Bob", "relationType": "knows"}]
    assert [e.name for e in mem.search_nodes("lisbon").entities] == ["Ana"]
    assert mem.history("Ana", limit=1)[0].op == "restore_entity"
    with pytest.raises(Conflict, match="exists"):
        mem.restore_entity("Ana")
    with pytest.raises(NotFound, match="No deletion"):
        mem.restore_entity("Never existed")


def test_a_deleted_entitys_relation_to_itself_is_kept_and_restored_once(mem: Memory) -> None:
    """A self-loop is one relation: the deletion's snapshot holds it once (SQLite read it from both
    ends), and restoring the entity brings it back once."""
    mem.create_entities([{"name": "Loop"}, {"name": "Other"}])
    mem.create_relations([{"from": "Loop", "to": "Loop", "relationType": "feeds"},
                          {"from": "Other", "to": "Loop", "relationType": "knows"}])
    mem.delete_entities(["Loop"])
    snap = mem.history("Loop", limit=1)[0].before
    assert sorted((r["from"], r["to"], r["relationType"]) for r in snap["relations"]) == [
        ("Loop", "Loop", "feeds"), ("Other", "Loop", "knows")]
    mem.restore_entity("Loop")
    assert sorted(r.relationType for r in mem.read_graph().relations) == ["feeds", "knows"]
    assert [c.op for c in mem.history("Loop", limit=1)] == ["restore_entity"]
