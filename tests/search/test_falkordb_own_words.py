"""A FalkorDB graph written before entities' own words had an index of their own (``:Own``) is
found by those words before it is brought in step (opened read-only: the entity index, as before)
and after (opened for writing: every entity labelled, page by page, then the mark)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from core.memory import Memory
from core.settings import Settings
from core.storage.cypher import facts
from core.storage.cypher.store import CypherGraphStore


def test_an_old_graph_gets_the_own_words_index_and_is_searched_alike(tmp_path: Path,
                                                                     graph_settings: dict[str, Any]) -> None:
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
    old_page = facts.OWN_PAGE
    facts.OWN_PAGE = 2  # several pages
    try:
        with Memory(settings) as memory:
            graph = cast(CypherGraphStore, memory.graph)
            assert graph.get_metadata(facts.OWN_KEY) == "1" and graph._own_index()
            assert graph.db.read("MATCH (e:Entity) WHERE NOT e:Own RETURN count(e)")[0][0] == 0
            assert [h["name"] for h in memory.search_semantic("ledger reconciliation", 3, record=False)] == before
    finally:
        facts.OWN_PAGE = old_page
