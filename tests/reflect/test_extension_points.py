"""The two ways in for new kinds of insight (used by merges and supersession): a detector
registered once for every backend, and what approving one of its insights does."""

from __future__ import annotations

from typing import Any

import pytest

from core.memory import Memory
from core.reflect import lifecycle, patterns
from core.reflect.model import InsightDraft
from tests.reflect.conftest import build

KIND = "lonely_projects"


def _draft(c: Any, ev: dict[str, Any], names: dict[int, tuple[str, str]], rules: Any) -> InsightDraft:
    name = names[c.key][0]
    return InsightDraft(c.title, KIND, 0.5, f"{name} stands alone.",
                        {"key": c.key, "entities": [{"id": c.key, "name": name, "label": "Project", "role": "anchor"}]})


@pytest.fixture
def lonely(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A detector written once (it reads through the detection session only), and an approver
    that archives the project instead of linking the insight to it."""
    def find(reading: patterns.Reading) -> list[tuple[Any, ...]]:
        names = reading.det.names(range(1, 20))
        return [(i,) for i, (_, label) in sorted(names.items()) if label == "Project"]

    spec = patterns.Spec(key=lambda r: r[0], confidence=lambda r: 0.5, weight=lambda r: 0, anchors=lambda r: [r[0]],
                         title=lambda r, names: f"Lonely project: {names[r[0]][0]}", draft=_draft, find=find)
    monkeypatch.setitem(patterns.SPECS, KIND, spec)
    monkeypatch.setattr(patterns, "SELF_EVIDENT", {*patterns.SELF_EVIDENT, KIND})
    approved: list[str] = []

    def archive_it(tx: lifecycle.InsightWrites, r: lifecycle.InsightRecord, a: lifecycle.Approval) -> dict[str, Any]:
        target = r.evidence["entities"][0]
        tx.set_archived(target["id"], True, a.now, touch=True)
        approved.append(target["name"])
        return {"archived": target["name"]}

    monkeypatch.setitem(lifecycle.APPROVERS, KIND, archive_it)
    return approved


def test_a_registered_detector_and_its_approver_run_on_every_backend(mem: Memory, lonely: list[str]) -> None:
    build(mem, {"Hipocampo": "Project", "SQLite": "Technology"})
    result = mem.reflect()
    assert result["found"][KIND] == 1
    [found] = [i for i in mem.surface_insights(status="all") if i["pattern"] == KIND]
    assert found["title"] == "Lonely project: Hipocampo" and found["status"] == "pending"
    mem.decide_insight(found["title"], "approve")
    assert lonely == ["Hipocampo"]  # its own approval ran, in place of linking the evidence
    decided = next(r for r in mem.history(found["title"]) if r.op == "decide_insight")
    assert decided.after == {"status": "approved", "archived": "Hipocampo"}
    assert not [r for r in mem.read_graph().relations if r.from_ == found["title"]]
    assert "Hipocampo" not in [e["name"] for e in mem.search_nodes("Hipocampo").model_dump()["entities"]]


def test_a_failing_approver_leaves_the_insight_pending(mem: Memory, lonely: list[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    build(mem, {"Hipocampo": "Project"})
    mem.reflect()
    title = "Lonely project: Hipocampo"

    def refuse(tx: Any, r: Any, a: Any) -> dict[str, Any]:
        tx.set_archived(r.evidence["entities"][0]["id"], True, a.now, touch=True)
        raise ValueError("cannot do that")

    monkeypatch.setitem(lifecycle.APPROVERS, KIND, refuse)
    with pytest.raises(ValueError):
        mem.decide_insight(title, "approve")
    assert next(i for i in mem.surface_insights(status="all") if i["title"] == title)["status"] == "pending"
    assert "Hipocampo" in [e["name"] for e in mem.search_nodes("Hipocampo").model_dump()["entities"]]


NOTED = "noted_projects"


def test_a_detector_over_the_graph_store_and_what_approving_and_reopening_it_do(
        mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The third way in, now the same as the first: a detector written once over the graph store
    (``Reading.graph``), registered like the seven; approving and reopening carried out through the
    Memory (``lifecycle.carry_out``), as supersession and merges are."""
    reads: list[str] = []

    def find(reading: patterns.Reading) -> list[tuple[Any, ...]]:
        ids = reading.once("noted ids", lambda: reads.append("read") or reading.graph.ids_for(["Hipocampo"]))
        return [(i,) for i in ids.values()]

    def draft(c: Any, ev: dict[str, Any], names: dict[int, tuple[str, str]], rules: Any) -> InsightDraft:
        return InsightDraft(c.title, NOTED, 0.5, "Worth a note.", {"key": c.key, "entities": []})

    spec = patterns.Spec(key=lambda r: r[0], confidence=lambda r: 0.5, weight=lambda r: 0, anchors=lambda r: [r[0]],
                         title=lambda r, names: f"Noted: {names[r[0]][0]}", draft=draft, find=find)
    monkeypatch.setitem(patterns.SPECS, NOTED, spec)
    monkeypatch.setattr(patterns, "SELF_EVIDENT", {*patterns.SELF_EVIDENT, NOTED})

    def approve(host: lifecycle.Host, insight: dict[str, Any], actor: str, decide: lifecycle.Decide) -> dict[str, Any]:
        decided = decide()
        host.graph.merge_node("Project", "Hipocampo", {"noted_by": insight["title"]}, actor)
        return decided

    def reopen(host: lifecycle.Host, insight: dict[str, Any], actor: str) -> None:
        host.graph.merge_node("Project", "Hipocampo", {"noted_by": None}, actor)

    monkeypatch.setitem(lifecycle.CARRY_OUT, NOTED, lifecycle.CarryOut(approve=approve, reopen=reopen))
    build(mem, {"Hipocampo": "Project"})
    assert mem.reflect()["found"][NOTED] == 1 and reads == ["read"]
    title = "Noted: Hipocampo"
    assert "noted_by" not in mem.get_node("Hipocampo").props
    assert mem.decide_insight(title, "approve")["status"] == "approved"
    assert mem.get_node("Hipocampo").props["noted_by"] == title
    assert mem.reopen_insight(title)["status"] == "pending"
    assert "noted_by" not in mem.get_node("Hipocampo").props
