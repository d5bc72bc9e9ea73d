"""Core calls off the GUI thread, results back on it by signal, and the change feed.

The GUI thread never waits on SQLite or the model: every ``core.Memory`` call a widget makes goes
through :class:`Core`, which runs it on a worker thread and calls ``done``/``failed`` back on the
GUI thread. Writes go through one thread, in the order they were asked for; reads share a small
pool. :class:`ChangeFeed` reports what anyone (this app, the hub's clients, another process on the
same file) wrote, as ``change_log`` rows, within a fraction of a second.
"""

from __future__ import annotations

import itertools
import logging
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QFileSystemWatcher, QObject, Qt, QTimer, Signal, Slot

from core.errors import HipocampoError
from core.memory import Memory
from core.model import Change

log = logging.getLogger(__name__)

Done = Callable[[Any], None]
Failed = Callable[[str], None]

FEED_INTERVAL_MS = 250  # live refresh: what clients write shows up well within a second
#: With the database file watched (SQLite), polling is only a safety net for a missed notification
#: (a network folder, a replaced file): an idle app then wakes once in this long, not 4 times a second.
FEED_FALLBACK_MS = 5000
FEED_COALESCE_MS = 30  # a burst of writes (one per WAL frame) is read once


@dataclass
class Progress:
    """Handed to long tasks: report how far they got, and see whether the user cancelled."""

    report: Callable[[int, int, str], None]
    cancel: threading.Event = field(default_factory=threading.Event)

    def __call__(self, done: int, total: int, text: str = "") -> None:
        self.report(done, total, text)

    @property
    def cancelled(self) -> bool:
        return self.cancel.is_set()


@dataclass
class _Call:
    done: Done | None
    failed: Failed | None
    key: str | None
    generation: int


class Core(QObject):
    """The app's one door to ``core.Memory``.

    ``read(fn, …)`` and ``write(fn, …)`` run ``fn(memory, …)`` on a worker thread and call
    ``done(result)`` or ``failed(message)`` on the GUI thread. A ``key`` makes calls supersede
    each other: only the newest call with that key is delivered (search as you type).
    """

    #: an unexpected exception (a bug, not bad input): the crash dialog shows it
    crashed = Signal(str, str)  # summary, details
    #: something was written through this app (the change feed reports it precisely too)
    wrote = Signal()
    _finished = Signal(object, object, bool)  # call, result or message, ok

    def __init__(self, memory: Memory, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.memory = memory
        self._reads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="hipocampo-read")
        self._writes = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hipocampo-write")
        self._latest: dict[str, int] = {}
        self._calls: dict[int, _Call] = {}
        self._counter = itertools.count(1)
        self._closed = False
        self._finished.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    # -- asking -------------------------------------------------------------------------------

    def read(self, fn: Callable[..., Any], *args: Any, done: Done | None = None,
             failed: Failed | None = None, key: str | None = None, **kwargs: Any) -> Future[Any]:
        """Run ``fn(memory, *args, **kwargs)`` on a reader thread."""
        return self._submit(self._reads, fn, args, kwargs, done, failed, key)

    def write(self, fn: Callable[..., Any], *args: Any, done: Done | None = None,
              failed: Failed | None = None, **kwargs: Any) -> Future[Any]:
        """Run ``fn(memory, *args, **kwargs)`` on the writer thread, after earlier writes."""
        future = self._submit(self._writes, fn, args, kwargs, done, failed, None)
        future.add_done_callback(lambda _f: self.wrote.emit() if not self._closed else None)
        return future

    def task(self, fn: Callable[..., Any], *args: Any, progress: Callable[[int, int, str], None],
             done: Done | None = None, failed: Failed | None = None, **kwargs: Any) -> Progress:
        """A long write (import, reflect, re-embedding): ``fn(memory, progress, …)`` reports
        through ``progress(done, total, text)`` on the GUI thread and may be cancelled with
        the returned ``Progress.cancel``."""
        relay = _ProgressRelay(self)
        relay.progressed.connect(progress, Qt.ConnectionType.QueuedConnection)
        handle = Progress(report=relay.progressed.emit)
        self.write(fn, handle, *args, done=done, failed=failed, **kwargs)
        return handle

    def _submit(self, pool: ThreadPoolExecutor, fn: Callable[..., Any], args: tuple[Any, ...],
                kwargs: dict[str, Any], done: Done | None, failed: Failed | None,
                key: str | None) -> Future[Any]:
        if self._closed:  # the memory is closing: nothing more runs, nothing is delivered
            cancelled: Future[Any] = Future()
            cancelled.cancel()
            return cancelled
        generation = next(self._counter)
        if key is not None:
            self._latest[key] = generation
        # The callbacks stay on the GUI thread; the job (whose function may capture a widget)
        # travels back with the result, so no widget is ever released on a worker thread.
        self._calls[generation] = _Call(done, failed, key, generation)
        job: list[Any] = [fn, args, kwargs]

        def run() -> Any:
            work, work_args, work_kwargs = job
            try:
                result = work(self.memory, *work_args, **work_kwargs)
            except HipocampoError as exc:
                self._emit(generation, str(exc), False, job)
                raise
            except Exception as exc:
                details = traceback.format_exc()
                log.exception("Unexpected error in a core call")
                self._emit(generation, _sentence(exc), False, job)
                if not self._closed:
                    self.crashed.emit(_sentence(exc), details)
                raise
            finally:
                del work, work_args, work_kwargs
            self._emit(generation, result, True, job)
            return result

        return pool.submit(run)

    def _emit(self, generation: int, value: Any, ok: bool, job: list[Any]) -> None:
        payload = (generation, list(job))
        job.clear()
        if not self._closed:
            self._finished.emit(payload, value, ok)

    @Slot(object, object, bool)
    def _deliver(self, payload: tuple[int, list[Any]], value: Any, ok: bool) -> None:
        generation, _job = payload  # released here, on the GUI thread
        call = self._calls.pop(generation, None)
        if call is None:
            return
        if call.key is not None and self._latest.get(call.key) != call.generation:
            return  # superseded by a newer call with the same key
        callback = call.done if ok else call.failed
        owner = getattr(callback, "__self__", None)
        if isinstance(owner, QObject) and not shiboken6.isValid(owner):
            return  # its widget was closed while the call ran
        if callback is not None:
            callback(value)

    def wait_idle(self, timeout: float = 30.0) -> None:
        """Block until every call asked so far has run (tests and shutdown only)."""
        for pool in (self._writes, self._reads):
            pool.submit(lambda: None).result(timeout)

    def shutdown(self) -> None:
        """Finish what is running, drop what is queued, deliver nothing more."""
        self._closed = True
        for pool in (self._reads, self._writes):
            pool.shutdown(wait=True, cancel_futures=True)
        self._calls.clear()


