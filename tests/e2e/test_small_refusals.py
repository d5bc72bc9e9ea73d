"""The smaller refusals: each says why, without a traceback, and changes nothing."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from core.storage.sqlite.schema import SCHEMA_VERSION
from tests.e2e.conftest import ROOT, server_env
from tests.e2e.raw import RawStdio

ANSWER_CAP_S = 60.0


def cli(db: Path, *args: str, limit_file_size: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:  # writes past this size fail as on a full disk (Python ignores SIGXFSZ)
        if limit_file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    return subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), *args], cwd=ROOT,
                          env={**os.environ, "HIPOCAMPO_EMBEDDINGS": "none"}, capture_output=True, text=True,
                          timeout=120, preexec_fn=limit)


def _memory(db: Path, n: int = 1) -> Path:
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        m.create_entities([{"name": f"e{i}", "entityType": "Note", "observations": ["x" * 200]} for i in range(n)])
    return db


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_a_dangling_symlink_gets_a_private_target(tmp_path: Path) -> None:
    link, target = tmp_path / "link.db", tmp_path / "elsewhere.db"
    link.symlink_to(target)
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"type": "entity", "name": "A", "entityType": "T", "observations": []}) + "\n")
    done = cli(link, "import", str(source))
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize("command", [["status"], ["search", "x"], ["export", "--format", "jsonl"]])
def test_a_command_that_only_reads_leaves_an_empty_file_empty(tmp_path: Path, command: list[str]) -> None:
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    done = cli(db, *command)
    assert done.returncode != 0 and "empty file, not a Hipocampo memory" in done.stderr
    assert "Traceback" not in done.stderr and db.read_bytes() == b""


def test_a_negative_schema_version_is_refused_clearly(tmp_path: Path) -> None:
    db = _memory(tmp_path / "odd.db")
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA user_version = -5")
    done = cli(db, "status")
    assert done.returncode != 0 and "schema version is -5" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE")
def test_on_a_full_disk_status_and_import_say_so_without_a_traceback(tmp_path: Path) -> None:
    db = _memory(tmp_path / "m.db", 600)  # the daily backup (a copy of it) cannot be written
    assert db.stat().st_size > 200_000
    status = cli(db, "status", limit_file_size=100_000)
    assert status.returncode == 0 and "Traceback" not in status.stderr
    assert "daily backup" in status.stderr and "the memory itself is fine" in status.stderr
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"type": "entity", "name": "new", "entityType": "T", "observations": []}) + "\n")
    imported = cli(db, "import", str(source), limit_file_size=100_000)
    assert imported.returncode != 0 and "Traceback" not in imported.stderr and "Could not back up" in imported.stderr
    with Memory(Settings(db=db, embeddings="none")) as m:
        assert "new" not in {e.name for e in m.read_graph().entities}


def test_a_newer_schema_over_mcp_answers_every_request_with_the_reason(tmp_path: Path, hub_file: Path) -> None:
    db = _memory(tmp_path / "new.db")
    with contextlib.closing(sqlite3.connect(db)) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = db.read_bytes()
    server = RawStdio(db, hub_file)
    try:
        server.handshake()  # answered early, or refused: either way the next calls say why
        server.request({"jsonrpc": "2.0", "id": "call", "method": "tools/call",
                        "params": {"name": "read_graph", "arguments": {}}})
        answer = server.answers_until("call", ANSWER_CAP_S)[-1]
        assert "newer Hipocampo" in answer["error"]["message"], answer
        assert server.process.poll() is None  # still there, answering
    finally:
        server.close()
    assert db.read_bytes() == before


def _tool(server: RawStdio, request_id: str, tool: str, arguments: dict[str, object]) -> dict[str, object]:
    server.request({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments}})
    return server.answers_until(request_id, ANSWER_CAP_S)[-1]["result"]


def test_clear_tool_errors_for_odd_arguments(tmp_path: Path, hub_file: Path) -> None:
    server = RawStdio(tmp_path / "m.db", hub_file, **server_env(hub_file))
    try:
        assert "result" in server.handshake()
        for n, arguments in enumerate(({"offset": 10**30}, {"offset": 1e30}, {"limit": 2**63})):
            result = _tool(server, f"page-{n}", "read_graph", arguments)
            text = result["content"][0]["text"]
            assert result["isError"] and next(iter(arguments)) in text and "Error executing tool" not in text, text
        result = _tool(server, "nul", "search_nodes", {"query": "a\u0000b"})
        assert result["isError"] and "NUL character" in result["content"][0]["text"]
        # As the official server: an entity needs its entityType (none is guessed); nothing is created otherwise.
        result = _tool(server, "no-type", "create_entities", {"entities": [{"name": "Typed", "entityType": "T"},
                                                                           {"name": "NoType", "observations": []}]})
        assert result["isError"] and "entities[1].entityType: Field required" in result["content"][0]["text"]
        assert _tool(server, "read", "read_graph", {})["structuredContent"]["entities"] == []
    finally:
        assert server.close() == 0
