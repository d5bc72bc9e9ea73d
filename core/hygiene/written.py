"""Which entities were written since a point in the change log, for detectors that judge only
what changed (``core.hygiene.meaning``, ``core.hygiene.supersede``).

Every write logs one change per entity it touches (``GraphStore.changes_since``, on every
backend): its ``entity`` and, for relations, renames and merges, the other names in its
``before``/``after``. A detector keeps the log id it last read; the names since then are what it
judges again. Too many (an import) and it judges everything, as on its first run.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

S = TypeVar("S")

_PAGE = 2000
_NAME_KEYS = ("from", "to", "name", "into", "names", "old", "new")
# What reflect itself logs about its insights: an Insight is never a live entity of any detector,
# so these name nothing a detector must judge again (a first reflect logs thousands of them).
REFLECT_OPS = frozenset({"create_insight", "mark_insight_stale", "reflect"})


def names_since(graph: Any, after: int, latest: int, cap: int,
                full_on: frozenset[str] = frozenset()) -> set[str] | None:
    """Entity names in the changes ``after`` < id ≤ ``latest``; None when more than ``cap``, or
    when one of them is an operation in ``full_on`` (say, one that deletes entities)."""
    names: set[str] = set()
    while after < latest:
        changes = graph.changes_since(after, limit=_PAGE)
        if not changes:
            break
        for c in changes:
            if c.id > latest:
                return names
            if c.op in full_on:
                return None
            if c.op in REFLECT_OPS:
                continue
            if c.entity:
                names.add(c.entity)
            for side in (c.before, c.after):
                if isinstance(side, dict):
                    for k in _NAME_KEYS:
                        v = side.get(k)
                        if isinstance(v, str):
                            names.add(v)
                        elif isinstance(v, list):
                            names.update(x for x in v if isinstance(x, str))
        after = changes[-1].id
        if len(names) > cap:
            return None
    return names


class PerGraph:
    """What a detector remembers between runs, one for each graph store of this process (dropped
    with the store); a store that cannot be weakly referred to remembers nothing between runs."""

    def __init__(self) -> None:
        self._kept: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()

    def of(self, graph: Any, make: Callable[[], S]) -> S:
        """``graph``'s state, made by ``make`` the first time."""
        try:
            if graph not in self._kept:
                self._kept[graph] = make()
            state: S = self._kept[graph]
            return state
        except TypeError:
            return make()
