"""A long import lets a writer that is waiting for the write lock go before its next chunk.

SQLite's busy handler is no queue: a waiting writer sleeps and retries, and an import that begins
its next chunk the moment it commits the last one would win almost every time, leaving another
client's write waiting for seconds (a 100k import: up to 2 s; with a busy timeout, a failure). So a
waiting writer says so (``core/storage/sqlite/turns.py``) and the import lets it in first. Each
Memory here has its own connection, as another process would.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from core.io import ImportRefused, import_path
from core.memory import Memory
from core.settings import Settings
from core.storage.sqlite import turns

pytestmark = pytest.mark.skipif(turns.fcntl is None, reason="turns need flock (POSIX)")


def settings(db: Path) -> Settings:
    return Settings(db=db, embeddings="none", backup_keep=0)


def jsonl(path: Path, n: int) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({"type": "entity", "name": f"imported {i}", "entityType": "Note",
                                 "observations": [f"fact {i}"]}) + "\n")
    return path


@pytest.fixture
def memories(tmp_path: Path) -> tuple[Memory, Memory, Memory]:
    db = tmp_path / "shared.db"
    opened = [Memory(settings(db)) for _ in range(3)]
    for i, m in enumerate(opened):
        m.create_entities([{"name": f"warm {i}"}])  # each has passed its integrity check: writes go straight in
    yield tuple(opened)
    for m in opened:
        m.close()


def test_a_writer_waiting_during_an_import_goes_before_its_next_chunk(
    memories: tuple[Memory, Memory, Memory], tmp_path: Path
) -> None:
    importer, client, third = memories
    lock_file = turns.lock_file(str(importer.settings.db))
    source = jsonl(tmp_path / "big.jsonl", 5000)
    seen: dict[str, object] = {}
    failures: list[BaseException] = []

    def write() -> None:
        try:
            client.create_entities([{"name": "written while waiting", "observations": ["mine"]}])
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            failures.append(exc)

    def progress(done: int, total: int, text: str = "") -> None:
        # Between two of the import's chunks, once some have landed: another client takes the lock,
        # ours starts waiting for it, then the other lets go; the import goes on at once.
        if "mark" in seen or importer.health_check()["counts"]["entities"] < 1000:
            return
        holding, release = threading.Event(), threading.Event()

        def hold() -> None:  # another process holds the write lock (on a thread: this one is importing)
            with third.transaction():
                holding.set()
                release.wait(60)

        holder = threading.Thread(target=hold)
        holder.start()
        assert holding.wait(60)
        writer = threading.Thread(target=write)
        writer.start()
        deadline = time.monotonic() + 60
        while not turns.let_waiters_in(lock_file, max_seconds=0):  # until ours is waiting to begin
            assert time.monotonic() < deadline and writer.is_alive()
            time.sleep(0.005)
        seen["mark"] = importer.latest_change_id()
        seen["writer"] = writer
        release.set()
        holder.join(60)
        # ``third`` has committed; the import's next chunk begins as soon as this returns

    import_path(importer, source, progress=progress)
    writer = seen["writer"]
    assert isinstance(writer, threading.Thread)
    writer.join(60)
    assert not failures, failures
    rows = client.history(limit=100_000)
    mine = next(r.id for r in rows if r.entity == "written while waiting")
    assert [r for r in rows if seen["mark"] < r.id < mine] == []  # nothing of the import got in before it
    assert max(r.id for r in rows) > mine  # and the import went on after it
    assert client.health_check()["counts"]["entities"] == 5000 + 4


def test_waiting_is_seen_only_while_a_writer_waits_and_only_during_an_import(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(settings(db)) as m:
        m.create_entities([{"name": "a"}])
        lock_file = turns.lock_file(str(db))
        assert lock_file is not None and not Path(lock_file).exists()  # no import: no file, no turns
        with turns.waiting(lock_file):
            assert not Path(lock_file).exists()
        assert turns.let_waiters_in(lock_file, max_seconds=0) is False  # an import's check makes it
        assert (Path(lock_file).stat().st_mode & 0o777) == 0o600  # private, like the database
        with turns.waiting(lock_file):
            assert turns.let_waiters_in(lock_file, max_seconds=0) is True
        assert turns.let_waiters_in(lock_file, max_seconds=0) is False
        m.create_entities([{"name": "b"}])  # a writer that did not wait leaves no trace
        assert turns.let_waiters_in(lock_file, max_seconds=0) is False


def test_nothing_is_left_beside_the_database_after_an_import(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(settings(db)) as m:
        import_path(m, jsonl(tmp_path / "some.jsonl", 600))
        assert not Path(turns.lock_file(str(db)) or "").exists()
        bad = tmp_path / "bad.jsonl"
        bad.write_text(jsonl(tmp_path / "more.jsonl", 600).read_text() + "not JSON\n")
        with pytest.raises(ImportRefused):  # rolled back by its id
            import_path(m, bad)
        assert not Path(turns.lock_file(str(db)) or "").exists()
        assert m.health_check()["counts"]["entities"] == 600
