"""Null backends: accept every call, store nothing. For dry runs and for wiring tests.

They satisfy the same Protocols as the real backends, so code that runs against them cannot
depend on anything a real backend alone provides.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from core.errors import NotFound
from core.model import (
    AddedObservations,
    Entity,
    EntityInput,
    GraphOverview,
    KnowledgeGraph,
    Neighbour,
    Node,
    NodeWithNeighbours,
    ObservationDeletion,
    ObservationInput,
    Relation,
    ScoredNode,
)

_EMPTY = KnowledgeGraph(entities=[], relations=[])


class NullGraphStore:
    backend = "null"

    def close(self) -> None:
        pass

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        yield

    def create_entities(
        self, entities: Sequence[EntityInput], actor: str
    ) -> tuple[list[Entity], list[AddedObservations]]:
        return [], []

    def add_observations(self, items: Sequence[ObservationInput], actor: str) -> list[AddedObservations]:
        if items:
            raise NotFound(f"Entity {items[0].entityName!r} does not exist (null backend stores nothing).")
        return []

    def delete_entities(self, names: Sequence[str], actor: str) -> int:
        return 0

    def delete_observations(self, items: Sequence[ObservationDeletion], actor: str) -> int:
        return 0

    def create_relations(self, relations: Sequence[Relation], actor: str) -> list[Relation]:
        if relations:
            raise NotFound(f"Entity {relations[0].from_!r} does not exist (null backend stores nothing).")
        return []

    def delete_relations(self, relations: Sequence[Relation], actor: str) -> int:
        return 0

    def read_graph(self, *, limit: int | None = None, offset: int = 0, names_only: bool = False) -> KnowledgeGraph:
        return _EMPTY

    def read_graph_dump(self, *, limit: int | None = None, offset: int = 0,
                        names_only: bool = False) -> dict[str, Any]:
        return _EMPTY.dump()

    def search_nodes(self, query: str, *, limit: int | None = None, include_archived: bool = False) -> KnowledgeGraph:
        return _EMPTY

    def open_nodes(self, names: Sequence[str]) -> KnowledgeGraph:
        return _EMPTY

    def merge_node(self, label: str, name: str, props: dict[str, Any], actor: str) -> Node:
        now = datetime.now().isoformat()
        return Node(id=0, name=name, label=label, props=props, created_at=now, updated_at=now)

    def get_node(self, name: str) -> Node | None:
        return None

    def delete_node(self, name: str, actor: str, *, soft: bool = True) -> bool:
        return False

    def archive_node(self, name: str, actor: str) -> bool:
        return False

    def list_nodes(self, *, label: str | None = None, include_archived: bool = False,
                   limit: int | None = None, offset: int = 0) -> list[Node]:
        return []

    def merge_relation(self, from_name: str, rel_type: str, to_name: str,
                       props: dict[str, Any] | None, actor: str) -> tuple[Relation, bool]:
        raise NotFound(f"Entity {from_name!r} does not exist (null backend stores nothing).")

    def get_neighbours(self, name: str, hops: int = 1, *, rel_types: Sequence[str] | None = None) -> list[Neighbour]:
        raise NotFound(f"Entity {name!r} does not exist (null backend stores nothing).")

    def get_node_with_neighbours(self, name: str, hops: int = 1) -> NodeWithNeighbours:
        raise NotFound(f"Entity {name!r} does not exist (null backend stores nothing).")

    def lookup_node_label(self, name: str) -> str | None:
        return None

    def fulltext_search(self, query: str, *, limit: int = 10, label: str | None = None,
                        include_archived: bool = False) -> list[ScoredNode]:
        return []

    def count_labels(self) -> dict[str, int]:
        return {}

    def graph_overview(self, *, limit: int = 300, by: str = "degree", per_type: int = 3,
                       entity_type: str | None = None) -> GraphOverview:
        return GraphOverview(entities=[], relations=[], types={}, total_entities=0, total_relations=0)

    def health_check(self, *, deep: bool = False) -> dict[str, Any]:
        return {"ok": True, "backend": self.backend, "counts": {}}

    def query_at_date(self, when: datetime | str) -> KnowledgeGraph:
        return _EMPTY

    def history(self, name: str | None = None, *, limit: int = 100) -> list[dict[str, Any]]:
        return []

    def restore_entity(self, name: str, actor: str) -> Node:
        raise NotFound(f"No deletion of {name!r} is recorded (null backend stores nothing).")

    def changes_since(self, after_id: int, *, limit: int = 500) -> list[dict[str, Any]]:
        return []

    def latest_change_id(self) -> int:
        return 0

    def activity(self, *, before_id: int | None = None, actor: str | None = None,
                 since: datetime | str | None = None, until: datetime | str | None = None,
                 limit: int = 200) -> list[dict[str, Any]]:
        return []

    def activity_actors(self) -> list[dict[str, Any]]:
        return []

    def data_version(self) -> int:
        return 0

    def limbic_stats(self, ids: Sequence[int]) -> dict[str, Any]:
        return {"access": {}, "degree": dict.fromkeys(ids, 0), "cooc": {}}

    def record_access(self, ids: Sequence[int]) -> None:
        pass

    def ids_for(self, names: Sequence[str]) -> dict[str, int]:
        return {}

    def nodes_by_id(self, ids: Sequence[int]) -> list[Node]:
        return []


class NullVectorStore:
    dimensions = 384

    def prepare(self, model_id: str, dimensions: int) -> bool:
        return False

    def pending(self, model_id: str, limit: int) -> dict[int, str]:
        return {}

    def store_embedded(self, model_id: str, embedded: dict[int, tuple[str, np.ndarray]]) -> int:
        return 0

    def progress(self, model_id: str) -> tuple[int, int]:
        return 0, 0

    def texts(self, ids: Sequence[int]) -> dict[int, str]:
        return {}

    def forget_state(self) -> None:
        pass

    def take_lease(self, owner: str, seconds: float) -> bool:
        return True

    def drop_lease(self, owner: str) -> None:
        pass

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        return {}

    def upsert(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        pass

    def search(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        return []

    def delete(self, ids: Sequence[int]) -> None:
        pass

    def count(self) -> int:
        return 0
