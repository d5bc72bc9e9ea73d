"""The seven patterns' words and numbers: stable titles, confidences, summaries and evidence.

Each ``Spec`` finds where its pattern holds over the backend's plain reads (``Detection``: here
for the hubs and the under-connected nodes, in ``core.reflect.detectors`` for the patterns of
several steps), as compact rows of ids and counts, and reads such a row: its anchor key, its
confidence, its rank, and, for the few candidates that get written, its title, its evidence and
its full ``InsightDraft``. The backends only read (``core.storage.sqlite.reflect_queries`` and
its Cypher twin).

Titles are built only from the pattern and the names of the anchor entities, never from counts
or dates, so a reflect that finds the same thing again finds the same title and refreshes it
instead of adding a duplicate. There is one insight per anchor, not per pair: "Shared
technology: SQLite" lists the users of SQLite rather than one insight per pair of users (a
technology used by 40 projects would otherwise make 780 insights); likewise one per open
problem, per issue, per concept, per stale node, per (technique, target domain), and a single
combined under-connected insight.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.reflect import detectors
from core.reflect.model import Candidate, InsightDraft, ReflectRules

# Re-exported: the hygiene detectors and older callers import them from here.
from core.reflect.reading import Detection as Detection
from core.reflect.reading import Names as Names
from core.reflect.reading import Reading as Reading
from core.reflect.reading import Row as Row
from core.reflect.since import Since, Touched, any_relation

TITLE_NAME_LIMIT = 80  # characters of one entity name inside a title
SUMMARY_SAMPLE = 5  # names listed in a summary before "and N more"

UNDER_CONNECTED_TITLE = "Under-connected nodes"
SHARED_MIN_USERS = 2  # a technology two entities use is shared
UNDER_CONNECTED_EDGES = 2  # a node with fewer real edges than this is under-connected

def clip(name: str, limit: int = TITLE_NAME_LIMIT) -> str:
    """``name`` shortened for a title; a long name keeps a hash of the whole, so two long names
    sharing a beginning still give different (and stable) titles."""
    if len(name) <= limit:
        return name
    digest = hashlib.sha1(name.encode("utf-8")).hexdigest()[:6]
    return f"{name[: limit - 9]}… #{digest}"


@dataclass(frozen=True)
class Spec:
    """How to read one pattern's candidate rows (see the module docstring)."""

    key: Callable[[Row], Any]
    confidence: Callable[[Row], float]
    weight: Callable[[Row], int]  # ties in confidence: bigger first (then the key)
    anchors: Callable[[Row], list[int]]  # ids whose names the title and the summary need
    title: Callable[[Row, Names], str]
    draft: Callable[[Candidate, dict[str, Any], Names, ReflectRules], InsightDraft]
    # Every candidate row, found over the ``Reading`` (the backend's plain reads, the graph store).
    find: Callable[[Reading], list[Row]]
    # The evidence of the chosen candidates' keys, by key; None: the row carries it (``SELF_EVIDENT``).
    evidence: Callable[[Reading, list[Any]], dict[Any, dict[str, Any]]] | None = None
    time_dependent: bool = False  # runs on every reflect, even when the graph did not change
    # Whether the relations written since the last reflect (``core.reflect.since``) can change what
    # this pattern finds; a pattern they cannot touch is skipped, its insights confirmed as they
    # stand. Set only by a pattern that reads relations and labels, never facts, names' words or
    # dates. None: every write can (the pattern runs whenever the graph changed).
    touched_by: Touched | None = None
    # Best first; None: by confidence, then weight (bigger first), then key.
    rank: Callable[[Row], Any] | None = None
    # The same order as ``rank`` (or the default), sorted at C speed: a pattern with tens of
    # thousands of candidates (technique transfer finds ~70k at 100k entities) spent ~0.1 s in
    # Python key functions. ``key_columns``: the columns ``key`` reads (a tuple key for several).
    order: Callable[[list[Row]], list[Row]] | None = None
    key_columns: tuple[int, ...] | None = None
    # False: an insight found again is refreshed but not confirmed (its decay does not restart),
    # and a reflect that skips the pattern leaves its insights alone. Hygiene's tidy kinds, as
    # they were before they joined this registry.
    confirms: bool = True


