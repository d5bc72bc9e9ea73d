"""The rules of the graph's own operations, written once for every backend: what each backend stores
the same way (timestamps, change_log JSON, the placeholder a missing relation end becomes, a JSON
merge patch, an entity's aliases and superseded relations as its props hold them), how a batch
is read (one name twice, a relation twice, an end that does not exist), and the reads a store
answers in two forms (``GraphRules``: the models built from the dump).

A backend supplies only its reads and writes; ``core.storage``'s stores import these."""

from __future__ import annotations

import json
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any, Protocol

from core import errors
from core.model import (
    Entity,
    EntityInput,
    EntitySummary,
    KnowledgeGraph,
    ObservationInput,
    Relation,
)

# A relation end that does not exist yet: an entity of this type, marked in its properties.
PLACEHOLDER_TYPE = "Unknown"
PLACEHOLDER_KEY = "placeholder"
ALIASES_KEY = "aliases"  # the props key holding an entity's former names (``core.hygiene.store``)
# The props key holding an entity's superseded relations (core.hygiene.supersede_relations):
# ``{relation_key(type, to): {"relationType", "to", "by", "ended_at", "insight"}}``. Read by each
# backend's embedding text too (a superseded relation no longer says what the entity is).
SUPERSEDED_RELATIONS = "superseded_relations"


def utc_now() -> datetime:
    return datetime.now(UTC)


def format_ts(moment: datetime) -> str:
    """ISO-8601 UTC with milliseconds: sorts correctly as text (the form every backend stores)."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def dumps(value: Any) -> str | None:
    """A change_log payload as compact JSON text (None stays None)."""
    return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(value: str | None) -> Any:
    return json.loads(value) if value else None


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396 JSON merge patch (what SQLite's ``json_patch`` does): ``None`` removes a key."""
    if not isinstance(patch, dict):
        return patch
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def unique_relations(relations: Sequence[Relation]) -> list[Relation]:
    """``relations`` without repeats (same from, to and type), first occurrence kept."""
    seen: dict[tuple[str, str, str], Relation] = {}
    for r in relations:
        seen.setdefault(r.key(), r)
    return list(seen.values())


def aliases_of(props: dict[str, Any] | None) -> list[str]:
    """The aliases ``props`` holds (text only)."""
    found = (props or {}).get(ALIASES_KEY)
    return [a for a in found if isinstance(a, str)] if isinstance(found, list) else []


def own_words(props: dict[str, Any] | None) -> list[str]:
    """An entity's own words besides its name and type: its text properties (a summary, details …)
    and the names merged into it (its aliases), so a search by a former name finds it. Every
    backend's own-words full text, the search's word match and the embedding text read these."""
    props = props or {}
    return [*(v for v in props.values() if isinstance(v, str)), *aliases_of(props)]


def relation_key(rtype: str, to: str) -> str:
    """The key of one outgoing relation in ``SUPERSEDED_RELATIONS``."""
    return f"{rtype} → {to}"


def current_relation(props: dict[str, Any] | None, rtype: str, to: str) -> bool:
    """Whether the outgoing relation ``-rtype-> to`` of the entity with ``props`` is not superseded."""
    marks = (props or {}).get(SUPERSEDED_RELATIONS)
    return not (isinstance(marks, dict) and relation_key(rtype, to) in marks)


def by_name(entities: Sequence[EntityInput]) -> dict[str, tuple[str, list[str]]]:
    """A create_entities batch by name: one name twice takes the first's type and both's observations."""
    batch: dict[str, tuple[str, list[str]]] = {}
    for e in entities:
        batch.setdefault(e.name, (e.entityType, []))[1].extend(e.observations)
    return batch


def contents_by_name(items: Sequence[ObservationInput], known: Container[str]) -> dict[str, list[str]]:
    """An add_observations batch by entity name; an entity not ``known`` → NotFound (nothing added)."""
    missing = [i.entityName for i in items if i.entityName not in known]
    if missing:
        raise errors.no_entity_to_add_to(missing[0])
    merged: dict[str, list[str]] = {}
    for i in items:
        merged.setdefault(i.entityName, []).extend(i.contents)
    return merged


def missing_ends(relations: Sequence[Relation], known: Container[str], *, placeholders: bool) -> list[str]:
    """The relation ends not ``known``, each once in the order named: placeholders to make, or (not
    ``placeholders``) NotFound naming the first."""
    missing = [n for n in dict.fromkeys(n for r in relations for n in (r.from_, r.to)) if n not in known]
    if missing and not placeholders:
        r = next(r for r in relations if missing[0] in (r.from_, r.to))
        raise errors.no_relation_end(missing[0], r.from_, r.relationType, r.to)
    return missing


