"""tidy: one list of what hygiene proposes (every registered kind), a dry run by default, and
applying chosen proposals; nothing lost (every fact before is reachable after, or by undo)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.errors import InvalidInput, NotFound
from core.hygiene import tidy as T
from core.memory import Memory
from core.reflect import lifecycle, patterns
from core.reflect.model import InsightDraft
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.fixture
def mem(tmp_path: Path, clock: SteppingClock) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "t.db", embeddings="none"), clock=clock) as m:
        m.create_entities([
            {"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme"]},
            {"name": "Ana_Garcia", "entityType": "Person", "observations": ["works at acme", "Likes tea"]},
            {"name": "Bob Smith", "entityType": "Person", "observations": ["Plays chess"]},
            {"name": "Robert Smith", "entityType": "Person", "observations": ["Plays chess!", "Lives in York"]},
            {"name": "Ana Gardner", "entityType": "Person", "observations": ["Lives in Leeds"]},
            {"name": "Billing", "entityType": "Service",
             "observations": ["Latency is 544 ms", "latency is 544 ms.", "Latency went from 544 ms to 62 ms"]},
            {"name": "Acme", "entityType": "Company"}])
        m.create_relations([{"from": "Ana_Garcia", "to": "Acme", "relationType": "works_at"},
                            {"from": "Bob Smith", "to": "Ana_Garcia", "relationType": "knows"},
                            {"from": "Robert Smith", "to": "Acme", "relationType": "works_at"}])
        yield m


def facts(m: Memory) -> set[tuple[str, str]]:
    return {(e.name, o) for e in m.read_graph().entities for o in e.observations}


def test_dry_run_lists_every_kind_and_changes_nothing(mem: Memory) -> None:
    version = mem.latest_change_id()
    listed = mem.tidy()
    assert listed["dry_run"] is True and set(listed["kinds"]) == {"duplicate_entities", "repeated_observations"}
    assert [(p["kind"], p["id"]) for p in listed["proposals"]] == [
        ("duplicate_entities", "Possible duplicates: Ana García and Ana_Garcia"),
        ("duplicate_entities", "Possible duplicates: Bob Smith and Robert Smith"),
        ("repeated_observations", "Repeated facts on Billing")]
    assert listed["proposals"][2]["preview"]["delete_observations"] == ["latency is 544 ms."]
    assert mem.latest_change_id() == version


def test_applying_chosen_proposals_loses_no_fact(mem: Memory, clock: SteppingClock) -> None:
    before = facts(mem)
    clock.advance(seconds=10)
    moment = clock.now
    clock.advance(seconds=10)
    ids = [p["id"] for p in mem.tidy()["proposals"]]
    done = mem.tidy(apply=ids)
    assert [d["kind"] for d in done["applied"]] == ["duplicate_entities", "duplicate_entities",
                                                    "repeated_observations"]
    after = facts(mem)
    past = {(e.name, o) for e in mem.query_at_date(moment).entities for o in e.observations}
    for name, fact in before:
        opened = mem.open_nodes([name]).entities  # a merged name opens the entity it joined
        reachable = any(fact in e.observations for e in opened) or (name, fact) in past
        assert reachable, (name, fact)
    assert ("Robert Smith", "Lives in York") in after and ("Robert Smith", "Plays chess!") in after
    assert {e.name for e in mem.open_nodes(["Bob Smith"]).entities} == {"Robert Smith"}
    for _ in done["applied"]:
        mem.undo_change()
    assert facts(mem) == before


def test_bad_ids_are_refused_and_change_nothing(mem: Memory) -> None:
    version = mem.latest_change_id()
    with pytest.raises(NotFound, match="run tidy without apply"):
        mem.tidy(apply=["Possible duplicates: Ana García and Ana_Garcia", "no such proposal"])
    with pytest.raises(InvalidInput):
        mem.tidy(apply="Repeated facts on Billing")
    assert mem.latest_change_id() == version


def test_a_registered_kind_is_listed_and_applied(mem: Memory) -> None:
    applied: list[dict[str, Any]] = []

    def detect(hs: Any, graph: Any) -> list[InsightDraft]:
        return [InsightDraft("Check Acme", "check_company", 0.5, "Acme needs a look.",
                             {"key": [1], "entities": [], "path": [], "total": 0})]

    T.register(T.HygieneKind("check_company", "companies to check", detect,
                             lambda m, e: {"would": "look"}, lambda m, e, a: applied.append(e) or {"looked": True}))
    try:
        listed = mem.tidy()
        assert "check_company" in listed["kinds"]
        assert [p["preview"] for p in listed["proposals"] if p["kind"] == "check_company"] == [{"would": "look"}]
        assert mem.tidy(apply=["Check Acme"])["applied"][0]["looked"] is True
    finally:
        T.KINDS.pop("check_company")
        patterns.SPECS.pop("check_company")
        patterns.SELF_EVIDENT.discard("check_company")
        lifecycle.CARRY_OUT.pop("check_company")


def test_a_dismissed_group_is_not_proposed_again_when_the_kept_one_changes(mem: Memory) -> None:
    mem.reflect()
    title = "Possible duplicates: Bob Smith and Robert Smith"
    assert mem.surface_insights(title=title)[0]["evidence"]["merge"]["into"] == "Robert Smith"
    mem.decide_insight(title, "dismiss")
    mem.add_observations([{"entityName": "Bob Smith", "contents": ["a", "b", "c"]}])  # now the better known
    mem.reflect()
    assert [i["title"] for i in mem.surface_insights(limit=100) if "Smith" in i["title"]] == []


def test_a_proposal_found_again_is_confirmed_like_any_other_insight(mem: Memory) -> None:
    """Reflect finding a duplicate again lists it among what it confirmed, and nothing piles up."""
    first = mem.reflect()
    title = "Possible duplicates: Ana García and Ana_Garcia"
    assert title in {i["title"] for i in first["insights"]}
    mem.add_observations([{"entityName": "Acme", "contents": ["Makes anvils"]}])  # a write: a full run again
    again = mem.reflect()
    assert again["created"] == 0 and not again["incremental"]
    assert title in {i["title"] for i in again["insights"]}
    assert [i["title"] for i in mem.surface_insights(limit=100)].count(title) == 1


def test_applying_several_lands_whole_or_undoes_those_before_the_failure(mem: Memory) -> None:
    def detect(hs: Any, graph: Any) -> list[InsightDraft]:
        return [InsightDraft("Zz breaks", "always_fails", 0.01, "It fails.",
                             {"key": [1], "entities": [], "path": [], "total": 0})]

    def fail(m: Memory, e: dict[str, Any], a: str) -> dict[str, Any]:
        raise InvalidInput("this kind always fails")

    T.register(T.HygieneKind("always_fails", "a kind that fails", detect, lambda m, e: {}, fail))
    try:
        mem.reflect()
        before = facts(mem)
        dupes = "Possible duplicates: Ana García and Ana_Garcia"
        with pytest.raises(InvalidInput, match="always fails"):
            mem.tidy(apply=[dupes, "Zz breaks"])
        assert facts(mem) == before  # the merge applied first was undone
        assert mem.surface_insights(limit=1, title=dupes, status="all")[0]["status"] == "pending"
    finally:
        T.KINDS.pop("always_fails")
        patterns.SPECS.pop("always_fails")
        patterns.SELF_EVIDENT.discard("always_fails")
        lifecycle.CARRY_OUT.pop("always_fails")
