"""Core calls off the GUI thread with results back on it, and the change feed, on a real memory."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from core.history.changes import touched_names
from core.memory import Memory
from core.settings import Settings
from desktop.workers import ChangeFeed, Core


@pytest.fixture
def core(tmp_path: Path) -> Iterator[Core]:
    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"))
    worker = Core(memory)
    yield worker
    worker.shutdown()
    memory.close()


def test_results_come_back_on_the_gui_thread_in_write_order(qtbot, core: Core) -> None:  # noqa: ANN001
    gui = threading.get_ident()
    seen: list[tuple[str, int]] = []
    for i in range(5):
        core.write(lambda m, i=i: m.create_entities([{"name": f"n{i}", "entityType": "t"}]),
                   done=lambda _r, i=i: seen.append((f"n{i}", threading.get_ident())))
    qtbot.waitUntil(lambda: len(seen) == 5, timeout=10_000)
    assert [name for name, _ in seen] == ["n0", "n1", "n2", "n3", "n4"]
    assert {ident for _, ident in seen} == {gui}
    assert [e.name for e in core.memory.read_graph().entities] == ["n0", "n1", "n2", "n3", "n4"]


def test_a_newer_call_with_the_same_key_supersedes_the_older(qtbot, core: Core) -> None:  # noqa: ANN001
    release = threading.Event()
    got: list[str] = []
    core.read(lambda _m: release.wait(10) and "old", done=got.append, key="search")
    core.read(lambda _m: "new", done=got.append, key="search")
    qtbot.waitUntil(lambda: got == ["new"], timeout=10_000)
    release.set()
    core.wait_idle()
    qtbot.wait(100)
    assert got == ["new"]


def test_bad_input_is_a_sentence_and_a_bug_reaches_the_crash_dialog(qtbot, core: Core) -> None:  # noqa: ANN001
    errors: list[str] = []
    crashes: list[tuple[str, str]] = []
    core.crashed.connect(lambda summary, details: crashes.append((summary, details)))
    core.write(lambda m: m.create_entities([{"name": "", "entityType": "t"}]), failed=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=10_000)
    assert "must not be empty" in errors[0] and not crashes
    core.read(lambda _m: 1 / 0, failed=errors.append)
    qtbot.waitUntil(lambda: len(errors) == 2 and bool(crashes), timeout=10_000)
    assert errors[1] == "division by zero." and "ZeroDivisionError" in crashes[0][1]
    assert core.memory.read_graph().entities == []


def test_a_widget_closed_while_its_call_runs_is_released_safely(qtbot, core: Core) -> None:  # noqa: ANN001
    release = threading.Event()
    label = QLabel("waiting")
    errors: list[str] = []
    core.read(lambda _m, w=label: release.wait(10) and "late", done=label.setText, failed=errors.append)
    label.deleteLater()
    qtbot.wait(50)  # the C++ label is gone; Core and the job still hold its Python wrapper
    del label
    gc.collect()
    release.set()
    core.wait_idle()
    qtbot.wait(200)  # the result is dropped on the GUI thread: no crash, nothing delivered
    assert errors == []


def test_after_shutdown_calls_are_refused_quietly(core: Core) -> None:
    core.shutdown()
    future = core.read(lambda m: m.read_graph())
    assert future.cancelled()


def test_the_feed_reports_writes_from_another_process(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    db = tmp_path / "shared.db"
    memory = Memory(Settings(db=db, embeddings="none"))
    feed = ChangeFeed(memory, interval_ms=50)
    rows: list[dict] = []
    feed.changed.connect(rows.extend)
    feed.start()
    try:
        script = ("import sys; from core.memory import Memory; from core.settings import Settings\n"
                  "with Memory(Settings(db=sys.argv[1], embeddings='none', actor='cursor')) as m:\n"
                  "    m.create_entities([{'name': 'Ada', 'entityType': 'Person'}, {'name': 'Babbage', "
                  "'entityType': 'Person'}])\n"
                  "    m.create_relations([{'from': 'Ada', 'to': 'Babbage', 'relationType': 'knows'}])\n")
        subprocess.run([sys.executable, "-c", script, str(db)], check=True, timeout=60)
        qtbot.waitUntil(lambda: any(r.op == "create_relation" for r in rows), timeout=10_000)
    finally:
        feed.stop()
        memory.close()
    assert {r.actor for r in rows} == {"cursor"}
    assert touched_names(rows) == {"Ada", "Babbage"}
    assert feed.last_id == rows[-1].id
