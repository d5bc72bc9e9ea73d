"""Superseded facts: proposed by reflect, kept with an end date and a successor once a person approves.

Backend-neutral: it reads and writes through the ``GraphStore`` every backend implements, so the
same rule holds on SQLite and on FalkorDB.

* **Proposing.** ``find_rows`` reads every live entity's observations (oldest first) and asks
  ``supersede_rules.scan`` which later fact updates which older one; each finding becomes a
  candidate of reflect's ``superseded_facts`` pattern (an update) or ``contradicting_facts`` (two
  facts that disagree with nothing saying which is newer: flagged for a person, nothing retired).
  Only within one entity: a fact is never retired by a fact of another entity.
* **The mark.** Approving a ``superseded_facts`` insight writes, on the entity, the property
  ``superseded_facts`` = ``{older fact: {"by": newer fact, "ended_at": …, "insight": title}}``
  (a JSON merge patch through ``merge_node``, so history shows it and one undo takes it back). The
  fact itself is never touched: ``search_nodes``, ``open_nodes``, ``read_graph`` and as-of reads
  return it as before.
* **Reading.** ``marks`` / ``is_current`` / ``current_facts`` are the one predicate others use
  (``search_semantic`` leaves superseded facts out of its default answer; a brief should too).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.errors import Conflict, NotFound
from core.hygiene import approval, written
from core.hygiene.supersede_rules import CONTRADICTION, RULES_VERSION, UPDATE, scan
from core.reflect import lifecycle, patterns
from core.reflect.model import Candidate, InsightDraft, ReflectRules
from core.reflect.patterns import Names, Reading, Row, Spec, clip

SUPERSEDED = "superseded_facts"  # the pattern and the entity property holding the marks
CONTRADICTING = "contradicting_facts"
PATTERNS = (SUPERSEDED, CONTRADICTING)
_FACT_IN_TITLE = 48
_SKIP_TYPES = frozenset({"Insight"})


# -- the predicate -----------------------------------------------------------------------------

def marks(props: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The superseded facts an entity's properties record: ``{fact: {"by", "ended_at", "insight"}}``."""
    raw = (props or {}).get(SUPERSEDED)
    if not isinstance(raw, Mapping):
        return {}
    return {k: dict(v) for k, v in raw.items() if isinstance(k, str) and isinstance(v, Mapping)}


def is_current(props: Mapping[str, Any] | None, fact: str) -> bool:
    """Whether ``fact`` of the entity with ``props`` still holds (no approved successor)."""
    return fact not in marks(props)


def current_facts(props: Mapping[str, Any] | None, observations: Iterable[str]) -> list[str]:
    """``observations`` without those an approved supersession retired, in their order."""
    gone = marks(props)
    return [o for o in observations if o not in gone]


# -- proposing (reflect) -----------------------------------------------------------------------

def _pair_key(older: str, newer: str) -> int:
    """A stable number for one (older, newer) pair: with the entity id, the insight's anchor key."""
    return int(hashlib.sha1(f"{older}\x1f{newer}".encode()).hexdigest()[:12], 16)


def _digest(facts: Sequence[str]) -> str:
    """A stable name for one entity's facts as they stand (any edit, addition or removal changes it)."""
    return hashlib.blake2b("\x1f".join(facts).encode("utf-8"), digest_size=9).hexdigest()


def find_rows(graph: Any, remembered: Mapping[str, list[list[Any]]] | None = None,
              out: dict[str, list[list[Any]]] | None = None) -> dict[str, list[Row]]:
    """Candidate rows per pattern, best first: ``(entity id, older, newer, reason, confidence)``.

    Facts already marked superseded are not proposed again; entities of type Insight are skipped.
    ``remembered`` holds the findings of an earlier run by ``_digest`` of an entity's facts: an
    entity whose facts did not change is not judged again. ``out`` receives this run's, to remember.
    """
    remembered = remembered or {}
    judged: list[tuple[int, dict[str, Any], list[str], list[list[Any]]]] = []
    for eid, label, props, facts in graph.fact_lists(2):
        if label in _SKIP_TYPES:
            continue
        digest = _digest(facts)
        found = remembered.get(digest)
        if found is None:
            found = [[f.older, f.newer, f.kind, f.reason, f.confidence] for f in scan(facts)]
        if out is not None:
            out[digest] = found
        judged.append((eid, props, facts, found))
    return _as_rows(judged)


