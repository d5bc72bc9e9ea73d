"""Memory: the one façade every caller uses (MCP tools, CLI, desktop app).

It validates input (types, sizes, emptiness) before anything is written, so a batch with one bad
item changes nothing, and it names the bad item in the error. Storage semantics live in the store.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from core.errors import InvalidInput, NotFound
from core.model import (
    AddedObservations,
    CreateEntitiesResult,
    EntityInput,
    KnowledgeGraph,
    Neighbour,
    Node,
    NodeWithNeighbours,
    ObservationDeletion,
    ObservationInput,
    Relation,
    ScoredNode,
)
from core.protocols import GraphStore, VectorStore
from core.settings import Settings
from core.storage.factory import create_stores

M = TypeVar("M", bound=BaseModel)


def _coerce(kind: type[M], items: Any, what: str) -> list[M]:
    """Validate a list of dicts/models into ``kind``; errors name the item and the field."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise InvalidInput(f"{what} must be a list, got {type(items).__name__}")
    items = list(items)
    try:
        return TypeAdapter(list[kind]).validate_python(  # type: ignore[valid-type]
            [i.model_dump(by_alias=True) if isinstance(i, BaseModel) else i for i in items]
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = err["loc"]
        where = f"{what}[{loc[0]}]" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc[1:])
        raise InvalidInput(f"{where}: {err['msg']}. Nothing was changed.") from None


