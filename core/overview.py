"""Choosing what a graph overview shows, whatever stores the graph: the top live entities by
degree or by access, with the top few of every type always in. A backend gives the scores and
answers a few lookups (``OverviewSource``); the ranking rules live here once.

Ranked in Python over the scores rather than by one query over every entity: most overviews are
settled within the first few hundred candidates.

Communities (``graph_communities``): igraph's Leiden (modularity) over every current relation
between live entities, in C; the backend only lists ids, types and id pairs (``CommunitySource``).
Kept until the data changes, and each new partition starts from the last one, so a live write
moves few entities between groups.

A store mixes ``OverviewRules`` in and supplies ``_overview_source``: its reads (``StoreSource``),
held as one consistent view while the rules read them.
"""

from __future__ import annotations

import heapq
import random
import threading
from collections.abc import Callable, Hashable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from core.errors import NotFound
from core.model import Community, CommunityLink, GraphCommunities, GraphOverview, OverviewNode, Relation

if TYPE_CHECKING:  # numpy and igraph load with the first communities, not with every server's start
    import numpy as np

Row = tuple[int, str, str]  # id, name, type


class OverviewSource(Protocol):
    def live(self, ids: Sequence[int], entity_type: str | None) -> list[Row]:
        """The live (not archived) entities among ``ids``, of ``entity_type`` if given, any order."""

    def unranked(self, entity_type: str | None, limit: int) -> list[Row]:
        """The first ``limit`` live entities (of ``entity_type``) by id."""

    def of_type(self, entity_type: str) -> list[int]:
        """Ids of every live entity of ``entity_type``."""

    def names(self, ids: Sequence[int]) -> dict[int, str]: ...

    def among(self, ids: Sequence[int]) -> list[Relation]:
        """Current relations whose both ends are in ``ids``, oldest first."""


def graph_overview(source: OverviewSource, *, degree: dict[int, int], access: dict[int, int], types: dict[str, int],
                   limit: int, by: str, per_type: int, entity_type: str | None,
                   totals: tuple[int, int], chunk: int = 2000) -> GraphOverview:
    """The ``limit`` top live entities by ``by`` (``"degree"`` or ``"access"``; ties by the other, then
    id), the top ``per_type`` of every type always in, the current relations among them, and
    ``types`` (live entity counts by type)."""
    first, second = (degree, access) if by == "degree" else (access, degree)
    # One sortable tuple per scored entity, best first: plain tuple comparisons run in C.
    scores = {eid: (-first.get(eid, 0), -second.get(eid, 0), eid) for eid in set(degree) | set(access)}
    ranked = [t[2] for t in heapq.nsmallest(limit * 3, scores.values())]
    best = _walk(source, ranked, entity_type, limit, chunk)
    if len(best) < limit and len(ranked) < len(scores):  # a filter skipped many: the whole ranking
        ranked = [t[2] for t in sorted(scores.values())]
        best = _walk(source, ranked, entity_type, limit, chunk)
    if len(best) < limit:  # a small or sparse memory: entities nobody links or recalls fill up
        seen = {r[0] for r in best}
        best += [r for r in source.unranked(entity_type, limit + len(seen)) if r[0] not in seen][: limit - len(best)]
    chosen: dict[int, Row] = {r[0]: r for r in _quota(source, best, types, entity_type, per_type, scores)}
    for row in best:
        if len(chosen) >= limit:
            break
        chosen.setdefault(row[0], row)
    nodes = [
        OverviewNode.model_construct(name=name, entityType=etype, degree=degree.get(eid, 0),
                                     accessCount=access.get(eid, 0))
        for eid, name, etype in sorted(chosen.values(), key=lambda r: scores.get(r[0], (0, 0, r[0])))
    ]
    return GraphOverview(entities=nodes, relations=source.among(list(chosen)), types=types,
                         total_entities=totals[0], total_relations=totals[1])


def _walk(source: OverviewSource, ranked: Sequence[int], entity_type: str | None, limit: int,
          chunk: int) -> list[Row]:
    """The first ``limit`` live entities (of ``entity_type``, if given) in ``ranked`` order."""
    found: list[Row] = []
    for start in range(0, len(ranked), chunk):
        part = ranked[start : start + chunk]
        rows = {r[0]: r for r in source.live(part, entity_type)}
        found += [rows[i] for i in part if i in rows]
        if len(found) >= limit:
            return found[:limit]
    return found


def _quota(source: OverviewSource, best: Sequence[Row], types: dict[str, int], entity_type: str | None,
           per_type: int, scores: dict[int, tuple[int, int, int]]) -> list[Row]:
    """The top ``per_type`` entities of every type: from ``best`` when it holds enough of them
    (it is in ranking order), else from all entities of that type."""
    if per_type == 0:
        return []
    picked: list[Row] = []
    for etype in ([entity_type] if entity_type is not None else list(types)):
        mine = [r for r in best if r[2] == etype][:per_type]
        if len(mine) < per_type and types.get(etype, 0) > len(mine):
            ids = source.of_type(etype)
            top = [t[2] for t in heapq.nsmallest(per_type, (scores[i] for i in ids if i in scores))]
            top += sorted(i for i in ids if i not in scores)[: per_type - len(top)]
            names = source.names(top)
            mine = [(i, names[i], etype) for i in top]
        picked += mine
    return picked


