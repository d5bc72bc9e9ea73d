"""Connecting assistants: where each client's file is, the snippet it gets, and adding Hipocampo to
that file without disturbing anything else in it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from core import cli
from core.clients import (
    CLIENTS,
    ClientConfigError,
    config_path,
    install_into,
    is_hipocampo_entry,
    server_command,
    server_entry,
    snippet,
)

OFFICIAL_TOOLS = {"create_entities", "create_relations", "add_observations", "delete_entities",
                  "delete_observations", "delete_relations", "read_graph", "search_nodes", "open_nodes"}

# A Claude Desktop file as people have them: other servers, other settings, unicode, 4-space indent.
EXISTING = """{
    "globalShortcut": "Ctrl+Space",
    "mcpServers": {
        "filesystem": {
            "command": "npx",
            "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/ana/Documentos"]
        },
        "github": {"command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp-server"],
                   "env": {"GITHUB_TOKEN": "ghp_ñ"}}
    },
    "theme": "dark"
}
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of its own, so no real client file is ever touched."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("USERPROFILE", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("APPDATA", str(home / "AppData" / "Roaming"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return home


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "data" / "memory.db"


def backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.hipocampo-backup-*"))


def test_config_paths_follow_each_client(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert config_path("cursor") == home / ".cursor" / "mcp.json"
    assert config_path("claude-code") == home / ".claude.json"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(home / "claude-elsewhere"))
    assert config_path("claude-code") == home / "claude-elsewhere" / ".claude.json"
    assert config_path("opencode") == home / ".config" / "opencode" / "opencode.json"
    if sys.platform.startswith("linux"):
        assert config_path("claude-desktop") == home / ".config" / "Claude" / "claude_desktop_config.json"
    with pytest.raises(Exception, match="Unknown client 'vscode'"):
        config_path("vscode")


def test_install_keeps_every_other_entry_and_makes_a_backup(home: Path, db: Path) -> None:
    path = config_path("claude-desktop")
    path.parent.mkdir(parents=True)
    path.write_text(EXISTING, encoding="utf-8")
    before = json.loads(EXISTING)

    result = install_into("claude-desktop", db)

    assert (result.path, result.key, result.action, result.beside) == (path, "memory", "added", None)
    after = json.loads(path.read_text(encoding="utf-8"))
    assert list(after) == list(before)  # same keys, same order
    assert {k: v for k, v in after.items() if k != "mcpServers"} == {k: v for k, v in before.items()
                                                                      if k != "mcpServers"}
    assert list(after["mcpServers"]) == ["filesystem", "github", "memory"]
    for name in ("filesystem", "github"):
        assert after["mcpServers"][name] == before["mcpServers"][name]
    command = server_command(db)
    assert after["mcpServers"]["memory"] == {"command": command[0], "args": command[1:]}
    assert path.read_text(encoding="utf-8").startswith('{\n    "globalShortcut"')  # its indentation kept
    assert backups(path) == [result.backup] and result.backup.read_text(encoding="utf-8") == EXISTING

    # idempotent: nothing written, no second backup
    written = path.read_bytes()
    again = install_into("claude-desktop", db)
    assert again.action == "unchanged" and again.backup is None
    assert path.read_bytes() == written and backups(path) == [result.backup]


def test_install_creates_a_missing_file_for_every_client(home: Path, db: Path) -> None:
    for client in CLIENTS:
        path = config_path(client)
        assert not path.exists()
        result = install_into(client, db)
        assert result.action == "created" and result.backup is None and result.path == path
        data = json.loads(path.read_text(encoding="utf-8"))
        section = data["mcp"] if client == "opencode" else data["mcpServers"]
        assert section == {"memory": server_entry(client, db)}
        if client == "opencode":
            assert data["$schema"] == "https://opencode.ai/config.json"
            assert section["memory"]["command"] == server_command(db)
        if os.name != "nt":
            assert path.stat().st_mode & 0o077 == 0  # new files are the user's alone
    assert sorted(p.name for p in home.rglob("*hipocampo-tmp*")) == []


def test_a_file_that_is_not_json_is_refused_and_left_untouched(home: Path, db: Path) -> None:
    path = config_path("cursor")
    path.parent.mkdir(parents=True)
    broken = '{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n'
    path.write_text(broken, encoding="utf-8")
    with pytest.raises(ClientConfigError, match=r"~/.cursor/mcp.json is not valid JSON .*did not change it"):
        install_into("cursor", db)
    assert path.read_text(encoding="utf-8") == broken
    assert backups(path) == [] and sorted(p.name for p in path.parent.iterdir()) == ["mcp.json"]

    for text, message in (("[1, 2]", "does not hold a JSON object"),
                          ('{"mcpServers": ["memory"]}', "'mcpServers' is not a JSON object")):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ClientConfigError, match=message):
            install_into("cursor", db)
        assert path.read_text(encoding="utf-8") == text and backups(path) == []


