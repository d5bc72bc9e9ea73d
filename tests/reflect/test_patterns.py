"""Each of the seven patterns: a small graph where it must fire, and a near miss where it must not."""

from __future__ import annotations

import pytest

from core.memory import Memory
from tests.conftest import SteppingClock
from tests.reflect.conftest import build, evidence_names, of_pattern, one

# -- cross_project_solutions (0.85) ------------------------------------------------------------

CROSS_NODES = {
    "Hipocampo": "Project", "Engrama": "Project", "Indexing": "Concept", "Use FTS5": "Decision",
    "Slow search": ("Problem", {"status": "open"}),
    "Slow import": ("Problem", {"status": "resolved"}),
}
CROSS_RELS = [
    ("Slow search", "BELONGS_TO", "Hipocampo"), ("Slow import", "BELONGS_TO", "Engrama"),
    ("Slow search", "INSTANCE_OF", "Indexing"), ("Slow import", "INSTANCE_OF", "Indexing"),
    ("Slow import", "SOLVED_BY", "Use FTS5"),
]


def test_cross_project_solution_fires(mem: Memory) -> None:
    build(mem, CROSS_NODES, CROSS_RELS)
    mem.reflect()
    insight = one(mem, "Cross-project solution for Slow search")
    assert insight["pattern"] == "cross_project_solutions"
    assert insight["confidence"] == 0.85 and insight["status"] == "pending" and not insight["stale"]
    assert evidence_names(insight, "open_problem") == {"Slow search"}
    assert evidence_names(insight, "solved_problem") == {"Slow import"}
    assert evidence_names(insight, "decision") == {"Use FTS5"}
    assert evidence_names(insight, "concept") == {"Indexing"}
    assert evidence_names(insight, "source_project") == {"Engrama"}
    assert insight["evidence"]["path"] == [  # three hops, each a real relation in its direction
        {"from": "Slow search", "rel": "INSTANCE_OF", "to": "Indexing"},
        {"from": "Slow import", "rel": "INSTANCE_OF", "to": "Indexing"},
        {"from": "Slow import", "rel": "SOLVED_BY", "to": "Use FTS5"},
    ]
    assert "Use FTS5" in insight["summary"]


@pytest.mark.parametrize("change", ["same project", "no decision", "not open", "no project"])
def test_cross_project_solution_near_misses(mem: Memory, change: str) -> None:
    nodes, rels = dict(CROSS_NODES), list(CROSS_RELS)
    if change == "same project":
        rels[1] = ("Slow import", "BELONGS_TO", "Hipocampo")
    elif change == "no decision":  # resolved by status alone: nothing to transfer
        rels.remove(("Slow import", "SOLVED_BY", "Use FTS5"))
    elif change == "not open":
        nodes["Slow search"] = ("Problem", {"status": "Done"})  # statuses compare case-blind
    else:
        rels.remove(("Slow search", "BELONGS_TO", "Hipocampo"))
    build(mem, nodes, rels)
    mem.reflect()
    assert of_pattern(mem, "cross_project_solutions") == []


def test_a_problem_solved_by_a_decision_is_not_open(mem: Memory) -> None:
    nodes = {**CROSS_NODES, "Slow search": "Problem", "Other fix": "Decision"}
    build(mem, nodes, [*CROSS_RELS, ("Slow search", "SOLVED_BY", "Other fix")])
    mem.reflect()
    assert of_pattern(mem, "cross_project_solutions") == []


# -- shared_technology (0.75 across labels, 0.6 within one) --------------------------------------

def test_shared_technology_within_one_label(mem: Memory) -> None:
    build(mem, {"Hipocampo": "Project", "Engrama": "Project", "SQLite": "Technology"},
          [("Hipocampo", "USES", "SQLite"), ("Engrama", "USES", "SQLite")])
    mem.reflect()
    insight = one(mem, "Shared technology: SQLite")
    assert insight["confidence"] == 0.6
    assert evidence_names(insight, "user") == {"Hipocampo", "Engrama"}
    assert evidence_names(insight, "technology") == {"SQLite"}
    assert {"from": "Engrama", "rel": "USES", "to": "SQLite"} in insight["evidence"]["path"]


def test_shared_technology_across_labels_counts_teaches_and_composed_of(mem: Memory) -> None:
    build(mem, {"Hipocampo": "Project", "DB course": "Course", "Embedded DB": "Model",
                "SQLite": "Technology"},
          [("Hipocampo", "USES", "SQLite"), ("DB course", "TEACHES", "SQLite"),
           ("Embedded DB", "COMPOSED_OF", "SQLite")])
    mem.reflect()
    insight = one(mem, "Shared technology: SQLite")
    assert insight["confidence"] == 0.75
    assert insight["evidence"]["total"] == 3