class Memory:
    """The knowledge graph, whatever backend holds it."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        graph: GraphStore | None = None,
        vectors: VectorStore | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.settings = settings or Settings()
        if graph is None:
            stores = create_stores(self.settings, clock=clock)
            graph, vectors = stores.graph, stores.vectors
        self.graph: GraphStore = graph
        self.vectors: VectorStore | None = vectors

    @classmethod
    def open(cls, db: Path | str | None = None, **overrides: Any) -> Memory:
        """Open the memory at ``db`` (default: settings/env), e.g. ``Memory.open(":memory:")``."""
        clock = overrides.pop("clock", None)
        if db is not None:
            overrides["db"] = db
        return cls(Settings(**overrides), clock=clock)

    def close(self) -> None:
        self.graph.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """All calls inside land together or not at all: ``with memory.transaction(): …``."""
        return self.graph.transaction()

    def _actor(self, actor: str | None) -> str:
        return actor or self.settings.actor

    # -- validation --------------------------------------------------------------------------

    def _check_name(self, value: str, where: str, kind: str = "name") -> None:
        if not value.strip():
            raise InvalidInput(f"{where}: {kind} must not be empty. Nothing was changed.")
        if len(value) > self.settings.max_name_chars:
            raise InvalidInput(
                f"{where}: {kind} is {len(value)} characters; the limit is "
                f"{self.settings.max_name_chars}. Nothing was changed."
            )
        if "\x00" in value:
            raise InvalidInput(f"{where}: {kind} contains a NUL character. Nothing was changed.")

    def _check_observation(self, value: str, where: str) -> None:
        if not value.strip():
            raise InvalidInput(f"{where}: observation must not be empty. Nothing was changed.")
        size = len(value.encode("utf-8"))
        if size > self.settings.max_observation_bytes:
            raise InvalidInput(
                f"{where}: observation is {size} bytes; the limit is "
                f"{self.settings.max_observation_bytes} (split it into several observations). "
                "Nothing was changed."
            )
        if "\x00" in value:
            raise InvalidInput(f"{where}: observation contains a NUL character. Nothing was changed.")

    # -- the official memory server's operations ---------------------------------------------

    def create_entities(self, entities: Any, *, actor: str | None = None) -> CreateEntitiesResult:
        """Create entities; for ones that already exist, add the new observations and report them."""
        items = _coerce(EntityInput, entities, "entities")
        for i, e in enumerate(items):
            self._check_name(e.name, f"entities[{i}].name")
            self._check_name(e.entityType, f"entities[{i}].entityType", "entityType")
            for j, o in enumerate(e.observations):
                self._check_observation(o, f"entities[{i}].observations[{j}]")
        created, merged = self.graph.create_entities(items, self._actor(actor))
        return CreateEntitiesResult(entities=created, merged=[m for m in merged if m.addedObservations])

    def create_relations(self, relations: Any, *, actor: str | None = None) -> list[Relation]:
        """Create relations between existing entities; returns only the new ones."""
        items = _coerce(Relation, relations, "relations")
        for i, r in enumerate(items):
            self._check_name(r.from_, f"relations[{i}].from", "from")
            self._check_name(r.to, f"relations[{i}].to", "to")
            self._check_name(r.relationType, f"relations[{i}].relationType", "relationType")
        return self.graph.create_relations(items, self._actor(actor))

    def add_observations(self, observations: Any, *, actor: str | None = None) -> list[AddedObservations]:
        """Add observations to existing entities; an unknown entity fails the whole batch."""
        items = _coerce(ObservationInput, observations, "observations")
        for i, item in enumerate(items):
            self._check_name(item.entityName, f"observations[{i}].entityName", "entityName")
            for j, o in enumerate(item.contents):
                self._check_observation(o, f"observations[{i}].contents[{j}]")
        return self.graph.add_observations(items, self._actor(actor))

    def delete_entities(self, names: Any, *, actor: str | None = None) -> int:
        """Delete entities and everything attached to them; unknown names are ignored."""
        items = _coerce(_Name, [{"name": n} for n in _as_list(names, "entityNames")], "entityNames")
        return self.graph.delete_entities([n.name for n in items], self._actor(actor))

    def delete_observations(self, deletions: Any, *, actor: str | None = None) -> int:
        items = _coerce(ObservationDeletion, deletions, "deletions")
        return self.graph.delete_observations(items, self._actor(actor))

    def delete_relations(self, relations: Any, *, actor: str | None = None) -> int:
        items = _coerce(Relation, relations, "relations")
        return self.graph.delete_relations(items, self._actor(actor))

    def read_graph(
        self, *, limit: int | None = None, offset: int = 0, names_only: bool = False
    ) -> KnowledgeGraph:
        """The whole graph by default; ``limit``/``offset`` page it; ``names_only`` trims it."""
        if limit is not None and limit < 0:
            raise InvalidInput(f"limit must be 0 or more, got {limit}")
        if offset < 0:
            raise InvalidInput(f"offset must be 0 or more, got {offset}")
        return self.graph.read_graph(limit=limit, offset=offset, names_only=names_only)

    def search_nodes(self, query: str, *, limit: int | None = None) -> KnowledgeGraph:
        """Substring search, folding case and accents; every character is literal."""
        if not isinstance(query, str):
            raise InvalidInput(f"query must be a string, got {type(query).__name__}")
        if not query.strip():
            raise InvalidInput("query must not be empty")
        return self.graph.search_nodes(query, limit=limit)

    def open_nodes(self, names: Any) -> KnowledgeGraph:
        return self.graph.open_nodes([n.name for n in _coerce(
            _Name, [{"name": n} for n in _as_list(names, "names")], "names")])

    # -- Engrama's graph operations ----------------------------------------------------------

    def merge_node(
        self, label: str, name: str, props: Mapping[str, Any] | None = None, *, actor: str | None = None
    ) -> Node:
        self._check_name(label, "label")
        self._check_name(name, "name")
        if props is not None and not isinstance(props, Mapping):
            raise InvalidInput(f"props must be an object, got {type(props).__name__}")
        return self.graph.merge_node(label, name, dict(props or {}), self._actor(actor))

    def get_node(self, name: str) -> Node | None:
        return self.graph.get_node(name)

    def require_node(self, name: str) -> Node:
        node = self.graph.get_node(name)
        if node is None:
            raise NotFound(f"Entity {name!r} does not exist.")
        return node

    def delete_node(self, name: str, *, soft: bool = True, actor: str | None = None) -> bool:
        return self.graph.delete_node(name, self._actor(actor), soft=soft)

    def archive_node(self, name: str, *, actor: str | None = None) -> bool:
        return self.graph.archive_node(name, self._actor(actor))

    def list_nodes(self, **kwargs: Any) -> list[Node]:
        return self.graph.list_nodes(**kwargs)

    def merge_relation(
        self, from_name: str, rel_type: str, to_name: str,
        props: Mapping[str, Any] | None = None, *, actor: str | None = None,
    ) -> tuple[Relation, bool]:
        for value, where in ((from_name, "from"), (rel_type, "relationType"), (to_name, "to")):
            self._check_name(value, where)
        return self.graph.merge_relation(from_name, rel_type, to_name, dict(props or {}), self._actor(actor))

    def get_neighbours(self, name: str, hops: int = 1, *, rel_types: Sequence[str] | None = None) -> list[Neighbour]:
        return self.graph.get_neighbours(name, hops, rel_types=rel_types)

    def get_node_with_neighbours(self, name: str, hops: int = 1) -> NodeWithNeighbours:
        return self.graph.get_node_with_neighbours(name, hops)

    def lookup_node_label(self, name: str) -> str | None:
        return self.graph.lookup_node_label(name)

    def fulltext_search(self, query: str, *, limit: int = 10, label: str | None = None) -> list[ScoredNode]:
        if limit < 1:
            raise InvalidInput(f"limit must be 1 or more, got {limit}")
        return self.graph.fulltext_search(query, limit=limit, label=label)

    def search_semantic(self, query: str, limit: int = 10) -> list[dict[str, Any]]:
        """Search by meaning (seed 000's ``search_semantic`` result shape).

        Until an embedding provider is wired in, this ranks by full text (BM25) alone and says so
        in each result's ``scoring``.
        """
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("query must be a non-empty string")
        if not 1 <= limit <= 100:
            raise InvalidInput(f"limit must be between 1 and 100, got {limit}")
        hits = self.graph.fulltext_search(query, limit=limit)
        top = max((h.score for h in hits), default=0.0) or 1.0
        return [
            {
                "name": h.node.name,
                "entityType": h.node.label,
                "observations": h.node.observations,
                "limbic_score": round(h.score / top, 6),
                "scoring": {"importance": 0.0, "temporal_factor": 1.0, "cooc_boost": 0.0,
                            "mode": "fulltext"},
                "distance": None,
                "rrf_score": None,
            }
            for h in hits
        ]

    def count_labels(self) -> dict[str, int]:
        return self.graph.count_labels()

    def health_check(self) -> dict[str, Any]:
        return self.graph.health_check()

    def query_at_date(self, when: datetime | str) -> KnowledgeGraph:
        return self.graph.query_at_date(when)

    def history(self, name: str | None = None, *, limit: int = 100) -> list[dict[str, Any]]:
        return self.graph.history(name, limit=limit)


class _Name(BaseModel):
    name: str

    model_config = {"strict": True}


def _as_list(values: Any, what: str) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidInput(f"{what} must be a list of names, got {type(values).__name__}")
    return list(values)
