"""Undo keeps insights honest, on every backend: an approval and what it did are one change, so
undoing it puts the insight back to review (pending, out of the graph again), redoing approves it
again, and a direct merge settles the duplicate proposals it covers in the same undoable step."""

from __future__ import annotations

import pytest

from core.errors import Conflict
from core.hygiene.supersede import SUPERSEDED
from core.memory import Memory

DUPES = "Possible duplicates: Ana García and Ana_Garcia"


def _people(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme", "Lives in Madrid"]},
        {"name": "Ana_Garcia", "entityType": "Person", "observations": ["Likes green tea"]},
        {"name": "Acme", "entityType": "Company"},
    ])
    mem.create_relations([{"from": "Ana_Garcia", "to": "Acme", "relationType": "works_at"}])


def _insight(mem: Memory, title: str) -> dict:
    return mem.surface_insights(limit=1, title=title, status="all")[0]


def _names(mem: Memory) -> set[str]:
    return {e.name for e in mem.read_graph().entities if e.entityType != "Insight"}


def _pending(mem: Memory) -> list[str]:
    return [i["title"] for i in mem.surface_insights(limit=100)]


def test_undoing_an_approved_merge_puts_the_insight_back_to_review_and_redo_approves_it(mem: Memory) -> None:
    _people(mem)
    mem.reflect()
    assert DUPES in _pending(mem)
    pending = mem.insight_counts()["pending"]
    approved = mem.decide_insight(DUPES, "approve")
    assert approved["status"] == "approved" and approved["applied"]["change_id"]
    assert _names(mem) == {"Ana García", "Acme"}
    assert mem.insight_counts()["pending"] == pending - 1
    undone = mem.undo_change()
    assert undone.after["undo_of"] == approved["applied"]["change_id"]  # one step: the merge and the approval
    assert _names(mem) == {"Ana García", "Ana_Garcia", "Acme"}
    back = _insight(mem, DUPES)
    assert back["status"] == "pending" and back["decided_at"] is None and back["decided_by"] is None
    assert DUPES in _pending(mem) and mem.insight_counts()["pending"] == pending
    assert DUPES not in {e.name for e in mem.read_graph().entities}  # out of the graph again, as pending ones are
    redo = mem.undo_change(undone.id)  # the undo undone: merged and approved again
    assert redo.after["undo_of"] == undone.id
    assert _names(mem) == {"Ana García", "Acme"} and _insight(mem, DUPES)["status"] == "approved"
    mem.undo_change(redo.id)
    assert _insight(mem, DUPES)["status"] == "pending"
    again = mem.decide_insight(DUPES, "approve")  # approving anew carries the merge out anew
    assert again["status"] == "approved" and _names(mem) == {"Ana García", "Acme"}


def test_undoing_an_approved_supersession_puts_the_insight_back_to_review(mem: Memory) -> None:
    mem.create_entities([{"name": "Billing", "entityType": "Service", "observations": [
        "Latency of Billing went from 544 ms to 62 ms", "Latency of Billing went from 62 ms to 240 ms"]}])
    mem.reflect()
    title = next(i["title"] for i in mem.surface_insights(limit=100) if i["pattern"] == SUPERSEDED)
    decided = mem.decide_insight(title, "approve")
    assert decided["status"] == "approved"
    assert list(mem.superseded_facts("Billing")) == ["Latency of Billing went from 544 ms to 62 ms"]
    undone = mem.undo_change()
    assert mem.superseded_facts("Billing") == {}
    assert _insight(mem, title)["status"] == "pending" and title in _pending(mem)
    mem.undo_change(undone.id)  # redo
    assert _insight(mem, title)["status"] == "approved" and mem.superseded_facts("Billing")


def test_a_direct_merge_settles_the_proposal_it_covers_and_undo_brings_it_back(mem: Memory) -> None:
    _people(mem)
    mem.create_entities([{"name": "ana garcia", "entityType": "Person", "observations": ["Speaks Spanish"]}])
    mem.reflect()
    title = "Possible duplicates: Ana García and ana garcia and Ana_Garcia"
    assert title in _pending(mem)
    pending = mem.insight_counts()["pending"]
    # Merging only some of the names the proposal groups does not settle it.
    partial = mem.merge_entities(["ana garcia"], into="Ana García", dry_run=False)
    assert "resolved_insights" not in partial and _insight(mem, title)["status"] == "pending"
    mem.undo_change()
    # Merging every name it groups (here a superset: into first) settles it, noted as merged directly.
    done = mem.merge_entities(["Ana García", "Ana_Garcia", "ana garcia"], dry_run=False, actor="claude")
    assert done["resolved_insights"] == [title]
    settled = _insight(mem, title)
    assert settled["status"] == "approved" and settled["decided_by"] == "claude (merged directly)"
    assert title not in _pending(mem) and mem.insight_counts()["pending"] == pending - 1
    assert mem.brief().insights_pending == pending - 1
    row = mem.history(limit=1)[0]
    assert row.op == "merge_entities" and row.after["insights"] == [title]
    mem.undo_change()
    assert _insight(mem, title)["status"] == "pending" and title in _pending(mem)
    assert _names(mem) == {"Ana García", "Ana_Garcia", "ana garcia", "Acme"}


def test_an_undo_refused_because_the_insight_was_decided_since_changes_nothing(mem: Memory) -> None:
    _people(mem)
    mem.reflect()
    approved = mem.decide_insight(DUPES, "approve")
    mem.reopen_insight(DUPES)  # a person sent it back to review since: the merge stays, the decision is theirs
    before, version = mem.read_graph().dump(), mem.latest_change_id()
    with pytest.raises(Conflict, match="decided again since"):
        mem.undo_change(approved["applied"]["change_id"])
    assert mem.read_graph().dump() == before and mem.latest_change_id() == version