def by_weight(column: int) -> Callable[[list[Row]], list[Row]]:
    """Rows best first by ``column`` (bigger first), then by the whole row: the default rank of a
    spec whose confidence never falls as its weight (``column``) grows and whose key is the row's
    leading, unique columns."""
    from operator import itemgetter

    def order(rows: list[Row]) -> list[Row]:
        rows.sort()
        rows.sort(key=itemgetter(column), reverse=True)  # stable: ties keep the key order
        return rows
    return order


# -- evidence helpers --------------------------------------------------------------------------

def _json(raw: str | list[list[Any]] | None) -> list[list[Any]]:
    """A list of evidence rows: as the backend's SQL hands it (JSON text), or already a list."""
    if isinstance(raw, list):
        return raw
    return json.loads(raw) if raw else []


def _members(raw: str | None, cap: int) -> list[list[Any]]:
    """Members ``[id, name, label, …]`` without repeats, by name, at most ``cap``."""
    seen: dict[int, list[Any]] = {}
    for m in _json(raw):
        seen.setdefault(m[0], m)
    return sorted(seen.values(), key=lambda m: (m[1], m[0]))[:cap]


def _entity(eid: int, name: str, label: str, role: str) -> dict[str, Any]:
    return {"id": eid, "name": name, "label": label, "role": role}


def _step(anchor: str, other: str, rel: str, outward: int) -> dict[str, str]:
    """One relation of a path in its stored direction (``outward``: it points anchor → other)."""
    return {"from": anchor, "rel": rel, "to": other} if outward else {"from": other, "rel": rel, "to": anchor}


def _unique(entities: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[int, dict[str, Any]] = {}
    for e in entities:
        seen.setdefault(e["id"], e)
    return list(seen.values())


def _listing(names: list[str], total: int) -> str:
    shown = ", ".join(names[:SUMMARY_SAMPLE])
    rest = total - min(len(names), SUMMARY_SAMPLE)
    return f"{shown} and {rest} more" if rest > 0 else shown


def _evidence(
    key: Any, entities: list[dict[str, Any]], path: list[dict[str, str]], total: int
) -> dict[str, Any]:
    return {"key": list(key) if isinstance(key, tuple) else key, "entities": _unique(entities),
            "path": path, "total": total}


def _name(names: Names, eid: int) -> str:
    return names.get(eid, (f"#{eid}", ""))[0]


# -- cross_project_solutions: 0.85; row (open problem id) -------------------------------------

def _cross_draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    matches = _json(ev["matches"])
    oname = _name(names, c.key)
    cid, cname, orel, oout, aid, aname, arel, aout, did, dname, ojid, ojname, ajid, ajname = matches[0]
    entities = [_entity(c.key, oname, "Problem", "open_problem"), _entity(ojid, ojname, "Project", "project")]
    for m in matches:
        entities += [_entity(m[0], m[1], "Concept", "concept"),
                     _entity(m[4], m[5], "Problem", "solved_problem"),
                     _entity(m[8], m[9], "Decision", "decision"),
                     _entity(m[12], m[13], "Project", "source_project")]
    path = [_step(oname, cname, orel, oout), _step(aname, cname, arel, aout),
            {"from": aname, "rel": rules.solved_by_relation, "to": dname}]
    solved = list(dict.fromkeys(m[5] for m in matches))
    more = f" {len(solved) - 1} more solved problem(s) share its concepts." if len(solved) > 1 else ""
    summary = (f'The open problem "{oname}" (project "{ojname}") shares the concept "{cname}" with '
               f'"{aname}" (project "{ajname}"), which was solved by the decision "{dname}". '
               f"That decision may apply here.{more}")
    return InsightDraft(c.title, c.pattern, c.confidence, summary,
                        _evidence(c.key, entities, path, len(solved)))


CROSS = Spec(
    key=lambda r: r[0], confidence=lambda r: 0.85, weight=lambda r: r[0],  # newest problems first
    anchors=lambda r: [r[0]], order=by_weight(0), key_columns=(0,),
    find=detectors.cross_project_rows, evidence=detectors.cross_project_evidence,
    title=lambda r, names: f"Cross-project solution for {clip(_name(names, r[0]))}",
    draft=_cross_draft,
    # Every step starts at a Problem or a Vulnerability (its concepts, its project, its decision).
    touched_by=any_relation(lambda e: bool(e.labels & {"Problem", "Vulnerability"})),
)


# -- shared_technology: 0.75 across labels, 0.6 within one; row (technology id, n, labels) -----

def _hub_draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules, *, label: str,
               role: str, member_role: str, sentence: Callable[[str, int, str], str]) -> InsightDraft:
    """An insight about one hub entity (row: hub id, n linked) and the entities linked to it."""
    hub, total = _name(names, c.key), c.row[1]
    members = _members(ev["members"], rules.evidence_cap)
    entities = [_entity(c.key, hub, label, role)]
    entities += [_entity(m[0], m[1], m[2], member_role) for m in members]
    path = [_step(hub, m[1], m[3], m[4]) for m in members[:2]]
    listed = _listing([f"{m[1]} ({m[2]})" for m in members], total)
    return InsightDraft(c.title, c.pattern, c.confidence, sentence(hub, total, listed),
                        _evidence(c.key, entities, path, total))


