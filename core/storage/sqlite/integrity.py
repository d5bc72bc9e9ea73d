"""A damaged database is never written to.

When a process opens the memory, ``PRAGMA quick_check`` reads every page once, on a thread and
connection of its own (≈0.4 s per 10k entities), so opening stays instant. Until it has answered,
a write waits for it (reads do not); if it finds damage, every later write is refused by SQLite
itself (an authorizer that denies writes), with a message naming the newest backup, while reads
go on getting out what can be read. On a healthy file the authorizer just says yes.
Then, if the newest automatic backup is a day old, a new one is made.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # sqlean is the stdlib's sqlite3 built with extension loading: same API, no stubs of its own
    import sqlite3
else:
    import sqlean as sqlite3

from core import files
from core.storage.sqlite.connection import Connection, DatabaseError, connect, refuse_writes

log = logging.getLogger(__name__)

CHECK_WAIT_SECONDS = 120.0  # a write waits at most this long for the check, then goes ahead
_WRITES = frozenset({
    sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE,
    sqlite3.SQLITE_CREATE_INDEX, sqlite3.SQLITE_CREATE_TABLE, sqlite3.SQLITE_CREATE_TRIGGER,
    sqlite3.SQLITE_CREATE_VIEW, sqlite3.SQLITE_DROP_INDEX, sqlite3.SQLITE_DROP_TABLE,
    sqlite3.SQLITE_DROP_TRIGGER, sqlite3.SQLITE_DROP_VIEW, sqlite3.SQLITE_ALTER_TABLE,
    sqlite3.SQLITE_REINDEX, sqlite3.SQLITE_ANALYZE, sqlite3.SQLITE_CREATE_VTABLE,
    sqlite3.SQLITE_DROP_VTABLE,
})


def damage_of(conn: Connection) -> str | None:
    """What ``PRAGMA quick_check`` finds wrong with the file, or None when it is healthy."""
    try:
        problems = [r[0] for r in conn.execute("PRAGMA quick_check(10)")]
    except DatabaseError as exc:
        return str(exc)
    return None if problems == ["ok"] else "; ".join(problems)


def damaged_message(path: str, damage: str) -> str:
    """What a person (or a model) reads when a write is refused: what happened, what to do."""
    newest = files.newest_backup(Path(path))
    remedy = (f"Restore the newest backup ({newest}) with `hipocampo restore`"
              if newest is not None else "There is no backup of it yet; copy out what can be read with "
              "`hipocampo export`")
    return (f"The memory file {path} is damaged ({damage}), so Hipocampo will not write to it. "
            f"{remedy}. Nothing was changed.")


class IntegrityGate:
    """Checks one open connection's file in the background and holds writes until it knows."""

    def __init__(self, conn: Connection, path: str, lock: threading.RLock, *,
                 after_healthy: Callable[[], None] | None = None, read_only: bool = False) -> None:
        self.path = path
        self._read_only = read_only
        self.damage: str | None = None
        self.message: str | None = None
        self._conn = conn
        self._lock = lock
        self._after_healthy = after_healthy
        self._done = threading.Event()
        self._healthy = False
        self._closed = False
        self._probe: Connection | None = None
        conn.set_authorizer(self._authorize)
        self._thread = threading.Thread(target=self._check, name="hipocampo-quick-check", daemon=True)
        self._thread.start()

    def wait(self, timeout: float = CHECK_WAIT_SECONDS) -> bool:
        """Block until the check has answered; True if it has."""
        return self._done.wait(timeout)

    def join(self, timeout: float | None = None) -> None:
        """Wait for the check and the daily backup after it to finish."""
        self._thread.join(timeout)

    def close(self) -> None:
        """The connection is closing: touch it no more, and stop a check still running (its own
        connection would otherwise keep the file busy after the memory was closed)."""
        self._closed = True
        probe = self._probe
        if probe is not None:
            with contextlib.suppress(Exception):
                probe.interrupt()

    def _authorize(self, action: int, _arg1: object, _arg2: object, dbname: str | None, _src: object) -> int:
        if self._healthy or action not in _WRITES or dbname == "temp":
            return sqlite3.SQLITE_OK
        self._done.wait(CHECK_WAIT_SECONDS)
        return sqlite3.SQLITE_DENY if self.damage is not None else sqlite3.SQLITE_OK

    def _check(self) -> None:
        try:
            probe = connect(self.path, read_only=self._read_only)
        except Exception as exc:  # noqa: BLE001 - the file vanished or cannot be read: say so
            self._found(str(exc))
            return
        self._probe = probe
        try:
            if self._closed:
                return
            damage = damage_of(probe)
        except Exception:  # interrupted by close(), or the file went away under us
            if self._closed:
                return
            raise
        finally:
            self._probe = None
            probe.close()
        if self._closed:  # close() interrupted the check ("interrupted" is no damage): nothing was found
            self._done.set()
            return
        if damage is not None:
            self._found(damage)
            return
        # The authorizer stays (only statements being prepared call it, and now it just says yes):
        # removing it from this thread could deadlock with a statement being prepared on another.
        self._healthy = True
        self._done.set()
        if self._closed:
            return
        if self._after_healthy is not None:
            try:
                self._after_healthy()
            except Exception as exc:  # a failed daily backup must not take the memory down
                log.warning("The daily backup of %s failed (%s); the memory itself is fine.", self.path, exc)
                log.debug("The daily backup failed", exc_info=True)

    def _found(self, damage: str) -> None:
        self.damage = damage
        self.message = damaged_message(self.path, damage)
        # Not under the store lock: a writer may hold it while it waits in the authorizer for us.
        if not self._closed:
            refuse_writes(self._conn, self.message)
        log.error("%s", self.message)
        self._done.set()


__all__ = ["IntegrityGate", "damage_of", "damaged_message"]
