"""Choosing what a graph overview shows, whatever stores the graph: the top live entities by
degree or by access, with the top few of every type always in. A backend gives the scores and
answers a few lookups (``OverviewSource``); the ranking rules live here once.

Ranked in Python over the scores rather than by one query over every entity: most overviews are
settled within the first few hundred candidates.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Protocol

from core.model import GraphOverview, OverviewNode, Relation

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
