"""Engrama's own SQLite database (seed 003's schema) imports directly, insights with their status."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from core.errors import InvalidInput
from core.io import ImportRefused, detect_format, import_path, preview_import
from core.memory import Memory

# Seed 003's schema.sql for Engrama's SQLite backend, as the spec writes it.
ENGRAMA_DDL = """
PRAGMA user_version = 1;
PRAGMA foreign_keys = ON;
PRAGMA journal_mode = WAL;
CREATE TABLE IF NOT EXISTS nodes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    label       TEXT NOT NULL,
    key_field   TEXT NOT NULL,
    key_value   TEXT NOT NULL,
    props       TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    status      TEXT DEFAULT 'active',
    archived_at TEXT,
    UNIQUE(label, key_value)
);
CREATE INDEX idx_nodes_label    ON nodes(label);
CREATE INDEX idx_nodes_status   ON nodes(status);
CREATE INDEX idx_nodes_updated  ON nodes(updated_at);
CREATE TABLE IF NOT EXISTS edges (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    from_id     INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    rel_type    TEXT NOT NULL,
    to_id       INTEGER NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    props       TEXT NOT NULL DEFAULT '{}',
    created_at  TEXT NOT NULL,
    UNIQUE(from_id, rel_type, to_id)
);
CREATE INDEX idx_edges_from ON edges(from_id, rel_type);
CREATE INDEX idx_edges_to   ON edges(to_id, rel_type);
CREATE VIRTUAL TABLE IF NOT EXISTS nodes_fts USING fts5(
    name, title, description, notes, rationale, solution, context, body,
    content='', tokenize='unicode61'
);
CREATE TABLE IF NOT EXISTS insights (
    node_id     INTEGER PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    confidence  REAL NOT NULL DEFAULT 0.0,
    status      TEXT NOT NULL DEFAULT 'pending',
    source_query TEXT
);
CREATE INDEX idx_insights_status ON insights(status, confidence DESC);
"""
NOW = "2026-11-30T10:00:00Z"


def build_engrama_db(path: Path) -> Path:
    """A small Engrama database: name- and title-keyed nodes, edges, an archived node, insights."""
    conn = sqlite3.connect(path)
    conn.executescript(ENGRAMA_DDL)

    def node(label: str, key: str, props: dict[str, object], *, archived: bool = False) -> int:
        field = "title" if label in ("Decision", "Problem", "Insight") else "name"
        cur = conn.execute(
            "INSERT INTO nodes(label, key_field, key_value, props, created_at, updated_at, archived_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (label, field, key, json.dumps({field: key, **props}), NOW, NOW, NOW if archived else None))
        return int(cur.lastrowid)

    hipo = node("Project", "Hipocampo", {"summary": "memoria local", "tags": ["mcp", "sqlite"]})
    sqlite = node("Technology", "SQLite", {"summary": "embedded database"})
    wal = node("Decision", "Use WAL mode", {"rationale": "readers never block"})
    old = node("Concept", "Old idea", {"summary": "forgotten"}, archived=True)
    for src, rel, dst in ((hipo, "USES", sqlite), (hipo, "INFORMED_BY", wal), (wal, "RELATED_TO", old)):
        conn.execute("INSERT INTO edges(from_id, rel_type, to_id, props, created_at) VALUES (?, ?, ?, ?, ?)",
                     (src, rel, dst, json.dumps({"since": 2024}) if rel == "USES" else "{}", NOW))
    for title, status, confidence in (("Shared SQLite", "approved", 0.85), ("Maybe Rust", "pending", 0.6),
                                      ("Not this", "dismissed", 0.5)):
        nid = node("Insight", title, {"summary": f"{title}: found by reflect", "pattern": "shared_technology"})
        conn.execute("INSERT INTO insights(node_id, confidence, status, source_query) VALUES (?, ?, ?, ?)",
                     (nid, confidence, status, "shared_technology"))
    conn.commit()
    conn.close()
    return path


def test_detected_as_engrama_db(tmp_path: Path) -> None:
    assert detect_format(build_engrama_db(tmp_path / "engrama.db")) == "engrama-db"


def test_imports_nodes_edges_and_insight_status(tmp_path: Path, mem: Memory) -> None:
    path = build_engrama_db(tmp_path / "engrama.db")
    before = path.read_bytes()
    report = import_path(mem, path)
    assert report.format == "engrama-db"
    assert report.entities_imported == 7 and report.relations_imported == 3
    assert path.read_bytes() == before  # only read
    nodes = {n.name: n for n in mem.list_nodes(include_archived=True, limit=100)}
    assert nodes["Hipocampo"].label == "Project"
    assert nodes["Hipocampo"].props == {"summary": "memoria local", "tags": ["mcp", "sqlite"]}
    assert nodes["Use WAL mode"].label == "Decision" and nodes["Use WAL mode"].props == {
        "rationale": "readers never block"}
    assert nodes["Old idea"].archived_at is not None and nodes["SQLite"].archived_at is None
    graph = mem.read_graph()
    assert {(r.from_, r.relationType, r.to) for r in graph.relations} >= {
        ("Hipocampo", "USES", "SQLite"), ("Hipocampo", "INFORMED_BY", "Use WAL mode")}
    insights = {i["title"]: i for i in mem.surface_insights(status="all", limit=10)}
    assert {t: (i["status"], i["confidence"]) for t, i in insights.items()} == {
        "Shared SQLite": ("approved", 0.85), "Maybe Rust": ("pending", 0.6), "Not this": ("dismissed", 0.5)}
    assert insights["Shared SQLite"]["pattern"] == "shared_technology"
    assert insights["Maybe Rust"]["summary"] == "Maybe Rust: found by reflect"
    assert mem.insight_counts()["pending"] == 1
    # Only the approved insight is ordinary knowledge; the others stay out of searches.
    assert nodes["Shared SQLite"].archived_at is None
    assert nodes["Maybe Rust"].archived_at is not None and nodes["Not this"].archived_at is not None
    # The pending one is still up for review, like one reflect proposed.
    assert mem.decide_insight("Maybe Rust", "approve")["status"] == "approved"


def test_import_is_idempotent_and_keeps_decisions(tmp_path: Path, mem: Memory) -> None:
    path = build_engrama_db(tmp_path / "engrama.db")
    import_path(mem, path)
    mem.decide_insight("Maybe Rust", "dismiss")
    again = import_path(mem, path)
    assert again.entities_imported == 0 and again.relations_imported == 0
    assert mem.surface_insights(title="Maybe Rust", status="all")[0]["status"] == "dismissed"


def test_preview_changes_nothing(tmp_path: Path, mem: Memory) -> None:
    path = build_engrama_db(tmp_path / "engrama.db")
    plan = preview_import(mem, [path])
    assert plan.files[0].format == "engrama-db" and plan.entities_new == 7 and plan.relations_new == 3
    assert mem.list_nodes(include_archived=True, limit=10) == []
    assert mem.insight_counts()["pending"] == 0


def test_broken_database_is_refused_whole(tmp_path: Path, mem: Memory) -> None:
    path = build_engrama_db(tmp_path / "engrama.db")
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO nodes(label, key_field, key_value, props, created_at, updated_at) "
                 "VALUES ('Concept', 'name', '', '{}', ?, ?)", (NOW, NOW))  # a node without a name
    conn.commit()
    conn.close()
    with pytest.raises(ImportRefused):
        import_path(mem, path)
    assert mem.list_nodes(include_archived=True, limit=10) == []
    assert mem.insight_counts()["approved"] == 0


def test_other_sqlite_file_is_not_engrama(tmp_path: Path, open_memory: Callable[[str], Memory]) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE nodes (id INTEGER)")
    conn.commit()
    conn.close()
    assert detect_format(other) == "sqlite"
    with pytest.raises(InvalidInput):
        import_path(open_memory("target"), other, format="engrama-db")
