"""graph_overview: a bounded picture of the whole memory (top entities, relations among them, type counts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.errors import InvalidInput, NotFound
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


def _clusters(memory: Memory, groups: int = 3, size: int = 8) -> None:
    """``groups`` cliques-ish rings of ``size`` (each led by a hub), one relation between neighbouring
    groups, and two entities without relations."""
    kinds = ["person", "technology", "note"]
    memory.create_entities(
        [{"name": f"G{g} n{i}", "entityType": kinds[g % 3] if i else "Project"} for g in range(groups)
         for i in range(size)] + [{"name": f"Alone {i}", "entityType": "note"} for i in range(2)])
    rels = []
    for g in range(groups):
        rels += [{"from": f"G{g} n0", "to": f"G{g} n{i}", "relationType": "HAS"} for i in range(1, size)]
        rels += [{"from": f"G{g} n{i}", "to": f"G{g} n{i + 1}", "relationType": "NEXT"} for i in range(1, size - 1)]
        if g:
            rels.append({"from": f"G{g - 1} n1", "to": f"G{g} n1", "relationType": "KNOWS"})
    memory.create_relations(rels)


def test_communities_are_the_groups_named_after_their_hubs(memory: Memory) -> None:
    _clusters(memory)
    view = memory.graph_communities()
    assert sorted(c.name for c in view.communities) == ["G0 n0", "G1 n0", "G2 n0"]
    assert all(c.size == 8 and c.entityType != "Project" and sum(c.types.values()) == 8 for c in view.communities)
    assert view.unlinked == 2 and view.others == (0, 0)
    assert {(link.a, link.b, link.weight) for link in view.links} >= {("G0 n0", "G1 n0", 1)} or \
        {(link.b, link.a, link.weight) for link in view.links} >= {("G0 n0", "G1 n0", 1)}
    assert len(view.links) == 2
    assert view.total_entities == 26
    limited = memory.graph_communities(limit=1)
    assert len(limited.communities) == 1 and limited.others == (2, 16)


def test_a_community_opens_on_its_members(memory: Memory) -> None:
    _clusters(memory)
    group = memory.graph_community("G1 n3", limit=5)
    assert group.entities[0].name == "G1 n0"  # the best-connected first
    assert len(group.entities) == 5 and {e.name[:2] for e in group.entities} == {"G1"}
    assert group.total_entities == 8 and group.types["technology"] == 7
    assert all(r.from_[:2] == "G1" and r.to[:2] == "G1" for r in group.relations)
    assert memory.graph_community("Alone 0").total_entities == 1


def test_communities_follow_writes_and_archiving(memory: Memory) -> None:
    _clusters(memory)
    memory.graph_communities()
    memory.create_entities([{"name": "G3 n0", "entityType": "Project"}] +
                           [{"name": f"G3 n{i}", "entityType": "plan"} for i in range(1, 6)])
    memory.create_relations([{"from": "G3 n0", "to": f"G3 n{i}", "relationType": "HAS"} for i in range(1, 6)])
    memory.archive_node("G0 n0")
    view = memory.graph_communities()
    assert "G3 n0" in {c.name for c in view.communities}
    assert "G0 n0" not in {c.name for c in view.communities}


def test_communities_of_an_empty_memory_and_bad_arguments(memory: Memory) -> None:
    view = memory.graph_communities()
    assert (view.communities, view.links, view.unlinked, view.total_entities) == ([], [], 0, 0)
    for bad in (0, 1001, True):
        with pytest.raises(InvalidInput):
            memory.graph_communities(limit=bad)
    with pytest.raises(NotFound):
        memory.graph_community("nobody")
    with pytest.raises(InvalidInput):
        memory.graph_community("")
