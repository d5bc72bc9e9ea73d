"""The read log: what each assistant recalled, kept beside the memory, on this machine only.

Every read through MCP (which client, which tool, the query, the entities and facts it answered
with) is one row of a small SQLite file of its own, whatever backend holds the graph: a memory on
a team's FalkorDB server keeps each person's reads on their own machine, and reads never take the
graph's write lock. The file is private (0600, like the memory) and bounded: past ``keep`` rows the
oldest go. The name of each entity returned is indexed, so "when was this last recalled, and by
whom" is one lookup.

Where it lives: beside the SQLite memory (``memory.db`` → ``memory.reads.db``); for a graph server,
beside the default database path, named after the graph (``memory.reads-team.db``); in memory for
``:memory:``.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # sqlean is the stdlib's sqlite3 built with extension loading: same API, no stubs
    import sqlite3
else:
    import sqlean as sqlite3

from core import files

log = logging.getLogger(__name__)

MAX_NAMES = 50  # entity names kept per read (a whole read_graph keeps its first 50 and its total)
MAX_FACTS = 20  # facts kept per read
MAX_TEXT = 300  # characters of a query or a fact
_TRIM_EVERY = 64  # rows between two trims of the oldest

_SCHEMA = """
CREATE TABLE IF NOT EXISTS reads (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    at       TEXT    NOT NULL,
    client   TEXT    NOT NULL,
    tool     TEXT    NOT NULL,
    query    TEXT    NOT NULL DEFAULT '',
    entities TEXT    NOT NULL DEFAULT '[]',   -- JSON: names returned, at most MAX_NAMES
    facts    TEXT    NOT NULL DEFAULT '[]',   -- JSON: [name, fact] pairs returned, at most MAX_FACTS
    total    INTEGER NOT NULL DEFAULT 0       -- entities returned in all
);
CREATE TABLE IF NOT EXISTS read_entities (
    read_id INTEGER NOT NULL,
    name    TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS idx_read_entities_name ON read_entities(name, read_id);
CREATE INDEX IF NOT EXISTS idx_read_entities_read ON read_entities(read_id);
"""

_RECENT = """
SELECT id, at, client, tool, query, entities, facts, total FROM reads
 WHERE (:before_id IS NULL OR id < :before_id) AND (:client IS NULL OR client = :client)
   AND (:since IS NULL OR at >= :since) AND (:until IS NULL OR at < :until)
 ORDER BY id DESC LIMIT :limit
"""
_LAST = """
SELECT r.id, r.at, r.client, r.tool, r.query FROM read_entities e JOIN reads r ON r.id = e.read_id
 WHERE e.name = ? ORDER BY e.read_id DESC LIMIT 1
"""


def path_for(db: Path | str, backend: str, graph_name: str) -> Path | None:
    """Where the read log of this memory lives; None for an in-memory database."""
    if str(db) == ":memory:":
        return None
    db = Path(db)
    suffix = ".reads.db" if backend == "sqlite" else f".reads-{graph_name}.db"
    return db.with_name(db.stem + suffix)


def _row(r: Sequence[Any]) -> dict[str, Any]:
    rid, at, client, tool, query, entities, facts, total = r
    return {"id": rid, "at": at, "client": client, "tool": tool, "query": query,
            "entities": json.loads(entities), "facts": json.loads(facts), "total": total}


class ReadLog:
    """The read log of one memory (see the module docstring); safe to share between threads."""

    def __init__(self, path: Path | None, keep: int) -> None:
        self.path, self.keep = path, keep
        self._lock = threading.Lock()
        self._conn: Any = None
        self._count = 0
        self._broken = False

    def _open(self) -> Any:
        if self._conn is None:
            if self.path is not None:
                files.private_file(self.path)
            conn = sqlite3.connect(":memory:" if self.path is None else str(self.path),
                                   isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 2000")  # several servers append to one log
            conn.execute("PRAGMA journal_mode = WAL")  # readers (the app) never wait for a writer
            conn.execute("PRAGMA synchronous = NORMAL")  # a read lost in a power cut is no harm
            conn.executescript(_SCHEMA)
            self._conn = conn
        return self._conn

    def record(self, at: datetime, client: str, tool: str, query: str, names: Sequence[str],
               facts: Sequence[tuple[str, str]], total: int | None = None) -> int | None:
        """Log one read; returns its id. A log that cannot be written never fails the read itself."""
        if self._broken:
            return None
        names = list(dict.fromkeys(names))
        stamp = at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"
        try:
            with self._lock:
                conn = self._open()
                conn.execute("BEGIN IMMEDIATE")
                try:
                    rid: int = conn.execute(
                        "INSERT INTO reads(at, client, tool, query, entities, facts, total) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (stamp, client[:100], tool[:100], query[:MAX_TEXT],
                         json.dumps(names[:MAX_NAMES], ensure_ascii=False),
                         json.dumps([[n, f[:MAX_TEXT]] for n, f in facts[:MAX_FACTS]], ensure_ascii=False),
                         len(names) if total is None else total)).lastrowid or 0
                    conn.executemany("INSERT INTO read_entities(read_id, name) VALUES (?, ?)",
                                     [(rid, n) for n in names[:MAX_NAMES]])
                    self._count += 1
                    if self._count % _TRIM_EVERY == 1:
                        self._trim(conn, rid)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                return rid
        except (sqlite3.Error, OSError) as exc:  # a read-only folder, a full disk: reads go on unlogged
            self._broken = True
            log.warning("The read log %s cannot be written (%s); reads are not logged.", self.path, exc)
            return None

    def _trim(self, conn: Any, newest: int) -> None:
        cutoff = newest - self.keep
        if cutoff > 0:
            conn.execute("DELETE FROM read_entities WHERE read_id <= ?", (cutoff,))
            conn.execute("DELETE FROM reads WHERE id <= ?", (cutoff,))

    def trim(self) -> None:
        """Drop the oldest reads beyond ``keep`` now (recording does it every few rows)."""
        with self._lock:
            conn = self._open()
            newest = conn.execute("SELECT coalesce(max(id), 0) FROM reads").fetchone()[0]
            self._trim(conn, newest)

    def recent(self, *, before_id: int | None = None, client: str | None = None, since: str | None = None,
               until: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
        """Reads newest first, older than ``before_id``, by ``client``, with ``since <= at < until``."""
        if self.path is not None and not self.path.exists() and self._conn is None:
            return []  # nothing logged yet: do not create the file just to read it
        with self._lock:
            rows = self._open().execute(_RECENT, {"before_id": before_id, "client": client, "since": since,
                                                  "until": until, "limit": limit}).fetchall()
        return [_row(r) for r in rows]

    def last_recall(self, name: str) -> dict[str, Any] | None:
        """The newest read that returned entity ``name``: ``{id, at, client, tool, query}``, or None."""
        if self.path is not None and not self.path.exists() and self._conn is None:
            return None
        with self._lock:
            row = self._open().execute(_LAST, (name,)).fetchone()
        return None if row is None else dict(zip(("id", "at", "client", "tool", "query"), row, strict=True))

    def clients(self) -> list[dict[str, Any]]:
        """Every client in the log: ``{client, reads, last_at}``, latest first."""
        if self.path is not None and not self.path.exists() and self._conn is None:
            return []
        with self._lock:
            rows = self._open().execute("SELECT client, count(*), max(at) FROM reads GROUP BY client "
                                        "ORDER BY 3 DESC, 1").fetchall()
        return [{"client": c, "reads": n, "last_at": at} for c, n, at in rows]

    def count(self) -> int:
        if self.path is not None and not self.path.exists() and self._conn is None:
            return 0
        with self._lock:
            return int(self._open().execute("SELECT count(*) FROM reads").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
