"""Turns at the write lock: a long import lets a waiting writer in between its chunks.

SQLite's busy handler is no queue: a waiting writer sleeps and retries (every 100 ms once it has
waited a while), so an import that commits a chunk and begins the next within a millisecond can
keep another process's write waiting for seconds, or until its busy timeout fails it. So every
writer holds a shared ``flock`` on ``<database>-writers`` while it waits to begin (from just before
``BEGIN IMMEDIATE`` until it returns), and an import, after each chunk, waits until nobody holds
it (at most ``YIELD_MAX_SECONDS``) before it begins the next. Writers that do not wait hold the lock
for microseconds; an import without waiters loses nothing. The file exists only while an import
runs (the import makes it and removes it when done), so nothing is left beside the database.
Without ``fcntl`` (Windows), or where the file cannot be made (a read-only folder), writers simply
wait as before.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from core.files import FILE_MODE

if TYPE_CHECKING:
    from sqlite3 import Connection  # what connection.Connection is to the type checker, without a circle

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]  # Windows has no fcntl: no turns there

YIELD_MAX_SECONDS = 2.0  # a writer stuck while waiting (a stopped process) cannot hold an import up longer
_POLL_SECONDS = 0.002

# The import this thread is running, if any (``history.current_import``): its writes take turns.
current_import = threading.local()


def lock_file(database: str | None) -> str | None:
    """The lock file that writers of ``database`` share; None for in-memory databases, or without flock."""
    return database + "-writers" if database and fcntl is not None else None


def lock_file_of(conn: Connection) -> str | None:
    """The lock file for the database ``conn`` has open."""
    try:
        row = conn.execute("PRAGMA database_list").fetchone()
    except Exception:  # noqa: BLE001 - a closing connection: no turns
        return None
    return lock_file(row[2] if row else None)


def finished(path: str | None) -> None:
    """The import is over: remove the file (a writer still holding it only loses its place)."""
    if path is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _open(path: str, *, create: bool) -> int | None:
    flags = os.O_RDWR | getattr(os, "O_CLOEXEC", 0) | (os.O_CREAT if create else 0)
    try:
        return os.open(path, flags, FILE_MODE)
    except OSError:  # no import running (no file), a read-only folder: no turns, plain waiting
        return None


@contextlib.contextmanager
def waiting(path: str | None) -> Iterator[None]:
    """Around ``BEGIN IMMEDIATE``: tells an import between chunks that a writer is waiting."""
    fd = _open(path, create=False) if path is not None else None
    if fd is None:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_SH)  # only ever blocks during an import's check: microseconds
        yield
    finally:
        os.close(fd)  # releases the lock


def let_waiters_in(path: str | None, max_seconds: float = YIELD_MAX_SECONDS) -> bool:
    """Between an import's chunks: wait until no writer is waiting to begin (they begin first).
    Returns True if someone was waiting."""
    fd = _open(path, create=True) if path is not None else None
    if fd is None:
        return False
    deadline = time.monotonic() + max_seconds
    waited = False
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return waited
            except BlockingIOError:
                waited = True
                if time.monotonic() > deadline:
                    return waited
                time.sleep(_POLL_SECONDS)
    finally:
        os.close(fd)


__all__ = ["YIELD_MAX_SECONDS", "current_import", "finished", "let_waiters_in", "lock_file", "lock_file_of", "waiting"]
