"""The one list of what hygiene proposes, and applying chosen proposals.

Each kind of proposal registers a ``HygieneKind`` here: its insight pattern, how it is found
(insight drafts, from ``HygieneStore`` reads) and how an approved one is carried out.
``register`` files the kind with reflect's one registry (``core.reflect.patterns.register``: its
drafts become pending insights) and its approval with ``core.reflect.lifecycle.carry_out``;
``Memory.tidy`` lists them all (dry run by default) and applies the chosen ones; approving such an
insight (the review pane, ``engrama_approve_insight``) carries it out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.hygiene import approval, duplicates, merge
from core.hygiene.store import HygieneStore
from core.reflect import lifecycle, patterns
from core.reflect.model import Candidate, InsightDraft, ReflectRules
from core.reflect.patterns import Names, Reading, Row, Spec
from core.storage.factory import hygiene_store


@dataclass(frozen=True)
class HygieneKind:
    """One kind of hygiene proposal.

    ``detect(hs, graph)`` → insight drafts (evidence JSON-ready, with a ``key``);
    ``preview(memory, evidence)`` → what applying it would change, changing nothing;
    ``apply(memory, evidence, actor)`` → what it changed (one undoable change);
    ``approve(memory, evidence, actor, title)`` (optional) → the same, with the approval of the
    pending insight ``title`` in the same change (one undo takes both back, the insight pending
    again). A kind without one is approved, then applied, in one ``Memory.transaction``.
    """

    pattern: str
    label: str
    detect: Callable[[HygieneStore, Any], list[InsightDraft]]
    preview: Callable[[Any, dict[str, Any]], dict[str, Any]]
    apply: Callable[[Any, dict[str, Any], str], dict[str, Any]]
    approve: Callable[[Any, dict[str, Any], str, str], dict[str, Any]] | None = None
    # Run once reflect has written its plan (the detection's reads are over): say, storing what it folded.
    after: Callable[[HygieneStore, Any], None] | None = None


KINDS: dict[str, HygieneKind] = {}


def register(kind: HygieneKind) -> None:
    """Add (or replace) a kind of hygiene proposal: listed by tidy, found by reflect, carried out
    when approved."""
    KINDS[kind.pattern] = kind
    patterns.register(kind.pattern, _spec(kind.pattern), self_evident=True)
    lifecycle.carry_out(kind.pattern, approve=_approve)


# A kind's rows for reflect are its drafts: ``(key, draft)``, ranked as tidy lists them.

def _find(pattern: str) -> Callable[[Reading], list[Row]]:
    def find(reading: Reading) -> list[Row]:
        kind = KINDS.get(pattern)
        if kind is None:
            return []
        hs = reading.once("hygiene_store", lambda: hygiene_store(reading.graph))
        if kind.after is not None:
            after = kind.after
            reading.done.append(lambda: after(hs, reading.graph))
        return [(_key(d), d) for d in kind.detect(hs, reading.graph)]
    return find


def _draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    draft: InsightDraft = c.row[1]
    return draft


def _spec(pattern: str) -> Spec:
    return Spec(key=lambda r: r[0], confidence=lambda r: float(r[1].confidence), weight=lambda r: 0,
                anchors=lambda r: [], title=lambda r, names: str(r[1].title), draft=_draft,
                find=_find(pattern), rank=lambda r: (-r[1].confidence, r[1].title), confirms=False)


def _approve(host: lifecycle.Host, insight: dict[str, Any], actor: str, decide: lifecycle.Decide) -> dict[str, Any]:
    """Approving a pending hygiene insight carries it out: the decision and what it does are one
    change in one atomic write (the kind's ``approve``), so one undo takes both back and
    the insight is pending again."""
    kind = KINDS.get(insight["pattern"])
    if kind is None or insight["status"] != "pending":
        return decide()  # nothing to carry out (another move is refused by the lifecycle)
    if kind.approve is None:
        with host.transaction():
            return {**decide(), "applied": kind.apply(host, insight["evidence"], actor)}
    applied = kind.approve(host, insight["evidence"], actor, insight["title"])
    decided: dict[str, Any] = host.surface_insights(limit=1, title=insight["title"], status="all")[0]
    return {**decided, "applied": applied}


def _merge_preview(memory: Any, evidence: dict[str, Any]) -> dict[str, Any]:
    m = evidence["merge"]
    found = memory.merge_entities(m["names"], into=m["into"], dry_run=True)
    return {**found["preview"], "text": found["text"]}


def _merge_apply(memory: Any, evidence: dict[str, Any], actor: str, approving: str | None) -> dict[str, Any]:
    m = evidence["merge"]
    return merge.carry_out(memory, merge.plan_merge(memory.graph, list(m["names"]), m["into"]), actor,
                           approving=approving)


def _repeats_preview(memory: Any, evidence: dict[str, Any]) -> dict[str, Any]:
    holder = evidence["entities"][0]["name"]
    return {"entity": holder, "delete_observations": [d for r in evidence["repeats"] for d in r["drop"]],
            "kept": [r["keep"] for r in evidence["repeats"]]}


def _repeats_apply(memory: Any, evidence: dict[str, Any], actor: str, approving: str | None) -> dict[str, Any]:
    preview = _repeats_preview(memory, evidence)
    removed: list[str] = []

    def work(s: Any) -> int | None:
        removed.clear()  # a graph server may run the write again (another writer came first)
        if approving is not None:
            lifecycle.approve_in(s, approving, actor)
        have = s.entity(preview["entity"])
        removed.extend(o for o in preview["delete_observations"] if have is not None and o in have.observations)
        if removed:
            s.delete_observations(preview["entity"], list(removed))
        grouped = approving is not None
        done: int | None = s.finish(approval.APPROVE_OP if grouped else None,
                                    approving if grouped else preview["entity"],
                                    {"insight": approving, "name": preview["entity"]} if grouped else None)
        return done
    change_id = memory.graph.run_edit(work, actor)
    return {**preview, "removed": len(removed), "change_id": change_id}


register(HygieneKind(duplicates.DUPLICATES, "possible duplicate entities",
                     lambda hs, graph: duplicates.duplicate_drafts(hs, graph), _merge_preview,
                     lambda m, e, a: _merge_apply(m, e, a, None), _merge_apply, after=duplicates.store_folded))
register(HygieneKind(duplicates.REPEATS, "near-identical observations",
                     lambda hs, graph: duplicates.repeat_drafts(hs), _repeats_preview,
                     lambda m, e, a: _repeats_apply(m, e, a, None), _repeats_apply))


def detect_all(hs: HygieneStore, graph: Any) -> dict[str, list[InsightDraft]]:
    """Every registered kind's drafts, by pattern."""
    return {p: k.detect(hs, graph) for p, k in KINDS.items()}


def _key(d: InsightDraft) -> Any:
    key = d.evidence.get("key")
    return tuple(key) if isinstance(key, list) else key
