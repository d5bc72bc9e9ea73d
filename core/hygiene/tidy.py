"""The one list of what hygiene proposes, and applying chosen proposals.

Each kind of proposal registers a ``HygieneKind`` here: its insight pattern, how it is found
(insight drafts, from ``HygieneStore`` reads) and how an approved one is carried out. Reflect
files every kind's drafts as pending insights; ``Memory.tidy`` lists them all (dry run by default)
and applies the chosen ones; approving such an insight (the review pane, ``engrama_approve_insight``)
carries it out. Another kind (e.g. superseded facts) joins by calling ``register``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.hygiene import duplicates
from core.reflect.model import InsightDraft
from core.storage.aliases import HygieneStore


@dataclass(frozen=True)
class HygieneKind:
    """One kind of hygiene proposal.

    ``detect(hs, graph)`` → insight drafts (evidence JSON-ready, with a ``key``);
    ``preview(memory, evidence)`` → what applying it would change, changing nothing;
    ``apply(memory, evidence, actor)`` → what it changed (one undoable change).
    """

    pattern: str
    label: str
    detect: Callable[[HygieneStore, Any], list[InsightDraft]]
    preview: Callable[[Any, dict[str, Any]], dict[str, Any]]
    apply: Callable[[Any, dict[str, Any], str], dict[str, Any]]


KINDS: dict[str, HygieneKind] = {}


def register(kind: HygieneKind) -> None:
    """Add (or replace) a kind of hygiene proposal."""
    KINDS[kind.pattern] = kind


def _merge_preview(memory: Any, evidence: dict[str, Any]) -> dict[str, Any]:
    m = evidence["merge"]
    found = memory.merge_entities(m["names"], into=m["into"], dry_run=True)
    return {**found["preview"], "text": found["text"]}


def _merge_apply(memory: Any, evidence: dict[str, Any], actor: str) -> dict[str, Any]:
    m = evidence["merge"]
    merged: dict[str, Any] = memory.merge_entities(m["names"], into=m["into"], dry_run=False, actor=actor)
    return merged


def _repeats_preview(memory: Any, evidence: dict[str, Any]) -> dict[str, Any]:
    holder = evidence["entities"][0]["name"]
    return {"entity": holder, "delete_observations": [d for r in evidence["repeats"] for d in r["drop"]],
            "kept": [r["keep"] for r in evidence["repeats"]]}


def _repeats_apply(memory: Any, evidence: dict[str, Any], actor: str) -> dict[str, Any]:
    preview = _repeats_preview(memory, evidence)
    removed = memory.delete_observations(
        [{"entityName": preview["entity"], "observations": preview["delete_observations"]}], actor=actor)
    return {**preview, "removed": removed, "change_id": memory.latest_change_id() if removed else None}


register(HygieneKind(duplicates.DUPLICATES, "possible duplicate entities",
                     lambda hs, graph: duplicates.duplicate_drafts(hs, graph), _merge_preview, _merge_apply))
register(HygieneKind(duplicates.REPEATS, "near-identical observations",
                     lambda hs, graph: duplicates.repeat_drafts(hs), _repeats_preview, _repeats_apply))


def detect_all(hs: HygieneStore, graph: Any) -> dict[str, list[InsightDraft]]:
    """Every registered kind's drafts, by pattern."""
    return {p: k.detect(hs, graph) for p, k in KINDS.items()}


Found = tuple[dict[str, frozenset[Any]], list[InsightDraft]]


def reflect_extra(hs: HygieneStore, graph: Any, cap: int) -> Callable[[dict[str, Any]], Found]:
    """What reflect adds for hygiene: every kind's keys (found) and its drafts, ``cap`` new per kind."""
    def extra(stored: dict[str, Any]) -> Found:
        found: dict[str, frozenset[Any]] = {}
        drafts: list[InsightDraft] = []
        for pattern, items in detect_all(hs, graph).items():
            found[pattern] = frozenset(_key(d) for d in items)
            pending = sum(1 for s in stored.values() if s.pattern == pattern and s.status == "pending")
            room = max(0, cap - pending)
            for d in sorted(items, key=lambda d: (-d.confidence, d.title)):
                mine = stored.get(d.title)
                if mine is not None or room > 0:
                    drafts.append(d)
                    room -= mine is None
        return found, drafts
    return extra


def _key(d: InsightDraft) -> Any:
    key = d.evidence.get("key")
    return tuple(key) if isinstance(key, list) else key
