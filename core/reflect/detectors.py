"""Cross-project solutions, training opportunities, technique transfer and stale knowledge, found
once for every backend over the plain reads of ``Detection`` (``core.reflect.reading``).

Each backend reads the graph's working sets (the live Problems, the issues' links to concepts and
projects, the courses, the domains); what a pattern means is here: which problems are open, a
problem's project, which pairs qualify, how the evidence is cut and ordered. The rows and the
evidence are those ``core.reflect.patterns`` drafts insights from.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.reflect.reading import Reading, Row

Links = dict[tuple[int, int], tuple[str, int]]  # (a, b) → (rel, outward): the relation named


@dataclass(frozen=True)
class Problem:
    open: bool  # its status is not a resolved one, and no live Decision solved it
    solved_by: int | None  # the (lowest-id) live Decision that solved it
    project: int  # its lowest-id linked live Project, 0 for none
    sole: int  # its only project, 0 when it has none or several


def issue_concepts(reading: Reading) -> list[tuple[int, int]]:
    """(issue, concept): live Problems and Vulnerabilities linked to live Concepts."""
    return reading.once("issue_concepts", lambda: reading.det.issue_links("Concept"))


def named(reading: Reading, pairs: Sequence[tuple[int, int]]) -> Links:
    """For each linked pair, the relation its evidence names: one pointing from the first node to
    the second if there is one, then the least type."""
    out: Links = {}
    for a, b, rel, outward in reading.det.links_between(pairs):
        seen = out.get((a, b))
        if seen is None or (-outward, rel) < (-seen[1], seen[0]):
            out[(a, b)] = (rel, outward)
    return out


def problems(reading: Reading) -> dict[int, Problem]:
    """Every live Problem (see ``Problem``)."""
    def build() -> dict[int, Problem]:
        projects: dict[int, list[int]] = defaultdict(list)
        for iid, pid in reading.det.issue_links("Project"):
            projects[iid].append(pid)
        resolved = {s.lower() for s in reading.rules.resolved_statuses}
        out = {}
        for pid, status, solved in reading.det.problems():
            mine = projects.get(pid, [])
            out[pid] = Problem(str(status or "").lower() not in resolved and solved is None, solved,
                               min(mine) if mine else 0, mine[0] if len(mine) == 1 else 0)
        return out
    return reading.once("problems", build)


def _concepts_of(reading: Reading) -> dict[int, list[int]]:
    def build() -> dict[int, list[int]]:
        out: dict[int, list[int]] = defaultdict(list)
        for iid, cid in issue_concepts(reading):
            out[iid].append(cid)
        return out
    return reading.once("concepts_of_issue", build)


# -- cross_project_solutions: an open problem (in a project) shares a concept with a problem a
# decision solved, in a project: the pair qualifies unless both sit in the same single project.

def _solved(reading: Reading) -> dict[int, list[int]]:
    """Concept → the solved problems (with a project) linked to it, newest first."""
    def build() -> dict[int, list[int]]:
        probs = problems(reading)
        out: dict[int, list[int]] = defaultdict(list)
        for iid, cid in issue_concepts(reading):
            p = probs.get(iid)
            if p is not None and p.solved_by is not None and p.project != 0:
                out[cid].append(iid)
        for found in out.values():
            found.sort(reverse=True)
        return out
    return reading.once("solved_by_concept", build)


def cross_project_rows(reading: Reading) -> list[Row]:
    probs, concepts = problems(reading), _concepts_of(reading)
    # concept → the sole projects of its solved problems
    soles = {cid: {probs[a].sole for a in found} for cid, found in _solved(reading).items()}
    rows = []
    for pid, o in probs.items():
        if not o.open or o.project == 0:
            continue
        for cid in concepts.get(pid, ()):
            found = soles.get(cid)
            if found and (o.sole == 0 or len(found) > 1 or o.sole not in found):
                rows.append((pid,))
                break
    return rows


def cross_project_evidence(reading: Reading, keys: Sequence[Any]) -> dict[Any, dict[str, Any]]:
    """Per open problem: up to ``evidence_cap`` (concept, solved problem, decision) matches, the
    newest solutions. Each concept's solved problems are first cut to ``cap`` per sole project and
    2·``cap`` in all: for any open problem at most ``cap`` of those share its sole project, so
    whenever a match exists at least one survives the cut, without pairing every open problem of a
    popular concept with every solved one."""
    probs, concepts, cap = problems(reading), _concepts_of(reading), reading.rules.evidence_cap
    cut: dict[int, list[int]] = {}
    picked: dict[int, list[tuple[int, int]]] = {}
    for oid in keys:
        o = probs.get(oid)
        if o is None or o.project == 0:
            continue
        pairs = []
        for cid in concepts.get(oid, ()):
            if cid not in cut:
                per_sole: dict[int, int] = defaultdict(int)
                kept = []
                for aid in _solved(reading).get(cid, ()):
                    per_sole[probs[aid].sole] += 1
                    if per_sole[probs[aid].sole] <= cap:
                        kept.append(aid)
                cut[cid] = kept[: 2 * cap]
            pairs += [(cid, aid) for aid in cut[cid] if not (o.sole != 0 and probs[aid].sole == o.sole)]
        if pairs:
            picked[oid] = sorted(pairs, key=lambda p: (-p[1], p[0]))[:cap]
    names = reading.det.names(sorted({i for oid, pairs in picked.items() for cid, aid in pairs
                                      for i in (cid, aid, probs[aid].solved_by, probs[oid].project,
                                                probs[aid].project) if i is not None}))
    links = named(reading, sorted({p for oid, pairs in picked.items() for cid, aid in pairs
                                   for p in ((oid, cid), (aid, cid))}))
    out: dict[Any, dict[str, Any]] = {}
    for oid, pairs in picked.items():
        o = probs[oid]
        matches = []
        # Listed by concept name, then oldest solution first: the order the SQL this replaced gave
        # (so stored insights read the same), the first named in the summary.
        for cid, aid in sorted(pairs, key=lambda p: (names[p[0]][0], p[1])):
            a = probs[aid]
            did = a.solved_by
            assert did is not None
            matches.append([cid, names[cid][0], *links[(oid, cid)], aid, names[aid][0], *links[(aid, cid)],
                            did, names[did][0], o.project, names[o.project][0], a.project, names[a.project][0]])
        out[oid] = {"problem_id": oid, "matches": matches}
    return out


# -- training_opportunities: a vulnerability or an open problem is linked to a concept a course covers

def _courses(reading: Reading) -> dict[int, list[int]]:
    def build() -> dict[int, list[int]]:
        out: dict[int, list[int]] = defaultdict(list)
        for cid, kid in reading.det.courses(reading.rules.evidence_cap):
            out[cid].append(kid)
        return out
    return reading.once("courses", build)


def training_rows(reading: Reading) -> list[Row]:
    probs, courses, concepts = problems(reading), _courses(reading), _concepts_of(reading)
    issues = [p for p, v in probs.items() if v.open] + list(reading.det.live_ids("Vulnerability"))
    return [(i,) for i in issues if any(c in courses for c in concepts.get(i, ()))]


def training_evidence(reading: Reading, keys: Sequence[Any]) -> dict[Any, dict[str, Any]]:
    """Per issue: its first ``evidence_cap`` (concept, course) pairs, by concept then course id."""
    courses, concepts, cap = _courses(reading), _concepts_of(reading), reading.rules.evidence_cap
    picked = {iid: sorted((cid, kid) for cid in concepts.get(iid, ()) for kid in courses.get(cid, ()))[:cap]
              for iid in keys}
    names = reading.det.names(sorted({i for pairs in picked.values() for p in pairs for i in p}))
    links = named(reading, sorted({(iid, cid) for iid, pairs in picked.items() for cid, _ in pairs}))
    return {iid: {"issue_id": iid, "matches": [[cid, names[cid][0], *links[(iid, cid)], kid, names[kid][0]]
                                               for cid, kid in pairs]}
            for iid, pairs in picked.items() if pairs}


# -- technique_transfer: a technique in some domain A shares concepts with live entities in a
# domain B it is not in yet; n = how many concepts it shares with B.

@dataclass(frozen=True)
class _Techniques:
    homes: dict[int, list[int]]  # node → its domains, by id
    concepts: dict[int, dict[int, tuple[str, int]]]  # technique → concept → (rel, outward)
    domains: dict[int, dict[int, tuple[int, str, int]]]  # concept → domain → (example, rel, outward)


def _techniques(reading: Reading) -> _Techniques:
    def build() -> _Techniques:
        homes: dict[int, list[int]] = defaultdict(list)
        for nid, did in sorted(reading.det.in_domain()):
            homes[nid].append(did)
        concepts: dict[int, dict[int, tuple[str, int]]] = defaultdict(dict)
        for tid, cid, rel, out in reading.det.technique_concepts():
            concepts[tid][cid] = (rel, out)
        domains: dict[int, dict[int, tuple[int, str, int]]] = defaultdict(dict)
        for cid, did, eid, rel, out in reading.det.concept_domains():
            domains[cid][did] = (eid, rel, out)
        return _Techniques(homes, concepts, domains)
    return reading.once("techniques", build)


def technique_rows(reading: Reading) -> list[Row]:
    t = _techniques(reading)
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for tid, linked in t.concepts.items():
        home = t.homes.get(tid, ())
        for cid in linked:
            for did in t.domains.get(cid, ()):
                if did not in home:
                    counts[(tid, did)] += 1
    return [(tid, did, n) for (tid, did), n in counts.items()]


def technique_evidence(reading: Reading, keys: Sequence[Any]) -> dict[Any, dict[str, Any]]:
    """Per (technique, target domain): each shared concept with its example there, and the
    technique's own domains."""
    t = _techniques(reading)
    found: dict[tuple[int, int], list[tuple[Any, ...]]] = {}
    for tid, did in keys:
        for cid, (rel, outward) in t.concepts.get(tid, {}).items():
            hit = t.domains.get(cid, {}).get(did)
            if hit is not None:
                found.setdefault((tid, did), []).append((cid, rel, outward, *hit))
    names = reading.det.names(sorted({i for (tid, did), rows in found.items()
                                      for i in (*(r[0] for r in rows), *(r[3] for r in rows), *t.homes.get(tid, ()))}))
    out: dict[Any, dict[str, Any]] = {}
    for (tid, did), rows in found.items():
        out[(tid, did)] = {
            "technique_id": tid, "domain_id": did,
            "shared": [[cid, names[cid][0], rel, o, eid, names[eid][0], names[eid][1], erel, eout]
                       for cid, rel, o, eid, erel, eout in rows],
            "home_domains": [[h, names[h][0]] for h in t.homes.get(tid, ())]}
    return out


