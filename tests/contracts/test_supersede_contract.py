"""Superseded facts on every backend: proposed by reflect, kept with an end and a successor once
approved, out of search_semantic's default answer, in every official read, and undone in one step."""

from __future__ import annotations

import pytest

from core.errors import Conflict
from core.hygiene.supersede import CONTRADICTING, SUPERSEDED
from core.memory import Memory

OLD, NEW = "Latency of Billing went from 544 ms to 62 ms", "Latency of Billing went from 62 ms to 240 ms"


def _seed(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Billing service", "entityType": "Service", "observations": [OLD, "Uses PostgreSQL", NEW]},
        {"name": "Ana García", "entityType": "Person",
         "observations": ["Works at Acme", "Is vegetarian", "Now works at Nubia", "Is not vegetarian"]},
        # The same words on another entity: never paired across entities.
        {"name": "Payments", "entityType": "Service", "observations": ["Latency of Billing went from 7 ms to 9 ms"]},
        {"name": "Kim", "entityType": "Person", "observations": ["Speaks English", "Speaks Korean"]},
    ])


def _proposals(mem: Memory, pattern: str) -> dict[str, dict]:
    return {i["evidence"]["facts"]["older"]: i for i in mem.surface_insights(limit=100, status="all")
            if i["pattern"] == pattern}


def _official(mem: Memory) -> tuple[list, dict, list]:
    """What the official tools answer about the seeded entities (an approved insight joins the
    graph as an entity of its own, linked to its evidence, as every approved insight does)."""
    seeded = {"Billing service", "Ana García", "Payments", "Kim"}
    return ([e for e in mem.read_graph_dump()["entities"] if e["name"] in seeded],
            mem.open_nodes_dump(["Billing service", "Ana García"])["entities"],
            [e for e in mem.search_nodes_dump("latency")["entities"] if e["name"] in seeded])


def test_reflect_proposes_updates_and_flags_contradictions_within_one_entity(mem: Memory) -> None:
    _seed(mem)
    mem.reflect()
    updates = _proposals(mem, SUPERSEDED)
    assert set(updates) == {OLD, "Works at Acme"}
    assert updates[OLD]["evidence"]["facts"]["newer"] == NEW
    assert updates["Works at Acme"]["evidence"]["facts"]["newer"] == "Now works at Nubia"
    assert all(i["status"] == "pending" for i in updates.values())  # never automatic by default
    assert [e["name"] for e in updates[OLD]["evidence"]["entities"]] == ["Billing service"]
    assert set(_proposals(mem, CONTRADICTING)) == {"Is vegetarian"}
    assert mem.superseded_facts("Billing service") == {}
    again = mem.reflect()  # nothing written since: the same insights, no duplicates
    assert again["incremental"] is True  # remembering the findings is no change to the graph
    assert len(_proposals(mem, SUPERSEDED)) == 2
    mem.add_observations([{"entityName": "Kim", "contents": ["Switched to Rust"]}])
    assert mem.reflect()["incremental"] is False and len(_proposals(mem, SUPERSEDED)) == 2


def test_approval_keeps_the_fact_with_an_end_and_undo_restores_it(mem: Memory, backend: str) -> None:
    _seed(mem)
    before = _official(mem)
    mem.reflect()
    title = _proposals(mem, SUPERSEDED)[OLD]["title"]
    mem.decide_insight(title, "approve", actor="gui")

    mark = mem.superseded_facts("Billing service")[OLD]
    assert mark["by"] == NEW and mark["ended_at"] and mark["insight"] == title
    assert _official(mem) == before  # the official tools still return every observation, byte for byte
    hits = {h["name"]: h for h in mem.search_semantic("latency of billing", 5, record=False)}
    assert OLD not in hits["Billing service"]["observations"] and NEW in hits["Billing service"]["observations"]
    only_old = mem.search_semantic("544", 5, record=False)  # only the retired fact holds it
    assert all(OLD not in h["observations"] for h in only_old)
    if backend == "sqlite":  # facts ranked one by one: it matched by the retired fact alone
        assert "Billing service" not in {h["name"] for h in only_old}
    kept = {h["name"]: h for h in mem.search_semantic("latency of billing", 5, record=False, include_superseded=True)}
    assert {"fact": OLD, **mark} in kept["Billing service"]["superseded"]
    assert OLD in {o for e in mem.query_at_date("2100-01-01").entities for o in e.observations}
    assert any(r.op == "update_entity" for r in mem.entity_history("Billing service"))
    assert mem.superseded_facts("Ana García") == {}  # nothing else retired

    mem.undo_change()
    assert mem.superseded_facts("Billing service") == {}
    assert _official(mem) == before
    hits = {h["name"]: h for h in mem.search_semantic("544 ms", 5, record=False)}
    assert OLD in hits["Billing service"]["observations"]


def test_approval_refused_when_a_fact_is_gone_changes_nothing(mem: Memory) -> None:
    _seed(mem)
    mem.reflect()
    title = _proposals(mem, SUPERSEDED)["Works at Acme"]["title"]
    mem.delete_observations([{"entityName": "Ana García", "observations": ["Now works at Nubia"]}])
    with pytest.raises(Conflict, match="no longer on"):
        mem.decide_insight(title, "approve")
    assert mem.surface_insights(title=title, status="all")[0]["status"] == "pending"
    assert mem.superseded_facts("Ana García") == {}
    assert "Works at Acme" in mem.open_nodes(["Ana García"]).entities[0].observations
