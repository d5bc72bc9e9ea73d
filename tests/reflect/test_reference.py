"""The detectors agree with a plain-Python reading of the pattern definitions on random graphs.

The reference below is written straight from the definitions (REFERENCE §3, ``core.reflect.detectors``),
with no shortcuts, so the index tricks and cuts of the detectors and their SQL reads (sole projects,
raw degrees, capped courses) are checked against the meaning they keep.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from core.memory import Memory
from core.reflect.model import PATTERNS, ReflectRules
from core.settings import Settings
from tests.conftest import SteppingClock

LABELS = ["Project", "Problem", "Decision", "Concept", "Technology", "Course", "Vulnerability",
          "Technique", "Domain", "Person", "Note", "Tool"]
TYPES = ["USES", "TEACHES", "COMPOSED_OF", "SOLVED_BY", "COVERS", "IN_DOMAIN", "INSTANCE_OF",
         "RELATED_TO", "BELONGS_TO", "HAS", "APPLIES"]
STATUSES = [None, "open", "resolved", "closed", "done", "Done", "active", "ACTIVE", "stub", ""]


# Mostly the relations Engrama users write (so that three-hop patterns occur), plus noise.
TYPICAL: dict[str, list[tuple[str, str]]] = {
    "Problem": [("SOLVED_BY", "Decision"), ("INSTANCE_OF", "Concept"), ("BELONGS_TO", "Project")],
    "Project": [("USES", "Technology"), ("HAS", "Problem"), ("IN_DOMAIN", "Domain")],
    "Course": [("COVERS", "Concept"), ("TEACHES", "Technology")],
    "Vulnerability": [("INSTANCE_OF", "Concept")],
    "Technique": [("IN_DOMAIN", "Domain"), ("APPLIES", "Concept")],
    "Person": [("BELONGS_TO", "Project"), ("IN_DOMAIN", "Domain"), ("USES", "Technology")],
    "Tool": [("USES", "Technology"), ("IN_DOMAIN", "Domain")],
    "Concept": [("IN_DOMAIN", "Domain"), ("RELATED_TO", "Concept")],
    "Decision": [("INSTANCE_OF", "Concept")],
}


def random_graph(m: Memory, clock: SteppingClock, rng: random.Random, size: int) -> None:
    names = [f"n{i}" for i in range(size)]
    # Problems weigh more: the cross-project pattern needs two of them, a concept and two projects.
    labels = {n: rng.choice([*LABELS, "Problem", "Problem", "Problem", "Project", "Concept"]) for n in names}
    for i, name in enumerate(names):
        if i == size // 2:
            clock.advance(days=100)  # the first half is old by the time reflect runs
        props: dict[str, Any] = {}
        if rng.random() < 0.6:
            props["status"] = rng.choice(STATUSES)
        if rng.random() < 0.1:
            props["stub"] = rng.choice([True, "true", False])
        if rng.random() < 0.15:
            props["confidence"] = rng.choice([0.1, 0.29, 0.3, 0.9, "0.1"])
        m.merge_node(labels[name], name, props)
    by_label: dict[str, list[str]] = defaultdict(list)
    for name, lab in labels.items():
        by_label[lab].append(name)
    rels = set()
    for _ in range(size * 4):
        a = rng.choice(names)
        typical = TYPICAL.get(labels[a])
        if typical and rng.random() < 0.75:
            rtype, target = rng.choice(typical)
            if by_label[target]:
                rels.add((a, rtype, rng.choice(by_label[target])))
                continue
        rels.add((a, rng.choice(TYPES), rng.choice(names)))
    m.create_relations([{"from": a, "relationType": t, "to": b} for a, t, b in rels if a != b])
    for name in rng.sample(names, k=size // 12):
        m.archive_node(name)
    for name in rng.sample(names[: size // 2], k=size // 10):  # touched recently: not stale by age
        m.add_observations([{"entityName": name, "contents": ["touched"]}])


def reference(m: Memory, rules: ReflectRules, cutoff: str) -> dict[str, dict[Any, Any]]:
    """Every pattern's candidates as {key: counts}, computed naively from the public API."""
    nodes = {n.id: n for n in m.list_nodes(include_archived=True)}
    by_name = {n.name: n.id for n in nodes.values()}
    edges = [(by_name[r.from_], r.relationType, by_name[r.to]) for r in m.read_graph().relations]

    def live(i: int) -> bool:
        return nodes[i].archived_at is None and nodes[i].label != "Insight"

    def label(i: int) -> str:
        return nodes[i].label

    def status(i: int) -> str:
        value = nodes[i].props.get("status")
        return (value or "").lower() if isinstance(value, str) else ""

    def stub(i: int) -> bool:
        return nodes[i].props.get("stub") in (True, "true") or status(i) == "stub"

    linked: dict[int, set[int]] = defaultdict(set)
    out: dict[int, set[tuple[str, int]]] = defaultdict(set)
    for a, t, b in edges:
        linked[a].add(b)
        linked[b].add(a)
        out[a].add((t, b))

    def of(i: int, lab: str) -> set[int]:
        return {j for j in linked[i] if label(j) == lab and live(j)}

    def typed(i: int, types: tuple[str, ...], lab: str) -> set[int]:
        return {j for t, j in out[i] if t in types and label(j) == lab and live(j)}

    problems = [i for i in nodes if label(i) == "Problem" and live(i)]
    solved = {p for p in problems if typed(p, (rules.solved_by_relation,), "Decision")}
    opened = {p for p in problems if p not in solved and status(p) not in rules.resolved_statuses}
    found: dict[str, dict[Any, Any]] = {p: {} for p in PATTERNS}

    for o in opened:
        for a in solved:
            pairs = {(x, y) for x in of(o, "Project") for y in of(a, "Project") if x != y}
            if a != o and pairs and of(o, "Concept") & of(a, "Concept"):
                found["cross_project_solutions"][o] = None
    for t in (i for i in nodes if label(i) == "Technology" and live(i)):
        users = {u for u in nodes if live(u) and u != t and any(
            (k, t) in out[u] for k in rules.uses_relations)}
        if len(users) >= 2:
            found["shared_technology"][t] = (len(users), len({label(u) for u in users}))
    covered = {c for c in nodes if label(c) == "Concept" and live(c) and any(
        label(k) == "Course" and live(k) and (rules.covers_relation, c) in out[k] for k in nodes)}
    vulns = {i for i in nodes if label(i) == "Vulnerability" and live(i)}
    for issue in opened | vulns:
        if of(issue, "Concept") & covered:
            found["training_opportunities"][issue] = None
    for t in (i for i in nodes if label(i) == "Technique" and live(i)):
        home = typed(t, (rules.in_domain_relation,), "Domain")
        if not home:
            continue
        shared: dict[int, set[int]] = defaultdict(set)
        for c in of(t, "Concept"):
            for e in linked[c]:
                if live(e):
                    for d in typed(e, (rules.in_domain_relation,), "Domain") - home:
                        shared[d].add(c)
        for d, concepts in shared.items():
            found["technique_transfer"][(t, d)] = len(concepts)
    for c in (i for i in nodes if label(i) == "Concept" and live(i)):
        members = {n for n in linked[c] if live(n) and n != c}
        if len(members) >= rules.min_cluster_size:
            found["concept_clusters"][c] = len(members)
    active = {a for a in nodes if label(a) in ("Project", "Course") and live(a)
              and status(a) in ("", *rules.active_statuses)}
    for n in nodes:
        conf = nodes[n].props.get("confidence")
        low = isinstance(conf, (int, float)) and not isinstance(conf, bool) and conf < rules.low_confidence
        if (live(n) and label(n) not in ("Project", "Course", "Domain")
                and (nodes[n].updated_at <= cutoff or low) and linked[n] & active):
            found["stale_knowledge"][n] = len(linked[n] & active)
    under = 0
    for n in nodes:
        if live(n) and label(n) != "Domain":
            real = sum(1 for a, _, b in edges for end, other in ((a, b), (b, a))
                       if end == n and live(other) and not stub(other))
            under += real < 2
    if under:
        found["under_connected_nodes"][None] = under
    return found


