"""Confidence decay c·exp(−0.01·days) and the temporal score c·2^(−days/30), on a stepping clock."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest

from core.errors import InvalidInput
from core.memory import Memory
from core.reflect.temporal import days_between, decayed_confidence, temporal_score
from tests.conftest import SteppingClock
from tests.reflect.conftest import build, one

TITLE = "Shared technology: SQLite"


@pytest.fixture
def shared(mem: Memory) -> Memory:
    build(mem, {"Hipocampo": "Project", "Engrama": "Project", "SQLite": "Technology"},
          [("Hipocampo", "USES", "SQLite"), ("Engrama", "USES", "SQLite")])
    mem.reflect()
    return mem


def test_the_formulas() -> None:
    assert decayed_confidence(0.8, 0) == 0.8
    assert decayed_confidence(0.8, 100) == pytest.approx(0.8 * math.exp(-1))
    assert decayed_confidence(0.8, -5) == 0.8  # no growth from a clock that went back
    assert temporal_score(0.8, 30) == pytest.approx(0.4)
    assert temporal_score(0.8, 60) == pytest.approx(0.2)
    assert days_between("2026-01-01T12:00:00.000Z", "2026-01-11T00:00:00.000Z") == 9.5


def test_decay_is_idempotent(shared: Memory, clock: SteppingClock) -> None:
    clock.advance(days=50)
    assert shared.decay_confidence() == 2  # the shared-technology and under-connected insights
    after_once = one(shared, TITLE)
    assert after_once["confidence"] == pytest.approx(decayed_confidence(0.6, 50), abs=1e-6)
    assert after_once["base_confidence"] == 0.6
    for _ in range(3):  # however often it runs, the same moment gives the same value
        assert shared.decay_confidence() == 0
    assert one(shared, TITLE)["confidence"] == after_once["confidence"]
    clock.advance(days=50)
    shared.decay_confidence()
    assert one(shared, TITLE)["confidence"] == pytest.approx(decayed_confidence(0.6, 100), abs=1e-6)


def test_decay_by_date_and_back(shared: Memory, clock: SteppingClock) -> None:
    later = clock.now + timedelta(days=10)
    assert shared.decay_confidence(as_of=later) == 2
    assert one(shared, TITLE)["confidence"] == pytest.approx(0.6 * math.exp(-0.1), abs=1e-6)
    assert shared.decay_confidence(as_of=later.isoformat()) == 0  # strings work too
    shared.decay_confidence(as_of=clock.now)  # computed from the base: going back restores it
    assert one(shared, TITLE)["confidence"] == 0.6
    with pytest.raises(InvalidInput):
        shared.decay_confidence(as_of="next tuesday")


def test_reflect_confirms_and_resets_the_decay(shared: Memory, clock: SteppingClock) -> None:
    clock.advance(days=40)
    shared.decay_confidence()
    assert one(shared, TITLE)["confidence"] < 0.6
    shared.reflect()  # nothing changed: incremental, but the insight is confirmed as holding
    insight = one(shared, TITLE)
    assert insight["confidence"] == 0.6 and insight["confirmed_at"] == "2026-02-10T12:00:00.000Z"
    assert shared.decay_confidence() == 0


def test_dismissed_insights_do_not_decay(shared: Memory, clock: SteppingClock) -> None:
    shared.decide_insight(TITLE, "dismiss")
    clock.advance(days=30)
    assert shared.decay_confidence() == 1  # only the under-connected one
    assert one(shared, TITLE)["confidence"] == 0.6


def test_approval_restarts_the_decay(shared: Memory, clock: SteppingClock) -> None:
    clock.advance(days=20)
    shared.decay_confidence()
    decided = shared.decide_insight(TITLE, "approve")
    assert decided["confidence"] == 0.6 and decided["confirmed_at"] == decided["decided_at"]


def test_decay_is_logged_once_per_change(shared: Memory, clock: SteppingClock) -> None:
    clock.advance(days=5)
    shared.decay_confidence(actor="scheduler")
    shared.decay_confidence(actor="scheduler")
    logged = [h for h in shared.history() if h.op == "decay_confidence"]
    assert len(logged) == 1 and logged[0].actor == "scheduler" and logged[0].after["changed"] == 2


def test_temporal_score_ranks_recently_confirmed_first(mem: Memory, clock: SteppingClock) -> None:
    build(mem, {"Caching": "Concept", "t1": "Tool", "t2": "Tool", "t3": "Tool",
                "Hipocampo": "Project", "Engrama": "Project", "SQLite": "Technology"},
          [*((t, "USES", "Caching") for t in ("t1", "t2", "t3")),
           ("Hipocampo", "USES", "SQLite"), ("Engrama", "USES", "SQLite")])
    mem.reflect()
    ranked = [i["title"] for i in mem.surface_insights(status="all")]
    assert ranked[:2] == ["Concept cluster: Caching", TITLE]  # 0.65 before 0.6
    clock.advance(days=30)
    mem.decide_insight(TITLE, "approve")  # a person confirms it today
    insights = mem.surface_insights(status="all")
    scores = {i["title"]: i["score"] for i in insights}
    assert scores["Concept cluster: Caching"] == pytest.approx(0.65 * 0.5)  # 30 days: half
    assert scores[TITLE] == pytest.approx(0.6)
    assert [i["title"] for i in insights][:2] == [TITLE, "Concept cluster: Caching"]
