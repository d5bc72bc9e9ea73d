"""The insight lifecycle, once for every backend: writing what reflect found, the review moves
(approve, dismiss, reopen, sync), decay, and listing best first.

An insight is an ordinary entity (type ``Insight``, name = its title, props ``summary`` /
``pattern`` / ``confidence``, the summary also as its one observation) plus a review state
(pattern, confidence, base confidence, status, stale, evidence, when confirmed and decided). A
backend only reads and writes those (``InsightRows`` and, inside one transaction,
``InsightWrites``); every rule lives here. Choices, and why:

* A pending insight's entity is *archived*: it is a machine's guess, so it stays out of searches
  until a person approves it. Approval un-archives it and does what its kind's approver says
  (``APPROVERS``; by default: link it ``DERIVED_FROM`` each evidence entity). An insight whose
  approval carries out a change (hygiene's merges and marks, through ``approve_in``) stays archived
  once approved: what it proposed is now done in the graph, and the proposal is a record (the review
  pane's decided list, history), not knowledge to find — it would otherwise float in searches and in
  the graph, unlinked. A dismissed one stays archived, and its title never comes back (the
  ``decide_insight`` row in the log blocks it).
* ``confidence`` is the live, decayed value; ``base_confidence`` is what the pattern gave when the
  insight was last confirmed (found again by reflect, or approved). Decay is recomputed from those
  two, so it is idempotent however often it runs.
* An insight of a pattern that ran but no longer finds it is marked ``stale``; found again, it is
  fresh again.

Extending it: a new detector registers its pattern with ``core.reflect.patterns.register``; what
approving (or reopening) an insight of its kind does is registered here, in one of two ways:
``@approver("kind")`` for work inside the decision's own transaction (the backend's
``InsightWrites``), or ``carry_out("kind", approve=…, reopen=…)`` for work through the ``Memory``
around the decision (a merge, a superseded fact marked). ``Memory`` and its ``Insights`` part look
the kind up here and carry no kind of their own.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar

from core.errors import Conflict, NotFound
from core.reflect.engine import Detection
from core.reflect.model import (
    TRANSITIONS,
    InsightDraft,
    ReflectOutcome,
    ReflectPlan,
    ReflectRules,
    StoredInsight,
    refusal,
)
from core.reflect.patterns import SPECS
from core.reflect.temporal import days_between, decayed_confidence, temporal_score
from core.search.folding import fold

T = TypeVar("T")
LogRow = tuple[str, str, str, str | None, Any, Any]  # at, actor, op, entity, before, after (not yet JSON)
Rank = tuple[int, str, bool, float, str | None, str]  # entity id, title, stale, confidence, confirmed_at, created_at


@dataclass(frozen=True)
class InsightRecord:
    """One insight as a backend reads it back."""

    entity_id: int
    title: str
    pattern: str
    status: str
    stale: bool
    confidence: float
    base_confidence: float
    evidence_json: str  # parsed only for the insights a caller gets (``evidence``)
    summary: str
    created_at: str
    confirmed_at: str | None
    decided_at: str | None
    decided_by: str | None

    @property
    def evidence(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.evidence_json or "{}")
        return value


@dataclass(frozen=True)
class InsightFilter:
    """Which insights a read wants: equal to each field given, stale ones too or not, among ``ids``."""

    status: str | None = None
    title: str | None = None
    confirmed_at: str | None = None
    include_stale: bool = True
    ids: Sequence[int] | None = None

    def where(self, dialect: tuple[str, str, dict[str, str], str, str],
              ids: Callable[[Sequence[int]], Any]) -> tuple[str, dict[str, Any]]:
        """The condition and its parameters in a backend's words: ``dialect`` = (always true, a
        parameter's mark, field → column, "not stale", "among $ids"); ``ids`` shapes the ids' parameter."""
        true, mark, column, fresh, among = dialect
        given = {k: v for k, v in (("status", self.status), ("title", self.title),
                                   ("confirmed_at", self.confirmed_at)) if v is not None}
        where, params = [true, *(f"{column[k]} = {mark}{k}" for k in given)], dict[str, Any](given)
        if not self.include_stale:
            where.append(fresh)
        if self.ids is not None:
            where.append(among)
            params["ids"] = ids(self.ids)
        return " AND ".join(where), params


class InsightWrites(Protocol):
    """What the lifecycle reads and writes inside one backend transaction."""

    def record(self, title: str) -> InsightRecord | None: ...
    def stored(self) -> dict[str, StoredInsight]: ...
    def taken(self, titles: Sequence[str]) -> set[str]: ...
    def live_records(self) -> list[InsightRecord]:
        """Insights not dismissed and confirmed at least once (the ones decay ages)."""
        ...
    def create(self, draft: InsightDraft, now: str) -> None:
        """A new pending insight: its entity (archived), its summary observation, its review state."""
        ...
    def props(self, entity_id: int) -> dict[str, Any]: ...
    def set_text(self, entity_id: int, props: dict[str, Any], old_summary: str | None,
                 new_summary: str | None, now: str) -> list[list[str]]:
        """New props (and, when given, the summary observation swapped); the removed
        ``[content, created_at]`` pairs. The entity's text changed: reindex it, re-embed it."""
        ...
    def set_review(self, entity_id: int, **fields: Any) -> None:
        """Set review fields: status, stale, evidence (JSON text), base_confidence, confidence,
        confirmed_at, decided_at, decided_by."""
        ...
    def set_archived(self, entity_id: int, archived: bool, now: str, *, touch: bool) -> None:
        """Archive (keeping an earlier archived_at) or un-archive; ``touch`` moves updated_at."""
        ...
    def link(self, entity_id: int, targets: Sequence[int], rel_type: str, now: str) -> list[str]:
        """``insight -rel_type-> target`` for each existing target not linked yet; their names."""
        ...
    def confirm(self, patterns: Sequence[str], now: str) -> None:
        """Every fresh, undismissed insight of ``patterns``: confirmed now, confidence = base."""
        ...
    def adopt(self, title: str, review: dict[str, Any]) -> bool:
        """Give the Insight entity ``title`` the review fields ``review`` (``set_review``'s) if it has
        none yet; whether it did."""
        ...
    def log(self, rows: Sequence[LogRow]) -> None: ...
    def flush(self) -> None:
        """Write what is queued (called before ``confirm`` and the log)."""
        ...
    def fingerprint(self) -> str:
        """The graph's fingerprint as this transaction began (``Detection.fingerprint``'s form)."""
        ...
    def fingerprint_after(self, created: int) -> str:
        """The fingerprint once this transaction lands, ``created`` new insights on."""
        ...
    def set_token(self, token: str) -> None: ...


