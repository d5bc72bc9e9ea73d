"""Former names are stored folded beside them (core.hygiene.store), on every backend: search_nodes
finds an entity by a merged name's folded words after a merge, a rename and their undo, and a
memory written before the folds were kept gets them when opened (SQLite migration 009; a graph
server's ``folded_aliases``, resumable per page)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


def found(mem: Memory, query: str) -> list[str]:
    return [e.name for e in mem.search_nodes(query).entities]


def merged(mem: Memory) -> None:
    mem.create_entities([{"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme"]},
                         {"name": "DOÑA_ANA_GARCÍA", "entityType": "Person", "observations": ["Likes tea"]}])
    mem.merge_entities(["DOÑA_ANA_GARCÍA"], into="Ana García", dry_run=False)


def test_a_merged_name_is_found_folded_after_merge_rename_and_undo(mem: Memory) -> None:
    merged(mem)
    assert found(mem, "doña_ana") == found(mem, "DONA_ANA") == ["Ana García"]  # only its former name holds it
    assert found(mem, "nobody") == [] and found(mem, "") == ["Ana García"]
    assert mem.rename_entity("Ana García", "Ana G.")
    assert found(mem, "dona_ana") == ["Ana G."]
    assert [e.name for e in mem.open_nodes(["DOÑA_ANA_GARCÍA"]).entities] == ["Ana G."]
    mem.undo_change()  # the rename
    assert found(mem, "dona_ana") == ["Ana García"]
    mem.undo_change()  # the merge: the name is an entity of its own again, no alias
    assert found(mem, "dona_ana") == ["DOÑA_ANA_GARCÍA"]
    assert mem.resolve_aliases(["DOÑA_ANA_GARCÍA"]) == {}


def test_an_archived_entity_is_not_found_by_its_former_name(mem: Memory) -> None:
    merged(mem)
    assert mem.archive_node("Ana García")
    assert found(mem, "dona_ana") == []


def _forget_folds(backend: str, mem: Memory, path: Path) -> None:
    """Make the memory as it was written before folds were kept."""
    if backend == "sqlite":
        from core.storage.sqlite.connection import connect
        from tests.older_schema import without_folded_aliases

        mem.close()
        conn = connect(path)
        without_folded_aliases(conn)  # just before 009 (what 008 makes is there already)
        conn.close()
    else:
        mem.graph.db.write(lambda tx: tx.write("MATCH (e:Entity) SET e.folded_aliases = null"))
        mem.close()


def test_a_memory_written_before_the_folds_gets_them(backend: str, tmp_path: Path, clock: SteppingClock,
                                                    request: pytest.FixtureRequest) -> None:
    server = {} if backend == "sqlite" else request.getfixturevalue(
        {"falkordb": "graph_settings", "neo4j": "neo4j_settings"}[backend])
    settings = Settings(db=tmp_path / "old.db", embeddings="none", **{"backend": backend, **server})
    mem = Memory(settings, clock=clock)
    merged(mem)
    _forget_folds(backend, mem, tmp_path / "old.db")
    with Memory(settings, clock=clock) as mem:
        assert found(mem, "dona_ana") == ["Ana García"]
        if backend == "sqlite":
            from core.storage.sqlite.inspection import SCHEMA_VERSION

            with mem.graph.db.locked() as conn:
                assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
                assert conn.execute("SELECT alias, folded FROM entity_aliases").fetchall() == [
                    ("DOÑA_ANA_GARCÍA", "dona_ana_garcia")]
        else:
            assert mem.graph.db.read("MATCH (e:Entity {name: 'Ana García'}) RETURN e.folded_aliases") == [
                [["dona_ana_garcia"]]]
        mem.create_entities([{"name": "Pedro", "entityType": "Person"}, {"name": "Pedro_Ruíz", "entityType": "Person"}])
        mem.merge_entities(["Pedro_Ruíz"], into="Pedro", dry_run=False)  # written folded from now on
        assert found(mem, "pedro_ruiz") == ["Pedro"]
