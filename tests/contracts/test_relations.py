"""Relations and graph walks, as any backend must behave."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput, NotFound
from core.memory import Memory


def test_relation_dedup_returns_only_new(mem: Memory) -> None:
    mem.create_entities([{"name": "A"}, {"name": "B"}])
    rel = {"from": "A", "to": "B", "relationType": "knows"}
    assert len(mem.create_relations([rel, rel])) == 1
    assert mem.create_relations([rel]) == []
    other = mem.create_relations([rel, {"from": "A", "to": "B", "relationType": "likes"}])
    assert [r.relationType for r in other] == ["likes"]
    assert len(mem.read_graph().relations) == 2


def test_relation_to_unknown_entity_keeps_it_through_a_placeholder(mem: Memory) -> None:
    mem.create_entities([{"name": "A"}, {"name": "B"}])
    made = mem.create_relations([
        {"from": "A", "to": "B", "relationType": "ok"},
        {"from": "A", "to": "Ghost", "relationType": "haunts"},
    ])
    assert [r.to for r in made] == ["B", "Ghost"]
    ghost = mem.get_node("Ghost")
    assert ghost is not None and ghost.label == "Unknown" and ghost.props == {"placeholder": True}
    # a later create fills the placeholder in: its type, its observations, reported as created
    result = mem.create_entities([{"name": "Ghost", "entityType": "Spirit", "observations": ["boo"]}])
    assert [(e.name, e.entityType, e.observations) for e in result.entities] == [("Ghost", "Spirit", ["boo"])]
    assert result.merged == []
    filled = mem.get_node("Ghost")
    assert filled is not None and filled.label == "Spirit" and filled.props == {}
    assert {(r.from_, r.to) for r in mem.read_graph().relations} == {("A", "B"), ("A", "Ghost")}
    # an entity that is no placeholder keeps its type on a second create, as before
    mem.create_entities([{"name": "Ghost", "entityType": "Other"}])
    assert mem.get_node("Ghost").label == "Spirit"  # type: ignore[union-attr]


def test_delete_relations_ignores_missing(mem: Memory) -> None:
    mem.create_entities([{"name": "A"}, {"name": "B"}])
    mem.create_relations([{"from": "A", "to": "B", "relationType": "r"}])
    deleted = mem.delete_relations([
        {"from": "A", "to": "B", "relationType": "r"},
        {"from": "A", "to": "B", "relationType": "nope"},
        {"from": "Q", "to": "B", "relationType": "r"},
    ])
    assert deleted == 1 and mem.read_graph().relations == []


def test_merge_relation_is_idempotent(mem: Memory) -> None:
    mem.merge_node("Project", "P", {})
    mem.merge_node("Technology", "SQLite", {})
    rel, created = mem.merge_relation("P", "USES", "SQLite", {"since": 2024})
    assert created
    rel2, created2 = mem.merge_relation("P", "USES", "SQLite")
    assert not created2 and rel2 == rel
    assert len(mem.read_graph().relations) == 1


def test_merge_relation_changing_props_is_in_history_and_undone(mem: Memory) -> None:
    """merge_relation's change to an existing relation's props is a change_log row (history shows it,
    undo takes it back); merging what it holds already writes none."""
    mem.merge_node("Project", "P", {})
    mem.merge_node("Technology", "SQLite", {})

    def props() -> dict:
        return {r.key(): p for r, p in mem.export_relations()}[("P", "SQLite", "USES")]

    mem.merge_relation("P", "USES", "SQLite", {"since": 2024})
    assert [c.op for c in mem.history("P", limit=2)] == ["create_relation", "create_entity"]  # props: part of it
    mem.merge_relation("P", "USES", "SQLite", {"since": 2025, "via": "pip"})
    top = mem.history("P", limit=1)[0]
    assert (top.op, top.entity) == ("update_relation", "P")
    snap = {"from": "P", "to": "SQLite", "relationType": "USES"}
    assert top.before == {**snap, "props": {"since": 2024}}
    assert top.after == {**snap, "props": {"since": 2025, "via": "pip"}}
    mem.merge_relation("P", "USES", "SQLite", {"since": 2025})
    assert mem.history(limit=1)[0].id == top.id
    mem.undo_change(top.id)
    assert props() == {"since": 2024}


def test_a_relation_to_itself_is_in_its_embedding_text_once(mem: Memory) -> None:
    """A self-loop is one relation: the entity's embedding text lists it once (as outgoing), not once
    from each end (SQLite read both ends of it)."""
    mem.create_entities([{"name": "Loop", "entityType": "Thing"}, {"name": "Other"}])
    mem.create_relations([{"from": "Loop", "to": "Loop", "relationType": "feeds"},
                          {"from": "Other", "to": "Loop", "relationType": "knows"}])
    assert mem.vectors is not None
    text = mem.vectors.pending("a-model-never-used", 100)[mem.graph.ids_for(["Loop"])["Loop"]]
    assert text.count("feeds") == 1 and "feeds → Loop" in text and "knows ← Other" in text, text


@pytest.fixture
def chain(mem: Memory) -> Memory:
    """A - B - C - D - E (alternating directions), plus a branch B - X."""
    mem.create_entities([{"name": n} for n in ["A", "B", "C", "D", "E", "X"]])
    mem.create_relations([
        {"from": "A", "to": "B", "relationType": "r1"},
        {"from": "C", "to": "B", "relationType": "r2"},
        {"from": "C", "to": "D", "relationType": "r3"},
        {"from": "E", "to": "D", "relationType": "r4"},
        {"from": "B", "to": "X", "relationType": "branch"},
    ])
    return mem


@pytest.mark.parametrize(("hops", "expected"), [
    (1, {"B": 1}),
    (2, {"B": 1, "C": 2, "X": 2}),
    (3, {"B": 1, "C": 2, "X": 2, "D": 3}),
])
def test_neighbours_exactly_within_hops(chain: Memory, hops: int, expected: dict[str, int]) -> None:
    found = {n.node.name: n.distance for n in chain.get_neighbours("A", hops)}
    assert found == expected


def test_neighbours_paths_and_type_filter(chain: Memory) -> None:
    by_name = {n.node.name: n for n in chain.get_neighbours("A", 3)}
    assert by_name["D"].path == ["r1", "r2", "r3"]
    filtered = {n.node.name for n in chain.get_neighbours("A", 3, rel_types=["r1", "branch"])}
    assert filtered == {"B", "X"}


def test_neighbours_with_a_cycle_terminate(mem: Memory) -> None:
    mem.create_entities([{"name": n} for n in "PQR"])
    mem.create_relations([{"from": a, "to": b, "relationType": "next"}
                          for a, b in [("P", "Q"), ("Q", "R"), ("R", "P")]])
    assert {n.node.name: n.distance for n in mem.get_neighbours("P", 3)} == {"Q": 1, "R": 1}


def test_neighbours_bad_hops_and_unknown(chain: Memory) -> None:
    for hops in (0, 4):
        with pytest.raises(InvalidInput, match="hops"):
            chain.get_neighbours("A", hops)
    with pytest.raises(NotFound):
        chain.get_neighbours("nobody", 1)


def test_node_with_neighbours(chain: Memory) -> None:
    ctx = chain.get_node_with_neighbours("C", 1)
    assert ctx.node.name == "C"
    assert {n.node.name for n in ctx.neighbours} == {"B", "D"}
    assert sorted(r.relationType for r in ctx.relations) == ["r2", "r3"]
