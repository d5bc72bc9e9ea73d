"""The command line behaves as people expect of one: options anywhere, no files made by reading,
quiet pipes, one hub per user, and a stdio server that says what it waits for and stops on Ctrl-C."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from tests.e2e.conftest import ROOT, START_TIMEOUT_S, server_env, start_hub


def run(hub_file: Path, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "core.cli", *args], cwd=ROOT,
                          env={**os.environ, **server_env(hub_file)}, capture_output=True, text=True,
                          timeout=120, check=check)


def seeded(path: Path, n: int = 3) -> Path:
    with Memory.open(path, embeddings="none", backup_keep=0) as memory:  # no daily backup beside it
        memory.create_entities([{"name": f"Note {i}", "entityType": "note", "observations": [f"fact {i}"]}
                                for i in range(n)])
    return path


def test_global_options_go_before_or_after_the_subcommand(tmp_path: Path) -> None:
    hub_file = tmp_path / "endpoint.json"
    db = seeded(tmp_path / "a.db")
    before = run(hub_file, "--db", str(db), "search", "--substring", "fact 1", check=True).stdout
    after = run(hub_file, "search", "--substring", "fact 1", "--db", str(db), check=True).stdout
    assert before == after and before.startswith("Note 1 (note)")
    # after the subcommand wins over before it, as the one nearer the command
    both = run(hub_file, "--db", str(tmp_path / "nothing.db"), "status", "--json", "--db", str(db), check=True)
    assert json.loads(both.stdout)["counts"]["entities"] == 3


def test_reading_a_missing_database_says_so_and_creates_nothing(tmp_path: Path) -> None:
    hub_file = tmp_path / "endpoint.json"
    missing = tmp_path / "typo" / "memroy.db"
    for command in (["search", "x"], ["status"], ["export"], ["backup"], ["reflect"]):
        result = run(hub_file, "--db", str(missing), *command)
        assert result.returncode == 2 and f"There is no memory at {missing}" in result.stderr, command
        assert "Traceback" not in result.stderr
    assert not missing.parent.exists()
    folder = run(hub_file, "--db", str(tmp_path), "status")
    assert folder.returncode == 2 and f"{tmp_path} is a folder" in folder.stderr


def test_export_into_a_closed_pipe_is_quiet(tmp_path: Path) -> None:
    hub_file = tmp_path / "endpoint.json"
    db = seeded(tmp_path / "big.db", n=3000)
    shell = (f"{sys.executable} -m core.cli --db {db} export | head -n 2; echo \"status ${{PIPESTATUS[0]}}\"")
    result = subprocess.run(["bash", "-c", shell], cwd=ROOT, env={**os.environ, **server_env(hub_file)},
                            capture_output=True, text=True, timeout=120)
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and json.loads(lines[0])["type"] == "entity"
    assert lines[2] == "status 141" and result.stderr == ""


def test_a_second_hub_says_the_first_is_running(tmp_path: Path) -> None:
    hub_file = tmp_path / "endpoint.json"
    hub = start_hub(tmp_path / "hub.db", hub_file)
    try:
        described = json.loads(hub_file.read_text())
        second = run(hub_file, "--db", str(tmp_path / "other.db"), "mcp", "--http")
        assert second.returncode == 2
        assert f"already running (pid {hub.process.pid}, port {hub.info['port']})" in second.stderr
        assert json.loads(hub_file.read_text()) == described  # still the live hub's address
        assert not (tmp_path / "other.db").exists()
    finally:
        assert hub.stop() in (0, 128 + signal.SIGTERM)


def test_a_stdio_server_in_a_terminal_explains_itself_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    hub_file = tmp_path / "endpoint.json"
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--db", str(tmp_path / "t.db"), "mcp"], cwd=ROOT,
        env={**os.environ, **server_env(hub_file)}, stdin=follower, stdout=follower, stderr=follower,
        start_new_session=True)
    os.close(follower)
    said = b""
    deadline = time.monotonic() + START_TIMEOUT_S
    try:
        while b"Ctrl-C to stop" not in said:
            assert time.monotonic() < deadline, said
            if select.select([leader], [], [], 0.2)[0]:
                said += os.read(leader, 4096)
        assert b"waiting for an MCP client" in said
        os.kill(process.pid, signal.SIGINT)  # what the terminal sends for Ctrl-C
        assert process.wait(timeout=START_TIMEOUT_S) == 130  # no Enter needed
    finally:
        if process.poll() is None:
            process.kill()
        os.close(leader)


@contextlib.contextmanager
def read_only_folder(folder: Path) -> Iterator[Path]:
    """``folder`` as a read-only location: its permissions for a normal user; for root (whom
    permissions do not stop) a read-only bind mount of it."""
    if os.geteuid() != 0:
        for path in folder.iterdir():
            path.chmod(0o444)
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    view = folder.with_name(folder.name + "-ro")
    view.mkdir()
    mounted = subprocess.run(["mount", "--bind", str(folder), str(view)], capture_output=True).returncode == 0
    if not mounted or subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], capture_output=True).returncode:
        if mounted:
            subprocess.run(["umount", str(view)], check=False)
        pytest.skip("running as root without the right to mount a read-only view")
    try:
        yield view
    finally:
        subprocess.run(["umount", str(view)], check=True)


def test_a_database_on_a_read_only_location_can_be_read_exported_and_backed_up(tmp_path: Path) -> None:
    hub_file = tmp_path / "endpoint.json"
    folder = tmp_path / "shared"
    folder.mkdir()
    seeded(folder / "memory.db")
    with read_only_folder(folder) as location:
        db = location / "memory.db"
        found = run(hub_file, "--db", str(db), "search", "fact 2", check=True)
        assert found.stdout.startswith("Note 2 (note)")
        assert run(hub_file, "--db", str(db), "search", "--substring", "fact", check=True).stdout.count("(note)") == 3
        assert len(run(hub_file, "--db", str(db), "export", check=True).stdout.splitlines()) == 3
        assert "entities     3" in run(hub_file, "--db", str(db), "status", check=True).stdout
        copy = tmp_path / "copy.db"
        assert run(hub_file, "--db", str(db), "backup", str(copy), check=True).stdout.strip() == str(copy)
        refused = run(hub_file, "--db", str(db), "reflect")
        assert refused.returncode == 2 and "read-only location" in refused.stderr
        assert sorted(p.name for p in location.iterdir()) == ["memory.db"]  # nothing written beside it
    with Memory.open(copy, embeddings="none") as memory:
        assert len(memory.read_graph().entities) == 3
