"""Reflect runs with the garbage collector paused (its objects hold no cycles: a collection would
only walk them) and always hands it back as it found it, also when a detector fails."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from core.memory import Memory
from core.reflect import patterns
from core.reflect.model import InsightDraft
from tests.reflect.conftest import build

KIND = "collector_probe"


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A detector that notes whether the collector is on while it runs, and fails when told to."""
    seen: dict[str, Any] = {"on": [], "fail": False}

    def find(reading: patterns.Reading) -> list[tuple[Any, ...]]:
        seen["on"].append(gc.isenabled())
        if seen["fail"]:
            raise RuntimeError("detector broke")
        return []

    def draft(c: Any, ev: dict[str, Any], names: dict[int, tuple[str, str]], rules: Any) -> InsightDraft:
        raise AssertionError("never drafted: nothing is found")

    spec = patterns.Spec(key=lambda r: r[0], confidence=lambda r: 0.5, weight=lambda r: 0, anchors=lambda r: [],
                         title=lambda r, names: "", draft=draft, find=find)
    monkeypatch.setitem(patterns.SPECS, KIND, spec)
    was_on = gc.isenabled()
    yield seen
    if was_on:
        gc.enable()


def test_detectors_run_without_the_collector_and_it_is_back_on_after(mem: Memory, probe: dict[str, Any]) -> None:
    build(mem, {"Atlas": "Project", "Kafka": "Technology"}, [("Atlas", "USES", "Kafka")])
    gc.enable()
    mem.reflect()
    assert probe["on"] == [False]
    assert gc.isenabled()


def test_a_failing_detector_leaves_the_collector_on(mem: Memory, probe: dict[str, Any]) -> None:
    build(mem, {"Atlas": "Project"})
    gc.enable()
    probe["fail"] = True
    with pytest.raises(RuntimeError, match="detector broke"):
        mem.reflect()
    assert gc.isenabled()


def test_a_caller_that_paused_the_collector_finds_it_still_paused(mem: Memory, probe: dict[str, Any]) -> None:
    build(mem, {"Atlas": "Project"})
    gc.disable()
    mem.reflect()
    assert not gc.isenabled()
