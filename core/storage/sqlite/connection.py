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
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # sqlean is the stdlib's sqlite3 built with extension loading: same API, no stubs of its own
    import sqlite3
else:
    import sqlean as sqlite3

from core.errors import StorageError
from core.search.folding import fold
from core.storage.sqlite import turns

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


def connect_reader(path: Path | str, *, read_only: bool = False) -> Connection:
    """A second connection to ``path`` for reads only (``Database.beside``): no PRAGMA that writes,
    and sorts in SQLite's default temp store. With ``temp_store = MEMORY`` its temp b-trees drew on
    a cache that SQLite shares process-wide under one lock, and its statements ran in turn with the
    main connection's instead of beside them (10k entities: 15 ms for the two at once, against 10)."""
    conn = connect(path, apply_pragmas=False, read_only=read_only)
    conn.execute("PRAGMA cache_size = -64000")
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

    path: str = sqlite_vec.loadable_path()
    return path


def apply_connection_pragmas(conn: Connection) -> None:
    """Set the PRAGMAs every working connection needs."""
    for pragma in _PRAGMAS:
        conn.execute(pragma)


def release_page_cache(conn: Connection) -> None:
    """Give back the pages a one-off full read left in ``conn``'s cache (loading every vector into
    memory at start: ~25 MB of pages per connection at 10k entities, never read again from the
    cache). The cache refills with what is read from then on."""
    conn.execute("PRAGMA shrink_memory")


def _hfold(value: object) -> str | None:
    return fold(value) if isinstance(value, str) else None


@contextlib.contextmanager
def atomic(conn: Connection, *, immediate: bool = True) -> Iterator[Connection]:
    """One transaction (or a savepoint when already inside one): all of it lands, or none.

    ``BEGIN IMMEDIATE`` takes the write lock up front, so two processes never deadlock upgrading
    a read transaction to a write one; the busy timeout makes the second one wait its turn.
    SQLite's own failures (busy, full disk, damage …) leave as a ``StorageError`` that says
    what happened and what to do.
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
    lock_file = turns.lock_file_of(conn) if immediate else None
    if lock_file is not None and _importing():
        turns.let_waiters_in(lock_file)  # an import's next chunk: writers waiting go first
    try:
        with turns.waiting(lock_file):
            conn.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")
    except DatabaseError as exc:
        raise explain(exc, conn) from exc
    try:
        yield conn
    except BaseException as exc:
        if conn.in_transaction:  # SQLite rolls some failures back by itself (a full disk …)
            conn.execute("ROLLBACK")
        if isinstance(exc, DatabaseError) and not isinstance(exc, IntegrityError):
            raise explain(exc, conn) from exc
        raise
    try:
        conn.execute("COMMIT")
    except DatabaseError as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise explain(exc, conn) from exc


# Connections whose writes are refused (a damaged file), with the sentence that says why.
_REFUSALS: dict[int, str] = {}


def refuse_writes(conn: Connection, message: str) -> None:
    """Remember why writes on ``conn`` are denied, for the error its writers get."""
    _REFUSALS[id(conn)] = message


def forget(conn: Connection) -> None:
    """``conn`` is closing: drop what was remembered about it."""
    _REFUSALS.pop(id(conn), None)


def _importing() -> bool:
    return getattr(turns.current_import, "id", None) is not None


def explain(exc: BaseException, conn: Connection | None = None, path: str | None = None) -> StorageError:
    """SQLite's error as a ``StorageError`` a person or a model can act on."""
    text = str(exc)
    low = text.lower()
    if conn is not None and "not authorized" in low and id(conn) in _REFUSALS:
        return StorageError(_REFUSALS[id(conn)])
    where = path or (_path_of(conn) if conn is not None else None) or "the memory file"
    if "locked" in low or "busy" in low:
        return StorageError(
            f"{where} is busy: another Hipocampo process kept it locked for more than "
            f"{BUSY_TIMEOUT_MS // 1000} s. Nothing was changed; try again in a moment."
        )
    if "full" in low:
        return StorageError(f"The disk holding {where} is full. Nothing was changed; free some space and try again.")
    if "malformed" in low or "corrupt" in low or "not a database" in low:
        return StorageError(
            f"{where} is damaged ({text}). Nothing was changed; restore a backup with `hipocampo restore` "
            "(see `hipocampo status`)."
        )
    if "readonly" in low or "read-only" in low:
        return StorageError(f"{where} cannot be written (a read-only file or folder). Nothing was changed.")
    if "disk i/o" in low:
        return StorageError(f"Reading or writing {where} failed at the disk ({text}). Nothing was changed; "
                            "check the disk, then try again.")
    return StorageError(f"{where}: SQLite reported {text!r}. Nothing was changed.")


def _path_of(conn: Connection) -> str | None:
    try:
        row = conn.execute("PRAGMA database_list").fetchone()
    except Exception:  # noqa: BLE001 - only for a message; never fail while explaining a failure
        return None
    return row[2] if row and row[2] else None
