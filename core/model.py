"""Pydantic I/O models: the shapes callers send and get back.

The official MCP memory server's shapes (``EntityInput``, ``Relation``, ``KnowledgeGraph`` …) are
kept field for field so that results are drop-in compatible; ``Node`` is the richer view used by
the Engrama-style API and the desktop app.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypedDict

from pydantic import BaseModel, ConfigDict, Field, StrictStr


class _Strict(BaseModel):
    # Strict strings: a number where a name belongs is a caller bug, not something to coerce.
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class EntityInput(_Strict):
    name: StrictStr
    entityType: StrictStr = "Generic"
    observations: list[StrictStr] = Field(default_factory=list)


class Entity(_Strict):
    """An entity exactly as the official memory server returns it."""

    name: str
    entityType: str
    observations: list[str]


class EntitySummary(_Strict):
    """Names-only view of an entity, for cheap overviews of a large graph."""

    name: str
    entityType: str


class Relation(_Strict):
    from_: StrictStr = Field(alias="from")
    to: StrictStr
    relationType: StrictStr

    def key(self) -> tuple[str, str, str]:
        return (self.from_, self.to, self.relationType)

    def dump(self) -> dict[str, str]:
        return {"from": self.from_, "to": self.to, "relationType": self.relationType}


class ObservationInput(_Strict):
    entityName: StrictStr
    contents: list[StrictStr]


class ObservationDeletion(_Strict):
    entityName: StrictStr
    observations: list[StrictStr]


class AddedObservations(_Strict):
    entityName: str
    addedObservations: list[str]


class CreateEntitiesResult(_Strict):
    """``entities`` holds only new entities (as the official server); ``merged`` says what
    was added to entities that already existed, so nothing a caller sent is silently dropped."""

    entities: list[Entity]
    merged: list[AddedObservations] = Field(default_factory=list)


class KnowledgeGraph(_Strict):
    entities: list[Entity | EntitySummary]
    relations: list[Relation]
    # Present only on paged or names-only reads, so that a full read stays byte-compatible.
    total_entities: int | None = None
    total_relations: int | None = None

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "entities": [
                {"name": e.name, "entityType": e.entityType, "observations": e.observations}
                if isinstance(e, Entity) else {"name": e.name, "entityType": e.entityType}
                for e in self.entities
            ],
            "relations": [r.dump() for r in self.relations],
        }
        if self.total_entities is not None:
            out["total_entities"] = self.total_entities
            out["total_relations"] = self.total_relations
        return out


class Node(_Strict):
    """An entity with everything Hipocampo knows about it (Engrama's node)."""

    id: int
    name: str
    label: str
    props: dict[str, Any] = Field(default_factory=dict)
    observations: list[str] = Field(default_factory=list)
    created_at: str
    updated_at: str
    archived_at: str | None = None


class Neighbour(_Strict):
    node: Node
    distance: int
    # Relation types along one shortest path from the start, in order.
    path: list[str] = Field(default_factory=list)


class NodeWithNeighbours(_Strict):
    node: Node
    neighbours: list[Neighbour]
    relations: list[Relation]


class ScoredNode(_Strict):
    node: Node
    score: float


class OverviewNode(_Strict):
    """An entity in a graph overview, with how connected and how often recalled it is."""

    name: str
    entityType: str
    degree: int
    accessCount: int


class GraphOverview(_Strict):
    """A bounded picture of the whole memory: the top entities, the relations among them, and
    live entity counts by type."""

    entities: list[OverviewNode]
    relations: list[Relation]
    types: dict[str, int]
    total_entities: int
    total_relations: int


class Community(_Strict):
    """A group of closely related entities: named after its most connected member."""

    name: str  # its most connected entity
    entityType: str  # its most common type
    size: int
    types: dict[str, int]  # its members by type, largest first


class CommunityLink(_Strict):
    """How many relations join two communities (by their names)."""

    a: str
    b: str
    weight: int


class GraphCommunities(_Strict):
    """The whole memory as communities of related entities (largest first), the relations
    between them, and what is not drawn: entities without any relation, smaller communities."""

    communities: list[Community]
    links: list[CommunityLink]
    unlinked: int
    others: tuple[int, int]  # (communities, entities) not listed
    types: dict[str, int]
    total_entities: int
    total_relations: int


class EntityPlan(TypedDict):
    """One editor Save, checked by ``Memory.save_entity`` and applied all-or-nothing by the store."""

    create: bool
    new_name: str | None  # None: the name stays
    entity_type: str | None  # None: the type stays
    add_observations: list[str]
    edit_observations: list[tuple[str, str]]  # (old, new)
    delete_observations: list[str]
    add_relations: list[Relation]
    delete_relations: list[Relation]
    end_relations: list[tuple[Relation, str | None]]  # (relation, ended_at as stored; None: now)
# -- what was written: one change_log row ---------------------------------------------------------

# A Save, a merge, an approved insight with what approving it did, an undo: each lists its rows, undone whole.
GROUP_OPS = ("save_entity", "merge_entities", "approve_insight", "undo")
RELATION_OPS = ("create_relation", "delete_relation", "end_relation", "reopen_relation", "update_relation")
_CHANGE_KEYS = ("id", "at", "actor", "op", "entity", "before", "after")


@dataclass(frozen=True, slots=True)
class Change:
    """One change_log row, the same on every backend: who (``actor``) did what (``op``) to which
    entity, when, and the state ``before``/``after`` (decoded JSON; its shape depends on ``op``,
    see ``core.history.undo``). Read it by attribute; ``as_dict()`` is the row as JSON-ready data
    (what the MCP history tools answer)."""

    id: int
    at: str
    actor: str
    op: str
    entity: str | None = None
    before: Any = None
    after: Any = None

    @classmethod
    def decode(cls, id: int, at: str, actor: str, op: str, entity: str | None,  # noqa: A002 - the column
               before: str | None, after: str | None) -> Change:
        """From the stored columns (``before``/``after`` as JSON text)."""
        return cls(id, at, actor, op, entity, json.loads(before) if before else None,
                   json.loads(after) if after else None)

    @property
    def is_group(self) -> bool:
        """A Save or an undo: it stands for the rows in ``members``."""
        return self.op in GROUP_OPS and isinstance(self.after, dict)

    @property
    def members(self) -> list[int]:
        """The ids of the rows a Save or an undo wrote (empty for any other change)."""
        return list(self.after.get("rows", [])) if self.is_group else []

    @property
    def undo_of(self) -> int | None:
        """For an undo: the id of the change it took back."""
        return self.after.get("undo_of") if self.op == "undo" and isinstance(self.after, dict) else None

    def relation(self) -> tuple[str, str, str] | None:
        """(from, to, type) of a relation change, else None."""
        if self.op == "create_relation" and isinstance(self.after, list) and len(self.after) >= 2:
            return str(self.entity), str(self.after[0]), str(self.after[1])
        snap = self.before if self.op == "delete_relation" else self.after
        if self.op in RELATION_OPS and isinstance(snap, dict):
            return str(snap.get("from", self.entity)), str(snap.get("to", "?")), str(snap.get("relationType", "?"))
        return None

    def as_dict(self) -> dict[str, Any]:
        """The seven columns by name, ``before``/``after`` decoded."""
        return {k: getattr(self, k) for k in _CHANGE_KEYS}