@pytest.mark.parametrize("change", ["one user", "other relation", "archived technology"])
def test_shared_technology_near_misses(mem: Memory, change: str) -> None:
    rels = [("Hipocampo", "USES", "SQLite"),
            ("Engrama", "RELATED_TO" if change == "other relation" else "USES", "SQLite")]
    if change == "one user":
        rels = rels[:1]
    build(mem, {"Hipocampo": "Project", "Engrama": "Project", "SQLite": "Technology"}, rels)
    if change == "archived technology":
        mem.archive_node("SQLite")
    mem.reflect()
    assert of_pattern(mem, "shared_technology") == []


# -- training_opportunities (0.65) ---------------------------------------------------------------

def test_training_opportunity_for_a_vulnerability_and_an_open_problem(mem: Memory) -> None:
    build(mem, {"SQL injection": "Vulnerability", "Flaky login": ("Problem", {"status": "open"}),
                "Input validation": "Concept", "Secure coding": "Course"},
          [("SQL injection", "INSTANCE_OF", "Input validation"),
           ("Input validation", "RELATED_TO", "Flaky login"),  # linked either way
           ("Secure coding", "COVERS", "Input validation")])
    mem.reflect()
    vuln = one(mem, "Training opportunity: SQL injection")
    assert vuln["confidence"] == 0.65
    assert evidence_names(vuln, "course") == {"Secure coding"}
    assert evidence_names(vuln, "concept") == {"Input validation"}
    assert vuln["evidence"]["path"][-1] == {
        "from": "Secure coding", "rel": "COVERS", "to": "Input validation"}
    assert one(mem, "Training opportunity: Flaky login")["evidence"]["path"][0] == {
        "from": "Input validation", "rel": "RELATED_TO", "to": "Flaky login"}


@pytest.mark.parametrize("change", ["resolved problem", "course only related"])
def test_training_opportunity_near_misses(mem: Memory, change: str) -> None:
    status = "resolved" if change == "resolved problem" else "open"
    covers = "RELATED_TO" if change == "course only related" else "COVERS"
    build(mem, {"Flaky login": ("Problem", {"status": status}), "Input validation": "Concept",
                "Secure coding": "Course"},
          [("Flaky login", "INSTANCE_OF", "Input validation"), ("Secure coding", covers, "Input validation")])
    mem.reflect()
    assert of_pattern(mem, "training_opportunities") == []


# -- technique_transfer (min(0.5 + 0.1·n, 0.9)) ---------------------------------------------------

TECH_NODES = {"Fuzzing": "Technique", "Security": "Domain", "Finance": "Domain",
              "Input parsing": "Concept", "Edge cases": "Concept",
              "Payment parser": "Project", "Rounding bugs": "Problem"}
TECH_RELS = [("Fuzzing", "IN_DOMAIN", "Security"), ("Fuzzing", "APPLIES", "Input parsing"),
             ("Fuzzing", "APPLIES", "Edge cases"),
             ("Payment parser", "IN_DOMAIN", "Finance"), ("Payment parser", "INSTANCE_OF", "Input parsing"),
             ("Rounding bugs", "IN_DOMAIN", "Finance"), ("Rounding bugs", "INSTANCE_OF", "Edge cases")]


def test_technique_transfer_fires_with_n_shared_concepts(mem: Memory) -> None:
    build(mem, TECH_NODES, TECH_RELS)
    mem.reflect()
    insight = one(mem, "Technique transfer: Fuzzing → Finance")
    assert insight["confidence"] == 0.7  # two shared concepts
    assert evidence_names(insight, "concept") == {"Input parsing", "Edge cases"}
    assert evidence_names(insight, "home_domain") == {"Security"}
    assert evidence_names(insight, "example") <= {"Payment parser", "Rounding bugs"}
    path = insight["evidence"]["path"]
    assert len(path) == 3 and path[-1]["rel"] == "IN_DOMAIN" and path[-1]["to"] == "Finance"
    assert of_pattern(mem, "technique_transfer") == [insight]  # not towards its own domain


@pytest.mark.parametrize("change", ["already in the domain", "in no domain"])
def test_technique_transfer_near_misses(mem: Memory, change: str) -> None:
    rels = list(TECH_RELS)
    if change == "already in the domain":
        rels.append(("Fuzzing", "IN_DOMAIN", "Finance"))
    else:
        rels.remove(("Fuzzing", "IN_DOMAIN", "Security"))
    build(mem, TECH_NODES, rels)
    mem.reflect()
    assert of_pattern(mem, "technique_transfer") == []


# -- concept_clusters (min(0.5 + 0.05·n, 0.9)) ----------------------------------------------------

def test_concept_cluster_fires_from_three_entities(mem: Memory) -> None:
    build(mem, {"Caching": "Concept", "A": "Project", "B": "Person", "C": "Decision"},
          [("A", "INSTANCE_OF", "Caching"), ("B", "RELATED_TO", "Caching"), ("Caching", "HAS", "C")])
    mem.reflect()
    insight = one(mem, "Concept cluster: Caching")
    assert insight["confidence"] == 0.65
    assert evidence_names(insight, "member") == {"A", "B", "C"}
    assert insight["evidence"]["total"] == 3


