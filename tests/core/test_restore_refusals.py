"""``hipocampo restore`` puts back only a Hipocampo memory this version can open, and never empties
a memory unless told to: a refusal says why and leaves the memory exactly as it was."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from core.storage.sqlite.schema import SCHEMA_VERSION
from tests.core.test_damage_and_backups import cli, sha


def _memory(db: Path, names: list[str]) -> Path:
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        if names:
            m.create_entities([{"name": n, "entityType": "Note"} for n in names])
    return db


def _empty_file(path: Path) -> None:
    path.write_bytes(b"")


def _empty_database(path: Path) -> None:
    sqlite3.connect(path).close()


def _foreign(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")


def _newer(path: Path) -> None:
    _memory(path, ["From the future"])
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


def _negative(path: Path) -> None:
    _memory(path, ["Odd"])
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = -5")


def _not_sqlite(path: Path) -> None:
    path.write_text("just some notes\n")


@pytest.mark.parametrize(("make", "reason"), [
    (_empty_file, "not a Hipocampo memory"),
    (_empty_database, "not a Hipocampo memory"),
    (_foreign, "invoices"),
    (_newer, "newer Hipocampo"),
    (_negative, "schema version is -5"),
    (_not_sqlite, "not a"),
], ids=["0-byte file", "empty database", "foreign database", "newer schema", "user_version -5", "text file"])
def test_restore_refuses_what_is_not_a_memory_it_can_open(tmp_path: Path, make: Callable[[Path], None],
                                                          reason: str) -> None:
    db = _memory(tmp_path / "memory.db", ["Ada", "Bob"])
    backup = tmp_path / "candidate.db"
    make(backup)
    before = sha(db)
    refused = cli(db, "restore", str(backup))
    assert refused.returncode != 0 and reason in refused.stderr, refused.stderr
    assert "Traceback" not in refused.stderr
    assert "not changed" in refused.stderr or "Nothing was changed" in refused.stderr
    assert sha(db) == before
    with Memory(Settings(db=db, embeddings="none")) as m:
        assert {e.name for e in m.read_graph().entities} == {"Ada", "Bob"}


def test_an_empty_memory_replaces_a_full_one_only_with_force(tmp_path: Path) -> None:
    db = _memory(tmp_path / "memory.db", ["Ada", "Bob"])
    empty = _memory(tmp_path / "empty.db", [])
    before = sha(db)
    refused = cli(db, "restore", str(empty))
    assert refused.returncode != 0 and "would empty the memory" in refused.stderr and "--force" in refused.stderr
    assert sha(db) == before
    forced = cli(db, "restore", "--force", str(empty))
    assert forced.returncode == 0, forced.stderr
    assert "Warning (--force)" in forced.stderr and "is now empty" in forced.stderr
    with Memory(Settings(db=db, embeddings="none")) as m:
        assert m.read_graph().entities == []


def test_a_memory_restores_over_another(tmp_path: Path) -> None:
    db = _memory(tmp_path / "memory.db", ["Ada"])
    other = _memory(tmp_path / "other.db", ["Zed"])
    restored = cli(db, "restore", str(other))
    assert restored.returncode == 0, restored.stderr
    with Memory(Settings(db=db, embeddings="none")) as m:
        assert [e.name for e in m.read_graph().entities] == ["Zed"]
