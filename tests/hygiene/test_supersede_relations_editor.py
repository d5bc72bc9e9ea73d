"""The editor strikes through a superseded relation, its successor and end date in the tooltip;
the relation stays listed (and saved as it is), and undo makes it current again."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.hygiene.supersede_relations import PATTERN
from core.memory import Memory
from core.settings import Settings
from desktop.editor import EditorPane
from desktop.editor.pane import EMPTY
from desktop.editor.relations import OTHER, TYPE
from desktop.workers import Core
from tests.conftest import SteppingClock

WAIT_MS = 20_000  # a deadline, not a speed claim


@pytest.fixture
def memory(tmp_path: Path, clock: SteppingClock) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"), clock=clock) as m:
        m.create_entities([{"name": n, "entityType": t} for n, t in
                           [("Ana García", "Person"), ("Acme", "Company"), ("Nubia", "Company"), ("Luis", "Person")]])
        m.create_relations([{"from": "Ana García", "to": "Acme", "relationType": "works_at"},
                            {"from": "Ana García", "to": "Luis", "relationType": "knows"}], actor="claude-code")
        clock.advance(days=30)
        m.create_relations([{"from": "Ana García", "to": "Nubia", "relationType": "works_at"}], actor="claude-code")
        m.reflect()
        title = next(i["title"] for i in m.surface_insights(limit=50) if i["pattern"] == PATTERN)
        m.decide_insight(title, "approve")
        yield m


def test_a_superseded_relation_is_struck_through_with_its_successor(qtbot, core: Core,  # noqa: ANN001
                                                                    memory: Memory) -> None:
    pane = EditorPane(core)
    qtbot.addWidget(pane)
    pane.resize(520, 560)
    pane.show()
    pane.open_entity("Ana García")
    qtbot.waitUntil(lambda: pane.stack.currentIndex() != EMPTY and not pane.is_busy(), timeout=WAIT_MS)
    relations = pane.page.relations
    pane.page.sections.setCurrentWidget(relations)
    rows = {(relations.table.item(r, TYPE).text(), relations.table.item(r, OTHER).text()): r
            for r in range(relations.table.rowCount())}
    old = rows[("works_at", "Acme")]
    assert relations.superseded_rows() == [old]  # only the replaced one: not Nubia, not "knows"
    tip = relations.table.item(old, OTHER).toolTip()
    assert "works_at → Nubia" in tip and "2026-01-31" in tip  # the successor, and the day it ended
    assert relations.table.item(old, 3).text() == ""  # not an ended relation: its end is the mark's
    assert not pane.is_dirty()  # nothing to save: the relation itself is untouched
    if os.environ.get("HIPOCAMPO_SHOTS"):
        pane.grab().save(str(Path(os.environ["HIPOCAMPO_SHOTS"]) / "editor-superseded-relation.png"))
    pane.undo_last()  # the approval's mark is the newest change of the entity
    qtbot.waitUntil(lambda: relations.superseded_rows() == [] and not pane.is_busy(), timeout=WAIT_MS)
    assert "superseded_relations" not in (memory.graph.get_node("Ana García").props or {}) or \
        not memory.graph.get_node("Ana García").props["superseded_relations"]