def walk(start: int, hops: int, step: Callable[[list[int]], Iterable[tuple[int, int, str]]]) -> list[
        tuple[int, int, list[str]]]:
    """The entities within ``hops`` relations of ``start``, nearest first (ties by id): (id, distance,
    the relation types along one shortest path). ``step(ids)`` reads the current relations touching
    ``ids`` as (one of ``ids``, the other end, type), in the order a path takes them first."""
    paths: dict[int, list[str]] = {start: []}
    frontier = [start]
    for _ in range(hops):
        nxt = []
        for src, dst, rtype in step(frontier) if frontier else ():
            if dst not in paths:
                paths[dst] = [*paths[src], rtype]
                nxt.append(dst)
        frontier = nxt
    return sorted(((i, len(p), p) for i, p in paths.items() if i != start), key=lambda t: (t[1], t[0]))


def graph_of(found: dict[str, Any], *, names_only: bool = False) -> KnowledgeGraph:
    """The models of a ``KnowledgeGraph.dump()``-shaped answer (from the backend's own rows: not
    validated again)."""
    make = EntitySummary.model_construct if names_only else Entity.model_construct
    return KnowledgeGraph(
        entities=[make(**e) for e in found["entities"]],
        relations=[Relation.model_construct(from_=r["from"], to=r["to"], relationType=r["relationType"])
                   for r in found["relations"]],
        total_entities=found.get("total_entities"), total_relations=found.get("total_relations"))


class DumpReads(Protocol):
    """What ``GraphRules`` is built on: the backend's answers as plain dicts, and its deletions."""

    def read_graph_dump(self, *, limit: int | None = ..., offset: int = ...,
                        names_only: bool = ...) -> dict[str, Any]: ...
    def search_nodes_dump(self, query: str, *, limit: int | None = ...,
                          include_archived: bool = ...) -> dict[str, Any]: ...
    def open_nodes_dump(self, names: Sequence[str]) -> dict[str, Any]: ...
    def delete_entities(self, names: Sequence[str], actor: str) -> int: ...
    def archive_node(self, name: str, actor: str) -> bool: ...
    def _relations_page(self, after: int, size: int) -> list[tuple[int, str, str, str, dict[str, Any]]]:
        """Up to ``size`` current relations with ids past ``after``, archived ends included, by id:
        (id, from, to, type, props)."""


class GraphRules:
    """The half of a graph store made of its other half (mixed into each backend's store)."""

    def read_graph(self: DumpReads, *, limit: int | None = None, offset: int = 0,
                   names_only: bool = False) -> KnowledgeGraph:
        """The whole graph, or one page of it (entities by creation order).

        Archived entities (soft-deleted ones, insights awaiting review) are left out, with the
        relations that touch them; ``open_nodes`` and ``get_node`` still return them by name.
        """
        return graph_of(self.read_graph_dump(limit=limit, offset=offset, names_only=names_only),
                        names_only=names_only)

    def search_nodes(self: DumpReads, query: str, *, limit: int | None = None,
                     include_archived: bool = False) -> KnowledgeGraph:
        """Case-, accent- and Unicode-form-insensitive substring search over name, type and
        observations; every character of ``query`` is literal. Relations touching a hit come too."""
        return graph_of(self.search_nodes_dump(query, limit=limit, include_archived=include_archived))

    def open_nodes(self: DumpReads, names: Sequence[str]) -> KnowledgeGraph:
        """The named entities (unknown names ignored) and the relations touching them."""
        return graph_of(self.open_nodes_dump(names))

    def iter_relations(self: DumpReads, page: int = 5000) -> Iterator[tuple[Relation, dict[str, Any]]]:
        """Every current relation with its properties, archived ends included, oldest first (for
        exports; read in pages, so no lock or query is held for long)."""
        last = 0
        while rows := self._relations_page(last, page):
            for _, src, dst, rtype, props in rows:
                yield Relation(**{"from": src, "to": dst, "relationType": rtype}), props
            last = rows[-1][0]

    def delete_node(self: DumpReads, name: str, actor: str, *, soft: bool = True) -> bool:
        """Soft delete (archive: still readable) or hard delete. False if there is no such node."""
        return self.archive_node(name, actor) if soft else self.delete_entities([name], actor) == 1
