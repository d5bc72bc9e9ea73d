"""The review lifecycle: pending → approved | dismissed, approved → synced; nothing else."""

from __future__ import annotations

import pytest

from core.errors import Conflict, InvalidInput, NotFound
from core.memory import Memory
from tests.conftest import SteppingClock
from tests.reflect.conftest import build, one

TITLE = "Shared technology: SQLite"


@pytest.fixture
def pending(mem: Memory) -> Memory:
    build(mem, {"Hipocampo": "Project", "Engrama": "Project", "SQLite": "Technology"},
          [("Hipocampo", "USES", "SQLite"), ("Engrama", "USES", "SQLite")])
    mem.reflect()
    assert one(mem, TITLE)["status"] == "pending"
    return mem


def to_status(mem: Memory, status: str) -> None:
    """Bring the insight from pending to ``status`` by legal moves."""
    if status in ("approved", "synced"):
        mem.decide_insight(TITLE, "approve")
    if status == "synced":
        mem.mark_synced(TITLE)
    if status == "dismissed":
        mem.decide_insight(TITLE, "dismiss")


def move(mem: Memory, action: str) -> dict:
    return mem.mark_synced(TITLE) if action == "sync" else mem.decide_insight(TITLE, action)


LEGAL = {("pending", "approve"): "approved", ("pending", "dismiss"): "dismissed",
         ("approved", "sync"): "synced"}
ALL_MOVES = [(s, a) for s in ("pending", "approved", "dismissed", "synced")
             for a in ("approve", "dismiss", "sync")]


@pytest.mark.parametrize(("start", "action"), ALL_MOVES)
def test_every_transition(pending: Memory, start: str, action: str) -> None:
    to_status(pending, start)
    if (start, action) in LEGAL:
        assert move(pending, action)["status"] == LEGAL[(start, action)]
    else:
        with pytest.raises(Conflict) as err:
            move(pending, action)
        assert TITLE in str(err.value)
        assert one(pending, TITLE)["status"] == start  # nothing changed


def test_conflict_messages_say_what_happened(pending: Memory) -> None:
    pending.decide_insight(TITLE, "dismiss")
    with pytest.raises(Conflict, match="was dismissed.*cannot be approved"):
        pending.decide_insight(TITLE, "approve")
    with pytest.raises(Conflict, match="already dismissed"):
        pending.decide_insight(TITLE, "dismiss")


def test_only_an_approved_insight_can_be_synced(pending: Memory) -> None:
    with pytest.raises(Conflict, match="only an approved insight can be marked synced"):
        pending.mark_synced(TITLE)


def test_unknown_title_and_bad_action(pending: Memory) -> None:
    with pytest.raises(NotFound, match="no insight titled"):
        pending.decide_insight("Shared technology: Oracle", "approve")
    with pytest.raises(NotFound):
        pending.decide_insight("SQLite", "approve")  # an entity, but not an insight
    for action in ("accept", "", None, "APPROVE"):
        with pytest.raises(InvalidInput, match="approve' or 'dismiss"):
            pending.decide_insight(TITLE, action)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        pending.decide_insight("  ", "approve")


def test_decisions_are_in_change_log(pending: Memory, clock: SteppingClock) -> None:
    clock.advance(hours=1)
    pending.decide_insight(TITLE, "approve", actor="claude-desktop")
    pending.mark_synced(TITLE, actor="vault-sync")
    decisions = [h for h in reversed(pending.history(TITLE)) if h.op == "decide_insight"]
    assert [(h.actor, h.before["status"], h.after["status"]) for h in decisions] == [
        ("claude-desktop", "pending", "approved"), ("vault-sync", "approved", "synced")]
    assert decisions[0].at == "2026-01-01T13:00:00.000Z"
    assert decisions[0].after["relations"] == 3


def test_pending_insights_stay_out_of_search(pending: Memory) -> None:
    assert pending.search_nodes("Shared technology").entities == []
    assert all(hit.node.label != "Insight" for hit in pending.fulltext_search("Shared technology"))
    assert pending.get_node(TITLE).archived_at is not None  # readable, just not searched


def test_an_approved_insight_is_ordinary_knowledge(pending: Memory) -> None:
    decided = pending.decide_insight(TITLE, "approve", actor="gui")
    assert decided["status"] == "approved" and decided["decided_by"] == "gui"
    assert decided["decided_at"] == "2026-01-01T12:00:00.000Z"
    node = pending.get_node(TITLE)
    assert node.label == "Insight" and node.archived_at is None
    assert node.props["pattern"] == "shared_technology" and node.props["confidence"] == 0.6
    found = pending.search_nodes("shared technology").dump()
    assert [e["name"] for e in found["entities"]] == [TITLE]
    assert {(r["to"], r["relationType"]) for r in found["relations"]} == {
        ("SQLite", "DERIVED_FROM"), ("Hipocampo", "DERIVED_FROM"), ("Engrama", "DERIVED_FROM")}
    assert pending.fulltext_search("consider sharing knowledge")[0].node.name == TITLE
    neighbours = {n.node.name for n in pending.get_neighbours(TITLE)}
    assert neighbours == {"SQLite", "Hipocampo", "Engrama"}