def _as_rows(judged: Iterable[tuple[int, dict[str, Any], list[str], list[list[Any]]]]) -> dict[str, list[Row]]:
    """Each entity's findings as rows per pattern, best first, leaving out facts already marked."""
    rows: dict[str, list[Row]] = {SUPERSEDED: [], CONTRADICTING: []}
    for eid, props, facts, found in judged:
        if not found:
            continue
        done = marks(props)
        for i, j, kind, reason, confidence in found:
            older, newer = facts[i], facts[j]
            if older not in done:
                rows[SUPERSEDED if kind == UPDATE else CONTRADICTING].append((eid, older, newer, reason, confidence))
    for listed in rows.values():
        listed.sort(key=lambda r: (-r[4], -r[0], r[1]))
    return rows


def _short(text: str) -> str:
    if len(text) <= _FACT_IN_TITLE:
        return text
    digest = hashlib.sha1(text.encode("utf-8")).hexdigest()[:6]
    return f"{text[: _FACT_IN_TITLE - 9]}… #{digest}"


def _title(prefix: str) -> Any:
    def title(row: Row, names: Names) -> str:
        name = names.get(row[0], (f"#{row[0]}", ""))[0]
        return f"{prefix} on {clip(name)}: “{_short(row[1])}” → “{_short(row[2])}”"
    return title


def _draft(kind: str) -> Any:
    def draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
        eid, older, newer, reason, _ = c.row
        name, label = names.get(eid, (f"#{eid}", ""))
        if kind == UPDATE:
            summary = (f'On "{name}", the newer fact "{newer}" seems to update the older "{older}" '
                       f"({reason}). Approving keeps the older fact, marked as superseded by the newer, "
                       "with today as its end; search then answers with the newer one.")
        else:
            summary = (f'On "{name}", "{older}" and "{newer}" disagree, and nothing says which is newer. '
                       "Neither was retired: edit the entity to keep the one that is true.")
        evidence = {"key": list(c.key), "entities": [{"id": eid, "name": name, "label": label, "role": "entity"}],
                    "path": [], "total": 1,
                    "facts": {"entity": name, "older": older, "newer": newer, "reason": reason, "kind": kind}}
        return InsightDraft(c.title, c.pattern, c.confidence, summary, evidence)
    return draft


def _spec(pattern: str, prefix: str, kind: str) -> Spec:
    return Spec(key=lambda r: (r[0], _pair_key(r[1], r[2])), confidence=lambda r: r[4],
                weight=lambda r: r[0], anchors=lambda r: [r[0]], title=_title(prefix), draft=_draft(kind),
                find=lambda reading: _detector(reading).candidates(pattern))


SPECS: dict[str, Spec] = {
    SUPERSEDED: _spec(SUPERSEDED, "Superseded", UPDATE),
    CONTRADICTING: _spec(CONTRADICTING, "Contradiction", CONTRADICTION),
}


REMEMBERED_KEY = f"supersede_findings:{RULES_VERSION}"  # db_metadata: findings by digest of facts
MAX_WRITTEN = 5000  # entities written since the last run judged one by one; more: everything is read
# Writes after which entities may be gone without their id in the log: the next run reads everything.
_REMOVING = frozenset({"delete_entity", "merge_entities", "undo"})


@dataclass
class _Kept:
    """One graph's entities with two facts or more as the last run read them, in this process:
    id → (label, props, facts, digest, findings)."""

    last_change: int = -1
    entities: dict[int, tuple[str, dict[str, Any], list[str], str, list[list[Any]]]] = field(default_factory=dict)
    unsaved: bool = True


_KEPT = written.PerGraph()


def _kept(graph: Any) -> _Kept:
    return _KEPT.of(graph, _Kept)


def _judged(facts: list[str], remembered: Mapping[str, list[list[Any]]]) -> tuple[str, list[list[Any]]]:
    digest = _digest(facts)
    found = remembered.get(digest)
    if found is None:
        found = [[f.older, f.newer, f.kind, f.reason, f.confidence] for f in scan(facts)]
    return digest, found


