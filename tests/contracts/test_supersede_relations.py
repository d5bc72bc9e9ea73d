"""Superseded relations on every backend: within one entity, a newer relation of a single-valued
kind (or a newer fact) replaces an older one; proposed by reflect, kept with an end once approved,
left out of what search answers with, returned by every official read, undone in one step."""

from __future__ import annotations

import pytest

from core.errors import Conflict
from core.hygiene.supersede_relations import PATTERN, fact_says, kind_of
from core.memory import Memory
from tests.conftest import SteppingClock

SEEDED = {"Ana", "Bob", "Carl", "Acme", "Nubia", "Madrid", "Dana"}


def _seed(mem: Memory, clock: SteppingClock) -> None:
    mem.create_entities([
        {"name": "Ana", "entityType": "Person", "observations": ["Likes tea"]},
        {"name": "Bob", "entityType": "Person"}, {"name": "Carl", "entityType": "Person"},
        {"name": "Dana", "entityType": "Person"},
        {"name": "Acme", "entityType": "Company"}, {"name": "Nubia", "entityType": "Company"},
        {"name": "Madrid", "entityType": "City"}])
    mem.create_relations([
        {"from": "Ana", "to": "Acme", "relationType": "WORKS_AT"},
        {"from": "Bob", "to": "Acme", "relationType": "trabaja_en"},
        {"from": "Carl", "to": "Madrid", "relationType": "lives in"},
        {"from": "Ana", "to": "Bob", "relationType": "knows"}])  # many-valued: never proposed
    clock.advance(seconds=60)
    mem.create_relations([{"from": "Ana", "to": "Nubia", "relationType": "worksAt"},  # the same kind, folded
                          {"from": "Ana", "to": "Carl", "relationType": "knows"},
                          {"from": "Dana", "to": "Acme", "relationType": "uses"}, {"from": "Dana", "to": "Nubia",
                                                                                   "relationType": "uses"}])
    mem.add_observations([{"entityName": "Bob", "contents": ["Ahora trabaja en Nubia"]},
                          {"entityName": "Carl", "contents": ["Lives in Madrid since 2019"]}])  # the same place


def _proposals(mem: Memory) -> dict[tuple[str, str, str], dict]:
    out = {}
    for i in mem.surface_insights(limit=100, status="all"):
        if i["pattern"] == PATTERN:
            r = i["evidence"]["relation"]
            out[(r["entity"], r["relationType"], r["to"])] = i
    return out


def _official(mem: Memory) -> tuple:
    def ours(dump: dict) -> dict:
        return {"entities": [e for e in dump["entities"] if e["name"] in SEEDED],
                "relations": [r for r in dump["relations"] if r["from"] in SEEDED and r["to"] in SEEDED]}
    return (ours(mem.read_graph_dump()), ours(mem.open_nodes_dump(["Ana", "Bob"])), ours(mem.search_nodes_dump("a")))


def _text(mem: Memory, name: str) -> str:
    """The entity's embedding text as its backend builds it (for a model no vector was made with)."""
    assert mem.vectors is not None
    eid = mem.graph.ids_for([name])[name]
    return mem.vectors.pending("a-model-never-used", 10_000)[eid]


def test_kinds_fold_names_and_facts_say_targets() -> None:
    assert {kind_of(t) for t in ("WORKS_AT", "worksAt", "works at", "Trabaja_En", "works-for")} == {"employer"}
    assert kind_of("vive en") == kind_of("LIVES_IN") == "home"
    assert kind_of("knows") is None and kind_of("uses") is None and kind_of("USES") is None
    assert fact_says("employer", "Now works at Nubia since May") == ("nubia", False)
    assert fact_says("home", "Se mudó a Sevilla") == ("sevilla", False)
    assert fact_says("employer", "No longer works at Acme") == ("acme", True)
    assert fact_says("employer", "Likes tea") is None


def test_reflect_proposes_single_valued_relations_replaced_within_one_entity(mem: Memory,
                                                                             clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.reflect()
    found = _proposals(mem)
    assert set(found) == {("Ana", "WORKS_AT", "Acme"), ("Bob", "trabaja_en", "Acme")}
    assert found[("Ana", "WORKS_AT", "Acme")]["evidence"]["relation"]["by"] == {"relationType": "worksAt",
                                                                              "to": "Nubia"}
    assert found[("Bob", "trabaja_en", "Acme")]["evidence"]["relation"]["by"] == {"fact": "Ahora trabaja en Nubia"}
    assert all(i["status"] == "pending" for i in found.values())  # never automatic
    mem.reflect()
    assert len(_proposals(mem)) == 2  # found again: no duplicates


def test_approval_keeps_the_relation_for_official_reads_and_undo_takes_it_back(mem: Memory,
                                                                             clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.reflect()
    before_official = _official(mem)
    assert "WORKS_AT → Acme" in _text(mem, "Ana")
    clock.advance(seconds=60)
    moment = clock.now
    clock.advance(seconds=60)
    title = _proposals(mem)[("Ana", "WORKS_AT", "Acme")]["title"]
    decided = mem.decide_insight(title, "approve")
    assert decided["status"] == "approved"
    mark = mem.graph.get_node("Ana").props["superseded_relations"]["WORKS_AT → Acme"]
    assert mark["by"] == {"relationType": "worksAt", "to": "Nubia"} and mark["ended_at"]
    assert _official(mem) == before_official  # read_graph, open_nodes, search_nodes: as the official server
    assert "WORKS_AT → Acme" not in _text(mem, "Ana") and "worksAt → Nubia" in _text(mem, "Ana")
    past = mem.query_at_date(moment)
    assert ("Ana", "Acme", "WORKS_AT") in {(r.from_, r.to, r.relationType) for r in past.relations}
    hits = mem.search_semantic("Ana", include_superseded=True, record=False)
    ana = next(h for h in hits if h["name"] == "Ana")
    assert ana["superseded_relations"][0]["to"] == "Acme"  # explain shows it, with its end
    plain = next(h for h in mem.search_semantic("Ana", record=False) if h["name"] == "Ana")
    assert "superseded_relations" not in plain
    assert any(r.op == "update_entity" and "superseded_relations" in r.after["props"]
               for r in mem.entity_history("Ana", limit=5))  # history keeps the mark, and who made it
    mem.undo_change()
    assert "superseded_relations" not in mem.graph.get_node("Ana").props or \
        not mem.graph.get_node("Ana").props["superseded_relations"]
    assert mem.surface_insights(limit=1, title=title, status="all")[0]["status"] == "pending"
    assert "WORKS_AT → Acme" in _text(mem, "Ana")
    assert _official(mem) == before_official


def test_a_relation_ended_since_is_refused_with_nothing_changed(mem: Memory, clock: SteppingClock) -> None:
    _seed(mem, clock)
    mem.reflect()
    title = _proposals(mem)[("Ana", "WORKS_AT", "Acme")]["title"]
    mem.end_relation("Ana", "Acme", "WORKS_AT")
    version = mem.latest_change_id()
    with pytest.raises(Conflict, match="gone or ended"):
        mem.decide_insight(title, "approve")
    assert mem.latest_change_id() == version
    assert mem.surface_insights(limit=1, title=title, status="all")[0]["status"] == "pending"
