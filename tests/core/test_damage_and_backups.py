"""A damaged database is never written to; backups are made automatically and can be restored."""

from __future__ import annotations

import hashlib
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from mcp import Client

from core.errors import StorageError
from core.files import list_backups
from core.memory import Memory
from core.server.transports.app import build_server
from core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def wait_for(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


def fill(db: Path, n: int = 3000) -> None:
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        for start in range(0, n, 500):
            m.create_entities([{"name": f"entity {i}", "entityType": "Note",
                                "observations": [f"observation {i} " + "words " * 30]}
                               for i in range(start, min(n, start + 500))])


def damage(db: Path, seed: int = 7, at: float = 0.5) -> None:
    """64 KiB of random bytes in the middle of the file (as a failing disk or a bad copy would)."""
    size = db.stat().st_size
    assert size > 256 * 1024
    with db.open("r+b") as fh:
        fh.seek(int(size * at) // 4096 * 4096)
        fh.write(random.Random(seed).randbytes(64 * 1024))


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HIPOCAMPO_EMBEDDINGS": "none", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def damaged(tmp_path: Path) -> tuple[Path, Path]:
    """A real memory with one backup, then damaged; returns (db, backup)."""
    db = tmp_path / "memory.db"
    fill(db)
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        m.graph.integrity.join()
        backup = m.backup()
    damage(db)
    return db, backup


def test_writes_to_a_damaged_file_are_refused_naming_the_backup(damaged: tuple[Path, Path]) -> None:
    db, backup = damaged
    before = sha(db)
    with Memory(Settings(db=db, embeddings="none")) as m:
        with pytest.raises(StorageError, match="damaged") as refused:
            m.create_entities([{"name": "new", "observations": ["must not land"]}])
        assert str(backup) in str(refused.value) and "hipocampo restore" in str(refused.value)
        with pytest.raises(StorageError, match="damaged"):
            m.auto_backup("import")
        health = m.health_check()
        assert health["ok"] is False and str(backup) in health["damaged"]
    assert sha(db) == before  # not a byte written


def test_the_mcp_server_answers_a_damaged_file_with_advice(damaged: tuple[Path, Path]) -> None:
    import anyio

    db, backup = damaged

    async def scenario() -> None:
        with Memory(Settings(db=db, embeddings="none")) as m:
            async with Client(build_server(m)) as client:
                result = await client.call_tool("create_entities", {"entities": [{"entityType": "Note", "name": "x"}]})
                assert result.is_error and "damaged" in result.content[0].text
                assert str(backup) in result.content[0].text

    anyio.run(scenario)


def test_cli_refuses_import_and_reports_damage_without_a_traceback(damaged: tuple[Path, Path],
                                                                   tmp_path: Path) -> None:
    db, backup = damaged
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps({"type": "entity", "name": "x", "entityType": "T", "observations": []}) + "\n")
    before = sha(db)
    imported = cli(db, "import", str(source))
    assert imported.returncode != 0 and "damaged" in imported.stderr and str(backup) in imported.stderr
    assert "Traceback" not in imported.stderr
    status = cli(db, "status")
    assert status.returncode == 1 and "Traceback" not in status.stderr + status.stdout
    assert sha(db) == before


def test_restore_puts_the_newest_backup_back_and_keeps_the_damaged_file(damaged: tuple[Path, Path]) -> None:
    db, backup = damaged
    damaged_bytes = db.read_bytes()
    listed = cli(db, "restore", "--list")
    assert listed.stdout.split() == [str(backup)]
    restored = cli(db, "restore")
    assert restored.returncode == 0, restored.stderr
    aside = [p for p in list_backups(db) if "before-restore" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged_bytes
    with Memory(Settings(db=db, embeddings="none")) as m:
        assert m.health_check(deep=True)["ok"]
        assert len(m.read_graph(names_only=True, limit=5000).entities) == 3000
        m.create_entities([{"name": "after restore"}])  # writable again


def test_a_damaged_backup_is_not_restored(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    fill(db)
    bad = tmp_path / "bad.db"
    bad.write_bytes(db.read_bytes())
    damage(bad)
    before = sha(db)
    with pytest.raises(StorageError, match="not a healthy"):
        Memory.restore_backup(db, bad)
    assert sha(db) == before


def test_a_daily_backup_is_made_when_the_newest_is_old(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    fill(db, 50)
    with Memory(Settings(db=db, embeddings="none")):
        wait_for(lambda: any("daily" in p.name for p in list_backups(db)))
    first = list_backups(db)
    with Memory(Settings(db=db, embeddings="none")) as m:
        m.graph.integrity.wait()
    assert list_backups(db) == first  # one a day, not one per open


def test_imports_make_a_backup_first_and_only_the_newest_are_kept(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    fill(db, 20)
    with Memory(Settings(db=db, embeddings="none", backup_keep=3)) as m:
        made = [m.auto_backup("import") for _ in range(5)]
        kept = list_backups(db)
        assert len(kept) == 3 and kept[0] == made[-1]
        with Memory(Settings(db=kept[0], embeddings="none")) as copy:
            assert copy.health_check(deep=True)["counts"]["entities"] == 20


def test_backups_are_not_made_when_turned_off_or_empty(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "empty.db", embeddings="none")) as m:
        assert m.auto_backup("import") is None
    db = tmp_path / "off.db"
    fill(db, 5)
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        m.graph.integrity.wait()
        assert m.auto_backup("import") is None
    assert list_backups(db) == []


@pytest.mark.parametrize("at", [0.125, 0.33, 0.5])
def test_export_gets_out_what_can_be_read(tmp_path: Path, at: float) -> None:
    db = tmp_path / "memory.db"
    fill(db)
    damage(db, at=at)
    out = tmp_path / "out.jsonl"
    exported = cli(db, "export", "--out", str(out))
    assert exported.returncode == 0, exported.stderr
    assert "Traceback" not in exported.stderr and "damaged" in exported.stderr
    names = {json.loads(line)["name"] for line in out.read_text().splitlines()}
    assert len(names) >= 2000 and names <= {f"entity {i}" for i in range(3000)}