def detected(m: Memory, rules: ReflectRules) -> tuple[dict[str, dict[Any, Any]], str]:
    from core.reflect.patterns import SPECS, Reading

    with m.graph.insight_store().detection(rules) as det:  # type: ignore[attr-defined]
        cutoff = det._params["cutoff"]  # noqa: SLF001 (the same cutoff the SQL used)
        found: dict[str, dict[Any, Any]] = {}
        for pattern in PATTERNS:
            spec = SPECS[pattern]
            rows = spec.find(Reading(det, m.graph, rules))
            counts = {
                "cross_project_solutions": lambda r: None, "training_opportunities": lambda r: None,
                "shared_technology": lambda r: (r[1], r[2]), "technique_transfer": lambda r: r[2],
                "concept_clusters": lambda r: r[1], "stale_knowledge": lambda r: r[1],
                "under_connected_nodes": lambda r: r[0],
            }[pattern]
            found[pattern] = {spec.key(r): counts(r) for r in rows}  # in no order: the engine ranks them
    return found, cutoff


SEEDS = range(10)
_seen: dict[str, int] = defaultdict(int)


@pytest.mark.parametrize("seed", SEEDS)
def test_sql_matches_the_definitions(tmp_path: Path, seed: int) -> None:
    clock = SteppingClock()
    rng = random.Random(seed)
    with Memory(Settings(db=tmp_path / "r.db", embeddings="none"), clock=clock) as m:
        random_graph(m, clock, rng, size=70)
        clock.advance(days=rng.choice([0, 1, 30]))
        rules = ReflectRules()
        found, cutoff = detected(m, rules)
        expected = reference(m, rules, cutoff)
        for pattern in PATTERNS:
            assert found[pattern] == expected[pattern], pattern
            _seen[pattern] += len(found[pattern])
        # And reflect writes one insight per candidate while the review queue has room.
        result = m.reflect()
        assert result["created"] == sum(min(len(v), rules.max_pending_per_pattern) for v in found.values())