class InsightRows(Protocol):
    """What a backend hands the lifecycle (anki's ``Collection`` hands its managers a DB)."""

    def now(self) -> str: ...
    def stamp(self, moment: datetime) -> str:
        """``moment`` as the backend stores times (ISO-8601 UTC, milliseconds)."""
        ...
    def detection(self, rules: ReflectRules) -> contextlib.AbstractContextManager[Detection]: ...
    def records(self, which: InsightFilter) -> list[InsightRecord]: ...
    def ranks(self, which: InsightFilter) -> list[Rank]:
        """What ranking needs of each insight matching (a light read: ``records`` for the chosen)."""
        ...
    def counts(self) -> dict[str, int]: ...
    def write(self, work: Callable[[InsightWrites], T]) -> T:
        """Run ``work`` in one write transaction (all of it lands, or none)."""
        ...


# -- what approving an insight does, by kind ----------------------------------------------------

@dataclass(frozen=True)
class Approval:
    """The moment of one approval: who, when, and the profile's reflect rules."""

    actor: str
    now: str
    evidence_relation: str


Approver = Callable[[InsightWrites, InsightRecord, Approval], dict[str, Any]]
APPROVERS: dict[str, Approver] = {}


def approver(kind: str) -> Callable[[Approver], Approver]:
    """Register what approving an insight of ``kind`` (its pattern) does, in the approval's own
    transaction; what it returns joins the ``decide_insight`` row's ``after``. A kind without one
    gets ``link_evidence``."""
    def register(fn: Approver) -> Approver:
        APPROVERS[kind] = fn
        return fn
    return register


