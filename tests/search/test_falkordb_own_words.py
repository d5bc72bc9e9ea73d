"""A FalkorDB graph written before entities' own words had an index of their own (``:Own``) is
found by those words before it is brought in step (opened read-only: the entity index, as before),
while it is (opened for writing, it opens at once and is labelled in the background, page by page,
the old query answering until the mark is set) and after."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, cast

import pytest

from core.memory import Memory
from core.settings import Settings
from core.storage.cypher import facts
from core.storage.cypher.store import CypherGraphStore


def test_an_old_graph_gets_the_own_words_index_in_the_background_and_is_searched_alike(
        tmp_path: Path, graph_settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(db=tmp_path / "m.db", embeddings="none", **graph_settings)
    with Memory(settings) as memory:
        memory.create_entities([{"name": f"note {i}", "entityType": "Note", "observations": [f"plain text {i}"]}
                                for i in range(5)])
        memory.merge_node("Project", "Heron", {"summary": "ledger reconciliation for the warehouse"})
        before = [h["name"] for h in memory.search_semantic("ledger reconciliation", 3, record=False)]
        db = cast(CypherGraphStore, memory.graph).db
        # As written before the index: no label, no field, no mark.
        db.graph.query("MATCH (e:Entity) REMOVE e:Own SET e.ft_own = null")
        db.graph.query("MATCH (m:Meta) WHERE m.key IN [$a, $b] DELETE m",
                       {"a": facts.OWN_KEY, "b": facts.OWN_CURSOR_KEY})
    assert before == ["Heron"]
    with Memory(settings.model_copy(update={"read_only": True})) as reader:
        assert not cast(CypherGraphStore, reader.graph)._own_index()
        assert [h["name"] for h in reader.search_semantic("ledger reconciliation", 3, record=False)] == before
    monkeypatch.setattr(facts, "OWN_PAGE", 2)  # several pages
    # The upgrade is held after its first page until the searches below have run.
    paged, go = threading.Event(), threading.Event()
    real = facts.migrate_own

    def held(store: Any, progress: Any = None, stop: Any = None) -> int:
        def after_page(done: int, total: int) -> None:
            if progress is not None:
                progress(done, total)
            paged.set()
            go.wait(60)

        return real(store, after_page, stop)

    monkeypatch.setattr(facts, "migrate_own", held)
    with Memory(settings) as memory:  # opened for writing: no waiting for the upgrade
        graph = cast(CypherGraphStore, memory.graph)
        assert paged.wait(60)
        assert not graph.wait_upgrade(0), "the open waited for the whole upgrade"
        assert graph.upgrade_progress["own_words"] == (2, 6)
        assert memory.health_check()["upgrading"] == {"own_words": (2, 6)}  # what `hipocampo status` says
        assert graph.get_metadata(facts.OWN_KEY) is None and not graph._own_index()
        assert [h["name"] for h in memory.search_semantic("ledger reconciliation", 3, record=False)] == before
        memory.merge_node("Project", "Osprey", {"summary": "quarterly aviary audit"})  # written meanwhile
        assert "Osprey" in [h["name"] for h in memory.search_semantic("aviary audit", 3, record=False)]
        go.set()
        assert graph.wait_upgrade(60)
        assert graph.get_metadata(facts.OWN_KEY) == "1" and graph._own_index()
        assert memory.health_check()["upgrading"] == {}
        assert graph.db.read("MATCH (e:Entity) WHERE NOT e:Own RETURN count(e)")[0][0] == 0
        assert [h["name"] for h in memory.search_semantic("ledger reconciliation", 3, record=False)] == before
        assert [h["name"] for h in memory.search_semantic("aviary audit", 1, record=False)] == ["Osprey"]


def test_closing_during_the_upgrade_stops_it_after_its_page_and_the_next_open_resumes(
        tmp_path: Path, graph_settings: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(db=tmp_path / "m.db", embeddings="none", **graph_settings)
    with Memory(settings) as memory:
        memory.create_entities([{"name": f"note {i}", "entityType": "Note", "observations": [f"plain text {i}"]}
                                for i in range(6)])
        db = cast(CypherGraphStore, memory.graph).db
        db.graph.query("MATCH (e:Entity) REMOVE e:Own SET e.ft_own = null")
        db.graph.query("MATCH (m:Meta) WHERE m.key IN [$a, $b] DELETE m",
                       {"a": facts.OWN_KEY, "b": facts.OWN_CURSOR_KEY})
    monkeypatch.setattr(facts, "OWN_PAGE", 2)
    paged, go = threading.Event(), threading.Event()
    real = facts.migrate_own

    def held(store: Any, progress: Any = None, stop: Any = None) -> int:
        def after_page(done: int, total: int) -> None:
            paged.set()
            go.wait(60)

        return real(store, after_page, stop)

    monkeypatch.setattr(facts, "migrate_own", held)
    memory = Memory(settings)
    graph = cast(CypherGraphStore, memory.graph)
    assert paged.wait(60)
    closing = threading.Thread(target=memory.close)  # waits for the page under way, then stops
    closing.start()
    assert graph._upgrade_stop.wait(60)
    go.set()
    closing.join(60)
    assert not closing.is_alive()
    monkeypatch.setattr(facts, "migrate_own", real)
    with Memory(settings.model_copy(update={"read_only": True})) as reader:
        graph = cast(CypherGraphStore, reader.graph)
        assert graph.get_metadata(facts.OWN_KEY) is None
        labelled = graph.db.read("MATCH (e:Own) RETURN count(e)")[0][0]
        assert labelled == 2  # the first page, not the next ones
    with Memory(settings) as memory:
        graph = cast(CypherGraphStore, memory.graph)
        assert graph.wait_upgrade(60)
        assert graph.get_metadata(facts.OWN_KEY) == "1"
        assert graph.db.read("MATCH (e:Entity) WHERE NOT e:Own RETURN count(e)")[0][0] == 0
