"""graph_overview: a bounded picture of the whole memory (top entities, relations among them, type counts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.errors import InvalidInput
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.fixture(params=["sqlite", "falkordb"])
def memory(tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest) -> Iterator[Memory]:
    """The same memory on each backend."""
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", **server), clock=clock) as m:
        yield m


def _star_memory(memory: Memory) -> None:
    """A hub with 5 spokes, a second hub with 3, a few loners, and a rare type."""
    memory.create_entities(
        [{"name": "Hub", "entityType": "Project"}, {"name": "Second", "entityType": "Project"}]
        + [{"name": f"Spoke {i}", "entityType": "Concept"} for i in range(8)]
        + [{"name": f"Loner {i}", "entityType": "Concept"} for i in range(4)]
        + [{"name": "Ada", "entityType": "Person"}]
    )
    memory.create_relations(
        [{"from": "Hub", "to": f"Spoke {i}", "relationType": "USES"} for i in range(5)]
        + [{"from": "Second", "to": f"Spoke {i}", "relationType": "USES"} for i in range(5, 8)]
        + [{"from": "Hub", "to": "Second", "relationType": "RELATED_TO"}]
    )


def test_overview_ranks_by_degree_and_returns_relations_among_the_chosen(memory: Memory) -> None:
    _star_memory(memory)
    view = memory.graph_overview(limit=4, per_type=0)
    assert [e.name for e in view.entities] == ["Hub", "Second", "Spoke 0", "Spoke 1"]
    assert [e.degree for e in view.entities] == [6, 4, 1, 1]
    assert {r.key() for r in view.relations} == {
        ("Hub", "Second", "RELATED_TO"), ("Hub", "Spoke 0", "USES"), ("Hub", "Spoke 1", "USES")}
    assert view.types == {"Concept": 12, "Project": 2, "Person": 1}
    assert (view.total_entities, view.total_relations) == (15, 9)


def test_overview_keeps_a_few_of_every_type(memory: Memory) -> None:
    _star_memory(memory)
    view = memory.graph_overview(limit=4, per_type=1)
    # Ada has no relations at all, yet her type is represented.
    assert {e.name for e in view.entities} == {"Hub", "Spoke 0", "Ada", "Second"}
    assert view.entities[0].name == "Hub"
    assert memory.graph_overview(limit=3, per_type=1, entity_type="Concept").types == view.types
    assert [e.entityType for e in memory.graph_overview(limit=3, entity_type="Concept").entities] == ["Concept"] * 3


def test_overview_by_access_puts_the_most_recalled_first(memory: Memory) -> None:
    _star_memory(memory)
    ids = memory.graph.ids_for(["Loner 3", "Ada"])
    for _ in range(3):
        memory.graph.record_access([ids["Loner 3"]])
    memory.graph.record_access([ids["Ada"]])
    view = memory.graph_overview(limit=3, by="access", per_type=0)
    assert [(e.name, e.accessCount) for e in view.entities] == [("Loner 3", 3), ("Ada", 1), ("Hub", 0)]


def test_overview_leaves_out_archived_entities(memory: Memory) -> None:
    _star_memory(memory)
    memory.archive_node("Hub")
    view = memory.graph_overview(limit=50)
    assert "Hub" not in {e.name for e in view.entities}
    assert all("Hub" not in (r.from_, r.to) for r in view.relations)
    assert view.types["Project"] == 1


def test_overview_of_an_empty_memory(memory: Memory) -> None:
    view = memory.graph_overview()
    assert (view.entities, view.relations, view.types, view.total_entities) == ([], [], {}, 0)


@pytest.mark.parametrize("kwargs", [{"limit": 0}, {"limit": 5001}, {"limit": True}, {"by": "size"},
                                    {"per_type": -1}, {"limit": 5, "per_type": 6}])
def test_overview_refuses_bad_arguments(memory: Memory, kwargs: dict) -> None:
    with pytest.raises(InvalidInput):
        memory.graph_overview(**kwargs)