def link_evidence(tx: InsightWrites, r: InsightRecord, a: Approval) -> dict[str, Any]:
    """``insight -DERIVED_FROM-> entity`` for each evidence entity that still exists."""
    wanted = list(dict.fromkeys(e["id"] for e in r.evidence.get("entities", [])
                                if e.get("id") not in (None, r.entity_id)))
    linked = tx.link(r.entity_id, wanted, a.evidence_relation, a.now)
    # Logged as create_relations logs: entity = from, after = [to, type].
    tx.log([(a.now, a.actor, "create_relation", r.title, None, [name, a.evidence_relation]) for name in linked])
    return {"relations": len(linked)}


class Host(Protocol):
    """What a kind's ``carry_out`` works through: the ``core.Memory`` façade."""

    @property
    def graph(self) -> Any: ...  # the backend's ``core.protocols.GraphStore`` (it imports this module)
    def transaction(self) -> contextlib.AbstractContextManager[Any]: ...
    def surface_insights(self, *, limit: int = 10, title: str | None = None, query: str | None = None,
                         status: str | None = "pending") -> list[dict[str, Any]]: ...


Decide = Callable[[], dict[str, Any]]  # records the decision; returns the insight decided
# (host, the insight as listed, actor, decide) → the decided insight (``decide()``'s, plus what it did)
OnApprove = Callable[[Any, dict[str, Any], str, Decide], dict[str, Any]]
OnReopen = Callable[[Any, dict[str, Any], str], object]  # (host, the insight reopened, actor)


@dataclass(frozen=True)
class CarryOut:
    """What approving or reopening an insight of one kind does through the ``Memory``.

    ``auto_approve(settings)``: whether reflect approves this kind's new pending insights at once."""

    approve: OnApprove | None = None
    reopen: OnReopen | None = None
    auto_approve: Callable[[Any], bool] | None = None


CARRY_OUT: dict[str, CarryOut] = {}


def carry_out(kind: str, *, approve: OnApprove | None = None, reopen: OnReopen | None = None,
              auto_approve: Callable[[Any], bool] | None = None) -> None:
    """Register what approving (``approve``, which must call ``decide``) or reopening an insight
    of ``kind`` does through the ``Memory``; replaces an earlier registration of ``kind``."""
    CARRY_OUT[kind] = CarryOut(approve, reopen, auto_approve)


def check_move(title: str, status: str | None, stale: bool, action: str) -> str:
    """The status ``action`` moves an insight in ``status`` to; ``NotFound`` (no such insight) or
    ``Conflict`` (a move the lifecycle refuses, or approving a stale one) otherwise."""
    if status is None:
        raise NotFound(f"There is no insight titled {title!r}; surface_insights lists them "
                       "(titles must match exactly).")
    new = TRANSITIONS.get((status, action))
    if new is None:
        raise Conflict(refusal(title, status, action))
    if action == "approve" and stale:
        raise Conflict(
            f"The insight {title!r} is stale: the evidence it was built from has changed "
            "(deleted, archived, or the pattern no longer holds). Run reflect again to "
            "refresh it, or dismiss it.")
    return new


#: The kinds of insight approved through ``approve_in``: hygiene's merges and marks (``core.hygiene``:
#: merge, tidy, approval). Approved (or synced), one is a record and stays archived; a memory written
#: before that was so is brought in step once on opening (SQLite migration 011, which names them in
#: SQL; a graph server's ``archived_records`` mark). tests/hygiene checks it against the kinds' names.
CARRIED_OUT_KINDS = ("duplicate_entities", "repeated_observations", "superseded_facts", "superseded_relations")


