"""Several processes opening a file that does not exist yet; files only their owner can read."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from core.files import private_dir
from core.memory import Memory

OPENER = """
import sys
from core.memory import Memory
with Memory.open(sys.argv[1], embeddings="none") as m:
    m.create_entities([{"name": sys.argv[2], "observations": ["first run"]}])
"""


@pytest.mark.parametrize("attempt", range(3))
def test_four_processes_create_one_database_together(tmp_path: Path, attempt: int) -> None:
    db = tmp_path / "new" / "memory.db"
    procs = [subprocess.Popen([sys.executable, "-c", OPENER, str(db), f"client{p}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for p in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with Memory.open(db, embeddings="none") as m:
        assert {e.name for e in m.read_graph().entities} == {f"client{p}" for p in range(4)}
        assert m.health_check(deep=True)["quick_check"] == "ok"


posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@posix_only
def test_database_wal_shm_and_backups_are_private(tmp_path: Path) -> None:
    db = tmp_path / "a" / "b" / "memory.db"
    old = os.umask(0o022)  # the usual umask, which would give 0644/0755
    try:
        with Memory.open(db, embeddings="none") as m:
            m.create_entities([{"name": "secret", "observations": ["only mine"]}])
            for side in ("", "-wal", "-shm"):
                assert _mode(Path(f"{db}{side}")) == 0o600, side
            backup = m.backup(tmp_path / "copies" / "one.db")
            assert _mode(backup) == 0o600
            assert _mode(backup.parent) == 0o700
        assert _mode(db.parent) == 0o700 and _mode(db.parent.parent) == 0o700
    finally:
        os.umask(old)


@posix_only
def test_an_existing_world_readable_database_is_tightened(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    with Memory.open(db, embeddings="none") as m:
        m.create_entities([{"name": "x"}])
    os.chmod(db, 0o644)
    with Memory.open(db, embeddings="none") as m:
        assert m.open_nodes(["x"]).entities
    assert _mode(db) == 0o600


@posix_only
def test_private_dir_leaves_existing_folders_alone(tmp_path: Path) -> None:
    os.chmod(tmp_path, 0o755)
    made = private_dir(tmp_path / "x" / "y")
    assert _mode(tmp_path) == 0o755
    assert _mode(made) == 0o700 and _mode(made.parent) == 0o700
