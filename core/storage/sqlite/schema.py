"""Opening a database file: create it, upgrade it, import an MCP Memory v2 file, or refuse it.

A file written by a newer Hipocampo is refused before anything is written to it (not even the
switch to WAL, which rewrites the header).
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from core import files
from core.errors import StorageError
from core.storage.sqlite import backups, indexing
from core.storage.sqlite.connection import (
    BUSY_TIMEOUT_MS,
    Connection,
    DatabaseError,
    apply_connection_pragmas,
    atomic,
    complete_statement,
    connect,
)
from core.storage.sqlite.inspection import SCHEMA_VERSION, refuse_foreign, restorable_entities, version_and_tables
from core.storage.sqlite.migrations import MIGRATIONS, read_sql

log = logging.getLogger(__name__)



def open_database_read_only(path: Path | str) -> Connection:
    """A connection that only reads ``path`` (on a read-only disk or folder): nothing is created,
    upgraded or written. A file that would need an upgrade first is refused."""
    conn = connect(path, read_only=True)
    try:
        version, tables = version_and_tables(conn, str(path))
        if version != SCHEMA_VERSION:
            raise StorageError(
                f"{path} is on a read-only location and needs an upgrade Hipocampo cannot write there "
                f"(schema {version}, this Hipocampo uses {SCHEMA_VERSION}). Copy it somewhere writable first."
            )
    except BaseException:
        conn.close()
        raise
    return conn


def open_database(path: Path | str, *, backup_keep: int = 7) -> Connection:
    """Return a ready connection to ``path``, creating or upgrading the schema as needed.

    Raises ``SchemaTooNew`` for a file from a newer Hipocampo and ``StorageError`` for a file that
    is not a database Hipocampo understands; in both cases the file is left exactly as it was.
    Several processes may open a file that does not exist yet at the same moment: what to create
    or upgrade is decided again inside ``BEGIN IMMEDIATE``, so exactly one of them does it.
    """
    path_str = str(path)
    if path_str != ":memory:":
        files.private_file(Path(path_str))  # 0600 before SQLite writes a byte (-wal/-shm follow it)
    conn = connect(path_str, apply_pragmas=False)
    try:
        version, tables = version_and_tables(conn, path_str)
        refuse_foreign(conn, path_str, version, tables)
        if version == 0 and tables:
            _backup_before_migration(conn, path_str)  # before WAL mode rewrites the header
        elif 0 < version < SCHEMA_VERSION and backup_keep > 0:
            backups.make_backup(Path(path_str), "before-migration", keep=backup_keep)
        _set_pragmas(conn)
        with atomic(conn):  # the write lock: nobody else creates or upgrades meanwhile
            version, tables = version_and_tables(conn, path_str)
            refuse_foreign(conn, path_str, version, tables)
            if version == 0 and not tables:
                _create(conn)
            elif version == 0:
                _migrate_from_mcp_memory_v2(conn)
            else:
                _upgrade(conn, version)
    except BaseException:
        conn.close()
        raise
    return conn


def _set_pragmas(conn: Connection) -> None:
    """The PRAGMAs; switching a new file to WAL needs a moment alone with it, so a first open
    racing another one's may find it busy: wait for it as the busy timeout would."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            apply_connection_pragmas(conn)
            return
        except DatabaseError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def execute_script(conn: Connection, sql: str) -> None:
    """Run each statement of ``sql`` with ``execute`` (``executescript`` would COMMIT first,
    breaking the caller's transaction)."""
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if complete_statement(buffer):
            if buffer.strip():
                conn.execute(buffer)
            buffer = ""
    if buffer.strip() and not buffer.strip().startswith("--"):
        conn.execute(buffer)


def _run_script(conn: Connection, sql: str, version: int) -> None:
    """Run ``sql`` and the version bump as one transaction (a savepoint inside open's)."""
    with atomic(conn):
        execute_script(conn, sql)
        conn.execute(f"PRAGMA user_version = {version}")


def _create(conn: Connection) -> None:
    schema = resources.files("core.storage.sqlite").joinpath("schema.sql").read_text("utf-8")
    _run_script(conn, schema + "\n" + _metadata_sql(), SCHEMA_VERSION)


def _metadata_sql() -> str:
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        "INSERT OR REPLACE INTO db_metadata(key, value) VALUES "
        f"('schema_version', '{SCHEMA_VERSION}'), ('hipocampo_migrated_at', '{now}');"
    )


def _steps(version: int) -> list[int]:
    """The migrations after ``version``, in order (a number no branch used is skipped)."""
    return sorted(n for n in MIGRATIONS if version < n <= SCHEMA_VERSION)


def _upgrade(conn: Connection, version: int) -> None:
    for target in _steps(version):
        log.info("Upgrading the database schema to version %d", target)
        _run_script(conn, MIGRATIONS[target], target)


def backup_path_for(path: str) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    return Path(f"{path}.mcp-memory-v2-backup-{stamp}")


def _backup_before_migration(conn: Connection, path: str) -> None:
    """Copy the file aside whole (SQLite's backup API: consistent even if another process writes)."""
    if path == ":memory:":
        return
    backup = files.private_file(backup_path_for(path))
    target = connect(backup, apply_pragmas=False)
    try:
        conn.backup(target)
    finally:
        target.close()
    log.warning("Migrating MCP Memory v2 database %s; a copy was saved to %s", path, backup)


def _migrate_from_mcp_memory_v2(conn: Connection) -> None:
    """Upgrade an MCP Memory v2 database in place, in one transaction."""
    with atomic(conn):
        execute_script(conn, read_sql("legacy_mcp_memory_v2.sql"))  # to version 1
        for target in _steps(1):
            execute_script(conn, MIGRATIONS[target])
        indexing.reindex_all(conn)
        execute_script(conn, _metadata_sql())
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def copy_database(source: Path, dest: Path, *, read_only: bool = False) -> None:
    """A consistent copy of a live database (the SQLite backup API, not a file copy); ``read_only``
    for a source on a read-only location."""
    src = connect(source, apply_pragmas=False, read_only=read_only)
    target = connect(files.private_file(dest), apply_pragmas=False)
    try:
        src.backup(target)
    finally:
        target.close()
        src.close()


__all__ = ["SCHEMA_VERSION", "copy_database", "open_database", "restorable_entities"]
