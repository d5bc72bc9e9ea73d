"""Approving a possible-duplicates insight in the review pane: the preview says what will change
before anything does, approving merges (one change), and undo brings the duplicates back."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from desktop.insights.pane import InsightsPane
from desktop.workers import Core

TITLE = "Possible duplicates: Ana García and Ana_Garcia"


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as m:
        m.create_entities([
            {"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme", "Lives in Madrid"]},
            {"name": "Ana_Garcia", "entityType": "Person", "observations": ["works at acme.", "Likes green tea"]},
            {"name": "Ana Gardner", "entityType": "Person", "observations": ["Lives in Leeds"]},
            {"name": "Acme", "entityType": "Company"}, {"name": "Billing", "entityType": "Service"}])
        m.create_relations([{"from": "Ana_Garcia", "to": "Acme", "relationType": "works_at"},
                            {"from": "Ana García", "to": "Acme", "relationType": "works_at"},
                            {"from": "Billing", "to": "Ana_Garcia", "relationType": "owned_by"}])
        m.reflect()
        yield m


def test_preview_then_approve_merges_and_undo_takes_it_back(qtbot, memory: Memory, core: Core) -> None:  # noqa: ANN001
    pane = InsightsPane(core)
    qtbot.addWidget(pane)
    pane.resize(1100, 520)
    pane.show()
    qtbot.waitUntil(lambda: pane.pending_model.row_of(TITLE) >= 0, timeout=30_000)
    assert all("Gardner" not in t for t in pane.pending_model.titles())  # a near miss is not proposed
    assert "Under-connected nodes" in pane.pending_model.titles()
    pane.tidy_only.setChecked(True)  # the list tidy gives: only what tidying proposes
    assert pane.pending_model.titles() == [p["id"] for p in memory.tidy()["proposals"]] == [TITLE]
    pane.pending_view.setCurrentIndex(pane.pending_model.index(pane.pending_model.row_of(TITLE), 0))
    qtbot.waitUntil(lambda: pane.preview.preview is not None, timeout=30_000)
    text = pane.preview.body.text()
    assert "merge “Ana_Garcia” into “Ana García”" in text
    assert "+ Likes green tea" in text and "works at acme. (repeats “Works at Acme”)" in text
    assert "Billing —owned_by→ Ana_Garcia   ⇒   Billing —owned_by→ Ana García" in text
    assert "Ana_Garcia —works_at→ Acme" in text  # dropped: the kept entity has it
    assert pane.preview.isVisible() and pane.approve_button.isEnabled()
    body = pane.preview.body  # laid out whole, every line readable
    qtbot.waitUntil(lambda: body.height() >= body.heightForWidth(body.width()) > 8 * body.fontMetrics().height(),
                    timeout=30_000)
    assert {e.name for e in memory.read_graph().entities} >= {"Ana_Garcia"}  # nothing changed yet
    shots = os.environ.get("HIPOCAMPO_SHOTS")
    if shots:
        Path(shots).mkdir(parents=True, exist_ok=True)
        pane.grab().save(str(Path(shots) / "insights-merge-preview.png"))
    pane.approve_selected()
    qtbot.waitUntil(lambda: pane._deciding is None and pane.pending_model.row_of(TITLE) < 0, timeout=30_000)
    assert "Ana_Garcia" not in {e.name for e in memory.read_graph().entities}
    # A record, not knowledge: listed among the decided ones, not in the graph
    qtbot.waitUntil(lambda: pane.decided_model.row_of(TITLE) >= 0, timeout=30_000)
    assert TITLE not in {e.name for e in memory.read_graph().entities}
    assert [e.name for e in memory.open_nodes(["Ana_Garcia"]).entities] == ["Ana García"]
    assert memory.open_nodes(["Ana García"]).entities[0].observations == [
        "Works at Acme", "Lives in Madrid", "Likes green tea"]
    before_undo = memory.latest_change_id()
    memory.undo_change()
    assert memory.open_nodes(["Ana_Garcia"]).entities[0].observations == ["works at acme.", "Likes green tea"]
    # The undo took the approval back with the merge: handed the undo's rows (as the app's change
    # feed hands them), the pane lists the proposal for review again.
    pane.on_changes(list(memory.changes_since(before_undo)))
    qtbot.waitUntil(lambda: pane.pending_model.row_of(TITLE) >= 0
                    and (pane.preview.title is None or pane.preview.preview is not None), timeout=30_000)