def approve_in(session: Any, title: str, actor: str, note: dict[str, Any] | None = None) -> None:
    """Approve the insight ``title`` inside one edit session (``core.history.undo.EditSession``),
    as ``decide`` approves it (decided now by ``actor``, confirmed now at its base confidence), but
    left archived: the change it proposed is what the session writes beside it. Its
    ``decide_insight`` row keeps the state before, so the group it belongs to (a merge, an
    ``approve_insight``) is undone whole and the insight is pending again."""
    from core.history.undo import InsightState  # storage imports this module: imported when used

    state = session.insight(title)
    check_move(title, None if state is None else state.status, bool(state and state.stale), "approve")
    session.set_insight(title, InsightState("approved", True, session.now, actor, session.now,
                                            state.base_confidence), note)


# -- the lifecycle ------------------------------------------------------------------------------

def insight_dict(r: InsightRecord, now: str) -> dict[str, Any]:
    """The public shape of one insight (what ``Memory.surface_insights`` returns)."""
    return {
        "title": r.title, "pattern": r.pattern, "confidence": r.confidence, "base_confidence": r.base_confidence,
        "score": round(_score(r, now), 6), "status": r.status, "stale": r.stale, "summary": r.summary,
        "evidence": r.evidence, "created_at": r.created_at, "confirmed_at": r.confirmed_at,
        "decided_at": r.decided_at, "decided_by": r.decided_by,
    }


def _score(r: InsightRecord, now: str) -> float:
    return temporal_score(r.confidence, days_between(r.confirmed_at or r.created_at, now))


