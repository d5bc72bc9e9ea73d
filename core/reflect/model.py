"""What reflect produces and the rules it reads: plain data, shared by the engine and the storage.

Nothing here touches a database. The storage layer turns ``InsightDraft`` objects into Insight
entities plus ``insights`` rows; ``ReflectRules`` carries the profile's vocabulary and thresholds
into the detectors' SQL.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

# The seven Engrama patterns, in the order reflect runs them, with their documented confidence
# (REFERENCE §3). Patterns whose confidence depends on the evidence say so in ``patterns.py``.
PATTERNS: tuple[str, ...] = (
    "cross_project_solutions",
    "shared_technology",
    "training_opportunities",
    "technique_transfer",
    "concept_clusters",
    "stale_knowledge",
    "under_connected_nodes",
)
# Memory hygiene's supersession patterns (core.hygiene.supersede, registered in
# ``core.reflect.patterns.SPECS`` like every detector): imported insights may keep them.
NEUTRAL_PATTERNS: tuple[str, ...] = ("superseded_facts", "contradicting_facts")
ALL_PATTERNS: tuple[str, ...] = PATTERNS + NEUTRAL_PATTERNS

# Patterns that depend on the clock as well as on the graph: they run on every reflect, even when
# nothing was written since the last one (a node turns 90 days old without any write).
TIME_DEPENDENT: frozenset[str] = frozenset({"stale_knowledge"})

STATUSES: tuple[str, ...] = ("pending", "approved", "dismissed", "synced")

# The whole lifecycle: (current status, action) → new status. Anything else is a Conflict.
TRANSITIONS: dict[tuple[str, str], str] = {
    ("pending", "approve"): "approved",
    ("pending", "dismiss"): "dismissed",
    ("approved", "sync"): "synced",
    ("approved", "reopen"): "pending",  # a person changed their mind: back to review
    ("dismissed", "reopen"): "pending",
}

DECAY_RATE = 0.01  # per day: c · exp(−0.01 · days), ≈ 63 % left after 100 days
HALF_LIFE_DAYS = 30.0  # temporal score: confidence · 2^(−days / 30)


def vocabulary_key(word: str) -> str:
    """How a label or relation type is compared: case, spaces, ``_``, ``-`` and ``.`` ignored."""
    return re.sub(r"[\s_.\-]+", "", word.casefold())


@dataclass(frozen=True)
class ReflectRules:
    """The profile's ``reflect`` section: which relation types and statuses mean what."""

    uses_relations: tuple[str, ...] = ("USES", "TEACHES", "COMPOSED_OF")
    solved_by_relation: str = "SOLVED_BY"
    covers_relation: str = "COVERS"
    in_domain_relation: str = "IN_DOMAIN"
    insight_evidence_relation: str = "DERIVED_FROM"
    resolved_statuses: tuple[str, ...] = ("resolved", "closed", "done")
    active_statuses: tuple[str, ...] = ("active",)
    stale_after_days: float = 90.0
    low_confidence: float = 0.3
    min_cluster_size: int = 3
    evidence_cap: int = 25
    max_pending_per_pattern: int = 200
    # Other spellings of the labels and relation types above, as users of the official server
    # write them ("tech", "fixed by"…): ((canonical, (alias, …)), …). Case, spaces, "_" and "-"
    # never matter (``technology``, ``uses``, ``solved_by`` match already); these add other words.
    synonyms: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def spellings(self, canonical: str, present: Iterable[str]) -> list[str]:
        """The values in ``present`` (types or relation types in the graph) that mean ``canonical``."""
        key = vocabulary_key(canonical)
        wanted = {key, *(vocabulary_key(a) for c, aliases in self.synonyms if vocabulary_key(c) == key
                         for a in aliases)}
        return sorted({canonical, *(p for p in present if vocabulary_key(p) in wanted)})

    def fingerprint(self) -> str:
        """A short hash of every rule: a changed profile forces a full reflect."""
        text = json.dumps(asdict(self), sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class Candidate:
    """One place a pattern holds, chosen to be written, before its evidence is built.

    ``key`` names the anchor(s): an entity id, a (technique, domain) pair, or ``None`` for the
    one combined under-connected insight. Reflect matches what it finds with what is stored by
    this key (kept in the evidence), so a title is only ever built for candidates it writes.
    """

    pattern: str
    key: Any
    title: str
    confidence: float
    row: tuple[Any, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class InsightDraft:
    """One insight as a detector found it, before it is matched against what is stored.

    ``evidence`` is JSON-ready: ``{"key": anchor, "entities": [{id, name, label, role}],
    "path": [{from, rel, to}], "total": n}``; ``path`` is one example walk of at most three hops,
    each step a real relation in its stored direction.
    """

    title: str
    pattern: str
    confidence: float
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)

    def evidence_json(self) -> str:
        return json.dumps(self.evidence, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class StoredInsight:
    """An insight as the database holds it (what reflect compares its findings with)."""

    entity_id: int
    title: str
    pattern: str
    status: str
    stale: bool
    base_confidence: float
    evidence_json: str
    summary: str
    key: Any = None  # the anchor key recorded in its evidence (see ``Candidate``)

    @classmethod
    def read(cls, entity_id: int, title: str, pattern: str, status: str, stale: Any, base_confidence: float,
             evidence_json: str, summary: Any) -> StoredInsight:
        """One stored insight from a backend's row: its anchor key read from the evidence (a pair
        comes back as a tuple), a summary that is not text read as empty."""
        key = json.loads(evidence_json or "{}").get("key")
        return cls(entity_id, title, pattern, status, bool(stale), base_confidence, evidence_json,
                   summary if isinstance(summary, str) else "", tuple(key) if isinstance(key, list) else key)


@dataclass(frozen=True)
class ReflectPlan:
    """Everything one reflect run decided, handed to the storage to write in one transaction.

    ``found`` holds, per pattern that ran, the anchor key of every candidate (not only the
    drafted ones): an insight of that pattern whose key is missing no longer holds and turns
    stale. Patterns in ``confirmed`` did not run because nothing written since the last reflect
    could change what they find (``core.reflect.since``); their insights are confirmed as they
    stand. ``fingerprint`` is the graph's state when detection began; it is recorded only if
    nothing else wrote before the plan lands.
    """

    now: str
    fingerprint: str
    token_suffix: str
    found: dict[str, frozenset[Any]]
    confirmed: tuple[str, ...]
    drafts: tuple[InsightDraft, ...]
    incremental: bool = False


@dataclass
class ReflectOutcome:
    """Counts from one reflect run (the storage fills them in as it writes)."""

    created: int = 0
    refreshed: int = 0
    stale: int = 0
    incremental: bool = False
    patterns_run: tuple[str, ...] = ()
    found: dict[str, int] = field(default_factory=dict)


def refusal(title: str, status: str, action: str) -> str:
    """Why ``action`` is not allowed on an insight in ``status``, and what to do instead."""
    if status == {"approve": "approved", "dismiss": "dismissed", "sync": "synced", "reopen": "pending"}.get(action):
        return f"The insight {title!r} is already {status}; nothing was changed."
    if action == "reopen":
        return (f"The insight {title!r} is {status}: it was written out elsewhere, so it cannot go back "
                "to review.")
    if status == "dismissed":
        return (f"The insight {title!r} was dismissed, and a dismissed insight cannot be "
                f"{'approved' if action == 'approve' else 'changed'}: it will not be proposed again.")
    if action == "dismiss":
        return (f"The insight {title!r} is {status}: it is part of the graph now. To remove it, "
                "delete or archive its entity.")
    if action == "sync":
        return f"The insight {title!r} is {status}; only an approved insight can be marked synced."
    return (f"Cannot {action} the insight {title!r}: it is {status}. Allowed moves: pending → "
            "approved or dismissed, approved → synced.")


# The labels the detectors name; each graph may spell them its own way (``ReflectRules.spellings``).
DETECTOR_LABELS = ("Problem", "Vulnerability", "Concept", "Project", "Decision", "Course", "Domain",
                   "Technique", "Technology", "Insight")


def detector_vocabulary(rules: ReflectRules, types: Iterable[str],
                        relation_types: Iterable[str]) -> tuple[dict[str, list[str]], dict[str, Any]]:
    """What the detectors read, for a graph holding ``types`` and ``relation_types``: each detector
    label's spellings there, and the parameters every backend's detectors bind (relation types as
    spelled there, statuses, thresholds)."""
    types, rels = list(types), list(relation_types)
    labels = {label: rules.spellings(label, types) for label in DETECTOR_LABELS}
    params: dict[str, Any] = {
        param: sorted({s for n in names for s in rules.spellings(n, rels)})
        for param, names in (("uses", rules.uses_relations), ("solved_by", (rules.solved_by_relation,)),
                             ("covers", (rules.covers_relation,)), ("in_domain", (rules.in_domain_relation,)))}
    params.update(cap=rules.evidence_cap, min_cluster=rules.min_cluster_size, low=rules.low_confidence,
                  resolved=[s.lower() for s in rules.resolved_statuses],
                  # No status at all counts as active (Engrama: status in (active, null)).
                  active=["", *(s.lower() for s in rules.active_statuses)])
    return labels, params