class Detector:
    """Reflect's neutral patterns: candidate rows read once per run, through the graph store.

    The entities read are kept for the next run in this process, which reads again only those
    written since (by the change log; a deletion, merge or undo, or thousands of writes, and it
    reads everything). What each entity's facts yielded is also remembered in the database's
    bookkeeping (``save``, after the run), so a new process judges again only the entities whose
    facts changed."""

    patterns: tuple[str, ...] = PATTERNS
    specs = SPECS

    def __init__(self, graph: Any) -> None:
        self._graph = graph
        self._rows: dict[str, list[Row]] | None = None
        self._kept = _kept(graph)

    def candidates(self, pattern: str) -> list[Row]:
        if self._rows is None:
            self._read()
            self._rows = _rows(self._kept)
        return self._rows[pattern]

    def _read(self) -> None:
        kept, graph = self._kept, self._graph
        latest = int(graph.latest_change_id())
        names = (written.names_since(graph, kept.last_change, latest, MAX_WRITTEN, _REMOVING)
                 if kept.last_change >= 0 else None)
        kept.last_change = latest
        if names is None:
            raw = graph.get_metadata(REMEMBERED_KEY)
            try:
                remembered = json.loads(raw) if raw else {}
            except ValueError:  # damaged bookkeeping: judge everything again
                remembered = {}
            if not isinstance(remembered, dict):
                remembered = {}
            kept.entities = {eid: (label, props, facts, *_judged(facts, remembered))
                             for eid, label, props, facts in graph.fact_lists(2) if label not in _SKIP_TYPES}
            kept.unsaved = True
            return
        if not names:
            return
        ids = sorted(set(graph.ids_for(sorted(names)).values()))
        for node in graph.nodes_by_id(ids):
            old = kept.entities.pop(node.id, None)
            facts = list(node.observations)
            if node.archived_at is not None or node.label in _SKIP_TYPES or len(facts) < 2:
                kept.unsaved |= old is not None
                continue
            known = {old[3]: old[4]} if old is not None else {}
            kept.entities[node.id] = (node.label, dict(node.props), facts, *_judged(facts, known))
            kept.unsaved |= old is None or old[3] != kept.entities[node.id][3]

    def save(self) -> None:
        """Remember this run's findings (only the entities that exist now: bounded by the memory)."""
        kept = self._kept
        if self._rows is not None and kept.unsaved:
            found = {digest: f for _l, _p, _f, digest, f in kept.entities.values()}
            self._graph.set_metadata(REMEMBERED_KEY, json.dumps(found, separators=(",", ":")))
            kept.unsaved = False


def _rows(kept: _Kept) -> dict[str, list[Row]]:
    return _as_rows((eid, props, facts, found) for eid, (_l, props, facts, _d, found) in kept.entities.items())


def _detector(reading: Reading) -> Detector:
    """The run's one ``Detector`` (both patterns read the same rows); it remembers its findings
    once the run's plan is written."""
    def make() -> Detector:
        detector = Detector(reading.graph)
        reading.done.append(detector.save)
        return detector
    return reading.once("supersede", make)


# -- approving ---------------------------------------------------------------------------------

def facts_of(insight: Mapping[str, Any]) -> dict[str, Any] | None:
    """The facts a supersession insight is about (``{"entity", "older", "newer", …}``), else None."""
    if insight.get("pattern") != SUPERSEDED:
        return None
    facts = (insight.get("evidence") or {}).get("facts")
    return dict(facts) if isinstance(facts, Mapping) else None


def check(graph: Any, insight: Mapping[str, Any]) -> tuple[Any, dict[str, Any]] | None:
    """Before approving: the entity (by its id in the evidence, so a rename does not matter) and
    the facts, if both facts are still on it; Conflict saying why not otherwise."""
    facts = facts_of(insight)
    if facts is None:
        return None
    entities = (insight.get("evidence") or {}).get("entities") or []
    ids = [e.get("id") for e in entities if isinstance(e.get("id"), int)]
    nodes = graph.nodes_by_id(ids[:1]) if ids else []
    node = nodes[0] if nodes else graph.get_node(facts["entity"])
    if node is None:
        raise NotFound(f"The entity {facts['entity']!r} of {insight.get('title')!r} no longer exists. "
                       "Dismiss the insight. Nothing was changed.")
    for side in ("older", "newer"):
        if facts[side] not in node.observations:
            raise Conflict(f"The {side} fact {facts[side]!r} is no longer on {node.name!r} (edited or deleted "
                           "since). Run reflect again, or dismiss the insight. Nothing was changed.")
    return node, dict(facts)


