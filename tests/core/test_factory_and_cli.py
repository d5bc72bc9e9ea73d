"""Backend choice goes through create_stores; only existing backends are offered; the CLI reports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from core.memory import Memory
from core.protocols import GraphStore, VectorStore
from core.settings import Settings
from core.storage.factory import create_stores


def test_sqlite_stores_satisfy_the_protocols(tmp_path: Path) -> None:
    stores = create_stores(Settings(db=tmp_path / "f.db"))
    assert isinstance(stores.graph, GraphStore)
    assert isinstance(stores.vectors, VectorStore)
    stores.graph.close()


def test_falkordb_stores_satisfy_the_protocols(graph_settings: dict[str, object], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in graph_settings.items():  # chosen by settings alone, here from the environment
        monkeypatch.setenv(f"HIPOCAMPO_{key.upper()}", str(value))
    stores = create_stores(Settings(db=tmp_path / "unused.db"))
    assert stores.graph.backend == "falkordb"
    assert isinstance(stores.graph, GraphStore)
    assert isinstance(stores.vectors, VectorStore)
    assert not (tmp_path / "unused.db").exists()
    stores.graph.close()


@pytest.mark.parametrize("name", ["null", "memgraph"])
def test_only_backends_that_exist_are_offered(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValidationError, match="sqlite"):
        Settings(db=tmp_path / "x.db", backend=name)


def test_settings_come_from_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HIPOCAMPO_DB", str(tmp_path / "env.db"))
    monkeypatch.setenv("HIPOCAMPO_MAX_REQUEST_BYTES", "100000")
    s = Settings()
    assert s.db == tmp_path / "env.db" and s.max_request_bytes == 100_000


def test_status_command(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    with Memory.open(db) as mem:
        mem.create_entities([{"name": "A", "entityType": "Person", "observations": ["x"]}])
        mem.merge_node("Insight", "A pattern", {"status": "pending"})
        mem.archive_node("A pattern")  # an archived record is no type in use
    out = subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), "status", "--json"],
                         capture_output=True, text=True, check=True).stdout
    status = json.loads(out)
    assert status["ok"] and status["labels"] == {"Person": 1}
    text = subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), "status"],
                          capture_output=True, text=True, check=True).stdout
    # the archived record is neither an entity of the graph nor a type in use
    assert "entities     1\n" in text and "Insight" not in text


def test_status_on_a_newer_database_fails_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    Memory.open(db).close()
    from core.storage.sqlite.connection import connect

    conn = connect(db)
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    proc = subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), "status"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "newer Hipocampo" in proc.stderr and "Traceback" not in proc.stderr