def test_approved_insights_do_not_feed_reflect(pending: Memory) -> None:
    pending.decide_insight(TITLE, "approve")
    result = pending.reflect()
    assert result["created"] == 0
    # The DERIVED_FROM edges neither make a concept cluster nor connect anyone for real.
    assert [i["title"] for i in pending.surface_insights(status="all")] == [TITLE, "Under-connected nodes"]


def test_dismissed_is_archived_and_never_comes_back(pending: Memory) -> None:
    pending.decide_insight(TITLE, "dismiss")
    assert pending.get_node(TITLE).archived_at is not None
    assert pending.search_nodes("Shared technology").entities == []
    result = pending.reflect()
    assert result["created"] == 0
    assert one(pending, TITLE)["status"] == "dismissed"
    # Even with its entity deleted, the log remembers the decision.
    pending.delete_entities([TITLE])
    pending.create_relations([{"from": "SQLite", "to": "Hipocampo", "relationType": "RELATED_TO"}])
    assert pending.reflect()["created"] == 0
    assert pending.surface_insights(title=TITLE, status="all") == []


def test_a_stale_insight_cannot_be_approved_but_can_be_dismissed(pending: Memory) -> None:
    pending.delete_entities(["Engrama"])
    assert pending.reflect()["stale"] == 1
    with pytest.raises(Conflict, match="stale"):
        pending.decide_insight(TITLE, "approve")
    assert pending.decide_insight(TITLE, "dismiss")["status"] == "dismissed"


def test_surface_insights_filters_and_validates(pending: Memory) -> None:
    assert [i["title"] for i in pending.surface_insights(query="sqlite")] == [TITLE]
    assert [i["title"] for i in pending.surface_insights(query="ENGRAMA (project)")] == [TITLE]
    assert pending.surface_insights(query="postgres") == []
    assert pending.surface_insights(status="approved") == []
    assert len(pending.surface_insights(status="all")) == 2
    assert len(pending.surface_insights(limit=1)) == 1
    for bad in ({"limit": 0}, {"limit": True}, {"status": "rejected"}, {"query": " "}, {"title": 3}):
        with pytest.raises(InvalidInput):
            pending.surface_insights(**bad)  # type: ignore[arg-type]
    insight = pending.surface_insights(title=TITLE)[0]
    assert set(insight) >= {"title", "pattern", "confidence", "status", "stale", "evidence", "summary",
                            "created_at", "decided_at", "decided_by", "score"}


def test_insight_counts(pending: Memory) -> None:
    assert pending.insight_counts() == {"pending": 2, "approved": 0, "dismissed": 0, "synced": 0, "stale": 0}
    pending.decide_insight(TITLE, "approve")
    pending.delete_entities(["Engrama"])
    pending.reflect()
    assert pending.insight_counts() == {"pending": 1, "approved": 1, "dismissed": 0, "synced": 0, "stale": 1}


@pytest.mark.parametrize("decided", ["approved", "dismissed"])
def test_a_decided_insight_can_be_reopened_for_review(pending: Memory, decided: str) -> None:
    """Issue 22: a decision could not be taken back. Reopened, the insight is pending again and out of
    the graph (archived) until it is decided anew; a synced one was written out and stays."""
    to_status(pending, decided)
    reopened = pending.reopen_insight(TITLE)
    assert reopened["status"] == "pending" and reopened["decided_at"] is None
    assert TITLE not in {e.name for e in pending.read_graph().entities}
    assert TITLE not in {r.from_ for r in pending.read_graph().relations}
    assert TITLE in [i["title"] for i in pending.surface_insights(status="pending")]
    assert pending.decide_insight(TITLE, "approve")["status"] == "approved"  # and decided again
    assert TITLE in {e.name for e in pending.read_graph().entities}
    pending.reopen_insight(TITLE)
    with pytest.raises(Conflict, match="already pending"):
        pending.reopen_insight(TITLE)
    pending.decide_insight(TITLE, "approve")
    pending.mark_synced(TITLE)
    with pytest.raises(Conflict, match="written out elsewhere"):
        pending.reopen_insight(TITLE)
    assert one(pending, TITLE)["status"] == "synced"