# -- communities -----------------------------------------------------------------------------------


class CommunitySource(Protocol):
    def entities(self) -> list[tuple[int, str]]:
        """(id, type) of every live entity."""

    def links(self) -> list[tuple[int, int]]:
        """(from id, to id) of every current relation (either end may be archived)."""

    def ids(self, names: Sequence[str]) -> dict[str, int]:
        """Ids of the live entities among ``names``."""

    def names(self, ids: Sequence[int]) -> dict[int, str]: ...

    def among(self, ids: Sequence[int]) -> list[Relation]:
        """Current relations whose both ends are in ``ids``, oldest first."""


@dataclass
class Partition:
    """Every live entity's community (-1: no relation), largest community first."""

    ids: np.ndarray  # entity id per node
    types: list[str]  # entity type per node
    degree: np.ndarray  # distinct neighbours per node
    membership: np.ndarray  # community index per node, 0 = the largest; -1 without relations
    edges: np.ndarray  # (k, 2) node indices of the distinct related pairs
    sizes: list[int]


class Partitions:
    """The last partition of one store, kept until its data changes (``version``).

    ``get`` reads what the partition needs through ``locked`` (a backend's lock, if it has one, is
    held only while reading) and runs Leiden outside it, so other readers and writers wait for the
    reading only (measured at 100k on SQLite: 0.45 s of the 0.75 s)."""

    def __init__(self) -> None:
        self._last: tuple[Hashable, Partition] | None = None
        self._lock = threading.Lock()

    def get(self, locked: Callable[[], AbstractContextManager[tuple[CommunitySource, Hashable]]]) -> Partition:
        with locked() as (source, version):
            last = self._last
            if last is not None and last[0] == version:
                return last[1]
            rows, links = source.entities(), source.links()
        part = partition(rows, links, last[1] if last is not None else None)
        with self._lock:
            self._last = (version, part)
        return part


def partition(rows: Sequence[tuple[int, str]], links: Sequence[tuple[int, int]],
              previous: Partition | None = None) -> Partition:
    """Leiden communities (modularity) of the live entities ``rows`` (id, type) joined by ``links``
    (from id, to id; ends not in ``rows`` are left out), started from ``previous`` if given."""
    import igraph
    import numpy as np
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    types = [r[1] for r in rows]
    order = np.argsort(ids, kind="stable")
    pairs = np.asarray(links, dtype=np.int64).reshape(-1, 2)
    # Entity ids → node indices (vectorised: 170k relations in milliseconds); archived ends drop out.
    pos = np.searchsorted(ids[order], pairs) if len(ids) else np.zeros_like(pairs)
    pos = np.minimum(pos, max(len(ids) - 1, 0))
    nodes = order[pos] if len(ids) else pos
    keep = (ids[nodes] == pairs).all(axis=1) & (nodes[:, 0] != nodes[:, 1]) if len(ids) else np.zeros(0, bool)
    nodes = np.sort(nodes[keep], axis=1)
    edges = np.unique(nodes, axis=0) if len(nodes) else np.zeros((0, 2), dtype=np.int64)
    graph = igraph.Graph(n=len(ids), edges=edges.tolist())
    degree = np.asarray(graph.degree(), dtype=np.int64)
    start = None
    if previous is not None and len(ids):
        # A node keeps its old community; new ones start alone (numbers past the old ones).
        old = dict(zip(previous.ids.tolist(), previous.membership.tolist(), strict=True))
        fresh = iter(range(len(previous.sizes), len(previous.sizes) + len(ids)))
        labels = [c if (c := old.get(int(i), -1)) >= 0 else next(fresh) for i in ids]
        start = np.unique(np.asarray(labels), return_inverse=True)[1].tolist()  # 0..k-1, as igraph wants
    rng = random.Random(7)  # the same memory gives the same communities
    igraph.set_random_number_generator(rng)
    try:
        found = graph.community_leiden(objective_function="modularity", n_iterations=2,
                                       initial_membership=start).membership if len(ids) else []
    finally:
        igraph.set_random_number_generator(random)
    raw = np.asarray(found, dtype=np.int64)
    raw[degree == 0] = -1
    counts = np.bincount(raw[raw >= 0]) if (raw >= 0).any() else np.zeros(0, dtype=np.int64)
    ranked = [c for c in np.argsort(-counts, kind="stable").tolist() if counts[c] > 0]
    renumber = np.full(len(counts) + 1, -1, dtype=np.int64)
    renumber[ranked] = np.arange(len(ranked))
    membership = np.where(raw >= 0, renumber[raw], -1)
    return Partition(ids, types, degree, membership, edges, [int(counts[c]) for c in ranked])


def _members(part: Partition, community: int) -> np.ndarray:
    """Node indices of ``community``, best-connected first (ties by id)."""
    import numpy as np
    members = np.flatnonzero(part.membership == community)
    return members[np.lexsort((part.ids[members], -part.degree[members]))]


