"""An approved hygiene proposal is a record, not knowledge, in a memory written before it was so:
opening it archives the approved (or synced) merges and marks that were left un-archived (SQLite
migration 011, a graph server's ``archived_records`` mark), on every backend; they stay listed as
decided, and undoing what they did still puts them back to review."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


def _approved(mem: Memory) -> dict[str, str]:
    """Two duplicates merged and a superseded fact marked, both by approving reflect's proposals."""
    mem.create_entities([
        {"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme", "Lives in Madrid"]},
        {"name": "Ana_Garcia", "entityType": "person", "observations": ["works at acme.", "Likes green tea"]},
        {"name": "Billing", "entityType": "Service"},
    ])
    mem.add_observations([{"entityName": "Billing", "contents": ["Latency of Billing went from 544 ms to 62 ms"]}])
    mem.add_observations([{"entityName": "Billing", "contents": ["Latency of Billing went from 62 ms to 240 ms"]}])
    mem.reflect()
    pending = {i["pattern"]: i["title"] for i in mem.surface_insights(limit=50)}
    chosen = {k: pending[k] for k in ("duplicate_entities", "superseded_facts")}
    for title in chosen.values():
        mem.decide_insight(title, "approve")
    return chosen


def _as_written_before(backend: str, mem: Memory, path: Path) -> None:
    """Leave the memory as approving left it before: the approved proposals un-archived."""
    if backend == "sqlite":
        from core.storage.sqlite.connection import connect
        from tests.older_schema import without_archived_records

        mem.close()
        conn = connect(path)
        without_archived_records(conn)
        conn.close()
    else:
        from core.storage.cypher.insights import RECORDS_KEY

        def older(tx: object) -> None:
            tx.write("MATCH (e:Entity) WHERE e.ins_status = 'approved' SET e.archived_at = null")  # type: ignore[attr-defined]
            tx.write("MATCH (m:Meta {key: $k}) DELETE m", {"k": RECORDS_KEY})  # type: ignore[attr-defined]
        mem.graph.db.write(older)
        mem.close()


def _insights_in_graph(mem: Memory) -> list[str]:
    return [e.name for e in mem.read_graph().entities if e.entityType == "Insight"]


def test_an_older_memory_archives_its_approved_proposals(backend: str, tmp_path: Path, clock: SteppingClock,
                                                         request: pytest.FixtureRequest,
                                                         local_embedder: OnnxEmbeddingProvider) -> None:
    server = {} if backend == "sqlite" else request.getfixturevalue(
        {"falkordb": "graph_settings", "neo4j": "neo4j_settings"}[backend])
    settings = Settings(db=tmp_path / "old.db", **{"backend": backend, **server})
    mem = Memory(settings, clock=clock, embedder=local_embedder)
    titles = _approved(mem)
    _as_written_before(backend, mem, tmp_path / "old.db")
    with Memory(settings, clock=clock, embedder=local_embedder) as mem:
        decided = {i["title"]: i for i in mem.surface_insights(limit=50, status="approved")}
        assert set(titles.values()) <= decided.keys()  # still listed as decided, nothing else changed
        assert all(decided[t]["decided_at"] for t in titles.values())
        assert _insights_in_graph(mem) == []
        for query in ("Ana García", "latency of billing"):
            hits = mem.search_semantic(query, limit=10, record=False)
            assert hits and not [h["name"] for h in hits if h["entityType"] == "Insight"], query
        assert mem.superseded_facts("Billing")
    with Memory(settings, clock=clock, embedder=local_embedder) as mem:  # once: opening again changes nothing
        assert _insights_in_graph(mem) == []
        mem.undo_change()  # the superseded fact's approval
        mem.undo_change()  # the merge: both proposals back to review, archived as pending ones are
        pending = {i["title"] for i in mem.surface_insights(limit=50)}
        assert set(titles.values()) <= pending
        assert {"Ana García", "Ana_Garcia"} <= {e.name for e in mem.read_graph().entities}
        assert _insights_in_graph(mem) == [] and not mem.superseded_facts("Billing")
        mem.decide_insight(titles["duplicate_entities"], "approve")  # approved again: a record at once
        assert _insights_in_graph(mem) == []
