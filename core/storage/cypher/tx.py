"""What every dialect's write transaction shares: reads run at once, writes wait for the commit,
and fresh ids come from counters kept in the graph (so copies and moves keep them)."""

from __future__ import annotations

from typing import Any


class QueuedTx:
    """One write: ``read`` (a dialect's own) runs now, ``write`` is queued until the commit."""

    def __init__(self) -> None:
        self.writes: list[tuple[str, dict[str, Any]]] = []
        self.counters: dict[str, int] = {}

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        raise NotImplementedError

    def write(self, query: str, params: dict[str, Any] | None = None) -> None:
        self.writes.append((query, params or {}))

    def next_ids(self, counter: str, n: int) -> list[int]:
        """``n`` fresh ids from ``counter``."""
        if counter not in self.counters:
            rows = self.read("MATCH (c:Counter {name: $n}) RETURN c.value", {"n": counter})
            self.counters[counter] = int(rows[0][0]) if rows else 0
        start = self.counters[counter]
        self.counters[counter] = start + n
        return list(range(start + 1, start + n + 1))


COUNTER_WRITE = "MERGE (c:Counter {name: $n}) SET c.value = $v"
