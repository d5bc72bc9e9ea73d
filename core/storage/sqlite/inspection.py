"""What an SQLite file is, read without changing it: its schema version and tables, whether this
version may open it, and how many entities it holds. Shared by opening (``schema``) and restoring
(``backups``), which each need the answer before they touch the file."""

from __future__ import annotations

from pathlib import Path

from core.errors import SchemaTooNew, StorageError
from core.storage.sqlite.connection import Connection, DatabaseError, connect

#: the schema this version writes (``PRAGMA user_version``); the newest numbered migration
SCHEMA_VERSION = 11


def restorable_entities(path: Path | str) -> int:
    """How many entities the file at ``path`` holds, if it is a Hipocampo memory this version can
    open (a newer schema → ``SchemaTooNew``, anything else → ``StorageError``, saying what it is).
    Reads only: nothing is written to the file."""
    conn = connect(path, apply_pragmas=False)
    try:
        version, tables = version_and_tables(conn, str(path))
        refuse_foreign(conn, str(path), version, tables)
        if version == 0 or not {"entities", "db_metadata", "change_log"} <= tables:
            listed = ", ".join(sorted(tables)[:8])
            what = "an empty SQLite database" if not tables else (
                "an MCP Memory v2 database" if version == 0 else f"a database with tables {listed}")
            raise StorageError(f"{path} is {what}, not a Hipocampo memory. Choose another file; nothing was changed.")
        try:
            return int(conn.execute("SELECT count(*) FROM entities").fetchone()[0])
        except DatabaseError as exc:
            raise StorageError(f"{path} cannot be read as a Hipocampo memory ({exc}). Nothing was changed.") from exc
    finally:
        conn.close()


def refuse_foreign(conn: Connection, path_str: str, version: int, tables: set[str]) -> None:
    """Refuse, saying why, a file this version must not open: a negative or newer schema version, or a
    database neither Hipocampo nor MCP Memory v2 wrote."""
    if version < 0:
        raise StorageError(
            f"{path_str} is an SQLite database but not one Hipocampo wrote (its schema version is {version}). "
            "Choose another file; it was not changed."
        )
    if version > SCHEMA_VERSION:
        raise SchemaTooNew(
            f"{path_str} was written by a newer Hipocampo (schema version {version}; this "
            f"version understands up to {SCHEMA_VERSION}). Update Hipocampo to open it; "
            "the file was not changed."
        )
    if version == 0 and tables and not looks_like_mcp_memory_v2(conn, tables):
        raise StorageError(
            f"{path_str} is an SQLite database but not one Hipocampo or MCP Memory v2 wrote "
            f"(tables: {', '.join(sorted(tables)[:8])}). Choose another file; it was not changed."
        )


def version_and_tables(conn: Connection, path: str) -> tuple[int, set[str]]:
    """(user_version, table names), read together: another process may be creating the schema."""
    own = not conn.in_transaction
    try:
        if own:
            conn.execute("BEGIN")  # one snapshot for both reads
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
        finally:
            if own and conn.in_transaction:
                conn.execute("COMMIT")
    except DatabaseError as exc:
        raise StorageError(
            f"{path} is not a database Hipocampo can read ({exc}). Choose another file; "
            "it was not changed."
        ) from exc
    return int(version), {r[0] for r in rows if not r[0].startswith("sqlite_")}


def looks_like_mcp_memory_v2(conn: Connection, tables: set[str]) -> bool:
    """Whether ``tables`` are seed 000's (MCP Memory v2), which Hipocampo migrates in place."""
    if not {"entities", "observations", "relations"} <= tables:
        return False
    columns = {r[1] for r in conn.execute("PRAGMA table_info(entities)")}
    return {"id", "name", "entity_type"} <= columns and "props" not in columns