def _hub_members(keys: list[Any], read: Callable[[Sequence[int], int], dict[int, list[list[Any]]]],
                 rules: ReflectRules) -> dict[Any, dict[str, Any]]:
    """Each hub's members as its evidence: twice the cap read, repeats dropped when drafted."""
    found = read(keys, 2 * rules.evidence_cap)
    return {k: {"members": found.get(k, [])} for k in keys}


def _shared_draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    return _hub_draft(c, ev, names, rules, label="Technology", role="technology", member_role="user",
                      sentence=lambda tech, total, users: (
                          f'"{tech}" is used by {total} entities: {users}. '
                          "Consider sharing knowledge, fixes or materials between them."))


SHARED = Spec(
    key=lambda r: r[0], confidence=lambda r: 0.75 if r[2] >= 2 else 0.6, weight=lambda r: r[1],
    anchors=lambda r: [r[0]],
    find=lambda reading: [r for r in reading.det.technology_users() if r[1] >= SHARED_MIN_USERS],
    evidence=lambda reading, keys: _hub_members(keys, reading.det.technology_members, reading.rules),
    title=lambda r, names: f"Shared technology: {clip(_name(names, r[0]))}",
    draft=_shared_draft,
    touched_by=any_relation(lambda e: "uses" in e.kinds and "Technology" in e.to_labels),
)


# -- training_opportunities: 0.65; row (issue id) ----------------------------------------------

def _training_draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    issue, label = names.get(c.key, (f"#{c.key}", "Problem"))
    matches = _json(ev["matches"])
    cid, cname, rel, outward, kid, kname = matches[0]
    entities = [_entity(c.key, issue, label, "issue")]
    for m in matches:
        entities += [_entity(m[0], m[1], "Concept", "concept"), _entity(m[4], m[5], "Course", "course")]
    path = [_step(issue, cname, rel, outward), {"from": kname, "rel": rules.covers_relation, "to": cname}]
    courses = list(dict.fromkeys(m[5] for m in matches))
    summary = (f'The {label.lower()} "{issue}" involves the concept "{cname}", which the course '
               f'"{kname}" covers. Reviewing it may help.'
               + (f" Other courses: {_listing(courses[1:], len(courses) - 1)}." if len(courses) > 1 else ""))
    return InsightDraft(c.title, c.pattern, c.confidence, summary,
                        _evidence(c.key, entities, path, len(courses)))


TRAINING = Spec(
    key=lambda r: r[0], confidence=lambda r: 0.65, weight=lambda r: r[0], anchors=lambda r: [r[0]],
    order=by_weight(0), key_columns=(0,),
    find=detectors.training_rows, evidence=detectors.training_evidence,
    title=lambda r, names: f"Training opportunity: {clip(_name(names, r[0]))}",
    draft=_training_draft,
    touched_by=any_relation(lambda e: bool(e.labels & {"Problem", "Vulnerability", "Course"})),
)