# -- stale_knowledge: a live node, not a Project/Course/Domain, last updated on or before the cutoff
# (``stale_after_days`` before now) or with a confidence below ``low_confidence``, linked to an
# active Project or Course (status among ``active_statuses``, or none).

def _is(reading: Reading, etype: str, labels: Sequence[str]) -> bool:
    return any(etype in reading.rules.spellings(label, [etype]) for label in labels)


@dataclass(frozen=True)
class _Stale:
    found: dict[int, set[int]]  # stale node → the active ones it is linked to
    facts: dict[int, tuple[str, float | None]]  # stale node → (updated_at, confidence)


def _stale(reading: Reading) -> _Stale:
    def build() -> _Stale:
        rules, det = reading.rules, reading.det
        active_statuses = {"", *(s.lower() for s in rules.active_statuses)}
        active = sorted(i for label in ("Project", "Course") for i, status in det.statuses(label)
                        if status in active_statuses)
        pairs = det.linked_ids(active)
        facts = det.node_facts(sorted({n for _, n in pairs}))
        skip = {t for t in {f[1] for f in facts} if _is(reading, t, ("Project", "Course", "Domain", "Insight"))}
        cutoff, low = det.cutoff, rules.low_confidence
        old = {i: (updated, conf) for i, etype, updated, conf in facts
               if etype not in skip and (updated <= cutoff or (conf is not None and conf < low))}
        found: dict[int, set[int]] = defaultdict(set)
        for aid, nid in pairs:
            if nid in old:
                found[nid].add(aid)
        return _Stale(found, old)
    return reading.once("stale", build)