class _ProgressRelay(QObject):
    progressed = Signal(int, int, str)


def _sentence(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text if text.endswith((".", "!", "?")) else text + "."


class ChangeFeed(QObject):
    """Polls ``change_log`` for rows newer than the last one seen and reports them.

    One cheap indexed read on a thread of its own (never queued behind a long read), one at a
    time. Writes by other processes, by the hub's clients and by this app all arrive here, so
    panes refresh from one place. On SQLite the read follows the database's files: every commit
    changes the ``-wal`` file, whose notification (inotify and the like, through
    ``QFileSystemWatcher``) starts a read within ``FEED_COALESCE_MS``; an idle app sleeps, with
    a poll every ``FEED_FALLBACK_MS`` as a safety net. Elsewhere (a graph server) it polls every
    ``interval_ms``.
    """

    #: new change_log rows, oldest first: {"id", "at", "actor", "op", "entity", "before", "after"}
    changed = Signal(list)
    _got = Signal(list)

    def __init__(self, memory: Memory, parent: QObject | None = None,
                 interval_ms: int = FEED_INTERVAL_MS) -> None:
        super().__init__(parent)
        self.memory = memory
        self.last_id = memory.latest_change_id()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hipocampo-feed")
        self._busy = False
        self._again = False  # a notification came while a read was running: read once more after it
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.poll)
        self._soon = QTimer(self, singleShot=True, interval=FEED_COALESCE_MS)
        self._soon.timeout.connect(self.poll)
        self._got.connect(self._on_got, Qt.ConnectionType.QueuedConnection)
        self._files = _database_files(memory)
        self._watcher: QFileSystemWatcher | None = None
        if self._files:
            self._watcher = QFileSystemWatcher(self)
            self._watcher.fileChanged.connect(self._on_file_changed)
            self._watcher.directoryChanged.connect(self._on_file_changed)  # a -wal made or replaced
            self._timer.setInterval(max(interval_ms, FEED_FALLBACK_MS))

    @property
    def watching(self) -> bool:
        """True when the feed follows the database's files rather than polling often."""
        return self._watcher is not None

    def start(self) -> None:
        if self._watcher is not None:
            self._watch()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._soon.stop()
        if self._watcher is not None:
            self._watcher.fileChanged.disconnect(self._on_file_changed)
            self._watcher.directoryChanged.disconnect(self._on_file_changed)
            paths = self._watcher.files() + self._watcher.directories()
            if paths:
                self._watcher.removePaths(paths)
        self._pool.shutdown(wait=True, cancel_futures=True)

    def _watch(self) -> None:
        """Watch the database, its -wal file (when there is one) and their folder."""
        assert self._watcher is not None
        wanted = [str(p) for p in self._files if p.exists()]
        missing = [p for p in wanted if p not in self._watcher.files() and p not in self._watcher.directories()]
        if missing:
            self._watcher.addPaths(missing)

    @Slot(str)
    def _on_file_changed(self, _path: str) -> None:
        self._watch()  # a file replaced or made anew is watched again
        if not self._soon.isActive():
            self._soon.start()

    @Slot()
    def poll(self) -> None:
        if self._busy:
            self._again = True
            return
        self._busy = True
        after = self.last_id
        self._pool.submit(self._read, after)

    def _read(self, after: int) -> None:
        rows: list[Change] = []
        try:
            rows = self.memory.changes_since(after, limit=2000)
        except Exception:  # the memory may be closing; the next tick tries again
            log.debug("change feed read failed", exc_info=True)
        self._got.emit(rows)

    @Slot(list)
    def _on_got(self, rows: list[Change]) -> None:
        self._busy = False
        if rows:
            self.last_id = rows[-1].id
            self.changed.emit(rows)
        if self._again or len(rows) >= 2000:  # more came meanwhile, or more is waiting
            self._again = False
            self._soon.start()


def _database_files(memory: Memory) -> list[Path]:
    """The files whose changes mean a commit (SQLite: the database, its -wal, their folder)."""
    if getattr(memory.settings, "backend", "sqlite") != "sqlite" or str(memory.settings.db) in ("", ":memory:"):
        return []  # a graph server, or a database in memory: nothing on disk to watch
    db = Path(memory.settings.db).expanduser().absolute()
    if not db.parent.is_dir():
        return []
    return [db, db.with_name(db.name + "-wal"), db.parent]
