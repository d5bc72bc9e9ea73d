"""One reflect run: detect, choose what to write, hand the plan to the storage.

The storage answers questions (``Detection``) and writes a finished plan (``InsightStore``); the
decisions live here: which patterns must run, which candidates get their evidence built, how many
new insights a pattern may add to the review queue, and in which order.

Candidates are matched with stored insights by anchor key (kept in each insight's evidence), so
the tens of thousands of candidates a large graph yields cost a set lookup each; titles, names
and evidence are built only for the candidates that are written: those already stored (to
refresh them) and the best new ones while the pattern's review queue has room.
"""

from __future__ import annotations

import contextlib
from operator import itemgetter
from typing import Any, Protocol

from core.processes import collector_paused
from core.reflect import patterns
from core.reflect.model import (
    TIME_DEPENDENT,
    Candidate,
    InsightDraft,
    ReflectOutcome,
    ReflectPlan,
    ReflectRules,
    StoredInsight,
)
from core.reflect.patterns import Spec
from core.reflect.reading import Detection, Reading, Row
from core.reflect.since import Since, written_since

__all__ = ["Detection", "InsightStore", "Reading", "reflect"]

# Bump when a detector's meaning changes: the next reflect then runs every pattern in full even
# if the graph did not change.
DETECTORS_VERSION = "4"  # 2: hygiene kinds (core.hygiene.tidy) join the run; 3: superseded and contradicting facts;
# 4: superseded relations

RESULT_INSIGHTS = 50  # insights listed in reflect's result (the counts cover all of them)
_SPARE = 32  # extra candidates looked at per batch, for titles that turn out to be taken


class InsightStore(Protocol):
    """What a backend offers reflect and the insight lifecycle."""

    def detection(self, rules: ReflectRules) -> contextlib.AbstractContextManager[Detection]: ...
    def apply(self, plan: ReflectPlan, actor: str) -> ReflectOutcome: ...
    def list(self, *, limit: int = 10, title: str | None = None, query: str | None = None,
             status: str | None = "pending", confirmed_at: str | None = None,
             include_stale: bool = True) -> list[dict[str, Any]]: ...


def reflect(store: InsightStore, rules: ReflectRules, actor: str, graph: Any = None) -> dict[str, Any]:
    """Run every registered pattern (``core.reflect.patterns.SPECS``: the seven, then those
    registered since) and write what they find; returns counts and the insights touched.

    ``graph`` is the backend's graph store, handed to the detectors written once over it
    (``Reading.graph``). When nothing was written since the last reflect (same graph fingerprint,
    same rules) only the clock-dependent patterns run; the others' insights are confirmed as they
    stand. After a few relations or facts written, so are those of the patterns none of them can
    touch (``Spec.touched_by``, ``core.reflect.since``).
    """
    # A run builds hundreds of thousands of small objects (candidate rows, the names folded,
    # evidence) that hold no cycles: the collector, left on, only walks them (≈ 0.15 s of a cold
    # run at 100k entities).
    with collector_paused():
        return _reflect(store, rules, actor, graph)


def _reflect(store: InsightStore, rules: ReflectRules, actor: str, graph: Any) -> dict[str, Any]:
    suffix = f"{rules.fingerprint()}:{DETECTORS_VERSION}"
    with store.detection(rules) as det:
        stored = det.stored()
        reading = Reading(det, graph, rules)
        token = det.last_token()
        incremental = token == f"{det.fingerprint}|{suffix}"
        # A few writes since the last reflect: the patterns none of them can touch are skipped too.
        since = None if incremental else written_since(graph, token, det.fingerprint, suffix, rules)
        run_order = list(patterns.SPECS)
        run = [p for p in run_order if p in TIME_DEPENDENT or patterns.SPECS[p].time_dependent
               or (not incremental and _touched(patterns.SPECS[p], reading, since))]
        found: dict[str, frozenset[Any]] = {}
        drafts: list[InsightDraft] = []
        held_back = 0
        for pattern in run:
            chooser = _Chooser(reading, pattern, stored, rules)
            found[pattern] = chooser.found
            drafts += chooser.drafts()
            held_back += chooser.held_back
        confirmed = tuple(p for p in run_order if p not in run and patterns.SPECS[p].confirms)
        plan = ReflectPlan(now=det.now, fingerprint=det.fingerprint, token_suffix=suffix, found=found,
                           confirmed=confirmed, drafts=tuple(drafts), incremental=incremental)
    outcome = store.apply(plan, actor)
    for after in reading.done:
        after()
    return {
        "created": outcome.created,
        "refreshed": outcome.refreshed,
        "stale": outcome.stale,
        "held_back": held_back,
        "incremental": incremental,
        "found": outcome.found,
        "insights": store.list(limit=RESULT_INSIGHTS, status=None, confirmed_at=plan.now,
                               include_stale=False),
    }


