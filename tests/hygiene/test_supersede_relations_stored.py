"""The superseded-relation detector's findings are kept in the memory with the change they hold as
of: a new process (a new store) starts from them and reads only what was written since, not every
relation; when they cannot be trusted (another version of the rules, a change log that no longer
holds their change) it reads everything, as a first run. Both backends."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.hygiene import supersede_relations as SR
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.fixture(params=["sqlite", "falkordb"])
def settings(tmp_path: Path, request: pytest.FixtureRequest) -> Settings:
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    return Settings(db=tmp_path / "m.db", embeddings="none", **server)


@pytest.fixture
def opened(settings: Settings, clock: SteppingClock) -> Iterator[Callable[[], Memory]]:
    """Open the same memory again as a new process would (a new store: nothing kept in-process)."""
    opened: list[Memory] = []

    def reopen() -> Memory:
        if opened:
            opened.pop().close()
        mem = Memory(settings, clock=clock)
        opened.append(mem)
        return mem
    yield reopen
    for m in opened:
        m.close()


def _people(mem: Memory, clock: SteppingClock) -> None:
    mem.create_entities([{"name": n, "entityType": "Person"} for n in ("Ana", "Bob", "Acme", "Nubia", "Mora")])
    mem.create_relations([{"from": "Ana", "to": "Acme", "relationType": "works_at"},
                          {"from": "Bob", "to": "Mora", "relationType": "works_at"}])
    clock.advance(seconds=60)
    mem.create_relations([{"from": "Ana", "to": "Nubia", "relationType": "works_at"}])


def test_a_new_process_reads_only_what_was_written_since(opened: Callable[[], Memory], clock: SteppingClock) -> None:
    mem = opened()
    _people(mem, clock)
    mem.reflect()
    assert SR._kept(mem.graph).full_read
    mem = opened()
    clock.advance(seconds=60)
    mem.create_relations([{"from": "Bob", "to": "Nubia", "relationType": "works_at"}])
    titles = sorted(i["title"] for i in mem.reflect()["insights"] if i["pattern"] == SR.PATTERN)
    assert not SR._kept(mem.graph).full_read  # started from the stored findings
    assert SR._kept(mem.graph).found.keys() == {mem.graph.ids_for(["Ana"])["Ana"], mem.graph.ids_for(["Bob"])["Bob"]}
    assert SR.Detector(mem.graph).rows() == SR.find_rows(mem.graph)
    assert titles == ["Superseded relation on Ana: works_at → Acme by works_at → Nubia",
                      "Superseded relation on Bob: works_at → Mora by works_at → Nubia"]
    mem = opened()  # nothing written since: the stored findings are the answer
    assert SR.Detector(mem.graph).rows() == SR.find_rows(mem.graph)
    assert not SR._kept(mem.graph).full_read


@pytest.mark.parametrize("spoil", ["version", "anchor", "garbage"])
def test_stored_findings_that_cannot_be_trusted_are_read_again(opened: Callable[[], Memory], clock: SteppingClock,
                                                               spoil: str) -> None:
    mem = opened()
    _people(mem, clock)
    mem.reflect()
    state = json.loads(mem.metadata(SR.STATE_KEY) or "{}")
    if spoil == "version":
        state["version"] = "0"
    elif spoil == "anchor":
        state["anchor"][1] = "1999-01-01T00:00:00.000Z"  # the change it names is not the one in the log
    state["found"] = {}  # what a full read must not trust: it would hide Ana's finding
    mem.set_metadata(SR.STATE_KEY, "not json" if spoil == "garbage" else json.dumps(state))
    mem = opened()
    rows = SR.Detector(mem.graph).rows()
    assert SR._kept(mem.graph).full_read
    assert rows == SR.find_rows(mem.graph) and len(rows) == 1


def test_what_reflect_logs_about_its_insights_is_not_judged_again(opened: Callable[[], Memory],
                                                                  clock: SteppingClock) -> None:
    from core.hygiene import written

    mem = opened()
    _people(mem, clock)
    before = mem.latest_change_id()
    assert mem.reflect()["created"] >= 1
    assert written.names_since(mem.graph, before, mem.latest_change_id(), 5000) == set()
