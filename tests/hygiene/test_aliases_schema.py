"""Migration 005: the alias index on a database written before it, and kept in step with props."""

from __future__ import annotations

from pathlib import Path

from core.memory import Memory
from core.storage.sqlite.connection import connect
from core.storage.sqlite.inspection import SCHEMA_VERSION


def test_a_version_4_file_gets_its_aliases_indexed(tmp_path: Path) -> None:
    path = tmp_path / "v4.db"
    with Memory.open(path, embeddings="none") as mem:
        mem.merge_node("Person", "Ana García", {"aliases": ["Ana_Garcia"]})
    conn = connect(path)
    for trigger in ("entity_aliases_added", "entity_aliases_changed"):
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("DROP TABLE entity_aliases")
    conn.execute("DROP TABLE pins")  # version 6's
    conn.execute("PRAGMA user_version = 4")
    conn.close()
    with Memory.open(path, embeddings="none") as mem:
        with mem.graph.db.locked() as c:
            assert c.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert mem.resolve_aliases(["Ana_Garcia", "Nobody"]) == {"Ana_Garcia": "Ana García"}


def test_the_index_follows_props_and_a_real_name_wins(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "m.db", embeddings="none") as mem:
        mem.merge_node("Person", "Ana García", {"aliases": ["Ana_Garcia", "AG"]})
        assert mem.resolve_aliases(["AG"]) == {"AG": "Ana García"}
        mem.merge_node("Person", "Ana García", {"aliases": ["Ana_Garcia"]})
        assert mem.resolve_aliases(["AG", "Ana_Garcia"]) == {"Ana_Garcia": "Ana García"}
        mem.create_entities([{"name": "Ana_Garcia", "entityType": "Person"}])  # a real entity by that name
        assert mem.resolve_aliases(["Ana_Garcia"]) == {}
        assert [e.name for e in mem.open_nodes(["Ana_Garcia"]).entities] == ["Ana_Garcia"]
        mem.delete_entities(["Ana García"])
        with mem.graph.db.locked() as c:
            assert c.execute("SELECT count(*) FROM entity_aliases").fetchone()[0] == 0