def _type_counts(types: Sequence[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for t in types:
        counts[t] = counts.get(t, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def graph_communities(source: CommunitySource, part: Partition, *, limit: int,
                      totals: tuple[int, int]) -> GraphCommunities:
    """The ``limit`` largest communities of ``part``, each named after its most connected member,
    with how many relations join each pair of them."""
    import numpy as np
    shown = min(limit, len(part.sizes))
    tops: list[int] = []
    communities: list[tuple[int, dict[str, int]]] = []
    for c in range(shown):
        members = _members(part, c)
        tops.append(int(members[0]))
        communities.append((len(members), _type_counts([part.types[i] for i in members])))
    names = source.names([int(part.ids[i]) for i in tops])
    titles = [names.get(int(part.ids[i]), "") for i in tops]
    listed = [Community(name=title, entityType=next(iter(types)), size=size, types=types)
              for title, (size, types) in zip(titles, communities, strict=True)]
    links: list[CommunityLink] = []
    if len(part.edges):
        ends = part.membership[part.edges]
        between = ends[(ends[:, 0] != ends[:, 1]) & (ends < shown).all(axis=1) & (ends >= 0).all(axis=1)]
        if len(between):
            between = np.sort(between, axis=1)
            pairs, weights = np.unique(between, axis=0, return_counts=True)
            for (a, b), w in sorted(zip(pairs.tolist(), weights.tolist(), strict=True), key=lambda x: -x[1]):
                links.append(CommunityLink(a=titles[a], b=titles[b], weight=int(w)))
    rest = part.sizes[shown:]
    return GraphCommunities(communities=listed, links=links, unlinked=int((part.membership < 0).sum()),
                            others=(len(rest), sum(rest)), types=_type_counts(part.types),
                            total_entities=totals[0], total_relations=totals[1])


def graph_community(source: CommunitySource, part: Partition, name: str, *, limit: int) -> GraphOverview:
    """The community of entity ``name``: its ``limit`` best-connected members, the relations among
    them, its members by type, its size and inner relations."""
    import numpy as np
    found = source.ids([name]).get(name)
    where = np.flatnonzero(part.ids == found) if found is not None else np.zeros(0, dtype=np.int64)
    if not len(where):
        raise NotFound(f"entity {name!r} does not exist")
    community = int(part.membership[where[0]])
    members = _members(part, community) if community >= 0 else where
    top = members[:limit]
    top_ids = [int(part.ids[i]) for i in top]
    names = source.names(top_ids)
    nodes = [OverviewNode.model_construct(name=names[int(part.ids[i])], entityType=part.types[i],
                                          degree=int(part.degree[i]), accessCount=0) for i in top]
    inner = 0
    if community >= 0 and len(part.edges):
        ends = part.membership[part.edges]
        inner = int(((ends[:, 0] == community) & (ends[:, 1] == community)).sum())
    return GraphOverview(entities=nodes, relations=source.among(top_ids),
                         types=_type_counts([part.types[i] for i in members]),
                         total_entities=len(members), total_relations=inner)


# -- what a store offers -----------------------------------------------------------------------------


class StoreSource(OverviewSource, CommunitySource, Protocol):
    """A backend's reads for the overview and the communities, with the scores the ranking needs."""

    def scores(self) -> tuple[dict[int, int], dict[int, int], dict[str, int]]:
        """(current relations per entity id, recalls per entity id, live entities per type, most first)."""

    def totals(self) -> tuple[int, int]:
        """(live entities, current relations between them)."""


class OverviewRules:
    """The overview half of a graph store, over its ``_overview_source``."""

    def _overview_source(self) -> AbstractContextManager[tuple[StoreSource, Hashable]]:
        """The store's reads, held (its lock, if it has one) for the block, and the data's version."""
        raise NotImplementedError

    def graph_overview(self, *, limit: int = 300, by: str = "degree", per_type: int = 3,
                       entity_type: str | None = None) -> GraphOverview:
        """The top live entities by degree or by access, the relations among them, counts by type."""
        with self._overview_source() as (source, _):
            degree, access, types = source.scores()
            return graph_overview(source, degree=degree, access=access, types=dict(types), limit=limit, by=by,
                                  per_type=per_type, entity_type=entity_type, totals=source.totals())

    def _partition(self) -> Partition:
        """The communities of the live graph, read under the store's lock, computed outside it."""
        cache: Partitions = self.__dict__.setdefault("_partitions", Partitions())
        return cache.get(self._overview_source)

    def graph_communities(self, *, limit: int = 60) -> GraphCommunities:
        """The largest communities of related entities, the relations between them, counts."""
        part = self._partition()
        with self._overview_source() as (source, _):
            return graph_communities(source, part, limit=limit, totals=source.totals())

    def graph_community(self, name: str, *, limit: int = 300) -> GraphOverview:
        """The community of entity ``name``: its best-connected members and their relations."""
        part = self._partition()
        with self._overview_source() as (source, _):
            return graph_community(source, part, name, limit=limit)
