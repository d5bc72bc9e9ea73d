"""What one search read of the entities, reused by its later reads while nothing was written.

A search reads the same entities' heads (the node without its observations), their fact counts
and their names several times: the candidates, the chosen few again after ranking (an entity
deleted meanwhile is no result), the counts for the scores and the answer, the supersede filter's
look-up by name. On FalkorDB every write of every process bumps one version key in the same
MULTI/EXEC as its changes (``FalkorDialect.write``), so rows read while the key had a value still
hold while it has it: a later read asks the key (a GET, no query) and reuses them, or reads
afresh. The key is read just before the rows, in the same round trip (``read_tagged``), so a
write landing in between only makes the rows look older than they are (reread, never stale).
Rows are kept for ``SECONDS`` at most (the reads of one search), and only of the last version; a
write of this process known to change none of them (``record_access``) carries them over when it
was the only write since.
The same holds for the few reads of state a search makes each time (the fact matrix's counters,
what is due for a vector): kept under a key (``rows``), they cost a GET while nothing is written.
A dialect without a version key (Neo4j) keeps nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

SECONDS = 1.0


class ReadMemo:
    """Entity heads (``rows.row_of`` without observations, or None: not there), fact counts,
    name → id and the rows of a few reads of state (``rows``), as read at one version of the graph."""

    def __init__(self, dialect: Any) -> None:
        self._db = dialect
        self._lock = threading.Lock()
        self._at: int | None = None
        self._when = 0.0
        self.heads: dict[int, dict[str, Any] | None] = {}
        self.counts: dict[int, int] = {}
        self.names: dict[str, int | None] = {}
        self.values: dict[Any, list[list[Any]]] = {}

    @property
    def enabled(self) -> bool:
        return hasattr(self._db, "read_tagged")

    def read(self, query: str, params: dict[str, Any]) -> tuple[list[list[Any]], int | None]:
        """The rows of a read and the version they are of (None: not to be kept)."""
        if not self.enabled:
            return self._db.read(query, params), None
        rows, version = self._db.read_tagged(query, params)
        return rows, version

    def current(self) -> bool:
        """Whether what is kept still holds (asks the server's version key)."""
        if self._at is None or time.monotonic() - self._when > SECONDS:
            return False
        return bool(self._db.version_tag() == self._at)

    def put(self, version: int | None, heads: dict[int, dict[str, Any] | None] | None = None,
            counts: dict[int, int] | None = None, names: dict[str, int | None] | None = None) -> None:
        if version is None:
            return
        with self._lock:
            if version != self._at or time.monotonic() - self._when > SECONDS:
                self._at, self._when = version, time.monotonic()
                self.heads, self.counts, self.names, self.values = {}, {}, {}, {}
            self.heads.update(heads or {})
            self.counts.update(counts or {})
            self.names.update(names or {})

    def rows(self, key: Any, query: str, params: dict[str, Any]) -> list[list[Any]]:
        """The rows of a read that depends on nothing but the graph (counters, what is due), kept
        under ``key``: read again only once something was written."""
        with self._lock:
            kept = self.values.get(key)
        if kept is not None and self.current():
            return kept
        found, version = self.read(query, params)
        if version is not None:
            self.put(version)
            with self._lock:
                if self._at == version:
                    self.values[key] = found
        return found

    def carry(self, version: int | None) -> None:
        """A write of this process that changed none of what is kept (access counts) left the
        version key at ``version``: if it was the only write since (the key was one below), what
        is kept still holds."""
        with self._lock:
            if version is not None and self._at is not None and version == self._at + 1:
                self._at = version

    def heads_of(self, ids: Sequence[int]) -> dict[int, dict[str, Any] | None] | None:
        """The kept heads of ``ids`` if every one is kept and still holds, else None."""
        with self._lock:
            found = {i: self.heads[i] for i in ids if i in self.heads}
        return found if len(found) == len(set(ids)) and self.current() else None

    def counts_of(self, ids: Sequence[int]) -> dict[int, int] | None:
        with self._lock:
            found = {i: self.counts[i] for i in ids if i in self.counts}
        return found if len(found) == len(set(ids)) and self.current() else None

    def ids_of(self, names: Sequence[str]) -> dict[str, int | None] | None:
        with self._lock:
            found = {n: self.names[n] for n in names if n in self.names}
        return found if len(found) == len(set(names)) and self.current() else None