def test_another_memory_server_is_kept_and_hipocampo_added_beside_it(home: Path, db: Path) -> None:
    path = config_path("opencode")
    path.parent.mkdir(parents=True)
    official = {"type": "local", "command": ["npx", "-y", "@modelcontextprotocol/server-memory"],
                "environment": {"MEMORY_FILE_PATH": "/home/ana/memory.jsonl"}}
    path.write_text(json.dumps({"mcp": {"memory": official}, "model": "x"}), encoding="utf-8")

    result = install_into("opencode", db)
    assert (result.key, result.beside, result.action) == ("hipocampo", "memory", "added")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["mcp"]["memory"] == official and is_hipocampo_entry(data["mcp"]["hipocampo"])
    assert "$schema" not in data  # only a file Hipocampo creates gets one
    assert install_into("opencode", db).action == "unchanged"
    assert "\n" not in path.read_text(encoding="utf-8").strip()  # a one-line file stays on one line


def test_an_older_hipocampo_entry_is_refreshed_keeping_the_users_additions(home: Path, db: Path,
                                                                          tmp_path: Path) -> None:
    path = config_path("claude-code")
    old = {"type": "stdio", "command": "/old/venv/bin/hipocampo", "args": ["--db", "/old.db", "mcp"],
           "env": {"HIPOCAMPO_LOG": "INFO"}}
    path.write_text(json.dumps({"numStartups": 12, "mcpServers": {"memory": old},
                                "projects": {"/p": {"mcpServers": {"x": {"command": "y"}}}}}), encoding="utf-8")
    result = install_into("claude-code", db)
    assert result.action == "updated" and result.key == "memory"
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = data["mcpServers"]["memory"]
    assert [entry["command"], *entry["args"]] == server_command(db)
    assert entry["env"] == {"HIPOCAMPO_LOG": "INFO"}
    assert data["numStartups"] == 12 and data["projects"] == {"/p": {"mcpServers": {"x": {"command": "y"}}}}
    assert json.loads(result.backup.read_text(encoding="utf-8"))["mcpServers"]["memory"] == old


def test_the_frozen_app_serves_mcp_itself(db: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    exe = tmp_path / "Hipocampo" / "hipocampo-app"
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "executable", str(exe))
    assert server_command(db) == [str(exe), "--db", str(db), "mcp"]
    assert json.loads(snippet("cursor", db))["mcpServers"]["memory"]["command"] == str(exe)


def test_server_command_uses_this_installation(db: Path) -> None:
    command = server_command(db)
    assert Path(command[0]).is_absolute() and Path(command[0]).exists()
    assert command[-3:] == ["--db", str(db), "mcp"]


def test_cli_install(home: Path, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = config_path("cursor")
    path.parent.mkdir(parents=True)
    path.write_text('{"mcpServers": {"other": {"command": "o"}}}', encoding="utf-8")
    assert cli.main(["--db", str(db), "config", "cursor", "--install"]) == 0
    out = capsys.readouterr().out
    assert "Added server 'memory' in ~/.cursor/mcp.json (backup: ~/.cursor/mcp.json.hipocampo-backup-" in out
    assert "Restart Cursor" in out
    assert set(json.loads(path.read_text())["mcpServers"]) == {"other", "memory"}
    assert cli.main(["--db", str(db), "config", "cursor", "--install"]) == 0
    assert "already starts Hipocampo" in capsys.readouterr().out
    path.write_text("{", encoding="utf-8")
    assert cli.main(["--db", str(db), "config", "cursor", "--install"]) == 2
    assert "not valid JSON" in capsys.readouterr().err and path.read_text() == "{"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_claude_desktop_snippet_starts_a_working_server(db: Path, tmp_path: Path) -> None:
    """What the user pastes is what runs: the snippet's command, started by the real SDK client."""
    entry = json.loads(snippet("claude-desktop", db))["mcpServers"]["memory"]
    params = StdioServerParameters(
        command=entry["command"], args=entry["args"], cwd=str(tmp_path),
        env={"HIPOCAMPO_ENDPOINT_FILE": str(tmp_path / "endpoint.json"), "HIPOCAMPO_EMBEDDINGS": "none",
             "HIPOCAMPO_SETTINGS_FILE": str(tmp_path / "settings.json")},
    )
    client = Client(stdio_client(params), client_info=types.Implementation(name="snippet-test", version="1"))
    async with client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert OFFICIAL_TOOLS <= tools
        created = await client.call_tool("create_entities", {"entities": [{"name": "Snippet", "entityType": "T"}]})
        assert not created.is_error
    assert db.exists()  # the server used the database the snippet names
