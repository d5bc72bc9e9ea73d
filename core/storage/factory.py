"""create_stores(): the only place a storage backend is chosen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from core.errors import ConfigError
from core.protocols import GraphStore, VectorStore
from core.settings import Settings


@dataclass(frozen=True)
class Stores:
    graph: GraphStore
    vectors: VectorStore


def create_stores(settings: Settings, *, clock: Callable[[], datetime] | None = None) -> Stores:
    """Open the backend ``settings.backend`` names (``sqlite`` by default)."""
    if settings.backend == "sqlite":
        from core.storage.sqlite.store import SqliteGraphStore, utc_now
        from core.storage.sqlite.vectors import SqliteVecStore

        graph = SqliteGraphStore(settings.db, clock=clock or utc_now, read_only=settings.read_only)
        return Stores(graph=graph, vectors=SqliteVecStore(graph))
    raise ConfigError(f"Unknown backend {settings.backend!r}; this build has only sqlite.")