class InsightLifecycle:
    """Reflect's and the review's one implementation, over a backend's ``InsightRows``
    (it is the ``core.reflect.engine.InsightStore`` the engine writes to)."""

    def __init__(self, rows: InsightRows) -> None:
        self.rows = rows

    def now(self) -> str:
        return self.rows.now()

    def detection(self, rules: ReflectRules) -> contextlib.AbstractContextManager[Detection]:
        """One consistent read of the graph for the detectors."""
        return self.rows.detection(rules)

    def apply(self, plan: ReflectPlan, actor: str) -> ReflectOutcome:
        """Write one reflect's findings: create, refresh, mark stale, confirm. One transaction."""
        def work(tx: InsightWrites) -> ReflectOutcome:
            untouched = tx.fingerprint() == plan.fingerprint
            outcome = _PlanWriter(tx, plan, actor).write()
            tx.set_token(f"{tx.fingerprint_after(outcome.created)}|{plan.token_suffix}" if untouched else "")
            return outcome
        return self.rows.write(work)

    def decide(self, title: str, action: str, actor: str, *, evidence_relation: str) -> dict[str, Any]:
        """Move ``title`` along pending → approved | dismissed, approved → synced, approved |
        dismissed → pending (reopened). ``NotFound`` for an unknown title, ``Conflict`` for any
        other move."""
        now = self.now()

        def work(tx: InsightWrites) -> None:
            r = tx.record(title)
            new = check_move(title, None if r is None else r.status, r is not None and r.stale, action)
            assert r is not None  # check_move refused a missing insight
            after: dict[str, Any] = {"status": new}
            if action == "approve":
                tx.set_archived(r.entity_id, False, now, touch=True)
                # A person confirming it counts as fresh evidence: decay restarts from here.
                tx.set_review(r.entity_id, status=new, decided_at=now, decided_by=actor, confirmed_at=now,
                              confidence=r.base_confidence)
                after.update(APPROVERS.get(r.pattern, link_evidence)(tx, r, Approval(actor, now, evidence_relation)))
            elif action == "dismiss":
                tx.set_archived(r.entity_id, True, now, touch=False)
                tx.set_review(r.entity_id, status=new, decided_at=now, decided_by=actor)
            elif action == "reopen":  # back to review: out of the graph again until decided anew
                tx.set_archived(r.entity_id, True, now, touch=True)
                tx.set_review(r.entity_id, status=new, decided_at=None, decided_by=None)
            else:  # sync: written out elsewhere; the person's decision stays the one recorded
                tx.set_review(r.entity_id, status=new)
            tx.log([(now, actor, "decide_insight", title, {"status": r.status}, after)])

        self.rows.write(work)
        return self.get(title)  # type: ignore[return-value]  # it was just decided: it exists

    def decay(self, as_of: datetime | None, actor: str) -> int:
        """Set every live insight's confidence to ``base · exp(−0.01 · days since confirmed)`` as
        of ``as_of`` (default: now). Returns how many changed; a second run at the same moment
        changes none."""
        stamp = self.rows.stamp(as_of) if as_of is not None else self.now()

        def work(tx: InsightWrites) -> int:
            changed = 0
            for r in tx.live_records():
                value = round(decayed_confidence(r.base_confidence, days_between(r.confirmed_at or stamp, stamp)), 6)
                if value != r.confidence:
                    tx.set_review(r.entity_id, confidence=value)
                    changed += 1
            if changed:
                tx.log([(self.now(), actor, "decay_confidence", None, None, {"as_of": stamp, "changed": changed})])
            return changed
        return self.rows.write(work)

    def list(self, *, limit: int = 10, title: str | None = None, query: str | None = None,
             status: str | None = "pending", confirmed_at: str | None = None,
             include_stale: bool = True) -> list[dict[str, Any]]:
        """Insights, best first: fresh before stale, then by temporal score
        (``confidence · 2^(−days since confirmed / 30)``), then by title."""
        now = self.now()
        which = InsightFilter(status, title, confirmed_at, include_stale)
        if query is not None:
            # Folded both sides, like search_nodes: case, accents and Unicode forms don't matter.
            needle = fold(query)
            found = [r for r in self.rows.records(which) if needle in fold(f"{r.title}\n{r.summary}")]
            ranks: list[Rank] = [(r.entity_id, r.title, r.stale, r.confidence, r.confirmed_at, r.created_at)
                                 for r in found]
        else:
            ranks = self.rows.ranks(which)
        fading: dict[str, float] = {}  # since → 2^(−days/30): most insights share a confirmation time

        def score(r: Rank) -> float:
            since = r[4] or r[5]
            if since not in fading:
                fading[since] = temporal_score(1.0, days_between(since, now))
            return r[3] * fading[since]

        ranks.sort(key=lambda r: (r[2], -score(r), r[1]))
        chosen = [r[0] for r in ranks[:limit]]
        by_id = {r.entity_id: r for r in self.rows.records(InsightFilter(ids=chosen))} if chosen else {}
        return [insight_dict(by_id[i], now) for i in chosen if i in by_id]

    def get(self, title: str) -> dict[str, Any] | None:
        found = self.list(limit=1, title=title, status=None)
        return found[0] if found else None

    def counts(self) -> dict[str, int]:
        """How many insights per status, and how many of them are stale."""
        return self.rows.counts()

    def adopt(self, insights: Sequence[dict[str, Any]], actor: str) -> int:
        """Give review states to imported Insight entities (``{title, pattern, confidence,
        status}``), keeping the status they had; one that already has a state keeps its own."""
        now = self.now()

        def review(i: dict[str, Any]) -> dict[str, Any]:
            decided = i["status"] != "pending"
            return {"pattern": i["pattern"], "confidence": i["confidence"], "base_confidence": i["confidence"],
                    "status": i["status"], "evidence": "{}", "stale": False, "confirmed_at": now,
                    "decided_at": now if decided else None, "decided_by": actor if decided else None}
        return self.rows.write(lambda tx: sum(tx.adopt(i["title"], review(i)) for i in insights))


