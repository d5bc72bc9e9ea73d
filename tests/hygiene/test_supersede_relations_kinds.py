"""Many-valued relation kinds: a newer relation of a kind an entity holds many of at once (knows,
uses, likes, member_of …) never makes the older superseded; a single-valued kind (works_at,
lives_in, reports_to, married_to …) may, unless the graph itself shows many of its holders holding
several at once. On both backends, through reflect."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.hygiene import supersede_relations as SR
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.fixture(params=["sqlite", "falkordb"])
def mem(tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest) -> Iterator[Memory]:
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", **server), clock=clock) as m:
        yield m


def _proposed(mem: Memory) -> set[tuple[str, str, str]]:
    names = {v: k for k, v in mem.graph.ids_for([e.name for e in mem.read_graph().entities]).items()}
    return {(names[r[0]], r[1], r[2]) for r in SR.Detector(mem.graph).rows()}


def _people(mem: Memory, n: int) -> None:
    mem.create_entities([{"name": f"P{i}", "entityType": "Person"} for i in range(n)]
                        + [{"name": t, "entityType": "Thing"} for t in ("Acme", "Nubia", "Slack", "Teams", "Ana",
                                                                         "Luis", "Docker", "Git")])


def test_a_newer_relation_of_a_many_valued_kind_supersedes_nothing(mem: Memory, clock: SteppingClock) -> None:
    _people(mem, 1)
    mem.create_relations([{"from": "P0", "to": t, "relationType": k} for k, t in
                          [("knows", "Ana"), ("uses", "Docker"), ("member_of", "Acme"), ("le_gusta", "Git")]])
    clock.advance(seconds=60)
    mem.create_relations([{"from": "P0", "to": t, "relationType": k} for k, t in
                          [("knows", "Luis"), ("uses", "Git"), ("member_of", "Nubia"), ("le_gusta", "Slack"),
                           ("works_at", "Acme")]])
    clock.advance(seconds=60)
    mem.create_relations([{"from": "P0", "to": "Nubia", "relationType": "works_at"}])
    assert _proposed(mem) == {("P0", "works_at", "Acme")}  # only the single-valued kind
    mem.reflect()
    assert [i["evidence"]["relation"]["to"] for i in mem.surface_insights(limit=50)
            if i["pattern"] == SR.PATTERN] == ["Acme"]


def test_the_graph_shows_a_single_valued_kind_held_many_at_once(mem: Memory, clock: SteppingClock) -> None:
    _people(mem, 10)
    mem.create_relations([{"from": f"P{i}", "to": "Acme", "relationType": "works_at"} for i in range(10)])
    clock.advance(seconds=60)
    mem.create_relations([{"from": "P0", "to": "Nubia", "relationType": "works_at"}])
    assert _proposed(mem) == {("P0", "works_at", "Acme")}  # one of ten holds two: a change
    clock.advance(seconds=60)
    # half the holders hold two employers at once: in this memory two jobs are common
    mem.create_relations([{"from": f"P{i}", "to": "Nubia", "relationType": "works_at"} for i in range(1, 5)])
    assert _proposed(mem) == set()
    assert SR.Detector(mem.graph).rows() == SR.find_rows(mem.graph)
    # a fact saying it changed still does
    clock.advance(seconds=60)
    mem.add_observations([{"entityName": "P9", "contents": ["Now works at Nubia"]}])
    assert _proposed(mem) == {("P9", "works_at", "Acme")}


def test_a_many_valued_kind_is_not_read_for_facts_either(mem: Memory, clock: SteppingClock) -> None:
    """A fact saying a many-valued relation changed is the facts' detector's (``supersede``): the
    relation detector does not read those kinds (reading them all costs seconds at 100k)."""
    _people(mem, 1)
    mem.create_relations([{"from": "P0", "to": "Slack", "relationType": "uses"}])
    clock.advance(seconds=60)
    mem.add_observations([{"entityName": "P0", "contents": ["Switched from Slack to Teams in May"]}])
    assert _proposed(mem) == set()
    assert SR.find_rows(mem.graph) == SR.Detector(mem.graph).rows()


@pytest.mark.parametrize(("counts", "held", "many"), [
    ({"works_at": 10}, [[("works_at", "A", "1"), ("works_at", "B", "2")]], False),  # 1 of 9 holders
    ({"works_at": 14, "WORKS_FOR": 1}, [[("works_at", "A", "1"), ("WORKS_FOR", "B", "2")]] * 5, True),  # 5 of 10
    ({"lives_in": 8}, [[("lives_in", "A", "1"), ("lives_in", "a", "2")]] * 5, False),  # the same target twice
])
def test_the_evidence_of_a_kind(counts: dict[str, int], held: list[list[tuple[str, str, str]]], many: bool) -> None:
    several = {i: kinds for i, rels in enumerate(held) if (kinds := SR.several_of(rels))}
    assert SR.many_at_once(SR.kind_of(next(iter(counts))) or "", SR.evidence_of(counts, several)) is many
