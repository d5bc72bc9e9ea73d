"""create_stores(): the only place a storage backend is chosen (``hygiene_store``: the graph
store's own ``HygieneStore``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from core.errors import ConfigError
from core.protocols import GraphStore, VectorStore
from core.settings import Settings

if TYPE_CHECKING:  # a type only: importing core.hygiene here would import its detectors, which import this module
    from core.hygiene.store import HygieneStore


@dataclass(frozen=True)
class Stores:
    graph: GraphStore
    vectors: VectorStore


def create_stores(settings: Settings, *, clock: Callable[[], datetime] | None = None) -> Stores:
    """Open the backend ``settings.backend`` names (``sqlite`` by default)."""
    if settings.backend == "sqlite":
        from core.storage.sqlite.database import utc_now
        from core.storage.sqlite.store import SqliteGraphStore
        from core.storage.sqlite.vectors import SqliteVecStore

        graph = SqliteGraphStore(settings.db, clock=clock or utc_now, read_only=settings.read_only,
                                 backup_keep=settings.backup_keep)
        return Stores(graph=graph, vectors=SqliteVecStore(graph.db, graph.vector_cache))
    if settings.backend in ("falkordb", "neo4j"):
        from core.storage.cypher.rows import utc_now as cypher_now
        from core.storage.cypher.store import CypherGraphStore
        from core.storage.cypher.vectors import CypherVectorStore

        if settings.backend == "falkordb":
            from core.storage.cypher.falkordb import FalkorDialect as Dialect
        else:
            from core.storage.cypher.neo4j import Neo4jDialect as Dialect  # type: ignore[assignment]  # either dialect
        dialect = Dialect(settings.graph_url, settings.graph_name, settings.graph_user, settings.graph_password)
        store = CypherGraphStore(dialect, clock=clock or cypher_now, read_only=settings.read_only)
        return Stores(graph=store, vectors=CypherVectorStore(store))
    raise ConfigError(f"Unknown backend {settings.backend!r}; this build has sqlite, falkordb and neo4j.")


def hygiene_store(graph: GraphStore) -> HygieneStore:
    """The backend's ``HygieneStore`` (``core.hygiene.store``): each graph store hands out its own."""
    return graph.hygiene_store()
