"""The superseded-relation detector reads again only the entities written since the last run (in
one process) and their neighbours: after every kind of write — relations, facts, a renamed target,
an ended relation, an approval and its undo, a merge, a deletion, an archive — it proposes exactly
what a fresh, full read proposes, on both backends."""

from __future__ import annotations

from collections.abc import Callable, Iterator
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


def _approve_ana(mem: Memory) -> None:
    mem.reflect()
    title = next(i["title"] for i in mem.surface_insights(limit=100) if i["pattern"] == SR.PATTERN
                 and i["evidence"]["relation"]["entity"] == "Ana")
    mem.decide_insight(title, "approve")


def test_a_kept_detector_proposes_what_a_full_read_proposes_after_every_write(mem: Memory,
                                                                             clock: SteppingClock) -> None:
    mem.create_entities([{"name": n, "entityType": t} for n, t in [
        ("Ana", "Person"), ("Bob", "Person"), ("Carl", "Person"), ("Dana", "Person"), ("Acme", "Company"),
        ("Nubia", "Company"), ("Madrid", "City"), ("Sevilla", "City")]])
    mem.create_relations([{"from": "Ana", "to": "Acme", "relationType": "WORKS_AT"},
                          {"from": "Bob", "to": "Acme", "relationType": "trabaja_en"},
                          {"from": "Carl", "to": "Madrid", "relationType": "lives in"},
                          {"from": "Dana", "to": "Madrid", "relationType": "lives_in"}])

    def later(step: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            clock.advance(seconds=60)
            return step()
        return run

    steps: list[Callable[[], object]] = [later(s) for s in [
        lambda: None,
        lambda: mem.create_relations([{"from": "Ana", "to": "Nubia", "relationType": "worksAt"}]),
        lambda: mem.add_observations([{"entityName": "Bob", "contents": ["Ahora trabaja en Nubia"]}]),
        lambda: mem.rename_entity("Nubia", "Nubia Labs"),  # Ana's successor is named by its target
        lambda: mem.add_observations([{"entityName": "Carl", "contents": ["Se mudó a Sevilla"]}]),
        lambda: mem.add_observations([{"entityName": "Dana", "contents": ["Now lives in Sevilla"]}]),
        lambda: mem.end_relation("Carl", "Madrid", "lives in"),
        lambda: _approve_ana(mem),
        lambda: mem.undo_change(),  # the approval's mark comes back off
        lambda: mem.merge_entities(["Dana", "Carl"], into="Dana", dry_run=False),
        lambda: mem.delete_relations([{"from": "Bob", "to": "Acme", "relationType": "trabaja_en"}]),
        lambda: mem.delete_entities(["Ana"]),
        lambda: mem.archive_node("Dana"),
    ]]
    counts: list[int] = []
    successors: list[object] = []
    for step in steps:
        step()
        got = SR.Detector(mem.graph).rows()  # a new run: what the process kept is reused
        assert got == SR.find_rows(mem.graph)
        counts.append(len(got))
        successors.extend(r[3].get("to") for r in got if r[0] == mem.graph.ids_for(["Ana"]).get("Ana"))
    assert counts == [0, 1, 2, 2, 3, 4, 3, 2, 3, 3, 2, 1, 0]
    assert "Nubia Labs" in successors  # the rename reached the relation pointing at it


def test_an_unchanged_entity_is_not_read_again(mem: Memory, clock: SteppingClock) -> None:
    mem.create_entities([{"name": n, "entityType": "Person"} for n in ("Ana", "Bob", "Acme", "Nubia", "Mora")])
    mem.create_relations([{"from": "Ana", "to": "Acme", "relationType": "works_at"},
                          {"from": "Bob", "to": "Mora", "relationType": "works_at"}])
    clock.advance(seconds=60)
    mem.create_relations([{"from": "Ana", "to": "Nubia", "relationType": "works_at"},
                          {"from": "Bob", "to": "Nubia", "relationType": "works_at"}])
    first = SR.Detector(mem.graph)
    first.rows()
    ana, bob = (mem.graph.ids_for([n])[n] for n in ("Ana", "Bob"))
    kept = SR._kept(mem.graph)
    ana_rows = kept.found[ana]
    clock.advance(seconds=60)
    mem.add_observations([{"entityName": "Bob", "contents": ["Likes tea"]}])
    SR.Detector(mem.graph).rows()
    assert kept.found[ana] is ana_rows  # Ana was not written (nor a neighbour of Bob): kept as read
    assert bob in kept.found
