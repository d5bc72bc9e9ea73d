"""Reads and search: the official reads (and their fast JSON dumps), Engrama's node reads, hybrid
search by meaning and words, and the overviews the graph pane draws."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from core.errors import InvalidInput, NotFound
from core.memory_parts import checks
from core.memory_parts.context import MemoryContext
from core.model import (
    GraphCommunities,
    GraphOverview,
    KnowledgeGraph,
    Neighbour,
    Node,
    NodeWithNeighbours,
    ScoredNode,
)
from core.protocols import EmbeddingProvider
from core.search.hybrid import HybridSearcher


class Reading:
    """Checks each read's arguments, then asks the store (or the hybrid searcher)."""

    def __init__(self, ctx: MemoryContext, embedder: EmbeddingProvider | None) -> None:
        self.ctx = ctx
        self.graph = ctx.graph
        self.embedder = embedder

    # -- the official reads --------------------------------------------------------------------

    def read_graph(self, limit: int | None, offset: int, names_only: bool) -> KnowledgeGraph:
        checks.check_page(limit, offset)
        return self.graph.read_graph(limit=limit, offset=offset, names_only=names_only)

    def read_graph_dump(self, limit: int | None, offset: int, names_only: bool) -> dict[str, Any]:
        checks.check_page(limit, offset)
        return self.graph.read_graph_dump(limit=limit, offset=offset, names_only=names_only)

    def search_nodes(self, query: str, limit: int | None) -> KnowledgeGraph:
        checks.check_query(query)
        return self.graph.search_nodes(query, limit=limit)

    def search_nodes_dump(self, query: str, limit: int | None) -> dict[str, Any]:
        checks.check_query(query)
        return self.graph.search_nodes_dump(query, limit=limit)

    def open_nodes(self, names: Any) -> KnowledgeGraph:
        return self.graph.open_nodes(checks.names(names))

    def open_nodes_dump(self, names: Any) -> dict[str, Any]:
        return self.graph.open_nodes_dump(checks.names(names))

    # -- nodes and their neighbourhoods --------------------------------------------------------

    def require_node(self, name: str) -> Node:
        node = self.graph.get_node(name)
        if node is None:
            raise NotFound(f"Entity {name!r} does not exist.")
        return node

    def get_neighbours(self, name: str, hops: int, rel_types: Sequence[str] | None) -> list[Neighbour]:
        return self.graph.get_neighbours(name, hops, rel_types=rel_types)

    def get_node_with_neighbours(self, name: str, hops: int) -> NodeWithNeighbours:
        return self.graph.get_node_with_neighbours(name, hops)

    # -- search ----------------------------------------------------------------------------------

    def searcher(self) -> HybridSearcher:
        return HybridSearcher(self.graph, self.ctx.vectors, self.embedder, clock=self.ctx.now)

    def fulltext_search(self, query: str, limit: int, label: str | None) -> list[ScoredNode]:
        if limit < 1:
            raise InvalidInput(f"limit must be 1 or more, got {limit}")
        return self.graph.fulltext_search(query, limit=limit, label=label)

    def search_semantic(self, query: str, limit: int, *, entity_type: str | None, include_archived: bool,
                        record: bool, per_entity: int, max_tokens: int | None) -> list[dict[str, Any]]:
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("query must be a non-empty string")
        if not isinstance(limit, int) or not 1 <= limit <= 100:
            raise InvalidInput(f"limit must be between 1 and 100, got {limit!r}")
        if not isinstance(per_entity, int) or not 0 <= per_entity <= 100:
            raise InvalidInput(f"per_entity must be between 0 and 100, got {per_entity!r}")
        if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 1):
            raise InvalidInput(f"max_tokens must be 1 or more, got {max_tokens!r}")
        return self.searcher().search(query, limit, entity_type=entity_type, include_archived=include_archived,
                                      record=bool(record) and not self.ctx.settings.read_only,  # recall is a write
                                      per_entity=per_entity, max_tokens=max_tokens)

    def search_vectors(self, query: str, limit: int) -> list[dict[str, Any]]:
        return self.searcher().search(query, limit, record=False, use_text=False, use_limbic=False)

    # -- overviews (the graph pane) ----------------------------------------------------------------

    def graph_overview(self, limit: int, by: str, per_type: int, entity_type: str | None) -> GraphOverview:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 5000:
            raise InvalidInput(f"limit must be between 1 and 5000, got {limit!r}")
        if by not in ("degree", "access"):
            raise InvalidInput(f"by must be 'degree' or 'access', got {by!r}")
        if isinstance(per_type, bool) or not isinstance(per_type, int) or not 0 <= per_type <= limit:
            raise InvalidInput(f"per_type must be between 0 and limit ({limit}), got {per_type!r}")
        return self.graph.graph_overview(limit=limit, by=by, per_type=per_type, entity_type=entity_type)

    def graph_communities(self, limit: int) -> GraphCommunities:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise InvalidInput(f"limit must be between 1 and 1000, got {limit!r}")
        return self.graph.graph_communities(limit=limit)

    def graph_community(self, name: str, limit: int) -> GraphOverview:
        if not isinstance(name, str) or not name:
            raise InvalidInput("name must be a non-empty string")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 5000:
            raise InvalidInput(f"limit must be between 1 and 5000, got {limit!r}")
        return self.graph.graph_community(name, limit=limit)

    def query_at_date(self, when: datetime | str) -> KnowledgeGraph:
        return self.graph.query_at_date(when)