def mark(graph: Any, node: Any, facts: Mapping[str, Any], title: str, ended_at: str, actor: str) -> Any:
    """Record ``facts["older"]`` as superseded by ``facts["newer"]`` on ``node``: one undoable change."""
    patch = {SUPERSEDED: {facts["older"]: {"by": facts["newer"], "ended_at": ended_at, "insight": title}}}
    return graph.merge_node(node.label, node.name, patch, actor)


def unmark(graph: Any, insight: Mapping[str, Any], actor: str) -> bool:
    """Take back the mark ``insight`` made, if it still stands (an insight sent back to review)."""
    facts = facts_of(insight)
    node = graph.get_node(facts["entity"]) if facts else None
    if facts is None or node is None \
            or marks(node.props).get(facts["older"], {}).get("insight") != insight.get("title"):
        return False
    graph.merge_node(node.label, node.name, {SUPERSEDED: {facts["older"]: None}}, actor)
    return True


def filter_hits(graph: Any, hits: Sequence[dict[str, Any]], *, keep: bool) -> list[dict[str, Any]]:
    """Search hits without superseded facts (``keep``: with them, each listed under ``superseded``);
    a hit that matched by superseded facts alone is left out."""
    named = [h for h in hits if isinstance(h.get("name"), str)]
    if not named:
        return list(hits)
    from core.hygiene.supersede_relations import listed
    from core.protocols import FactText

    ids = graph.ids_for([h["name"] for h in named])
    # Their props alone are needed: heads (no observations) where the graph reads them apart, which
    # a graph server can give from what the search just read (``core.storage.cypher.memo``)
    heads = graph.entity_heads if isinstance(graph, FactText) else graph.nodes_by_id
    nodes = heads(list(ids.values()))
    found = {n.name: marks(n.props) for n in nodes}
    retired = {n.name: listed(n.props) for n in nodes} if keep else {}
    out = []
    for hit in hits:
        gone = found.get(hit.get("name"), {})
        if retired.get(hit.get("name")):  # explain: the relations an approval superseded, with their end
            hit = {**hit, "superseded_relations": retired[hit["name"]]}
        if not gone:
            out.append(hit)
            continue
        hit = dict(hit)
        facts = hit.get("observations") or []
        if keep:
            hit["superseded"] = [{"fact": o, **gone[o]} for o in facts if o in gone]
        else:
            hit["observations"] = [o for o in facts if o not in gone]
            if facts and not hit["observations"]:
                continue  # it matched by retired facts alone: not an answer
            if isinstance(hit.get("facts"), list):  # explain's per-fact detail
                hit["facts"] = [f for f in hit["facts"] if not (isinstance(f, Mapping) and f.get("text") in gone)]
        out.append(hit)
    return out


# -- registered with reflect: found over the graph store, approving marks, reopening unmarks ----

def _approve(host: lifecycle.Host, insight: dict[str, Any], actor: str, decide: lifecycle.Decide) -> dict[str, Any]:
    """Both facts must still be there (checked first); the approval and the older fact's mark
    (kept, with an end and its successor) are one change: one undo takes both back."""
    target = check(host.graph, insight)
    if target is None or insight.get("status") != "pending":
        return decide()  # another move: refused by the lifecycle with its reason
    node, facts = target
    patch = {facts["older"]: {"by": facts["newer"], "ended_at": None, "insight": insight["title"]}}
    change_id = approval.approve_marking(host, insight["title"], node.name, SUPERSEDED, patch, actor)
    decided: dict[str, Any] = host.surface_insights(limit=1, title=insight["title"], status="all")[0]
    return {**decided, "applied": {"change_id": change_id}}


def _reopen(host: lifecycle.Host, insight: dict[str, Any], actor: str) -> bool:
    return unmark(host.graph, insight, actor)  # back to review: the older fact is current again


for _pattern, _found in SPECS.items():
    patterns.register(_pattern, _found, self_evident=True)
lifecycle.carry_out(SUPERSEDED, approve=_approve, reopen=_reopen,
                    auto_approve=lambda settings: bool(settings.auto_approve_supersessions))
