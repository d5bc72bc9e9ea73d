"""On FalkorDB a search reads each entity's head, fact count and name once: its later reads (the
chosen few again, the counts, the supersede filter's look-up by name) reuse them while no process
has written since (the version key every write bumps, ``core.storage.cypher.memo``), and read
afresh as soon as one has."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import pytest

from core.memory import Memory
from core.settings import Settings
from core.storage.cypher.falkordb import FalkorDialect
from core.storage.cypher.store import CypherGraphStore

NOTES = [{"name": "Heron", "entityType": "Project", "observations": ["ledger reconciliation for the warehouse",
                                                                   "weekly sync on Mondays"]},
         {"name": "Osprey", "entityType": "Project", "observations": ["quarterly aviary audit"]}]


def queries(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The graph queries sent from now on (not the version key's GET)."""
    sent: list[str] = []
    run, tagged = FalkorDialect.run, FalkorDialect.read_tagged

    def counted_run(self: FalkorDialect, graph: Any, query: str, params: Any, *, read_only: bool) -> Any:
        sent.append(query)
        return run(self, graph, query, params, read_only=read_only)

    def counted_tagged(self: FalkorDialect, query: str, params: Any = None) -> Any:
        sent.append(query)
        return tagged(self, query, params)

    monkeypatch.setattr(FalkorDialect, "run", counted_run)
    monkeypatch.setattr(FalkorDialect, "read_tagged", counted_tagged)
    return sent


def test_a_searchs_reads_of_its_entities_are_reused_while_nothing_is_written(
        tmp_path: Path, graph_settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", **graph_settings)) as memory:
        memory.create_entities(NOTES)
        graph = cast(CypherGraphStore, memory.graph)
        hits = memory.search_semantic("ledger reconciliation", 3)  # records the access: a write of its own
        assert [h["name"] for h in hits] == ["Heron"]
        sent = queries(monkeypatch)
        ids = graph.ids_for(["Heron"])
        heads = graph.entity_heads(list(ids.values()))
        assert [(n.name, n.label) for n in heads] == [("Heron", "Project")]
        assert graph.fact_counts(list(ids.values())) == {ids["Heron"]: 2}
        assert sent == []  # all three from what the search read
        graph.fulltext_search("quarterly aviary", limit=5, own_fields=True)  # a query that is no one's name
        sent.clear()
        assert graph.ids_for(["quarterly aviary"]) == {}  # looked up with the own words
        assert sent == []
        memory.merge_node("Project", "Heron", {"summary": "books"})  # a write: read afresh
        assert [n.props for n in graph.entity_heads(list(ids.values()))] == [{"summary": "books"}]
        assert len(sent) >= 1


def test_what_another_process_writes_is_seen_at_once(tmp_path: Path, graph_settings: dict[str, Any]) -> None:
    settings = Settings(db=tmp_path / "m.db", embeddings="none", **graph_settings)
    with Memory(settings) as memory, Memory(settings) as other:
        memory.create_entities(NOTES)
        graph = cast(CypherGraphStore, memory.graph)
        assert [h["name"] for h in memory.search_semantic("aviary audit", 3, record=False)] == ["Osprey"]
        osprey = graph.ids_for(["Osprey"])["Osprey"]
        other.add_observations([{"entityName": "Osprey", "contents": ["nest camera installed"]}])
        assert graph.fact_counts([osprey]) == {osprey: 2}
        other.rename_entity("Osprey", "Kestrel")
        assert graph.ids_for(["Osprey"]) == {} and graph.ids_for(["Kestrel"]) == {"Kestrel": osprey}
        assert [n.name for n in graph.entity_heads([osprey])] == ["Kestrel"]
        other.delete_entities(["Kestrel"])
        assert graph.entity_heads([osprey]) == [] and graph.ids_for(["Kestrel"]) == {}
        assert memory.search_semantic("aviary audit", 3, record=False) == []
