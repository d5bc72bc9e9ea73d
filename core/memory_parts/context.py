"""What every part of ``Memory`` reads: the settings, the stores, the clock and who is acting."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from core.protocols import GraphStore, VectorStore
from core.settings import Settings


@dataclass(frozen=True)
class MemoryContext:
    """The shared state of one open memory, handed to each part."""

    settings: Settings
    graph: GraphStore
    vectors: VectorStore | None
    clock: Callable[[], datetime] | None  # None: the real time (and the stores use their own)
    written: Callable[[], None]  # after a write: keeps vectors in step (see embedding.Embedding)

    def actor(self, actor: str | None) -> str:
        """Who a change is recorded as: ``actor`` when given, else the settings' actor."""
        return actor or self.settings.actor

    def now(self) -> datetime:
        """The memory's clock (a test's stepping clock, or the real UTC time)."""
        return self.clock() if self.clock is not None else datetime.now(UTC)
