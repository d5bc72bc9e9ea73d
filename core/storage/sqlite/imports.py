"""Imports that never hold the write lock for long, and still land whole or not at all.

An import gets an id, recorded in ``db_metadata`` (with the importing process) while it runs. Its
writes are ordinary short transactions (a batch at a time) whose change_log rows carry the id, so
other clients' writes go in between. If it fails, is cancelled, or its process dies (found when
the file is next opened), it is rolled back by that id: the entities it created are deleted, what
it changed on existing ones is undone, newest first, and its change_log rows are removed, so the
memory and its history are as they were.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import uuid
from typing import TYPE_CHECKING, Any, Protocol

from core.errors import Conflict, NotFound
from core.history import undo  # the undo of each kind of change lives there
from core.model import Change
from core.processes import pid_alive
from core.storage.sqlite import history, turns
from core.storage.sqlite.connection import Connection, atomic
from core.storage.sqlite.edits import Session

if TYPE_CHECKING:
    from core.protocols import GraphStore
    from core.storage.sqlite.database import Database

    class RollbackStore(GraphStore, Protocol):
        """What an import's rollback needs: the store's writes and its database."""

        db: Database

log = logging.getLogger(__name__)

PREFIX = "import:"
DELETE_CHUNK = 500  # created entities deleted per transaction when rolling back


def begin(conn: Connection, source: str, now: str) -> str:
    """Record a new running import; returns its id."""
    import_id = uuid.uuid4().hex
    info: dict[str, Any] = {"source": source, "started": now, "pid": os.getpid(), "host": socket.gethostname()}
    with atomic(conn):
        # Where the id counters stood, so a rollback leaves them there too (when nothing else moved them)
        info["sequences"] = dict(conn.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
        conn.execute("INSERT INTO db_metadata(key, value) VALUES (?, ?)", (PREFIX + import_id, json.dumps(info)))
    return import_id


def finish(conn: Connection, import_id: str) -> None:
    """The import landed: it is no longer one to roll back (its rows keep their id, for history)."""
    with atomic(conn):
        conn.execute("DELETE FROM db_metadata WHERE key = ?", (PREFIX + import_id,))
    turns.finished(turns.lock_file_of(conn))


def running(conn: Connection) -> dict[str, dict[str, Any]]:
    """Imports recorded as running: id → (source, started, pid, host)."""
    rows = conn.execute("SELECT key, value FROM db_metadata WHERE key LIKE 'import:%'").fetchall()
    return {key[len(PREFIX):]: json.loads(value) for key, value in rows}


def rollback(store: RollbackStore, import_id: str, actor: str) -> int:
    """Undo everything import ``import_id`` wrote; returns how many of its changes were undone."""
    previous = getattr(history.current_import, "id", None)
    history.current_import.id = import_id  # what the rollback writes is removed with the rest
    try:
        with store.db.locked() as conn:
            rows = [Change.decode(*r) for r in conn.execute(
                "SELECT id, at, actor, op, entity, before, after FROM change_log WHERE import_id = ? ORDER BY id DESC",
                (import_id,))]
        created = list(dict.fromkeys(r.entity for r in rows if r.op == "create_entity" and r.entity))
        for start in range(0, len(created), DELETE_CHUNK):
            store.delete_entities(created[start:start + DELETE_CHUNK], actor)
        gone = set(created)
        for row in rows:  # newest first: changes to entities that were there before the import
            if row.op in ("create_entity", "delete_entity") or row.entity in gone:
                continue
            try:
                with store.db.write() as conn:
                    undo.undo_one(Session(store, conn, actor, store.db.now()), row)
            except (Conflict, NotFound):  # already undone by a deletion above, or changed since
                continue
        with store.db.write() as conn:
            conn.execute("DELETE FROM change_log WHERE import_id = ?", (import_id,))
            info = conn.execute("SELECT value FROM db_metadata WHERE key = ?", (PREFIX + import_id,)).fetchone()
            _restore_sequences(conn, json.loads(info[0]).get("sequences", {}) if info else {})
            conn.execute("DELETE FROM db_metadata WHERE key = ?", (PREFIX + import_id,))
            lock_file = turns.lock_file_of(conn)
        turns.finished(lock_file)
        return len(rows)
    finally:
        history.current_import.id = previous


def _restore_sequences(conn: Connection, recorded: dict[str, int]) -> None:
    """Put the id counters back where they stood, unless rows another client wrote are beyond."""
    for table, _seq in conn.execute("SELECT name, seq FROM sqlite_sequence").fetchall():
        top = conn.execute(f'SELECT max(rowid) FROM "{table}"').fetchone()[0]
        if table not in recorded and top is None:
            conn.execute("DELETE FROM sqlite_sequence WHERE name = ?", (table,))
        else:
            conn.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = ?",
                         (max(recorded.get(table, 0), top or 0), table))


def recover(store: RollbackStore) -> None:
    """Roll back imports whose process died mid-way (on this machine), as the file is opened."""
    with store.db.locked() as conn:
        found = running(conn)
    for import_id, info in found.items():
        pid = info.get("pid")
        if info.get("host") == socket.gethostname() and pid != os.getpid() and not pid_alive(pid):
            undone = rollback(store, import_id, "import")
            log.warning("Rolled back the unfinished import of %s (%d changes): its process had stopped.",
                        info.get("source"), undone)


__all__ = ["begin", "finish", "recover", "rollback", "running"]
