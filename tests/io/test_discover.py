"""Finding a switcher's memories: real files under a scratch home folder."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from core.io import import_path
from core.io.discover import ENGRAMA, MCP_MEMORY_V2, OFFICIAL, find_memories
from core.memory import Memory
from core.settings import Settings
from tests.io.test_engrama_db import build_engrama_db


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "MEMORY_FILE_PATH", "ENGRAMA_DB_PATH", "CLAUDE_CONFIG_DIR", "APPDATA",
                 "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    return home


def write_official(path: Path, entities: int, relations: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [{"type": "entity", "name": f"e{i}", "entityType": "thing", "observations": [f"o{i}"]}
             for i in range(entities)]
    lines += [{"type": "relation", "from": "e0", "to": f"e{i + 1}", "relationType": "knows"}
              for i in range(relations)]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def write_mcp_memory_v2(path: Path) -> Path:
    """An MCP Memory v2 database as that server writes it (a Hipocampo file has the same tables)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with Memory(Settings(db=path, embeddings="none")) as memory:
        memory.create_entities([{"name": "Lucía", "entityType": "person", "observations": ["likes dinosaurs"]},
                                {"name": "Valencia", "entityType": "city", "observations": []}])
        memory.create_relations([{"from": "Lucía", "to": "Valencia", "relationType": "lives in"}])
    return path


def test_nothing_found_in_an_empty_home(home: Path) -> None:
    assert find_memories() == []


def test_finds_each_kind_with_its_counts(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    claude = write_official(home / "notes" / "claude-memory.jsonl", 3, 2)
    config = {"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
                                        "env": {"MEMORY_FILE_PATH": str(claude)}}},
              "projects": {"/x": {"mcpServers": {"m": {"env": {"MEMORY_FILE_PATH": str(claude)}}}}}}
    (home / ".claude.json").write_text(json.dumps(config), encoding="utf-8")
    cursor = write_official(home / "cursor.jsonl", 1, 0)
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").write_text(json.dumps(
        {"mcpServers": {"memory": {"env": {"MEMORY_FILE_PATH": "~/cursor.jsonl"}}}}), encoding="utf-8")
    default = write_official(home / ".npm" / "_npx" / "abc123" / "node_modules" / "@modelcontextprotocol"
                             / "server-memory" / "dist" / "memory.jsonl", 2, 1)
    v2 = write_mcp_memory_v2(home / ".config" / "opencode" / "mcp-memory" / "memory.db")
    engrama = build_engrama_db(home / "elsewhere.db")
    monkeypatch.setenv("ENGRAMA_DB_PATH", str(engrama))
    (home / ".engrama").mkdir()
    build_engrama_db(home / ".engrama" / "engrama.db")

    found = {(f.source, f.path): f for f in find_memories()}
    assert found[(OFFICIAL, claude)].entities == 3 and found[(OFFICIAL, claude)].relations == 2
    assert found[(OFFICIAL, claude)].via == "Claude Code"
    assert found[(OFFICIAL, cursor)].via == "Cursor" and found[(OFFICIAL, cursor)].entities == 1
    assert found[(OFFICIAL, default)].via == "default" and found[(OFFICIAL, default)].relations == 1
    assert (found[(MCP_MEMORY_V2, v2)].entities, found[(MCP_MEMORY_V2, v2)].relations) == (2, 1)
    assert (found[(ENGRAMA, engrama)].entities, found[(ENGRAMA, engrama)].insights) == (4, 3)
    assert found[(ENGRAMA, engrama)].via == "ENGRAMA_DB_PATH"
    assert (ENGRAMA, home / ".engrama" / "engrama.db") in found
    assert len(found) == 6  # the file two configs name is offered once


def test_own_database_empty_and_broken_files_are_not_offered(home: Path) -> None:
    own = write_mcp_memory_v2(home / ".config" / "opencode" / "mcp-memory" / "memory.db")
    (home / ".engrama").mkdir()
    (home / ".engrama" / "engrama.db").write_bytes(b"not a database at all")
    empty = home / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    (home / ".cursor").mkdir()
    (home / ".cursor" / "mcp.json").write_text(
        json.dumps({"mcpServers": {"memory": {"env": {"MEMORY_FILE_PATH": str(empty)}}}}), encoding="utf-8")
    (home / ".claude.json").write_text("{ not json", encoding="utf-8")
    assert find_memories(exclude=own) == []


def test_found_memories_import_as_usual(home: Path, open_memory: Callable[[str], Memory]) -> None:
    write_official(home / ".npm" / "_npx" / "1" / "node_modules" / "@modelcontextprotocol" / "server-memory"
                   / "dist" / "memory.json", 2, 1)
    (home / ".engrama").mkdir()
    build_engrama_db(home / ".engrama" / "engrama.db")
    target = open_memory("target")
    for found in find_memories():
        import_path(target, found.path)
    names = {n.name for n in target.list_nodes(include_archived=True, limit=50)}
    assert {"e0", "e1", "Hipocampo", "Shared SQLite"} <= names
