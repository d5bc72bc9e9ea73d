"""Imports land in short chunks tagged with an import id: other writers are not held up, and a
failed, cancelled or killed import is rolled back whole, history included."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from core.io import ImportRefused, import_path
from core.io.plan import run_import
from core.memory import Memory
from core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def jsonl(path: Path, n: int, *, prefix: str = "imported", bad_at: int | None = None) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            if i == bad_at:
                fh.write("this line is not JSON\n")
            fh.write(json.dumps({"type": "entity", "name": f"{prefix} {i}", "entityType": "Note",
                                 "observations": [f"fact {i}"]}) + "\n")
        fh.write(json.dumps({"type": "entity", "name": "existing", "entityType": "Person",
                             "observations": ["added by the import"]}) + "\n")
        for i in range(0, n - 1, 2):
            fh.write(json.dumps({"type": "relation", "from": f"{prefix} {i}", "to": f"{prefix} {i + 1}",
                                 "relationType": "next"}) + "\n")
        fh.write(json.dumps({"type": "relation", "from": "existing", "to": "other", "relationType": "knows"}) + "\n")
    return path


def state(m: Memory) -> tuple[Any, ...]:
    """Everything an import could change: the graph and the change log."""
    graph = m.read_graph_dump()
    return (sorted(json.dumps(e, sort_keys=True) for e in graph["entities"]),
            sorted(json.dumps(r, sort_keys=True) for r in graph["relations"]),
            m.history(limit=100_000))


@pytest.fixture
def mem(tmp_path: Path) -> Memory:
    m = Memory(Settings(db=tmp_path / "m.db", embeddings="none", backup_keep=0))
    m.create_entities([{"name": "existing", "entityType": "Person", "observations": ["was here"]},
                       {"name": "other"}])
    yield m
    m.close()


def test_a_refused_file_leaves_memory_and_history_as_they_were(mem: Memory, tmp_path: Path) -> None:
    before = state(mem)
    with pytest.raises(ImportRefused):
        import_path(mem, jsonl(tmp_path / "bad.jsonl", 3000, bad_at=2500))
    assert state(mem) == before


def test_a_cancelled_import_is_rolled_back_by_its_id(mem: Memory, tmp_path: Path) -> None:
    source = jsonl(tmp_path / "big.jsonl", 6000)
    before = state(mem)
    cancel = threading.Event()
    seen: list[int] = []

    def progress(done: int, total: int, text: str = "") -> None:
        seen.append(done)
        if mem.health_check()["counts"]["entities"] > 2000:  # chunks have landed: cancel now
            cancel.set()

    result = run_import(mem, [source], progress=progress, cancel=cancel)
    assert result.cancelled and cancel.is_set()
    assert state(mem) == before


def test_a_finished_import_keeps_everything(mem: Memory, tmp_path: Path) -> None:
    report = import_path(mem, jsonl(tmp_path / "ok.jsonl", 3000))
    assert report.entities_imported == 3000 and report.entities_merged == 1
    assert mem.health_check()["counts"]["entities"] == 3002
    assert "added by the import" in mem.open_nodes(["existing"]).entities[0].observations


def test_other_writers_go_in_between_the_chunks(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    source = jsonl(tmp_path / "big.jsonl", 20_000)
    importer = Memory(Settings(db=db, embeddings="none", backup_keep=0))
    client = Memory(Settings(db=db, embeddings="none", backup_keep=0))  # its own connection, as another process
    done = threading.Event()
    try:
        importer.create_entities([{"name": "existing"}, {"name": "other"}])
        thread = threading.Thread(target=lambda: (import_path(importer, source), done.set()))
        thread.start()
        deadline = time.monotonic() + 120
        while client.health_check()["counts"]["entities"] < 1000:  # the import is under way
            assert time.monotonic() < deadline and not done.is_set()
            time.sleep(0.01)
        client.create_entities([{"name": "written during the import"}])
        assert not done.is_set()  # it did not wait for the whole import
        thread.join(300)
        assert done.is_set()
        rows = client.history(limit=100_000)
        mine = next(r.id for r in rows if r.entity == "written during the import")
        assert mine < max(r.id for r in rows)  # import rows came after it: it went in between
        assert client.health_check()["counts"]["entities"] == 20_003
    finally:
        importer.close()
        client.close()


IMPORTER = """
import sys
from pathlib import Path
from core.io import import_path
from core.memory import Memory
from core.settings import Settings
with Memory(Settings(db=sys.argv[1], embeddings="none", backup_keep=0)) as m:
    import_path(m, Path(sys.argv[2]))
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_import_killed_mid_way_is_rolled_back_at_the_next_open(tmp_path: Path, seed: int) -> None:
    db = tmp_path / "m.db"
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        m.create_entities([{"name": "existing", "observations": ["was here"]}, {"name": "other"}])
        before = state(m)
    source = jsonl(tmp_path / "big.jsonl", 20_000)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", IMPORTER, str(db), str(source)], cwd=ROOT, env=env)
    watcher = Memory(Settings(db=db, embeddings="none", backup_keep=0))
    try:
        deadline = time.monotonic() + 120
        target = 500 * seed * 3  # a different moment for each seed
        while watcher.health_check()["counts"]["entities"] < target:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.005)
    finally:
        watcher.close()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        assert state(m) == before  # all of it gone, history too
        assert m.health_check(deep=True)["quick_check"] == "ok"
        import_path(m, source)  # and it can be imported again, whole
        assert m.health_check()["counts"]["entities"] == 20_002