# -- technique_transfer: min(0.5 + 0.1·n, 0.9); row (technique id, domain id, n shared concepts) --

def _technique_draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    (tid, did), total = c.key, c.row[2]
    tech, domain = _name(names, tid), _name(names, did)
    shared = sorted(_json(ev["shared"]), key=lambda s: (s[1], s[0]))[: rules.evidence_cap]
    homes = _json(ev["home_domains"])
    entities = [_entity(tid, tech, "Technique", "technique"), _entity(did, domain, "Domain", "target_domain")]
    entities += [_entity(h[0], h[1], "Domain", "home_domain") for h in homes]
    for s in shared:
        entities += [_entity(s[0], s[1], "Concept", "concept"), _entity(s[4], s[5], s[6], "example")]
    cid, cname, rel, outward, eid, ename, elabel, erel, eout = shared[0]
    path = [_step(tech, cname, rel, outward), _step(cname, ename, erel, eout),
            {"from": ename, "rel": rules.in_domain_relation, "to": domain}]
    home = ", ".join(f'"{h[1]}"' for h in homes) or "its domain"
    summary = (f'The technique "{tech}" (used in {home}) shares {total} concept(s) with work in '
               f'"{domain}", where it is not used yet: {_listing([s[1] for s in shared], total)}. '
               "It may apply there.")
    return InsightDraft(c.title, c.pattern, c.confidence, summary, _evidence(c.key, entities, path, total))


TECHNIQUE = Spec(
    key=lambda r: (r[0], r[1]), confidence=lambda r: round(min(0.5 + 0.1 * r[2], 0.9), 4),
    weight=lambda r: r[2], anchors=lambda r: [r[0], r[1]], order=by_weight(2), key_columns=(0, 1),
    find=detectors.technique_rows, evidence=detectors.technique_evidence,
    title=lambda r, names: f"Technique transfer: {clip(_name(names, r[0]))} → {clip(_name(names, r[1]))}",
    draft=_technique_draft,
    # IN_DOMAIN places techniques and examples; the rest are a Technique's or a Concept's links.
    touched_by=any_relation(lambda e: "in_domain" in e.kinds or bool(e.labels & {"Technique", "Concept"})),
)


# -- concept_clusters: min(0.5 + 0.05·n, 0.9); row (concept id, n linked entities) --------------

def _cluster_draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    return _hub_draft(c, ev, names, rules, label="Concept", role="concept", member_role="member",
                      sentence=lambda concept, total, listed: (
                          f'The concept "{concept}" connects {total} entities: {listed}. '
                          "This cluster may reveal a pattern worth exploring."))


CLUSTER = Spec(
    key=lambda r: r[0], confidence=lambda r: round(min(0.5 + 0.05 * r[1], 0.9), 4),
    weight=lambda r: r[1], anchors=lambda r: [r[0]], order=by_weight(1), key_columns=(0,),
    find=lambda reading: [r for r in reading.det.concept_links() if r[1] >= reading.rules.min_cluster_size],
    evidence=lambda reading, keys: _hub_members(keys, reading.det.concept_members, reading.rules),
    title=lambda r, names: f"Concept cluster: {clip(_name(names, r[0]))}",
    draft=_cluster_draft,
    touched_by=any_relation(lambda e: "Concept" in e.labels),
)


# -- stale_knowledge: 0.5; row (node id, n active projects/courses) ----------------------------

def _stale_draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    node, label = names.get(c.key, (f"#{c.key}", ""))
    active = _json(ev["active"])
    conf = ev["node_confidence"]
    if isinstance(conf, (int, float)) and conf < rules.low_confidence:
        reason = f"its confidence is low ({conf:.2f})"
    else:
        reason = f"it has not been updated since {str(ev['updated_at'])[:10]}"
    aid, aname, alabel, rel, outward = active[0]
    entities = [_entity(c.key, node, label, "stale_node")]
    entities += [_entity(a[0], a[1], a[2], "active") for a in active]
    others = f" (and {c.row[1] - 1} more active)" if c.row[1] > 1 else ""
    summary = (f'The {label} "{node}" is linked to the active {alabel.lower()} "{aname}"{others}, '
               f"but {reason}. Consider updating or archiving it.")
    return InsightDraft(c.title, c.pattern, c.confidence, summary,
                        _evidence(c.key, entities, [_step(node, aname, rel, outward)], c.row[1]))


