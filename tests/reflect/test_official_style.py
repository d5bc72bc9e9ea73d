"""Reflect on the graphs official memory server users write: lower-case types and relations
(``technology``, ``uses``, ``works_on``), and other common words for them (profile synonyms)."""

from __future__ import annotations

from core.memory import Memory
from core.reflect.model import ReflectRules
from tests.reflect.conftest import evidence_names, of_pattern, one


def official(mem: Memory, entities: dict[str, str], relations: list[tuple[str, str, str]]) -> None:
    """Written as an official-server client writes: create_entities / create_relations, no properties."""
    mem.create_entities([{"name": n, "entityType": t, "observations": [f"about {n}"]} for n, t in entities.items()])
    mem.create_relations([{"from": a, "relationType": r, "to": b} for a, r, b in relations])


def test_lower_case_types_and_relations_find_a_shared_technology(mem: Memory) -> None:
    official(mem, {"Alice": "person", "Checkout": "project", "Search": "project", "Redis": "technology"},
             [("Alice", "works_on", "Checkout"), ("Checkout", "uses", "Redis"), ("Search", "uses", "Redis")])
    mem.reflect()
    insight = one(mem, "Shared technology: Redis")
    assert evidence_names(insight, "user") == {"Checkout", "Search"}
    assert {"from": "Search", "rel": "uses", "to": "Redis"} in insight["evidence"]["path"]


def test_synonyms_from_the_profile(mem: Memory) -> None:
    official(mem, {"Checkout": "app", "Search": "service-x", "Postgres": "database"},
             [("Checkout", "built with", "Postgres"), ("Search", "Relies-On", "Postgres")])
    mem.reflect()
    assert one(mem, "Shared technology: Postgres")["evidence"]["total"] == 2


def test_an_official_style_cross_project_solution(mem: Memory) -> None:
    official(mem, {"Checkout": "project", "Search": "project", "Slow search": "bug", "Slow import": "issue",
                   "Use FTS5": "decision", "Indexing": "concept"},
             [("Slow search", "belongs_to", "Search"), ("Slow import", "belongs_to", "Checkout"),
              ("Slow search", "instance_of", "Indexing"), ("Slow import", "instance_of", "Indexing"),
              ("Slow import", "fixed_by", "Use FTS5")])
    mem.reflect()
    (insight,) = of_pattern(mem, "cross_project_solutions")
    assert evidence_names(insight, "solved_problem") == {"Slow import"}


def test_unrelated_words_do_not_match(mem: Memory) -> None:
    official(mem, {"Checkout": "project", "Search": "project", "Redis": "technologyish"},
             [("Checkout", "uses", "Redis"), ("Search", "abuses", "Redis")])
    mem.reflect()
    assert of_pattern(mem, "shared_technology") == []


def test_spellings_ignore_case_and_separators_only() -> None:
    rules = ReflectRules(synonyms=(("SOLVED_BY", ("fixed by",)),))
    present = ["solved_by", "Solved-By", "solved by", "SOLVEDBY", "fixed_by", "solved", "unsolved_by"]
    assert rules.spellings("SOLVED_BY", present) == sorted(
        ["SOLVED_BY", "solved_by", "Solved-By", "solved by", "SOLVEDBY", "fixed_by"])
