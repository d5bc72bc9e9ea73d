"""The supersession detector reads again only the entities written since the last run (in one
process): after every kind of write it finds exactly what a fresh, full read finds, on both
backends."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from core.hygiene import supersede
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.fixture(params=["sqlite", "falkordb"])
def mem(tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest) -> Iterator[Memory]:
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", **server), clock=clock) as m:
        yield m


def _fresh(mem: Memory) -> dict[str, list[tuple[object, ...]]]:
    return {p: [tuple(r) for r in rows] for p, rows in supersede.find_rows(mem.graph).items()}


def test_a_kept_detector_finds_what_a_full_read_finds_after_every_write(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Payments", "entityType": "Service",
         "observations": ["p99 latency is 310 ms", "p99 latency is 180 ms"]},
        {"name": "Kim", "entityType": "Person", "observations": ["Lives in Madrid", "Likes tea"]},
        {"name": "Lea", "entityType": "Person", "observations": ["Works at Acme"]}])
    steps: list[Callable[[], object]] = [
        lambda: None,
        lambda: mem.add_observations([{"entityName": "Kim", "contents": ["Moved to Berlin"]}]),
        lambda: mem.add_observations([{"entityName": "Lea", "contents": ["Now works at Nubia"]}]),
        lambda: mem.rename_entity("Lea", "Lea Ruiz"),
        lambda: mem.create_relations([{"from": "Kim", "to": "Payments", "relationType": "owns"}]),
        lambda: mem.delete_observations([{"entityName": "Payments", "observations": ["p99 latency is 180 ms"]}]),
        lambda: mem.archive_node("Kim"),
        lambda: mem.delete_entities(["Lea Ruiz"]),
        lambda: mem.create_entities([{"name": "Ana", "entityType": "Person",
                                      "observations": ["Lives in Lima", "Lives in Quito"]}]),
    ]
    counts = []
    for step in steps:
        step()
        detector = supersede.Detector(mem.graph)  # a new run: what the process kept is reused
        got = {p: [tuple(r) for r in detector.candidates(p)] for p in supersede.PATTERNS}
        detector.save()
        assert got == _fresh(mem)
        counts.append(len(got[supersede.SUPERSEDED]))
    assert counts == [1, 2, 3, 3, 3, 2, 1, 0, 1]
