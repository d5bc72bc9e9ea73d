"""A FalkorDB graph written before facts had nodes of their own gets them when it is opened: every
entity's observations become facts, due for the embedder, a page of entities per write, and an
interrupted migration resumes where it stopped."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from core.storage.cypher import facts


def test_an_old_graph_gets_its_facts_resumably(tmp_path: Path, graph_settings: dict[str, object],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(db=tmp_path / "unused.db", embeddings="none", **graph_settings)
    with Memory(settings) as mem:
        mem.create_entities([{"name": f"E{i}", "entityType": "Note", "observations": [f"fact {i} a", f"fact {i} b"]}
                             for i in range(5)])
        # what a graph written before facts holds: no fact nodes, no migration mark
        mem.graph.write(lambda tx: (tx.write("MATCH (f:Fact) DELETE f"),
                                     tx.write("MATCH (m:Meta) WHERE m.key STARTS WITH 'facts_' DELETE m")))
        assert mem.graph.fact_search("fact") == []

        monkeypatch.setattr(facts, "MIGRATE_PAGE", 2)

        def stop(done: int, total: int) -> None:
            raise KeyboardInterrupt  # the process stopped after its first page

        with pytest.raises(KeyboardInterrupt):
            facts.migrate(mem.graph, progress=stop)
        assert len({eid for _, eid, _ in mem.graph.fact_search("fact", limit=100)}) == 2
    with Memory(settings) as mem:  # opened again: the rest is done, nothing twice
        ids = [mem.get_node(f"E{i}").id for i in range(5)]
        assert {eid: sorted(t for _, t in items) for eid, items in mem.graph.facts_of(ids).items()} == {
            eid: [f"fact {i} a", f"fact {i} b"] for i, eid in enumerate(ids)}
        assert mem.vectors.fact_progress("any model") == (0, 10)
        assert mem.metadata(facts.MIGRATED_KEY) == "1"
