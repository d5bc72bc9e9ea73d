"""Reflect again and again: no duplicates, refreshed evidence, stale when the evidence goes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.memory import Memory
from tests.conftest import SteppingClock
from tests.reflect.conftest import build, evidence_names, of_pattern, one

CLUSTER = "Concept cluster: Caching"


@pytest.fixture
def cluster(mem: Memory) -> Memory:
    build(mem, {"Caching": "Concept", "A": "Project", "B": "Person", "C": "Decision", "D": "Tool"},
          [("A", "INSTANCE_OF", "Caching"), ("B", "RELATED_TO", "Caching"),
           ("C", "INSTANCE_OF", "Caching"), ("D", "USES", "Caching")])
    return mem


def titles(mem: Memory) -> list[str]:
    return sorted(i["title"] for i in mem.surface_insights(status="all", limit=1000))


def test_reflect_twice_gives_the_same_insights(cluster: Memory) -> None:
    first = cluster.reflect()
    assert first["created"] == 2 and first["incremental"] is False  # the cluster, under-connected
    before = cluster.surface_insights(status="all")
    second = cluster.reflect()
    assert (second["created"], second["refreshed"], second["stale"]) == (0, 2, 0)
    assert second["incremental"] is True
    assert cluster.surface_insights(status="all") == before
    assert titles(cluster) == [CLUSTER, "Under-connected nodes"]
    assert cluster.count_labels()["Insight"] == 2


def test_result_lists_the_insights_it_touched(cluster: Memory) -> None:
    result = cluster.reflect()
    assert [i["title"] for i in result["insights"]] == [CLUSTER, "Under-connected nodes"]
    assert result["found"]["concept_clusters"] == 1
    assert json.dumps(result)  # plain JSON for the MCP tools


def test_refresh_updates_evidence_and_confidence(cluster: Memory, clock: SteppingClock) -> None:
    cluster.reflect()
    assert one(cluster, CLUSTER)["confidence"] == 0.7
    clock.advance(days=3)
    build(cluster, {"E": "Project"}, [("E", "INSTANCE_OF", "Caching")])
    result = cluster.reflect()
    assert result["incremental"] is False and result["created"] == 0
    insight = one(cluster, CLUSTER)
    assert insight["confidence"] == insight["base_confidence"] == 0.75
    assert evidence_names(insight, "member") == {"A", "B", "C", "D", "E"}
    assert insight["confirmed_at"] == "2026-01-04T12:00:00.000Z"
    assert insight["created_at"] == "2026-01-01T12:00:00.000Z"
    node = cluster.get_node(CLUSTER)
    assert node.props["confidence"] == 0.75
    assert node.observations == [insight["summary"]]  # the summary observation is swapped, not added
    assert "connects 5 entities" in insight["summary"]


def test_deleting_the_anchor_marks_the_insight_stale(cluster: Memory) -> None:
    cluster.reflect()
    cluster.delete_entities(["Caching"])
    result = cluster.reflect()
    assert result["stale"] == 1
    insight = one(cluster, CLUSTER)
    assert insight["stale"] is True and insight["status"] == "pending"
    assert cluster.reflect()["stale"] == 0  # counted once, when it turns stale


def test_archiving_evidence_below_the_threshold_marks_it_stale(cluster: Memory) -> None:
    cluster.reflect()
    cluster.archive_node("A")
    cluster.archive_node("B")
    assert cluster.reflect()["stale"] == 1
    assert one(cluster, CLUSTER)["stale"] is True
    history = [h for h in cluster.history(CLUSTER) if h.op == "mark_insight_stale"]
    assert history[0].after == {"stale": True}


def test_losing_one_member_only_refreshes_the_evidence(cluster: Memory) -> None:
    cluster.reflect()
    cluster.delete_entities(["D"])
    assert cluster.reflect()["stale"] == 0
    insight = one(cluster, CLUSTER)
    assert not insight["stale"] and evidence_names(insight, "member") == {"A", "B", "C"}


def test_an_approved_insight_goes_stale_and_fresh_again(cluster: Memory) -> None:
    cluster.reflect()
    cluster.decide_insight(CLUSTER, "approve")
    cluster.archive_node("A")
    cluster.archive_node("B")
    cluster.reflect()
    assert one(cluster, CLUSTER)["stale"] is True
    build(cluster, {"F": "Project", "G": "Person"},
          [("F", "INSTANCE_OF", "Caching"), ("G", "USES", "Caching")])
    cluster.reflect()
    insight = one(cluster, CLUSTER)
    assert insight["stale"] is False and insight["status"] == "approved"
    assert evidence_names(insight, "member") == {"C", "D", "F", "G"}


def test_stale_insights_sort_last(cluster: Memory) -> None:
    build(cluster, {"Logging": "Concept", "X": "Tool", "Y": "Tool", "Z": "Tool"},
          [(t, "USES", "Logging") for t in ("X", "Y", "Z")])
    cluster.reflect()
    cluster.delete_entities(["Caching"])
    cluster.reflect()
    ordered = [i["title"] for i in cluster.surface_insights(limit=10)]
    assert ordered[-1] == CLUSTER


def test_a_recreated_anchor_refreshes_its_old_insight(cluster: Memory) -> None:
    cluster.reflect()
    cluster.delete_entities(["Caching"])
    build(cluster, {"Caching": "Concept"},
          [("A", "INSTANCE_OF", "Caching"), ("B", "RELATED_TO", "Caching"), ("C", "USES", "Caching")])
    result = cluster.reflect()
    assert result["created"] == 0 and result["stale"] == 0
    insight = one(cluster, CLUSTER)
    assert insight["stale"] is False and insight["evidence"]["key"] == cluster.get_node("Caching").id


def test_review_queue_cap_holds_back_the_rest(mem: Memory, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    profile = tmp_path / "profile.json"
    profile.write_text(json.dumps({"reflect": {"max_pending_per_pattern": 2}}))
    monkeypatch.setenv("HIPOCAMPO_PROFILE", str(profile))
    for c, size in (("Big", 6), ("Mid", 4), ("Small", 3)):
        build(mem, {c: "Concept", **{f"{c}-{i}": "Tool" for i in range(size)}},
              [(f"{c}-{i}", "USES", c) for i in range(size)])
    result = mem.reflect()
    assert result["held_back"] >= 1
    assert [i["title"] for i in of_pattern(mem, "concept_clusters")] == [
        "Concept cluster: Big", "Concept cluster: Mid"]  # the most confident first
    mem.decide_insight("Concept cluster: Big", "dismiss")
    mem.reflect()
    assert {i["title"] for i in of_pattern(mem, "concept_clusters", status="pending")} == {
        "Concept cluster: Mid", "Concept cluster: Small"}


def test_a_title_taken_by_another_entity_is_skipped(cluster: Memory) -> None:
    cluster.merge_node("Note", CLUSTER, {"summary": "my own note"})
    result = cluster.reflect()
    assert of_pattern(cluster, "concept_clusters") == []
    assert cluster.get_node(CLUSTER).label == "Note"
    assert result["found"]["concept_clusters"] == 1


def test_long_names_give_stable_distinct_titles(mem: Memory) -> None:
    a, b = "x" * 100 + "-alpha", "x" * 100 + "-beta"
    for c in (a, b):
        build(mem, {c: "Concept", f"{c[-4:]}1": "Tool", f"{c[-4:]}2": "Tool", f"{c[-4:]}3": "Tool"},
              [(f"{c[-4:]}{i}", "USES", c) for i in (1, 2, 3)])
    mem.reflect()
    found = [i["title"] for i in of_pattern(mem, "concept_clusters")]
    assert len(set(found)) == 2 and all(len(t) < 120 for t in found)
    mem.create_relations([{"from": "lpha1", "to": b, "relationType": "RELATED_TO"}])  # a write: full run
    mem.reflect()
    assert sorted(i["title"] for i in of_pattern(mem, "concept_clusters")) == sorted(found)


def test_incremental_run_still_sees_new_writes(cluster: Memory) -> None:
    cluster.reflect()
    assert cluster.reflect()["incremental"] is True
    cluster.add_observations([{"entityName": "A", "contents": ["a fact"]}])
    assert cluster.reflect()["incremental"] is False
    assert cluster.reflect()["incremental"] is True
    cluster.decide_insight(CLUSTER, "approve")  # a decision is a write too
    assert cluster.reflect()["incremental"] is False


def test_time_travel_across_reflect_and_decisions(cluster: Memory, clock: SteppingClock) -> None:
    t0 = clock.now
    clock.advance(hours=1)
    cluster.reflect()
    first_summary = one(cluster, CLUSTER)["summary"]
    t1 = clock.advance(hours=1)
    build(cluster, {"E": "Project"}, [("E", "INSTANCE_OF", "Caching")])
    clock.advance(hours=1)
    cluster.reflect()
    cluster.decide_insight(CLUSTER, "approve")
    t3 = clock.advance(hours=1)

    def insight_at(when: object) -> list[dict]:
        return [e for e in cluster.query_at_date(when).dump()["entities"] if e["name"] == CLUSTER]

    assert insight_at(t0) == []
    assert insight_at(t1)[0]["observations"] == [first_summary]  # before the refresh
    now = insight_at(t3)
    assert now[0]["observations"] == [one(cluster, CLUSTER)["summary"]] != [first_summary]
    rels = cluster.query_at_date(t3).dump()["relations"]
    assert {"from": CLUSTER, "to": "E", "relationType": "DERIVED_FROM"} in rels
    assert not any(r["relationType"] == "DERIVED_FROM" for r in cluster.query_at_date(t1).dump()["relations"])
    # Deleting the approved insight later does not rewrite the past.
    clock.advance(hours=1)
    cluster.delete_entities([CLUSTER])
    assert insight_at(clock.now) == []
    assert insight_at(t3) == now
    assert {"from": CLUSTER, "to": "E", "relationType": "DERIVED_FROM"} in (
        cluster.query_at_date(t3).dump()["relations"])


def test_two_processes_reflecting_at_once_make_no_duplicates(
    cluster: Memory, tmp_path: Path, clock: SteppingClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process (here: a second connection) reflects between our detection and our write."""
    store_class = type(cluster.graph.insight_store())  # type: ignore[attr-defined]
    other = Memory(cluster.settings.model_copy(), clock=clock)  # the same memory, another connection
    real_apply = store_class.apply
    raced: list[bool] = []

    def racing_apply(self, plan, actor):  # noqa: ANN001, ANN202
        if not raced:  # our write, the first to get here: the other process reflects before it
            raced.append(True)
            assert other.reflect()["created"] == 2  # it gets there first
        return real_apply(self, plan, actor)

    monkeypatch.setattr(store_class, "apply", racing_apply)
    result = cluster.reflect()
    other.close()
    assert result["created"] == 0 and result["refreshed"] == 2
    assert titles(cluster) == [CLUSTER, "Under-connected nodes"]
    monkeypatch.setattr(store_class, "apply", real_apply)
    # The race left no trusted fingerprint behind, so the next run is a full one.
    assert cluster.reflect()["incremental"] is False
