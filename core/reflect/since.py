"""What was written since the last reflect, as the detectors' rules see it.

A reflect after one write used to run every pattern again (the graph's fingerprint moved), though
most patterns read a few labels and relation types that one relation between, say, a Project and
a Technology does not involve. The change log since the last reflect says what was written; when
it holds only relations and facts written or removed (no entity created, renamed, retyped,
archived, merged or deleted, no insight decided, no undo), each relation is reduced here to what
the rules look at: the detector labels its two ends spell, and the relation kinds its type spells
(``ReflectRules.spellings``, as the backends' detectors read them). A pattern whose
``Spec.touched_by`` says none of them can change what it finds is skipped; its insights are
confirmed as they stand, as when nothing was written at all.

Anything the log does not explain (a write that bypassed it, more than ``MAX_CHANGES`` changes,
an end that is no longer found by name) gives None: every pattern runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.reflect.model import DETECTOR_LABELS, ReflectRules

MAX_CHANGES = 500  # changes since the last reflect read one by one; more: every pattern runs

RELATION_OPS = frozenset({"create_relation", "delete_relation", "end_relation", "reopen_relation"})
FACT_OPS = frozenset({"add_observations", "delete_observations"})
# What reflect itself logs (before it records its token, so normally never seen here).
REFLECT_OPS = frozenset({"create_insight", "mark_insight_stale", "reflect"})


@dataclass(frozen=True)
class RelationEdit:
    """One relation written, ended, reopened or removed since the last reflect: the detector labels
    (``DETECTOR_LABELS``) its ends' types spell, and what its type spells (``uses``,
    ``solved_by``, ``covers``, ``in_domain``)."""

    from_labels: frozenset[str]
    to_labels: frozenset[str]
    kinds: frozenset[str]
    ends: tuple[int, int] = (0, 0)  # the (from, to) ids
    added: bool = False  # written or reopened (not removed or ended)

    @property
    def labels(self) -> frozenset[str]:
        return self.from_labels | self.to_labels


@dataclass(frozen=True)
class Since:
    """The writes since the last reflect, when the change log explains all of them."""

    relations: tuple[RelationEdit, ...]
    facts: int  # changes that added or removed facts (they move only ``updated_at``)


Touched = Callable[[Any, Since], bool]  # (the reflect's ``Reading``, the writes) → can they change it?


def any_relation(touches: Callable[[RelationEdit], bool]) -> Touched:
    """A ``Spec.touched_by`` from a test of one relation: touched when any relation written passes."""
    def touched(reading: Any, since: Since) -> bool:
        return any(touches(e) for e in since.relations)
    return touched


def _counts(fingerprint: str) -> list[int] | None:
    """(last change id, entities, last entity id, relations, last relation id), as both backends
    write a graph fingerprint."""
    try:
        parts = [int(p) for p in fingerprint.split(":")]
    except ValueError:
        return None
    return parts if len(parts) == 5 else None


def written_since(graph: Any, last_token: str, fingerprint: str, suffix: str,
                  rules: ReflectRules) -> Since | None:
    """The writes between the last reflect (``last_token``) and ``fingerprint`` (now), or None
    when the log does not explain them all in terms a pattern can judge (see the module docstring)."""
    old_fp, _, old_suffix = last_token.partition("|")
    old, new = _counts(old_fp), _counts(fingerprint)
    if graph is None or old_suffix != suffix or old is None or new is None:
        return None
    if old[1:3] != new[1:3] or not old[0] < new[0] <= old[0] + MAX_CHANGES:
        return None  # entities created or deleted, or too many changes to read one by one
    changes = [c for c in graph.changes_since(old[0], limit=MAX_CHANGES + 1) if c.id <= new[0]]
    if not changes or changes[-1].id != new[0]:
        return None
    ends: list[tuple[str, str, str, bool]] = []
    facts = added = removed = 0
    for c in changes:
        if c.op in FACT_OPS:
            facts += 1
        elif c.op in RELATION_OPS:
            rel = c.relation()
            if rel is None:
                return None
            ends.append((*rel, c.op in ("create_relation", "reopen_relation")))
            added += c.op == "create_relation"
            removed += c.op == "delete_relation"
        elif c.op not in REFLECT_OPS:
            return None
    if new[3] - old[3] != added - removed or (not added and new[4] != old[4]):
        return None  # relations the log does not account for
    names = sorted({n for f, t, _, _ in ends for n in (f, t)})
    ids = graph.ids_for(names) if names else {}
    if len(ids) < len(names):
        return None
    types = {n.id: n.label for n in graph.nodes_by_id(sorted(set(ids.values())))}
    if len(types) < len(set(ids.values())):
        return None
    return Since(tuple(RelationEdit(_labels(rules, types[ids[f]]), _labels(rules, types[ids[t]]), _kinds(rules, r),
                                    (ids[f], ids[t]), new) for f, t, r, new in ends), facts)


def _labels(rules: ReflectRules, etype: str) -> frozenset[str]:
    return frozenset(label for label in DETECTOR_LABELS if etype in rules.spellings(label, [etype]))


def _kinds(rules: ReflectRules, rtype: str) -> frozenset[str]:
    named = {"uses": rules.uses_relations, "solved_by": (rules.solved_by_relation,),
             "covers": (rules.covers_relation,), "in_domain": (rules.in_domain_relation,)}
    return frozenset(kind for kind, canon in named.items()
                     if any(rtype in rules.spellings(c, [rtype]) for c in canon))
