"""The typed seams between ``CypherGraphStore`` and the parts beside it (insights, hygiene, edits,
history): what each reads of a dialect, a write transaction and the store, as Protocols."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
LogRow = tuple[str, str, str, str | None, str | None, str | None]  # at, actor, op, entity, before, after


class Reader(Protocol):
    """A dialect, or a write transaction: a query answered now."""

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]: ...


class Dialect(Reader, Protocol):
    def version(self) -> int:
        """Moves whenever any client writes."""
        ...


class WriteTx(Reader, Protocol):
    """One write: reads run now, writes wait for the commit (``tx.QueuedTx``)."""

    counters: dict[str, int]

    def write(self, query: str, params: dict[str, Any] | None = None) -> None: ...
    def next_ids(self, counter: str, n: int) -> list[int]: ...


class Graph(Protocol):
    """What the parts use of ``CypherGraphStore``."""

    @property
    def db(self) -> Dialect: ...
    @property
    def clock(self) -> Callable[[], datetime]: ...
    def now(self) -> str: ...
    def write(self, fn: Callable[[Any], T]) -> T: ...
    def latest_change_id(self) -> int: ...
    def rows_by_id(self, reader: Reader, ids: Sequence[int]) -> dict[int, dict[str, Any]]: ...
    def rows_by_name(self, reader: Reader, names: Sequence[str]) -> dict[str, dict[str, Any]]: ...
    def relation_snaps(self, reader: Reader, ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]: ...
    def put_rows(self, tx: WriteTx, rows: Sequence[dict[str, Any]], *, create: bool = False) -> None: ...
    def mark_stale(self, tx: WriteTx, ids: Sequence[int]) -> None: ...
    def log_changes(self, tx: WriteTx, log: Sequence[LogRow]) -> None: ...