def test_concept_cluster_confidence_is_capped(mem: Memory) -> None:
    members = {f"Member {i:02d}": "Project" for i in range(12)}
    build(mem, {"Caching": "Concept", **members}, [(m, "INSTANCE_OF", "Caching") for m in members])
    mem.reflect()
    assert one(mem, "Concept cluster: Caching")["confidence"] == 0.9


@pytest.mark.parametrize("change", ["two entities", "one archived", "same neighbour twice"])
def test_concept_cluster_near_misses(mem: Memory, change: str) -> None:
    rels = [("A", "INSTANCE_OF", "Caching"), ("B", "RELATED_TO", "Caching"), ("C", "USES", "Caching")]
    if change == "two entities":
        rels = rels[:2]
    if change == "same neighbour twice":  # two relations to one entity count it once
        rels = [rels[0], rels[1], ("A", "RELATED_TO", "Caching")]
    build(mem, {"Caching": "Concept", "A": "Project", "B": "Person", "C": "Tool"}, rels)
    if change == "one archived":
        mem.archive_node("C")
    mem.reflect()
    assert of_pattern(mem, "concept_clusters") == []


# -- stale_knowledge (0.5) -----------------------------------------------------------------------

def test_stale_knowledge_by_age(mem: Memory, clock: SteppingClock) -> None:
    build(mem, {"Old API": "Technology", "Hipocampo": ("Project", {"status": "active"})},
          [("Hipocampo", "USES", "Old API")])
    clock.advance(days=89)
    mem.reflect()
    assert of_pattern(mem, "stale_knowledge") == []
    clock.advance(days=1)  # 90 days: no write in between, only time passed
    result = mem.reflect()
    assert result["incremental"] is True  # the structural patterns were skipped…
    insight = one(mem, "Stale knowledge: Old API")  # …but the clock-dependent one ran
    assert insight["confidence"] == 0.5
    assert evidence_names(insight, "active") == {"Hipocampo"}
    assert "2026-01-01" in insight["summary"]


def test_stale_knowledge_by_low_confidence_and_projects_without_status(mem: Memory) -> None:
    build(mem, {"Rumour": ("Concept", {"confidence": 0.2}), "Hipocampo": "Project"},
          [("Rumour", "RELATED_TO", "Hipocampo")])
    mem.reflect()
    insight = one(mem, "Stale knowledge: Rumour")
    assert "confidence is low (0.20)" in insight["summary"]


@pytest.mark.parametrize("change", ["finished project", "confident and fresh", "only projects"])
def test_stale_knowledge_near_misses(mem: Memory, clock: SteppingClock, change: str) -> None:
    status = "done" if change == "finished project" else "active"
    rels = [("Engrama", "RELATED_TO", "Hipocampo")]  # a Project is never the stale node
    if change != "only projects":
        rels.append(("Hipocampo", "USES", "Old API"))
    build(mem, {"Old API": ("Technology", {"confidence": 0.9}),
                "Hipocampo": ("Project", {"status": status}), "Engrama": ("Project", {"status": "active"})},
          rels)
    if change != "confident and fresh":
        clock.advance(days=120)
    mem.reflect()
    assert of_pattern(mem, "stale_knowledge") == []


# -- under_connected_nodes (0.4, one combined insight) --------------------------------------------

def test_under_connected_nodes_is_one_combined_insight(mem: Memory) -> None:
    build(mem, {"Lonely": "Concept", "Placeholder": ("Concept", {"stub": True}),
                "Half": "Person", "Hub": "Project", "Other": "Project", "Field": "Domain",
                "Gone": "Person"},
          [("Half", "BELONGS_TO", "Hub"), ("Half", "RELATED_TO", "Placeholder"),  # a stub edge isn't real
           ("Hub", "RELATED_TO", "Other"), ("Other", "RELATED_TO", "Gone"), ("Hub", "IN_DOMAIN", "Field"),
           ("Gone", "RELATED_TO", "Hub")])
    mem.archive_node("Gone")
    mem.reflect()
    [insight] = of_pattern(mem, "under_connected_nodes")
    assert insight["title"] == "Under-connected nodes" and insight["confidence"] == 0.4
    # Other's edge to an archived node does not count; Domains and archived nodes are left out.
    assert evidence_names(insight) == {"Lonely", "Placeholder", "Half", "Other"}
    assert insight["evidence"]["total"] == 4
    assert insight["summary"].startswith("4 node(s) have fewer than 2 real connections")


def test_under_connected_near_miss(mem: Memory) -> None:
    build(mem, {"A": "Project", "B": "Person", "C": "Concept", "Field": "Domain"},
          [("A", "RELATED_TO", "B"), ("B", "RELATED_TO", "C"), ("C", "RELATED_TO", "A")])
    mem.reflect()
    assert of_pattern(mem, "under_connected_nodes") == []
