"""Editing one entity (rename, type, observation edit, end a relation, one all-or-nothing Save)
and undo of any change, on a real SQLite file and on a FalkorDB graph."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.errors import Conflict, InvalidInput, NotFound
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.fixture(params=["sqlite", "falkordb"])
def mem(tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest) -> Iterator[Memory]:
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui", **server), clock=clock) as m:
        yield m


def _seed(m: Memory, clock: SteppingClock) -> None:
    m.create_entities([
        {"name": "Ada", "entityType": "Person", "observations": ["wrote the first program", "maths"]},
        {"name": "Babbage", "entityType": "Person", "observations": ["built engines"]},
        {"name": "Engine", "entityType": "Machine"},
    ], actor="claude-code")
    m.create_relations([{"from": "Ada", "to": "Babbage", "relationType": "knows"},
                        {"from": "Babbage", "to": "Ada", "relationType": "mentors"},
                        {"from": "Ada", "to": "Engine", "relationType": "programmed"}], actor="claude-code")
    clock.advance(days=1)


def _state(m: Memory) -> Any:
    """Everything a user could see, to compare before and after a refused call."""
    return (m.read_graph().dump(), [(n.name, n.label, n.observations) for n in m.list_nodes(include_archived=True)],
            m.latest_change_id())


def _rels(m: Memory, name: str) -> set[tuple[str, str, str, bool]]:
    return {(r["from"], r["to"], r["relationType"], r["ended_at"] is not None)
            for r in m.entity_for_edit(name)["relations"]}


# -- single edits ------------------------------------------------------------------------------

def test_rename_keeps_relations_observations_and_history(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    assert mem.rename_entity("Ada", "Ada Lovelace")
    assert mem.get_node("Ada") is None
    node = mem.require_node("Ada Lovelace")
    assert node.observations == ["wrote the first program", "maths"]
    assert _rels(mem, "Ada Lovelace") == {("Ada Lovelace", "Babbage", "knows", False),
                                          ("Babbage", "Ada Lovelace", "mentors", False),
                                          ("Ada Lovelace", "Engine", "programmed", False)}
    assert mem.search_nodes("lovelace").entities[0].name == "Ada Lovelace"  # the index follows
    ops = [r.op for r in mem.entity_history("Ada Lovelace")]
    assert ops[0] == "rename_entity" and "create_entity" in ops  # history before the rename too
    assert "create_relation" in ops  # Babbage -mentors-> Ada, logged under Babbage, is shown
    row = mem.entity_history("Ada Lovelace")[0]
    assert (row.actor, row.before, row.after) == ("gui", {"name": "Ada"}, {"name": "Ada Lovelace"})


def test_rename_onto_existing_name_or_bad_name_changes_nothing(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    before = _state(mem)
    with pytest.raises(Conflict, match="Babbage"):
        mem.rename_entity("Ada", "Babbage")
    with pytest.raises(InvalidInput, match="empty"):
        mem.rename_entity("Ada", "  ")
    with pytest.raises(InvalidInput, match="limit"):
        mem.rename_entity("Ada", "x" * 10_000)
    with pytest.raises(NotFound):
        mem.rename_entity("Nobody", "Somebody")
    assert _state(mem) == before


def test_set_type_and_replace_observation(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    assert mem.set_entity_type("Ada", "Mathematician")
    assert not mem.set_entity_type("Ada", "Mathematician")  # no change, no row
    assert mem.replace_observation("Ada", "maths", "mathematics and poetry")
    node = mem.require_node("Ada")
    assert node.label == "Mathematician"
    assert node.observations == ["wrote the first program", "mathematics and poetry"]  # in place
    before = _state(mem)
    with pytest.raises(NotFound, match="no observation"):
        mem.replace_observation("Ada", "not there", "x")
    with pytest.raises(Conflict, match="already has"):
        mem.replace_observation("Ada", "mathematics and poetry", "wrote the first program")
    with pytest.raises(InvalidInput, match="empty"):
        mem.replace_observation("Ada", "mathematics and poetry", "")
    assert _state(mem) == before


def test_end_relation_keeps_it_but_not_current(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    assert mem.end_relation("Ada", "Babbage", "knows", "2026-01-01T18:00:00Z")
    assert ("Ada", "Babbage", "knows", True) in _rels(mem, "Ada")
    current = {(r.from_, r.to, r.relationType) for r in mem.read_graph().relations}
    assert ("Ada", "Babbage", "knows") not in current
    assert [n.node.name for n in mem.get_neighbours("Ada")] == ["Babbage", "Engine"]  # mentors still holds
    before = _state(mem)
    with pytest.raises(Conflict, match="already ended"):
        mem.end_relation("Ada", "Babbage", "knows")
    with pytest.raises(NotFound):
        mem.end_relation("Ada", "Engine", "invented")
    with pytest.raises(InvalidInput, match="future"):
        mem.end_relation("Ada", "Engine", "programmed", "2999-01-01")
    with pytest.raises(InvalidInput, match="ISO"):
        mem.end_relation("Ada", "Engine", "programmed", "yesterday")
    assert _state(mem) == before
    # A relation may be written down after it stopped being true: an end before it was recorded.
    assert mem.end_relation("Ada", "Engine", "programmed", "1852-11-27")
    assert ("Ada", "Engine", "programmed", True) in _rels(mem, "Ada")


def test_query_at_date_rewinds_the_new_edits(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    then = clock.now.isoformat().replace("+00:00", "Z")
    clock.advance(hours=1)
    mem.rename_entity("Ada", "Ada Lovelace")
    mem.set_entity_type("Ada Lovelace", "Mathematician")
    mem.replace_observation("Ada Lovelace", "maths", "analysis")
    mem.end_relation("Ada Lovelace", "Engine", "programmed")
    mem.delete_entities(["Babbage"])
    mem.restore_entity("Babbage")
    past = mem.query_at_date(then)
    ada = next(e for e in past.entities if e.name == "Ada")
    assert (ada.entityType, ada.observations) == ("Person", ["wrote the first program", "maths"])
    assert {(r.from_, r.to, r.relationType) for r in past.relations} == {
        ("Ada", "Babbage", "knows"), ("Babbage", "Ada", "mentors"), ("Ada", "Engine", "programmed")}
    clock.advance(seconds=1)
    now = mem.query_at_date(clock.now)
    assert "Ada Lovelace" in {e.name for e in now.entities}
    assert ("Ada Lovelace", "Engine", "programmed") not in {(r.from_, r.to, r.relationType) for r in now.relations}


def test_query_at_date_between_deletion_and_restore_has_no_entity(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.delete_entities(["Engine"])
    clock.advance(hours=1)
    gap = clock.now
    clock.advance(hours=1)
    mem.restore_entity("Engine")
    assert "Engine" not in {e.name for e in mem.query_at_date(gap).entities}
    clock.advance(seconds=1)
    assert "Engine" in {e.name for e in mem.query_at_date(clock.now).entities}


# -- undo --------------------------------------------------------------------------------------

def _visible(mem: Memory) -> Any:
    """Entities (with type, props, observations, archived or not) and relations (with their end)."""
    nodes = [(n.name, n.label, n.props, n.observations, n.archived_at is None)
             for n in mem.list_nodes(include_archived=True)]
    rels = {(r["from"], r["to"], r["relationType"], r["ended_at"] is None)
            for n in nodes for r in mem.entity_for_edit(n[0])["relations"]}
    return sorted(nodes), rels


def _undo_restores(mem: Memory, clock: SteppingClock, change: Any) -> None:
    before = _visible(mem)
    clock.advance(minutes=1)
    change()
    assert _visible(mem) != before
    clock.advance(minutes=1)
    undo = mem.undo_change()
    assert undo.op == "undo" and undo.actor == "gui"
    assert _visible(mem) == before


@pytest.mark.parametrize("change", [
    lambda m: m.create_entities([{"name": "New", "entityType": "Thing", "observations": ["o"]}]),
    lambda m: m.delete_entities(["Babbage"]),
    lambda m: m.add_observations([{"entityName": "Ada", "contents": ["poet's daughter", "countess"]}]),
    lambda m: m.delete_observations([{"entityName": "Ada", "observations": ["maths"]}]),
    lambda m: m.create_relations([{"from": "Engine", "to": "Babbage", "relationType": "built_by"}]),
    lambda m: m.delete_relations([{"from": "Ada", "to": "Babbage", "relationType": "knows"}]),
    lambda m: m.rename_entity("Ada", "Countess"),
    lambda m: m.set_entity_type("Ada", "Countess"),
    lambda m: m.replace_observation("Ada", "maths", "analysis"),
    lambda m: m.end_relation("Ada", "Engine", "programmed"),
    lambda m: m.merge_node("Device", "Engine", {"summary": "analytical"}),
    lambda m: m.archive_node("Engine"),
    lambda m: m.save_entity("Ada", new_name="A. Lovelace", entity_type="Writer", add_observations=["x"],
                            delete_observations=["maths"], edit_observations=[("wrote the first program", "y")],
                            add_relations=[{"from": "Ada", "to": "Engine", "relationType": "admired"}],
                            delete_relations=[{"from": "Babbage", "to": "Ada", "relationType": "mentors"}],
                            end_relations=[{"from": "Ada", "to": "Babbage", "relationType": "knows"}]),
], ids=["create", "delete", "add_obs", "delete_obs", "create_rel", "delete_rel", "rename", "set_type",
        "replace_obs", "end_rel", "update", "archive", "save"])
def test_undo_takes_back_each_kind_of_change(mem: Memory, clock: SteppingClock, change: Any) -> None:
    _seed(mem, clock)
    _undo_restores(mem, clock, lambda: change(mem))


def test_undo_of_an_ended_relation_also_restores_its_end(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.end_relation("Ada", "Engine", "programmed")
    mem.delete_relations([{"from": "Ada", "to": "Engine", "relationType": "programmed"}])
    mem.undo_change()
    assert ("Ada", "Engine", "programmed", True) in _rels(mem, "Ada")


def test_undo_defaults_skip_undone_changes_and_filter_by_entity_and_actor(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.add_observations([{"entityName": "Ada", "contents": ["one"]}], actor="cursor")
    mem.add_observations([{"entityName": "Babbage", "contents": ["two"]}], actor="claude-code")
    assert mem.undoable_change(entity="Ada").after == ["one"]
    assert mem.undoable_change(by="claude-code").entity == "Babbage"
    mem.undo_change(entity="Ada")
    assert "one" not in mem.require_node("Ada").observations
    assert "two" in mem.require_node("Babbage").observations
    mem.undo_change()  # the newest not yet undone: Babbage's
    assert "two" not in mem.require_node("Babbage").observations
    assert mem.undoable_change().op == "create_relation"  # then the seed's relations


def test_undo_finds_a_change_behind_hundreds_of_others(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.add_observations([{"entityName": "Ada", "contents": ["early"]}], actor="cursor")
    for i in range(260):  # more than one page of the newest changes, none of them cursor's or Ada's
        mem.create_entities([{"name": f"note {i}", "entityType": "Note"}], actor="claude-code")
    assert mem.undoable_change(by="cursor").after == ["early"]
    assert mem.undoable_change(entity="Ada").after == ["early"]
    mem.undo_change(by="cursor")
    assert "early" not in mem.require_node("Ada").observations


def test_undo_of_an_undo_redoes(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.rename_entity("Ada", "Countess")
    undo = mem.undo_change()
    assert mem.get_node("Ada") is not None
    mem.undo_change(undo.id)
    assert mem.get_node("Countess") is not None and mem.get_node("Ada") is None


def test_unsafe_undo_is_refused_and_changes_nothing(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.add_observations([{"entityName": "Ada", "contents": ["later"]}])
    added = mem.latest_change_id()
    mem.set_entity_type("Ada", "Countess")
    typed = mem.latest_change_id()
    mem.set_entity_type("Ada", "Poet")
    mem.delete_entities(["Ada"])
    before = _state(mem)
    with pytest.raises(Conflict, match="no longer exists"):
        mem.undo_change(added)
    with pytest.raises(Conflict, match="no longer exists"):
        mem.undo_change(typed)
    with pytest.raises(NotFound, match="no change #999"):
        mem.undo_change(999)
    with pytest.raises(InvalidInput):
        mem.undo_change(0)
    assert _state(mem) == before
    mem.restore_entity("Ada")
    with pytest.raises(Conflict, match="changed again"):
        mem.undo_change(typed)  # the type was changed again since (Poet)
    undo = mem.undo_change(added)
    with pytest.raises(Conflict, match="already undone"):
        mem.undo_change(added)
    assert undo.after["undo_of"] == added


def test_undo_with_nothing_to_undo(mem: Memory) -> None:
    with pytest.raises(NotFound, match="no change left"):
        mem.undo_change()
    assert mem.undoable_change() is None


# -- one editor Save -------------------------------------------------------------------------

def test_save_applies_everything_in_one_group(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    loaded = mem.entity_for_edit("Ada")
    result = mem.save_entity(
        "Ada", expected_version=loaded["version"], new_name="Ada Lovelace", entity_type="Mathematician",
        add_observations=["countess"], edit_observations=[{"old": "maths", "new": "analysis"}],
        delete_observations=["wrote the first program"],
        add_relations=[{"from": "Engine", "to": "Ada", "relationType": "inspired"}],
        end_relations=[{"from": "Ada", "to": "Babbage", "relationType": "knows", "ended_at": "2026-01-02"}],
        delete_relations=[{"from": "Ada", "to": "Engine", "relationType": "programmed"}])
    assert result["name"] == "Ada Lovelace"
    node = mem.require_node("Ada Lovelace")
    assert (node.label, node.observations) == ("Mathematician", ["analysis", "countess"])
    assert _rels(mem, "Ada Lovelace") == {("Ada Lovelace", "Babbage", "knows", True),
                                          ("Babbage", "Ada Lovelace", "mentors", False),
                                          ("Engine", "Ada Lovelace", "inspired", False)}
    group = mem.entity_history("Ada Lovelace")[0]
    assert group.op == "save_entity" and group.id == result["change_id"] and len(group.after["rows"]) == 8


def test_save_is_all_or_nothing(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    before = _state(mem)
    with pytest.raises(NotFound, match="Nobody"):  # the last step fails: the earlier ones roll back
        mem.save_entity("Ada", entity_type="Poet", add_observations=["new"],
                        add_relations=[{"from": "Ada", "to": "Nobody", "relationType": "knows"}])
    with pytest.raises(Conflict, match="Babbage"):
        mem.save_entity("Ada", add_observations=["new"], new_name="Babbage")
    with pytest.raises(NotFound, match="no observation"):
        mem.save_entity("Ada", add_observations=["new"], delete_observations=["never said"])
    with pytest.raises(InvalidInput, match=r"add_observations\[1\]"):
        mem.save_entity("Ada", add_observations=["fine", " "])
    with pytest.raises(InvalidInput, match="end_relations"):
        mem.save_entity("Ada", end_relations=["Ada -knows-> Babbage"])
    assert _state(mem) == before
    assert mem.save_entity("Ada")["change_id"] is None  # nothing to do, nothing written
    assert _state(mem) == before


def test_save_refuses_when_someone_changed_the_entity_meanwhile(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    loaded = mem.entity_for_edit("Ada")
    mem.add_observations([{"entityName": "Engine", "contents": ["unrelated"]}], actor="cursor")
    mem.save_entity("Ada", expected_version=loaded["version"], add_observations=["fine: Engine is not Ada"])
    loaded = mem.entity_for_edit("Ada")
    mem.create_relations([{"from": "Babbage", "to": "Ada", "relationType": "admires"}], actor="claude-code")
    before = _state(mem)
    with pytest.raises(Conflict, match=r"claude-code \(related Babbage -admires-> Ada\)"):
        mem.save_entity("Ada", expected_version=loaded["version"], add_observations=["mine"])
    assert _state(mem) == before


def test_save_creates_a_new_entity(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.save_entity("Charles", create=True, entity_type="Person", add_observations=["a friend"],
                    add_relations=[{"from": "Charles", "to": "Ada", "relationType": "knows"}])
    assert mem.require_node("Charles").observations == ["a friend"]
    with pytest.raises(Conflict, match="already exists"):
        mem.save_entity("Charles", create=True)
    mem.undo_change()  # the whole Save: the entity goes
    assert mem.get_node("Charles") is None


def test_deleted_entity_can_be_found_and_restored(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    assert mem.last_deletion("Ada") is None
    mem.delete_entities(["Ada"], actor="claude-code")
    deletion = mem.last_deletion("Ada")
    assert deletion is not None and deletion.actor == "claude-code"
    with pytest.raises(NotFound):
        mem.entity_for_edit("Ada")
    mem.restore_entity("Ada")
    assert mem.entity_for_edit("Ada")["node"].observations == ["wrote the first program", "maths"]


def test_edits_mark_embeddings_stale(tmp_path: Path, clock: SteppingClock,
                                     local_embedder: OnnxEmbeddingProvider) -> None:
    with Memory(Settings(db=tmp_path / "v.db", embeddings="onnx"), clock=clock, embedder=local_embedder) as m:
        _seed(m, clock)
        m.embed_pending()
        for edit in (lambda: m.rename_entity("Engine", "Analytical Engine"),
                     lambda: m.set_entity_type("Ada", "Poet"),
                     lambda: m.replace_observation("Babbage", "built engines", "designed engines"),
                     lambda: m.end_relation("Ada", "Babbage", "knows")):
            edit()
            assert m.embed_pending() >= 1
        m.rename_entity("Analytical Engine", "Engine")
        assert m.embed_pending() == 2  # the entity and Ada, whose relation line names it


def test_relation_type_counts(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.create_relations([{"from": "Babbage", "to": "Engine", "relationType": "knows"}])
    assert mem.relation_type_counts() == {"knows": 2, "mentors": 1, "programmed": 1}
