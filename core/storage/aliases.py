"""What memory hygiene (duplicates, merges, aliases) needs from a backend: a few reads and one
write, the same on SQLite and on a graph server. The rules live in ``core.hygiene``; a backend
only answers these.

An entity's aliases (the names merged into it) are kept in its props under ``aliases``: written
by ``merge_node`` and undone like any other props change. Each backend keeps them findable by
name (SQLite: the ``entity_aliases`` table its triggers fill; a graph server: an ``aliases``
list property on the node).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

ALIASES_KEY = "aliases"  # the props key holding an entity's former names
MERGE_OP = "merge_entities"  # the change_log row grouping one merge's rows (undone whole)
# The props key holding an entity's superseded relations (core.hygiene.supersede_relations):
# ``{relation_key(type, to): {"relationType", "to", "by", "ended_at", "insight"}}``. Read here too,
# by each backend's embedding text (a superseded relation no longer says what the entity is).
SUPERSEDED_RELATIONS = "superseded_relations"


def relation_key(rtype: str, to: str) -> str:
    """The key of one outgoing relation in ``SUPERSEDED_RELATIONS``."""
    return f"{rtype} → {to}"


def current_relation(props: dict[str, Any] | None, rtype: str, to: str) -> bool:
    """Whether the outgoing relation ``-rtype-> to`` of the entity with ``props`` is not superseded."""
    marks = (props or {}).get(SUPERSEDED_RELATIONS)
    return not (isinstance(marks, dict) and relation_key(rtype, to) in marks)


class HygieneStore(Protocol):
    """Reads for the duplicate detector and alias lookups, and the one grouping write of a merge."""

    def resolve_aliases(self, names: Sequence[str]) -> dict[str, str]:
        """For each of ``names`` that no entity is called but one has as an alias: that entity's name."""
        ...

    def all_aliases(self) -> list[tuple[str, str]]:
        """Every (alias, entity name), for substring search over former names."""
        ...

    def entity_rows(self) -> list[tuple[int, str, str]]:
        """(id, name, type) of every live entity that is not an Insight nor archived."""
        ...

    def neighbours(self, ids: Sequence[int]) -> dict[int, set[int]]:
        """The ids related to each of ``ids`` (either direction, current relations)."""
        ...

    def repeated_fact_rows(self) -> list[tuple[int, str, list[str]]]:
        """(id, name, observations) of every live non-Insight entity with two observations or more."""
        ...

    def group_changes(self, since: int, op: str, entity: str, extra: dict[str, Any], actor: str) -> int:
        """Write one change_log row listing every row written after ``since`` (undone whole); its id."""
        ...

    def typed_relations(self, types: Sequence[str]) -> list[tuple[int, str, str, str, str, int]]:
        """(from id, from props JSON, type, to name, created_at, relation id) of every current relation
        whose type is one of ``types`` (stored spelling) from a live non-Insight entity, by from id."""
        ...

    def facts_after_relations(self, types: Sequence[str]) -> dict[int, list[tuple[str, str]]]:
        """For each live entity with a current relation of one of ``types``: its (observation,
        created_at) written at or after the oldest such relation, oldest first; entities with none
        are left out (a long entity costs what it gained since)."""
        ...


def hygiene_store(graph: Any) -> HygieneStore:
    """The backend's ``HygieneStore``, chosen by ``graph.backend``."""
    if graph.backend == "sqlite":
        from core.storage.sqlite.hygiene import SqliteHygiene

        return SqliteHygiene(graph)
    from core.storage.cypher.hygiene import CypherHygiene

    return CypherHygiene(graph)
