"""Opening files: fresh, MCP Memory v2 (migrated in place after a backup), newer (refused)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from core.errors import SchemaTooNew, StorageError
from core.memory import Memory
from core.storage.sqlite.connection import connect
from core.storage.sqlite.schema import SCHEMA_VERSION

# Seed 000's DDL, verbatim: the schema MCP Memory v2 writes.
MCP_MEMORY_V2_DDL = """
CREATE TABLE entities (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL UNIQUE,
    entity_type TEXT    NOT NULL DEFAULT 'Generic',
    created_at  TEXT    NOT NULL DEFAULT (datetime('now')),
    updated_at  TEXT    NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE observations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    content    TEXT    NOT NULL,
    created_at TEXT    NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE relations (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    from_entity   INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    to_entity     INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    relation_type TEXT    NOT NULL,
    created_at    TEXT    NOT NULL DEFAULT (datetime('now')),
    UNIQUE(from_entity, to_entity, relation_type)
);
CREATE VIRTUAL TABLE entity_embeddings
USING vec0(embedding float[384] distance_metric=cosine);
CREATE TABLE db_metadata (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE entity_access (
    entity_id    INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    access_count INTEGER NOT NULL DEFAULT 1,
    last_access  TEXT    NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE co_occurrences (
    entity_a_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    entity_b_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    co_count     INTEGER NOT NULL DEFAULT 1,
    last_co      TEXT    NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (entity_a_id, entity_b_id)
);
CREATE VIRTUAL TABLE IF NOT EXISTS entity_fts
USING fts5(name, entity_type, obs_text, tokenize="unicode61");
CREATE INDEX idx_entities_name  ON entities(name);
CREATE INDEX idx_entities_type  ON entities(entity_type);
CREATE INDEX idx_obs_entity     ON observations(entity_id);
CREATE INDEX idx_rel_from       ON relations(from_entity);
CREATE INDEX idx_rel_to         ON relations(to_entity);
CREATE INDEX idx_rel_type       ON relations(relation_type);
CREATE INDEX idx_access_last    ON entity_access(last_access);
CREATE INDEX idx_cooc_b         ON co_occurrences(entity_b_id);
"""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_v2_database(path: Path) -> None:
    conn = connect(path, apply_pragmas=False)
    conn.executescript(MCP_MEMORY_V2_DDL)
    conn.executescript("""
        INSERT INTO entities(id, name, entity_type, created_at, updated_at) VALUES
            (1, 'Sesión 12', 'Sesion', '2025-03-01 10:00:00', '2025-03-02 11:00:00'),
            (2, 'mcp-memory', 'Sistema', '2025-03-01 10:05:00', '2025-03-01 10:05:00'),
            (3, 'SQLite', 'Componente', '2025-03-01 10:06:00', '2025-03-01 10:06:00');
        INSERT INTO observations(entity_id, content, created_at) VALUES
            (1, 'Se migró la canción al nuevo esquema', '2025-03-01 10:00:01'),
            (1, 'Duró dos horas', '2025-03-01 10:00:02'),
            (2, 'Usa embeddings de 384 dimensiones', '2025-03-01 10:05:01'),
            (3, 'WAL mode', '2025-03-01 10:06:01');
        INSERT INTO relations(from_entity, to_entity, relation_type, created_at) VALUES
            (2, 3, 'uses', '2025-03-01 10:07:00'), (1, 2, 'worked_on', '2025-03-01 10:08:00');
        INSERT INTO entity_access(entity_id, access_count, last_access) VALUES
            (1, 7, '2025-04-01 09:00:00'), (2, 3, '2025-04-02 09:00:00');
        INSERT INTO co_occurrences(entity_a_id, entity_b_id, co_count, last_co) VALUES
            (1, 2, 4, '2025-04-01 09:00:00'), (2, 3, 1, '2025-04-02 09:00:00');
        INSERT INTO db_metadata(key, value) VALUES ('embedding_model', 'multilingual-e5-small');
        INSERT INTO entity_fts(rowid, name, entity_type, obs_text) VALUES
            (1, 'Sesión 12', 'Sesion', 'Se migró la canción al nuevo esquema | Duró dos horas');
    """)
    conn.execute("INSERT INTO entity_embeddings(rowid, embedding) VALUES (2, ?)",
                 (np.full(384, 0.05, dtype=np.float32).tobytes(),))
    conn.close()


def test_fresh_database_gets_current_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    Memory.open(path).close()
    conn = connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"entities", "observations", "relations", "insights", "entity_access", "co_occurrences",
            "entity_fts", "entity_substr", "entity_embeddings", "embedding_state", "db_metadata",
            "change_log"} <= tables
    # reopening is a no-op
    Memory.open(path).close()


def test_mcp_memory_v2_database_is_migrated_in_place_with_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    build_v2_database(path)
    original = sha256(path)
    with Memory.open(path) as mem:
        graph = mem.read_graph().dump()
        assert graph["entities"] == [
            {"name": "Sesión 12", "entityType": "Sesion",
             "observations": ["Se migró la canción al nuevo esquema", "Duró dos horas"]},
            {"name": "mcp-memory", "entityType": "Sistema",
             "observations": ["Usa embeddings de 384 dimensiones"]},
            {"name": "SQLite", "entityType": "Componente", "observations": ["WAL mode"]},
        ]
        assert graph["relations"] == [
            {"from": "mcp-memory", "to": "SQLite", "relationType": "uses"},
            {"from": "Sesión 12", "to": "mcp-memory", "relationType": "worked_on"},
        ]
        node = mem.get_node("Sesión 12")
        assert node.created_at == "2025-03-01T10:00:00.000Z"
        assert node.updated_at == "2025-03-02T11:00:00.000Z"
        # every entity is searchable again, by substring and by word, accents folded
        assert [e.name for e in mem.search_nodes("cancion").entities] == ["Sesión 12"]
        assert [s.node.name for s in mem.fulltext_search("dimensiones")] == ["mcp-memory"]
        # Raw SQL holds the store's lock, as the store does: the integrity check's daily backup may be
        # using the same connection on its thread.
        with mem.graph.db.locked() as conn:
            assert conn.execute("SELECT entity_id, access_count, last_access FROM entity_access "
                                "ORDER BY entity_id").fetchall() == [
                (1, 7, "2025-04-01T09:00:00.000Z"), (2, 3, "2025-04-02T09:00:00.000Z")]
            assert conn.execute("SELECT entity_a_id, entity_b_id, co_count FROM co_occurrences "
                                "ORDER BY 1, 2").fetchall() == [(1, 2, 4), (2, 3, 1)]
            assert conn.execute("SELECT value FROM db_metadata WHERE key='embedding_model'").fetchone() == (
                "multilingual-e5-small",)
        assert mem.vectors.count() == 1
        # and it works as a Hipocampo database from now on
        mem.add_observations([{"entityName": "SQLite", "contents": ["FTS5 too"]}])
        mem.delete_entities(["mcp-memory"])
        assert mem.vectors.count() == 0
    backups = list(tmp_path.glob("memory.db.mcp-memory-v2-backup-*"))
    assert len(backups) == 1
    backup = connect(backups[0], apply_pragmas=False)
    assert backup.execute("SELECT count(*) FROM observations").fetchone()[0] == 4
    assert backup.execute("PRAGMA user_version").fetchone()[0] == 0
    assert original  # the original bytes were copied aside before anything changed
    with Memory.open(path) as again:  # reopening does not migrate twice
        assert len(again.read_graph().entities) == 2
    assert len(list(tmp_path.glob("memory.db.mcp-memory-v2-backup-*"))) == 1


def test_newer_schema_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    Memory.open(path).close()
    conn = connect(path)
    conn.execute("PRAGMA journal_mode = DELETE")  # a plain file, so any write would show
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    before = sha256(path)
    with pytest.raises(SchemaTooNew, match=rf"newer Hipocampo \(schema version {SCHEMA_VERSION + 1}.*not changed"):
        Memory.open(path)
    assert sha256(path) == before
    assert not Path(f"{path}-wal").exists()


def test_a_file_that_is_not_a_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 100)
    before = sha256(path)
    with pytest.raises(StorageError, match="not a database"):
        Memory.open(path)
    assert sha256(path) == before


def test_a_foreign_sqlite_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = connect(path, apply_pragmas=False)
    conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    conn.close()
    before = sha256(path)
    with pytest.raises(StorageError, match="invoices"):
        Memory.open(path)
    assert sha256(path) == before


def test_version_1_database_is_upgraded_and_searchable(tmp_path: Path) -> None:
    """Version 2 stores each entity's folded text; a version-1 file gets it filled on opening."""
    path = tmp_path / "v1.db"
    with Memory.open(path) as mem:
        mem.create_entities([{"name": "Canción", "entityType": "Obra", "observations": ["Tocada en ÁVILA"]},
                             {"name": "Otra", "observations": []}])
    conn = connect(path)
    conn.execute("DROP TABLE entity_folded")  # what schema version 1 had
    for trigger in ("entity_aliases_added", "entity_aliases_changed"):  # version 5's alias index
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("DROP TABLE entity_aliases")
    conn.execute("DROP INDEX idx_change_import")  # version 3's import ids
    conn.execute("ALTER TABLE change_log DROP COLUMN import_id")
    for trigger in ("fact_added", "fact_removed", "fact_changed"):  # version 4's fact index
        conn.execute(f"DROP TRIGGER {trigger}")
    for table in ("fact_fts", "fact_substr", "fact_folded", "fact_vectors", "fact_due", "fact_queue"):
        conn.execute(f"DROP TABLE {table}")
    conn.execute("DROP TABLE pins")  # version 6's pins
    conn.execute("PRAGMA user_version = 1")
    conn.close()
    with Memory.open(path) as mem:
        with mem.graph.db.locked() as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert [e.name for e in mem.search_nodes("cancion").entities] == ["Canción"]
        assert [e.name for e in mem.search_nodes("en avila").entities] == ["Canción"]
        assert [e.name for e in mem.search_nodes("tra").entities] == ["Otra"]
        with mem.graph.db.locked() as conn:
            assert conn.execute("SELECT count(*) FROM entity_folded").fetchone()[0] == 2