class _PlanWriter:
    """Applies one ``ReflectPlan`` inside the caller's transaction."""

    def __init__(self, tx: InsightWrites, plan: ReflectPlan, actor: str) -> None:
        self.tx, self.plan, self.actor, self.now = tx, plan, actor, plan.now
        self.log: list[LogRow] = []
        self.outcome = ReflectOutcome(incremental=plan.incremental, patterns_run=tuple(plan.found),
                                      found={p: len(t) for p, t in plan.found.items()})

    def _record(self, op: str, title: str | None, before: Any, after: Any) -> None:
        self.log.append((self.now, self.actor, op, title, before, after))

    def write(self) -> ReflectOutcome:
        stored = self.tx.stored()
        drafted: set[str] = set()
        taken = self.tx.taken([d.title for d in self.plan.drafts if d.title not in stored])
        for d in self.plan.drafts:
            s = stored.get(d.title)
            if s is None:
                if d.title in taken:  # created by someone else since detection: not ours to use
                    continue
                self._create(d)
            elif s.status != "dismissed" and s.pattern == d.pattern:
                self._refresh(s, d)
            else:
                continue
            drafted.add(d.title)
        for s in stored.values():
            if s.status == "dismissed" or s.pattern not in self.plan.found or s.title in drafted:
                continue
            holds = s.key in self.plan.found[s.pattern]
            if holds:  # found, but its evidence could not be rebuilt: keep it as it stands
                self.outcome.refreshed += 1
            self._set_stale(s, stale=not holds)
        self.tx.flush()
        self._confirm(stored)
        self._record("reflect", None, None, {
            "created": self.outcome.created, "refreshed": self.outcome.refreshed,
            "stale": self.outcome.stale, "incremental": self.plan.incremental})
        self.tx.log(self.log)
        return self.outcome

    def _create(self, d: InsightDraft) -> None:
        self.tx.create(d, self.now)  # archived from birth: out of searches until a person approves it
        self._record("create_insight", d.title, None, {"entityType": "Insight", "pattern": d.pattern,
                                                       "confidence": d.confidence, "status": "pending"})
        self.outcome.created += 1

    def _refresh(self, s: StoredInsight, d: InsightDraft) -> None:
        evidence = d.evidence_json()
        if s.summary != d.summary or s.base_confidence != d.confidence:
            old = self.tx.props(s.entity_id)
            props = {**old, "summary": d.summary, "confidence": d.confidence}
            swap = s.summary != d.summary
            # The summary observation is swapped as a deletion and an addition, so that
            # query_at_date still shows the old text on older dates.
            gone = self.tx.set_text(s.entity_id, props, s.summary if swap else None,
                                    d.summary if swap else None, self.now)
            self._record("update_entity", s.title, {"entityType": "Insight", "props": old},
                         {"entityType": "Insight", "props": props})
            if swap:
                if gone:
                    self._record("delete_observations", s.title, {"observations": gone}, None)
                self._record("add_observations", s.title, None, [d.summary])
        if evidence != s.evidence_json or s.base_confidence != d.confidence:
            self.tx.set_review(s.entity_id, evidence=evidence, base_confidence=d.confidence)
        self._set_stale(s, stale=False)
        self.outcome.refreshed += 1

    def _set_stale(self, s: StoredInsight, *, stale: bool) -> None:
        if s.stale == stale:
            return
        self.tx.set_review(s.entity_id, stale=stale)
        self._record("mark_insight_stale", s.title, {"stale": s.stale}, {"stale": stale})
        if stale:
            self.outcome.stale += 1

    def _confirm(self, stored: dict[str, StoredInsight]) -> None:
        """Everything still holding (found now, or in a pattern skipped because nothing changed)
        is confirmed now: its confidence goes back to its base and decay restarts."""
        self.tx.confirm([p for p, spec in SPECS.items() if spec.confirms
                         and (p in self.plan.found or p in self.plan.confirmed)], self.now)
        self.outcome.refreshed += sum(
            1 for s in stored.values()
            if s.pattern in self.plan.confirmed and s.status != "dismissed" and not s.stale)
