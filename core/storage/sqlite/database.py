"""Database: the one open SQLite file that the graph, vector and insight stores share.

Every use of the connection holds the lock (the integrity gate counts on it), and every write
stamps its rows with the same clock, so the three stores take this small handle and nothing else
from one another.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime
from typing import TypeVar

from core.graph_rules import format_ts as format_ts  # read from here too
from core.graph_rules import utc_now as utc_now
from core.storage.sqlite.connection import Connection, atomic, forget

Clock = Callable[[], datetime]
T = TypeVar("T")


class _Held:
    """``with db.locked() as conn``: the lock taken, the connection handed out. A plain class, not a
    generator, because every read goes through it (about 0.5 µs against 3 µs)."""

    __slots__ = ("_conn", "_lock")

    def __init__(self, lock: threading.RLock, conn: Connection) -> None:
        self._lock = lock
        self._conn = conn

    def __enter__(self) -> Connection:
        self._lock.acquire()
        return self._conn

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


class Database:
    """One connection, the re-entrant lock that guards it, and the clock that stamps writes; and,
    for a read large enough to split, a second connection that reads on a thread of its own."""

    def __init__(self, conn: Connection, *, clock: Clock = utc_now,
                 open_reader: Callable[[], Connection] | None = None) -> None:
        self.conn = conn
        self.clock = clock
        self.lock = threading.RLock()
        self._held = _Held(self.lock, conn)
        self._open_reader = open_reader
        self._reader: Connection | None = None
        self._reader_thread: ThreadPoolExecutor | None = None
        self._reader_lock = threading.Lock()

    def now(self) -> str:
        """The clock's time as stored in every ``*_at`` column."""
        return format_ts(self.clock())

    @staticmethod
    def stamp(when: datetime | str | None) -> str | None:
        """``when`` as stored text (text passes unchanged: callers may hand a stored stamp back)."""
        return format_ts(when) if isinstance(when, datetime) else when

    def locked(self) -> _Held:
        """The connection, held for this block. No transaction: each statement (or a helper that
        opens its own) stands alone; use ``write`` or ``snapshot`` to group them."""
        return self._held

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """The connection inside one all-or-nothing write transaction (a savepoint when nested)."""
        with self.lock, atomic(self.conn) as conn:
            yield conn

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """The connection inside one read transaction: every statement sees the same moment."""
        with self.lock, atomic(self.conn, immediate=False) as conn:
            yield conn

    def beside(self, read: Callable[[Connection], T]) -> Future[T] | None:
        """``read`` run on the second connection, on its thread, while the caller goes on with the
        first (SQLite steps without Python's lock, so the two overlap); None where there is no
        second connection (an in-memory database). Only for reads: it holds no lock, so a write
        by another process may land between the two connections' statements."""
        if self._open_reader is None:
            return None
        with self._reader_lock:
            if self._reader_thread is None:
                self._reader_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hipocampo-reader")
            return self._reader_thread.submit(self._read_beside, read)

    def _read_beside(self, read: Callable[[Connection], T]) -> T:
        if self._reader is None:
            assert self._open_reader is not None
            self._reader = self._open_reader()
        return read(self._reader)

    def close(self) -> None:
        with self._reader_lock:
            if self._reader_thread is not None:
                self._reader_thread.shutdown(wait=True)
                self._reader_thread = None
            if self._reader is not None:
                self._reader.close()
                self._reader = None
            self._open_reader = None
        with self.lock:
            forget(self.conn)
            self.conn.close()
