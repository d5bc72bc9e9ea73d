"""The one connection factory: SQLite with extension loading (sqlean), sqlite-vec, and PRAGMAs.

CPython's own ``sqlite3`` cannot load extensions on many builds (pyenv's and macOS's among them),
so every connection comes from ``sqlean``, which bundles a current SQLite with FTS5 and allows it.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
from collections.abc import Iterator
from pathlib import Path

import sqlean as sqlite3

from core.errors import StorageError
from core.search.folding import fold

Connection = sqlite3.Connection
DatabaseError = sqlite3.DatabaseError
IntegrityError = sqlite3.IntegrityError
complete_statement = sqlite3.complete_statement

# Each PRAGMA with why (seed 000's set, kept as it is proven for several MCP processes on one file).
_PRAGMAS = (
    "PRAGMA journal_mode = WAL",   # readers never block the writer, nor the writer readers
    "PRAGMA synchronous = NORMAL",  # safe under WAL, and far fewer fsyncs than FULL
    "PRAGMA cache_size = -64000",  # 64 MB page cache: repeated reads stay off the disk
    "PRAGMA temp_store = MEMORY",  # sorts and temp b-trees in RAM
    "PRAGMA foreign_keys = ON",    # without it SQLite ignores ON DELETE CASCADE
)
BUSY_TIMEOUT_MS = 10_000  # another process writing: wait up to 10 s rather than fail


def connect(path: Path | str, *, apply_pragmas: bool = True, read_only: bool = False) -> Connection:
    """Open ``path`` with sqlite-vec loaded and the ``hfold`` SQL function registered.

    The connection is in autocommit mode: transactions are opened explicitly (see ``atomic``).
    ``apply_pragmas=False`` opens without writing anything, so the schema version can be checked
    before the file is touched (switching to WAL writes the header).
    """
    try:
        if read_only:  # a read-only location: no -wal/-shm can be made there, and nobody can write
            uri = Path(path).absolute().as_uri() + "?mode=ro&immutable=1"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        else:
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:  # e.g. the folder does not exist or is not writable
        raise StorageError(f"Cannot open the database {path}: {exc}") from exc
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    try:
        conn.enable_load_extension(True)
        conn.load_extension(_vec0_path())
        conn.enable_load_extension(False)
    except (AttributeError, sqlite3.Error) as exc:
        conn.close()
        raise StorageError(f"Cannot load sqlite-vec into SQLite: {exc}") from exc
    conn.create_function("hfold", 1, _hfold, deterministic=True)
    if apply_pragmas and not read_only:
        apply_connection_pragmas(conn)
    return conn


@functools.cache
def _vec0_path() -> str:
    """Where sqlite-vec's loadable library is, found without importing the ``sqlite_vec`` package
    (its ``__init__`` imports numpy, a third of a stdio server's start-up)."""
    spec = importlib.util.find_spec("sqlite_vec")
    folder = next(iter(spec.submodule_search_locations or []), None) if spec is not None else None
    if folder is not None and any(Path(folder).glob("vec0.*")):
        return os.path.join(folder, "vec0")
    import sqlite_vec  # an unusual layout (e.g. a frozen app): let the package say

    return sqlite_vec.loadable_path()


def apply_connection_pragmas(conn: Connection) -> None:
    """Set the PRAGMAs every working connection needs."""
    for pragma in _PRAGMAS:
        conn.execute(pragma)


def _hfold(value: object) -> str | None:
    return fold(value) if isinstance(value, str) else None


@contextlib.contextmanager
def atomic(conn: Connection, *, immediate: bool = True) -> Iterator[Connection]:
    """One transaction (or a savepoint when already inside one): all of it lands, or none.

    ``BEGIN IMMEDIATE`` takes the write lock up front, so two processes never deadlock upgrading
    a read transaction to a write one; the busy timeout makes the second one wait its turn.
    """
    if conn.in_transaction:
        conn.execute("SAVEPOINT nested")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK TO nested")
            conn.execute("RELEASE nested")
            raise
        conn.execute("RELEASE nested")
        return
    conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