def _touched(spec: Spec, reading: Reading, since: Since | None) -> bool:
    """Whether the writes since the last reflect can change what ``spec`` finds (None: unknown)."""
    if since is None:
        return True
    if spec.touched_by is None:
        return bool(since.relations or since.facts)
    return spec.touched_by(reading, since)


class _Chooser:
    """One pattern's candidates: which are found, which to draft, and their drafts."""

    def __init__(self, reading: Reading, pattern: str, stored: dict[str, StoredInsight],
                 rules: ReflectRules) -> None:
        self.reading, self.det, self.pattern, self.stored, self.rules = reading, reading.det, pattern, stored, rules
        self.spec: Spec = patterns.SPECS[pattern]
        self.self_evident = pattern in patterns.SELF_EVIDENT
        spec = self.spec
        found = spec.find(reading)
        # Best first, for every backend and detector alike: by confidence, then weight, then key
        # (or as the spec ranks them).
        if spec.order is not None:
            found = spec.order(list(found))
        else:
            rank = spec.rank or (lambda r: (-spec.confidence(r), -spec.weight(r), spec.key(r)))
            found = sorted(found, key=rank) if len(found) > 1 else list(found)
        if spec.key_columns is not None:
            self.rows = dict(zip(map(itemgetter(*spec.key_columns), found), found, strict=True))
        else:
            self.rows = {spec.key(r): r for r in found}
        self.found = frozenset(self.rows)
        self.held_back = 0

    def drafts(self) -> list[InsightDraft]:
        mine = {s.key: s for s in self.stored.values() if s.pattern == self.pattern}
        keep = [self._candidate(self.rows[k], s.title) for k, s in mine.items()
                if k in self.rows and s.status != "dismissed"]
        queued = sum(1 for c in keep if self.stored[c.title].status == "pending")
        slots = max(0, self.rules.max_pending_per_pattern - queued)
        new_rows = [r for k, r in self.rows.items() if k not in mine]
        adopted, chosen = self._choose(new_rows, slots)
        return self._build(keep + adopted + chosen)

    def _candidate(self, row: Row, title: str) -> Candidate:
        return Candidate(self.pattern, self.spec.key(row), title, self.spec.confidence(row), row)

    def _choose(self, rows: list[Row], slots: int) -> tuple[list[Candidate], list[Candidate]]:
        """New candidates while there are slots; ``rows`` come best first (by confidence, weight,
        key). A candidate whose title an insight of this pattern already holds
        under another key (its anchor was deleted and made again) refreshes that insight instead;
        a title taken otherwise, or dismissed before, is skipped.
        """
        spec = self.spec
        adopted: list[Candidate] = []
        chosen: list[Candidate] = []
        looked = refused = 0
        while len(chosen) < slots and looked < len(rows):
            batch = rows[looked : looked + slots - len(chosen) + _SPARE]
            looked += len(batch)
            names = self.det.names([i for r in batch for i in spec.anchors(r)])
            cands = [self._candidate(r, spec.title(r, names)) for r in batch]
            taken = self.det.blocked([c.title for c in cands])
            for c in cands:
                s = self.stored.get(c.title)
                if s is not None and s.pattern == self.pattern and s.status != "dismissed":
                    adopted.append(c)
                elif c.title in taken:
                    refused += 1
                elif len(chosen) < slots:
                    chosen.append(c)
        self.held_back = len(rows) - len(chosen) - len(adopted) - refused
        return adopted, chosen

    def _build(self, chosen: list[Candidate]) -> list[InsightDraft]:
        """Full insights for ``chosen``; a candidate whose evidence vanished is left out."""
        names = self.det.names([i for c in chosen for i in self.spec.anchors(c.row)])
        if self.spec.evidence is None or self.self_evident:
            evidence: dict[Any, dict[str, Any]] = {c.key: {} for c in chosen}
        else:
            evidence = self.spec.evidence(self.reading, [c.key for c in chosen]) if chosen else {}
        return [self.spec.draft(c, evidence[c.key], names, self.rules) for c in chosen if c.key in evidence]
