"""The SQLite backend's second connection, which reads a large answer's relations beside the first."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest
import sqlean

from core.memory import Memory
from core.settings import Settings
from core.storage.sqlite import reads as reads_module
from core.storage.sqlite.reads import SPLIT_FROM


def _fill(memory: Memory, n: int) -> None:
    memory.create_entities([{"name": f"e{i}", "observations": ["common"]} for i in range(n)])
    memory.create_relations([{"from": f"e{i}", "to": f"e{(i + 1) % n}", "relationType": "R"} for i in range(n)])


def _readers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("hipocampo-reader")]


def _open_files(path: Path) -> int:
    return sum(1 for fd in os.listdir("/proc/self/fd") if os.path.realpath(f"/proc/self/fd/{fd}") == str(path))


def test_opened_only_for_a_large_answer_and_closed_with_the_memory(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    memory = Memory(Settings(db=db, embeddings="none"))
    try:
        _fill(memory, SPLIT_FROM + 10)
        assert len(memory.search_nodes_dump("e1")["entities"]) < SPLIT_FROM and not _readers()
        found = memory.search_nodes_dump("common")
        assert len(found["entities"]) == SPLIT_FROM + 10 and len(found["relations"]) == SPLIT_FROM + 10
        assert len(_readers()) == 1 and _open_files(db) >= 2
        memory.search_nodes_dump("common")
        assert len(_readers()) == 1  # the same thread and connection, kept for the next one
    finally:
        memory.close()
    assert not _readers() and _open_files(db) == 0


def test_an_in_memory_database_answers_alone(tmp_path: Path) -> None:
    with Memory(Settings(db=":memory:", embeddings="none")) as memory:  # type: ignore[arg-type]
        _fill(memory, SPLIT_FROM + 10)
        found = memory.search_nodes_dump("common")
        assert len(found["entities"]) == SPLIT_FROM + 10 and len(found["relations"]) == SPLIT_FROM + 10
        assert not _readers()


def test_inside_a_transaction_an_answer_sees_what_the_transaction_wrote(tmp_path: Path) -> None:
    """The second connection cannot see writes not yet committed: inside a transaction, a large answer
    is read on the first connection alone, so it includes them."""
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none")) as memory:
        n = SPLIT_FROM + 10
        memory.create_entities([{"name": f"e{i}", "observations": ["common"]} for i in range(n)])
        with memory.transaction():
            memory.create_relations([{"from": f"e{i}", "to": f"e{(i + 1) % n}", "relationType": "R"}
                                     for i in range(n)])
            assert len(memory.search_nodes_dump("common")["relations"]) == n
            assert len(memory.open_nodes_dump([f"e{i}" for i in range(n)])["relations"]) == n
        assert len(memory.search_nodes_dump("common")["relations"]) == n


def test_each_memory_has_its_own_reader(tmp_path: Path) -> None:
    """Two memories open on one file at once, then the file closed and opened again (as the app does
    after restoring a backup): every large answer is read on a live connection of its own memory."""
    db = tmp_path / "m.db"
    n = SPLIT_FROM + 10
    with Memory(Settings(db=db, embeddings="none")) as first:
        _fill(first, n)
        assert len(first.search_nodes_dump("common")["relations"]) == n
        with Memory(Settings(db=db, embeddings="none")) as second:
            assert len(second.search_nodes_dump("common")["relations"]) == n
            assert len(_readers()) == 2
        assert len(first.search_nodes_dump("common")["relations"]) == n  # the second's close left it alone
    with Memory(Settings(db=db, embeddings="none")) as again:
        assert len(again.search_nodes_dump("common")["relations"]) == n


def test_the_collector_is_paused_only_while_an_answer_is_built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Large answers are built with the garbage collector paused; it is on again afterwards, also when
    the read fails, and it stays off for a caller that had switched it off."""
    import gc

    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="none"))
    _fill(memory, SPLIT_FROM + 10)
    seen: list[bool] = []
    real_loads = json.loads

    def watching(text: str) -> object:
        seen.append(gc.isenabled())
        return real_loads(text)

    with monkeypatch.context() as patch:  # json is the stdlib's: put back before anything else parses
        patch.setattr(reads_module.json, "loads", watching)
        assert gc.isenabled()
        memory.search_nodes_dump("common")
        assert seen == [False, False] and gc.isenabled()
        gc.disable()
        try:
            memory.search_nodes_dump("common")
            assert not gc.isenabled()
        finally:
            gc.enable()
    memory.close()
    closed = sqlean.connect(str(tmp_path / "m.db"))
    closed.close()
    with pytest.raises(sqlean.ProgrammingError):  # the read fails inside the pause
        reads_module.answer_for_ids(closed, [1, 2])
    assert gc.isenabled()
