"""The ``hipocampo`` command line, typed as a user would."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from core.memory import Memory
from tests.e2e.conftest import ROOT, Backend, server_env
from tests.jsonrpc import initialize_request


def hipocampo(db: Path, hub_file: Path, *args: str, check: bool = True,
              backend: Backend | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "core.cli", "--db", str(db), *args],
        cwd=ROOT,
        env={**os.environ, **server_env(hub_file, **(backend.env if backend else {}))},
        capture_output=True,
        text=True,
        timeout=120,
        check=check,
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "cli.db"


def test_import_then_export_then_search(db: Path, hub_file: Path, tmp_path: Path, backend: Backend) -> None:
    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return hipocampo(db, hub_file, *args, check=check, backend=backend)

    source = tmp_path / "memory.jsonl"
    source.write_text(
        '{"type":"entity","name":"Ada","entityType":"Person","observations":["wrote the first program"]}\n'
        "garbage\n"
        '{"type":"relation","from":"Ada","to":"Ada","relationType":"self"}\n',
        encoding="utf-8",
    )
    refused = run("import", str(source), check=False)
    assert refused.returncode == 1  # a corrupt line: the file is one unit, nothing was imported
    assert "line 2: not valid JSON" in refused.stderr and "--skip-bad-lines" in refused.stderr
    assert run("export").stdout == ""

    imported = run("import", str(source), "--skip-bad-lines", "--json", check=False)
    assert imported.returncode == 1  # imported, but not all of it
    report = json.loads(imported.stdout)[0]
    assert (report["entities_imported"], report["relations_imported"], report["errors"]) == (1, 1, 1)

    human = run("import", str(source), "--skip-bad-lines", check=False)
    assert "0 entities new" in human.stdout and "skipped: line 2" in human.stdout

    exported = run("export").stdout
    assert exported.splitlines() == [
        '{"type":"entity","name":"Ada","entityType":"Person","observations":["wrote the first program"]}',
        '{"type":"relation","from":"Ada","to":"Ada","relationType":"self"}',
    ]
    out = tmp_path / "dump.ndjson"
    run("export", "--format", "ndjson", "--out", str(out))
    assert json.loads(out.read_text().splitlines()[1])["key_value"] == "Ada"

    found = run("search", "program").stdout
    assert found.startswith("Ada (Person)") and "wrote the first program" in found
    substring = json.loads(run("search", "--substring", "--json", "first prog").stdout)
    assert [h["name"] for h in substring] == ["Ada"]
    assert run("search", "zebra").stdout.strip() == "No good matches."


def test_status_reports_model_and_hub(db: Path, hub_file: Path, backend: Backend) -> None:
    with backend.open(db) as memory:
        memory.create_entities([{"name": "Counted"}])
    status = json.loads(hipocampo(db, hub_file, "status", "--json", backend=backend).stdout)
    assert status["ok"] and status["endpoint"]["running"] is False
    assert status["endpoint"]["file"] == str(hub_file)
    assert status["embeddings"]["provider"] == "none"
    assert status["backend"] == backend.name and status["counts"]["entities"] == 1
    text = hipocampo(db, hub_file, "status", backend=backend).stdout
    assert "hub          not running" in text and "embeddings" in text
    assert f"{backend.where(db)} ({backend.name}" in text


def test_backup_copies_a_database_that_opens(db: Path, hub_file: Path, tmp_path: Path) -> None:
    with Memory.open(db, embeddings="none") as memory:
        memory.create_entities([{"name": "Kept"}])
    dest = tmp_path / "copies"  # not backups/ beside the database: that is the automatic backups' folder
    dest.mkdir()
    written = Path(hipocampo(db, hub_file, "backup", str(dest)).stdout.strip())
    assert written.parent == dest and written.name.startswith("cli-backup-")
    with Memory.open(written, embeddings="none") as copy:
        assert [e.name for e in copy.read_graph().entities] == ["Kept"]
    refused = hipocampo(db, hub_file, "backup", str(written), check=False)
    assert refused.returncode == 2 and "already exists" in refused.stderr


@pytest.mark.parametrize("client", ["claude-desktop", "cursor", "opencode"])
def test_config_prints_json_with_absolute_paths(db: Path, hub_file: Path, client: str) -> None:
    result = hipocampo(db, hub_file, "config", client)
    config = json.loads(result.stdout)
    entry = config["mcp"]["memory"] if client == "opencode" else config["mcpServers"]["memory"]
    command = entry["command"] if client == "opencode" else [entry["command"], *entry["args"]]
    assert Path(command[0]).is_absolute() and Path(command[0]).exists()
    assert command[-3:] == ["--db", str(db), "mcp"] or command[-4:-1] == ["--db", str(db), "mcp"]
    assert result.stderr.startswith(f"# {client}:")


def test_config_for_claude_code_is_a_command_that_starts_the_server(db: Path, hub_file: Path) -> None:
    line = hipocampo(db, hub_file, "config", "claude-code").stdout.strip()
    words = shlex.split(line)
    assert words[:6] == ["claude", "mcp", "add", "--scope", "user", "memory"] and words[6] == "--"
    server = words[7:]
    init = json.dumps(initialize_request("cfg"))
    proc = subprocess.run(
        server,
        input=init + "\n",
        env={**os.environ, **server_env(hub_file)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert json.loads(proc.stdout.splitlines()[0])["result"]["serverInfo"]["name"] == "hipocampo"


def test_backup_of_a_graph_server_is_refused_clearly(db: Path, hub_file: Path, tmp_path: Path,
                                                    graph_settings: dict[str, object]) -> None:
    backend = Backend("falkordb", dict(graph_settings))
    refused = hipocampo(db, hub_file, "backup", str(tmp_path), check=False, backend=backend)
    assert refused.returncode == 2 and "not available on the falkordb backend" in refused.stderr
    assert "Traceback" not in refused.stderr and list(tmp_path.iterdir()) == []


def test_reflect_prints_a_short_summary_of_an_official_style_graph(db: Path, hub_file: Path,
                                                                   backend: Backend) -> None:
    with backend.open(db) as memory:
        memory.create_entities([{"name": n, "entityType": t} for n, t in
                                [("Checkout", "project"), ("Search", "project"), ("Redis", "technology")]])
        memory.create_relations([{"from": "Checkout", "to": "Redis", "relationType": "uses"},
                                 {"from": "Search", "to": "Redis", "relationType": "uses"}])
    text = hipocampo(db, hub_file, "reflect", backend=backend).stdout
    assert "Shared technology: Redis  (shared_technology, confidence 0.60)" in text
    assert "waiting for review" in text and not text.lstrip().startswith("{")
    full = json.loads(hipocampo(db, hub_file, "reflect", "--json", backend=backend).stdout)
    assert full["created"] == 0 and full["refreshed"] >= 1  # the second run confirms, never duplicates


def test_http_on_a_taken_port_is_a_clear_error(db: Path, hub_file: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = hipocampo(db, hub_file, "mcp", "--http", "--port", str(port), check=False)
    assert result.returncode == 2 and f"127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_import_says_what_still_needs_embedding_and_search_says_full_text(
    db: Path, hub_file: Path, tmp_path: Path
) -> None:
    source = tmp_path / "memory.jsonl"
    source.write_text("".join(
        json.dumps({"type": "entity", "name": f"E{i}", "entityType": "t", "observations": [f"fact {i}"]}) + "\n"
        for i in range(3)), encoding="utf-8")
    env = {**os.environ, **server_env(hub_file), "HIPOCAMPO_EMBEDDINGS": "onnx"}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=300, check=True)

    imported = run("import", str(source))
    assert "3 entities still need embedding" in imported.stderr and "hipocampo reindex" in imported.stderr
    searched = run("search", "fact")
    assert "3 of 3 entities are not embedded yet" in searched.stderr and "full text only" in searched.stderr
    run("reindex")
    assert "not embedded" not in run("search", "fact").stderr
    no_model = hipocampo(db, hub_file, "search", "fact")  # HIPOCAMPO_EMBEDDINGS=none
    assert "searching by full text only" in no_model.stderr
