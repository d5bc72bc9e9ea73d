"""Importing another database file: MCP Memory v2's schema (seed 000) or another Hipocampo file.
The source file is only read."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest
import sqlean

from core.errors import InvalidInput
from core.io import detect_format, import_path
from core.memory import Memory
from tests.io.conftest import sample_graph

V2_SCHEMA = """
CREATE TABLE entities (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE,
    entity_type TEXT NOT NULL DEFAULT 'Generic', created_at TEXT NOT NULL DEFAULT (datetime('now')),
    updated_at TEXT NOT NULL DEFAULT (datetime('now')));
CREATE TABLE observations (id INTEGER PRIMARY KEY AUTOINCREMENT,
    entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE, content TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (datetime('now')));
CREATE TABLE relations (id INTEGER PRIMARY KEY AUTOINCREMENT,
    from_entity INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    to_entity INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE, relation_type TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (datetime('now')), UNIQUE(from_entity, to_entity, relation_type));
CREATE TABLE db_metadata (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entity_access (entity_id INTEGER PRIMARY KEY, access_count INTEGER NOT NULL DEFAULT 1,
    last_access TEXT NOT NULL DEFAULT (datetime('now')));
"""


def make_v2(path: Path) -> Path:
    conn = sqlean.connect(str(path))
    conn.executescript(V2_SCHEMA)
    conn.executemany(
        "INSERT INTO entities(name, entity_type) VALUES (?, ?)",
        [("Sesión 12", "Sesion"), ("Componente X", "Componente"), ("Vacío", "Generic")],
    )
    conn.executemany(
        "INSERT INTO observations(entity_id, content) VALUES (?, ?)",
        [(1, "se habló de X"), (2, "usa SQLite"), (1, "duró 2 h"), (1, "se habló de X")],
    )
    conn.executemany(
        "INSERT INTO relations(from_entity, to_entity, relation_type) VALUES (?, ?, ?)",
        [(1, 2, "discute"), (2, 1, "aparece_en")],
    )
    conn.commit()
    conn.close()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_imports_an_mcp_memory_v2_database_without_touching_it(mem: Memory, tmp_path: Path) -> None:
    source = make_v2(tmp_path / "memory.db")
    before = digest(source)
    assert detect_format(source) == "sqlite"
    report = import_path(mem, source)
    assert report.format == "mcp-memory-v2"
    assert (report.entities_imported, report.relations_imported, report.errors) == (3, 2, 0)
    assert mem.read_graph().dump() == {
        "entities": [
            {"name": "Sesión 12", "entityType": "Sesion", "observations": ["se habló de X", "duró 2 h"]},
            {"name": "Componente X", "entityType": "Componente", "observations": ["usa SQLite"]},
            {"name": "Vacío", "entityType": "Generic", "observations": []},
        ],
        "relations": [
            {"from": "Sesión 12", "to": "Componente X", "relationType": "discute"},
            {"from": "Componente X", "to": "Sesión 12", "relationType": "aparece_en"},
        ],
    }
    assert digest(source) == before
    assert not Path(f"{source}-wal").exists()
    again = import_path(mem, source)
    assert (again.entities_imported, again.relations_imported, again.skipped) == (0, 0, 5)


def test_merges_another_hipocampo_file_with_properties(
    mem: Memory, open_memory: Callable[[str], Memory], tmp_path: Path
) -> None:
    sample_graph(mem)
    mem.close()
    target = open_memory("target")
    report = import_path(target, tmp_path / "source.db")
    assert report.format == "hipocampo" and report.errors == 0
    source = open_memory("source")
    assert target.read_graph().dump() == source.read_graph().dump()
    assert target.get_node("Use punched cards").props == source.get_node("Use punched cards").props
    assert target.get_node("Canción").archived_at is not None


def test_a_database_of_something_else_is_refused(mem: Memory, tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlean.connect(str(other))
    conn.execute("CREATE TABLE invoices (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(InvalidInput, match="not one MCP Memory v2 or Hipocampo wrote"):
        import_path(mem, other)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    with pytest.raises(InvalidInput):
        import_path(mem, junk)