def test_the_random_graphs_exercise_every_pattern() -> None:
    if len(_seen) < len(PATTERNS):
        pytest.skip("runs after test_sql_matches_the_definitions (same module, in order)")
    assert all(_seen[p] > 0 for p in PATTERNS), dict(_seen)


def test_cross_project_cut_keeps_a_match_behind_many_same_project_solutions(tmp_path: Path) -> None:
    """A popular concept whose newest solved problems all share the open problem's project must
    still yield the older one from another project (the per-project cut in the SQL)."""
    clock = SteppingClock()
    with Memory(Settings(db=tmp_path / "c.db", embeddings="none"), clock=clock) as m:
        m.merge_node("Project", "Far", {})
        m.merge_node("Problem", "Old fix", {"status": "resolved"})
        m.merge_node("Decision", "Decision 0", {})
        m.merge_node("Project", "Home", {})
        m.merge_node("Concept", "Popular", {})
        m.merge_node("Problem", "Open one", {"status": "open"})
        rels = [("Old fix", "BELONGS_TO", "Far"), ("Old fix", "INSTANCE_OF", "Popular"),
                ("Old fix", "SOLVED_BY", "Decision 0"), ("Open one", "BELONGS_TO", "Home"),
                ("Open one", "INSTANCE_OF", "Popular")]
        for i in range(1, 80):  # newer, same project as the open problem: never a match
            m.merge_node("Problem", f"Fix {i}", {"status": "resolved"})
            m.merge_node("Decision", f"Decision {i}", {})
            rels += [(f"Fix {i}", "BELONGS_TO", "Home"), (f"Fix {i}", "INSTANCE_OF", "Popular"),
                     (f"Fix {i}", "SOLVED_BY", f"Decision {i}")]
        m.create_relations([{"from": a, "relationType": t, "to": b} for a, t, b in rels])
        m.reflect()
        [insight] = [i for i in m.surface_insights(status="all") if i["pattern"] == "cross_project_solutions"]
        solved = {e["name"] for e in insight["evidence"]["entities"] if e["role"] == "solved_problem"}
        assert solved == {"Old fix"}


def test_old_cutoff_is_ninety_days(tmp_path: Path) -> None:
    clock = SteppingClock()
    with Memory(Settings(db=tmp_path / "t.db", embeddings="none"), clock=clock) as m:
        clock.advance(days=10)
        _, cutoff = detected(m, ReflectRules())
        assert cutoff == (clock.now - timedelta(days=90)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