def stale_rows(reading: Reading) -> list[Row]:
    return [(nid, len(actives)) for nid, actives in _stale(reading).found.items()]


def stale_evidence(reading: Reading, keys: Sequence[Any]) -> dict[Any, dict[str, Any]]:
    """Per stale node: when it was last updated, its confidence, and its first ``evidence_cap``
    active projects and courses (by id), each by its least relation type (of two alike, the one
    from the node to the active one)."""
    stale, cap = _stale(reading), reading.rules.evidence_cap
    picked = {nid: sorted(stale.found[nid])[:cap] for nid in keys if nid in stale.found}
    links: dict[tuple[int, int], tuple[str, int]] = {}
    for nid, aid, rel, outward in reading.det.links_between([(n, a) for n, v in picked.items() for a in v]):
        seen = links.get((nid, aid))
        if seen is None or (rel, -outward) < (seen[0], -seen[1]):
            links[(nid, aid)] = (rel, outward)
    names = reading.det.names(sorted({a for v in picked.values() for a in v}))
    return {nid: {"node_id": nid, "updated_at": stale.facts[nid][0], "node_confidence": stale.facts[nid][1],
                  "active": [[a, names[a][0], names[a][1], *links[(nid, a)]] for a in actives]}
            for nid, actives in picked.items()}