STALE = Spec(
    key=lambda r: r[0], confidence=lambda r: 0.5, weight=lambda r: r[1], anchors=lambda r: [r[0]],
    order=by_weight(1), key_columns=(0,),
    find=detectors.stale_rows, evidence=detectors.stale_evidence,
    title=lambda r, names: f"Stale knowledge: {clip(_name(names, r[0]))}",
    draft=_stale_draft,
)


# -- under_connected_nodes: 0.4, one combined insight; row (n, members) ------------------------

def _under_find(reading: Reading) -> list[Row]:
    """One row: how many nodes are under-connected, and the ``evidence_cap`` most isolated
    ``[id, name, label, edges]`` (fewest edges, then newest, then by name)."""
    rows = reading.det.under_connected(UNDER_CONNECTED_EDGES)
    if not rows:
        return []
    rows.sort(key=lambda r: r[1])
    rows.sort(key=lambda r: r[3], reverse=True)
    rows.sort(key=lambda r: r[4])
    return [(len(rows), [[i, n, t, d] for i, n, t, _, d in rows[: reading.rules.evidence_cap]])]


def _under_touched(reading: Reading, since: Since) -> bool:
    """Only a node with fewer than ``UNDER_CONNECTED_EDGES`` real edges before or after the writes
    joins, leaves or changes the list: the writes cannot touch it when each end still has that
    many real edges besides those written since."""
    added: dict[int, int] = {}
    for e in since.relations:
        for end in e.ends:
            added[end] = added.get(end, 0) + e.added
    degrees = reading.det.real_degrees(sorted(added))
    return any(degrees.get(i, 0) < UNDER_CONNECTED_EDGES + n for i, n in added.items())


def _under_draft(c: Candidate, ev: dict[str, Any], names: Names, rules: ReflectRules) -> InsightDraft:
    total, members = c.row[0], c.row[1]
    entities = [_entity(m[0], m[1], m[2], "under_connected") for m in members]
    listed = _listing([f"{m[1]} ({m[2]}, {m[3]} edge{'s' if m[3] != 1 else ''})" for m in members], total)
    summary = (f"{total} node(s) have fewer than 2 real connections: {listed}. Linking them "
               "(INSTANCE_OF, BELONGS_TO, IN_DOMAIN …) makes them easier to find and reason about.")
    return InsightDraft(c.title, c.pattern, c.confidence, summary, _evidence(None, entities, [], total))


UNDER = Spec(
    key=lambda r: None, confidence=lambda r: 0.4, weight=lambda r: r[0], anchors=lambda r: [],
    title=lambda r, names: UNDER_CONNECTED_TITLE, draft=_under_draft, find=_under_find,
    touched_by=_under_touched,
)

SPECS: dict[str, Spec] = {
    "cross_project_solutions": CROSS,
    "shared_technology": SHARED,
    "training_opportunities": TRAINING,
    "technique_transfer": TECHNIQUE,
    "concept_clusters": CLUSTER,
    "stale_knowledge": STALE,
    "under_connected_nodes": UNDER,
}

# Patterns whose candidate row already carries the evidence (no evidence query).
SELF_EVIDENT: set[str] = {"under_connected_nodes"}


def register(pattern: str, spec: Spec, *, self_evident: bool = False) -> None:
    """Add (or replace) a detector: reflect runs it after the seven (in the order registered), and
    its insights go through the same lifecycle. ``self_evident``: its rows carry their evidence (no
    evidence query). What approving one does is ``core.reflect.lifecycle``'s (``approver``,
    ``carry_out``)."""
    SPECS[pattern] = spec
    if self_evident:
        SELF_EVIDENT.add(pattern)
