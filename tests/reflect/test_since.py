"""Reflect after a few writes runs only the patterns they can touch (``core.reflect.since``)."""

from __future__ import annotations

from typing import Any

import pytest

from core.memory import Memory
from tests.reflect.conftest import build, evidence_names, one

SHARED = "Shared technology: SQLite"
CLUSTER = "Concept cluster: Caching"


@pytest.fixture
def graph(mem: Memory) -> Memory:
    build(mem, {"SQLite": "Technology", "Atlas": "Project", "Nimbus": "Project", "Caching": "Concept",
                "A": "Person", "B": "Decision", "C": "Tool", "Ana": "Person", "Bea": "Person"},
          [("Atlas", "USES", "SQLite"), ("Nimbus", "USES", "SQLite"), ("A", "RELATED_TO", "Caching"),
           ("B", "INSTANCE_OF", "Caching"), ("C", "USES", "Caching"), ("Ana", "KNOWS", "Bea")])
    return mem


def everything(mem: Memory) -> list[dict[str, Any]]:
    return sorted((i for i in mem.surface_insights(status="all", limit=1000)), key=lambda i: i["title"])


def test_a_write_no_pattern_reads_skips_them(graph: Memory) -> None:
    graph.reflect()
    graph.create_relations([{"from": "Ana", "to": "Bea", "relationType": "MET"}])
    graph.add_observations([{"entityName": "Atlas", "contents": ["moved to Postgres soon"]}])
    result = graph.reflect()
    assert result["incremental"] is False
    # Neither a Person–Person relation nor a fact can change a technology's users or a concept's links.
    assert "shared_technology" not in result["found"] and "concept_clusters" not in result["found"]
    assert "under_connected_nodes" in result["found"]  # any relation moves a node's edge count
    now = one(graph, "Under-connected nodes")["confirmed_at"]
    assert one(graph, SHARED)["confirmed_at"] == one(graph, CLUSTER)["confirmed_at"] == now
    skipped = everything(graph)
    # A full run (an entity created: the log no longer explains the graph in relations) agrees.
    graph.create_entities([{"name": "Zed", "entityType": "Person", "observations": []}])
    full = graph.reflect()
    assert "shared_technology" in full["found"] and "concept_clusters" in full["found"]
    assert held(everything(graph)) == held(skipped)


def held(insights: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What each insight says, apart from the under-connected one (the entity created changes it)."""
    return [(i["title"], i["evidence"], i["summary"], i["stale"]) for i in insights
            if i["pattern"] != "under_connected_nodes"]


def test_a_write_a_pattern_reads_runs_it(graph: Memory) -> None:
    graph.reflect()
    build(graph, {}, [("Ana", "USES", "SQLite")])
    result = graph.reflect()
    assert result["found"]["shared_technology"] == 1
    assert "concept_clusters" not in result["found"]
    assert evidence_names(one(graph, SHARED), "user") == {"Atlas", "Nimbus", "Ana"}
    graph.delete_relations([{"from": "C", "to": "Caching", "relationType": "USES"}])
    result = graph.reflect()
    assert "shared_technology" not in result["found"] and result["found"]["concept_clusters"] == 0
    assert one(graph, CLUSTER)["stale"] is True


def test_a_relation_of_another_type_to_a_technology_does_not_run_shared_technology(graph: Memory) -> None:
    graph.reflect()
    build(graph, {}, [("Ana", "DISLIKES", "SQLite")])
    assert "shared_technology" not in graph.reflect()["found"]


def test_a_relation_between_well_linked_nodes_leaves_the_under_connected_list(graph: Memory) -> None:
    build(graph, {}, [("Atlas", "RELATED_TO", "Nimbus"), ("Atlas", "KNOWS", "Caching"), ("Nimbus", "KNOWS", "Caching")])
    graph.reflect()
    before = one(graph, "Under-connected nodes")
    graph.create_relations([{"from": "Atlas", "to": "Nimbus", "relationType": "FOLLOWS"}])
    result = graph.reflect()
    assert "under_connected_nodes" not in result["found"]  # both ends had two real edges already
    assert one(graph, "Under-connected nodes")["evidence"] == before["evidence"]
    # Linking an isolated node changes the list, and reflect sees it.
    graph.create_relations([{"from": "Bea", "to": "SQLite", "relationType": "LIKES"}])
    result = graph.reflect()
    assert "under_connected_nodes" in result["found"]
    assert "Bea" not in evidence_names(one(graph, "Under-connected nodes"))
    assert "Bea" in evidence_names(before)
