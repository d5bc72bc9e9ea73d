"""The insight review pane over a real SQLite memory: list, select, approve/dismiss, reflect, live refresh."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from core.memory import Memory
from core.settings import Settings
from desktop.insights.pane import InsightsPane
from desktop.workers import ChangeFeed, Core
from tests.reflect.conftest import build

NODES = {
    "Hipocampo": "Project", "Engrama": "Project", "Indexing": "Concept", "Use FTS5": "Decision",
    "Slow search": ("Problem", {"status": "open"}), "Slow import": ("Problem", {"status": "resolved"}),
    "SQLite": "Technology", "Databases 101": "Course", "Query planner": "Concept",
}
RELATIONS = [
    ("Slow search", "BELONGS_TO", "Hipocampo"), ("Slow import", "BELONGS_TO", "Engrama"),
    ("Slow search", "INSTANCE_OF", "Indexing"), ("Slow import", "INSTANCE_OF", "Indexing"),
    ("Slow import", "SOLVED_BY", "Use FTS5"), ("Hipocampo", "USES", "SQLite"), ("Engrama", "USES", "SQLite"),
    ("Databases 101", "TEACHES", "SQLite"), ("Databases 101", "COVERS", "Indexing"),
]
SHARED = "Shared technology: SQLite"
FOUND = 5  # cross-project, shared technology, concept cluster, training opportunity, under-connected


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as m:
        build(m, NODES, RELATIONS)
        yield m


def open_pane(qtbot, core: Core, pending: int) -> InsightsPane:  # noqa: ANN001
    pane = InsightsPane(core)
    qtbot.addWidget(pane)
    pane.resize(1000, 320)
    pane.show()
    qtbot.waitUntil(lambda: pane.pending_count == pending)
    return pane


def status(memory: Memory, title: str) -> str:
    return memory.surface_insights(title=title, status="all")[0]["status"]


def select(pane: InsightsPane, title: str) -> None:
    row = pane.pending_model.row_of(title)
    assert row >= 0, pane.pending_model.titles()
    pane.pending_view.setCurrentIndex(pane.pending_model.index(row, 0))


def test_lists_pending_insights_and_selecting_one_asks_for_its_evidence(qtbot, memory: Memory,
                                                                        core: Core) -> None:  # noqa: ANN001
    memory.reflect()
    pane = open_pane(qtbot, core, FOUND)
    assert pane.stack.currentIndex() == 1 and pane.tabs.tabText(0) == "To review (5)"
    titles = pane.pending_model.titles()
    assert titles[0] == "Cross-project solution for Slow search"  # best first: 0.85
    with qtbot.waitSignal(pane.evidence_requested) as signal:
        select(pane, SHARED)
    assert set(signal.args[0]) == {"SQLite", "Databases 101", "Engrama", "Hipocampo"}
    assert pane.title_label.text() == SHARED
    assert "Shared technology" in pane.meta_label.text() and "75 %" in pane.meta_label.text()
    assert "is used by 3 entities" in pane.explanation_label.text()
    assert "Engrama  —USES→  SQLite" in pane.path_label.text()
    # An evidence entity is a link that opens it, its name never split across two lines.
    assert ">Databases&nbsp;101</a>" in pane.evidence_label.text()
    href = re.search(r'href="([^"]*Databases[^"]*)"', pane.evidence_label.text())
    assert href is not None
    with qtbot.waitSignal(pane.entity_activated) as opened:
        pane.evidence_label.linkActivated.emit(href.group(1))
    assert opened.args == ["Databases 101"]


@pytest.mark.parametrize("action", ["approve", "dismiss"])
def test_buttons_decide_and_move_to_the_next(qtbot, memory: Memory, core: Core, action: str) -> None:  # noqa: ANN001
    memory.reflect()
    pane = open_pane(qtbot, core, FOUND)
    select(pane, SHARED)
    after = pane.pending_model.titles()[pane.pending_model.row_of(SHARED) + 1]
    button = pane.approve_button if action == "approve" else pane.dismiss_button
    with qtbot.waitSignal(pane.pending_count_changed) as counted:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert counted.args == [FOUND - 1]
    qtbot.waitUntil(lambda: status(memory, SHARED) == ("approved" if action == "approve" else "dismissed"))
    qtbot.waitUntil(lambda: SHARED in pane.decided_model.titles())
    assert pane.selected_insight()["title"] == after
    assert SHARED not in pane.pending_model.titles()
    assert pane.tabs.tabText(1) == "Decided (1)"


@pytest.mark.parametrize(("key", "modifier", "outcome"), [
    (Qt.Key.Key_A, Qt.KeyboardModifier.NoModifier, "approved"),
    (Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier, "approved"),
    (Qt.Key.Key_D, Qt.KeyboardModifier.NoModifier, "dismissed"),
    (Qt.Key.Key_Delete, Qt.KeyboardModifier.NoModifier, "dismissed"),
])
def test_keys_decide_and_move_to_the_next(qtbot, memory: Memory, core: Core, key: Qt.Key,  # noqa: ANN001
                                          modifier: Qt.KeyboardModifier, outcome: str) -> None:
    memory.reflect()
    pane = open_pane(qtbot, core, FOUND)
    first, second = pane.pending_model.titles()[:2]
    select(pane, first)
    pane.pending_view.setFocus()
    qtbot.keyClick(pane.pending_view, key, modifier)
    qtbot.waitUntil(lambda: status(memory, first) == outcome)
    qtbot.waitUntil(lambda: pane.pending_count == FOUND - 1)
    assert pane.selected_insight()["title"] == second
    qtbot.keyClick(pane.pending_view, key, modifier)  # and the next one, straight away
    qtbot.waitUntil(lambda: status(memory, second) == outcome)
    qtbot.waitUntil(lambda: pane.pending_count == FOUND - 2)


def test_reflect_now_from_the_empty_state(qtbot, memory: Memory, core: Core) -> None:  # noqa: ANN001
    pane = open_pane(qtbot, core, 0)
    assert pane.stack.currentIndex() == 0  # the explanation, with its own Reflect now button
    with qtbot.waitSignal(pane.pending_count_changed, timeout=20000) as counted:
        qtbot.mouseClick(pane.empty_reflect_button, Qt.MouseButton.LeftButton)
        assert pane.reflecting and pane.progress.isVisibleTo(pane)
    assert counted.args == [FOUND]
    qtbot.waitUntil(lambda: not pane.reflecting)
    assert pane.result_label.text() == "5 new insights."
    assert pane.stack.currentIndex() == 1 and not pane.progress.isVisibleTo(pane)
    assert len(memory.surface_insights(limit=50)) == FOUND
    pane.reflect_now()  # nothing new the second time, and it says so
    qtbot.waitUntil(lambda: not pane.reflecting)
    assert pane.result_label.text() == "No new insights."


def test_changes_from_another_writer_refresh_the_pane(qtbot, memory: Memory, core: Core,  # noqa: ANN001
                                                      tmp_path: Path) -> None:
    pane = open_pane(qtbot, core, 0)
    feed = ChangeFeed(memory, interval_ms=50)
    feed.changed.connect(pane.on_changes)
    feed.start()
    try:
        with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="mcp")) as other:
            with qtbot.waitSignal(pane.pending_count_changed, timeout=10000) as counted:
                other.reflect()
            assert counted.args == [FOUND]
            with qtbot.waitSignal(pane.pending_count_changed, timeout=10000) as counted:
                other.decide_insight(SHARED, "dismiss")
            assert counted.args == [FOUND - 1]
        assert pane.decided_model.titles() == [SHARED]
    finally:
        feed.stop()


def test_a_stale_insight_cannot_be_approved(qtbot, memory: Memory, core: Core) -> None:  # noqa: ANN001
    memory.reflect()
    memory.delete_entities(["SQLite"])
    memory.reflect()  # the shared technology is gone: its insight no longer holds
    assert memory.surface_insights(title=SHARED)[0]["stale"]
    pane = open_pane(qtbot, core, FOUND)
    select(pane, SHARED)
    assert pane.stale_label.isVisibleTo(pane) and not pane.approve_button.isEnabled()
    pane.pending_view.setFocus()
    qtbot.keyClick(pane.pending_view, Qt.Key.Key_A)
    core.wait_idle()
    assert status(memory, SHARED) == "pending"
    assert "cannot be approved" in pane.decision_label.text()
    qtbot.keyClick(pane.pending_view, Qt.Key.Key_D)  # dismissing it is still allowed
    qtbot.waitUntil(lambda: status(memory, SHARED) == "dismissed")


def test_an_approved_insight_opens_from_the_decided_tab(qtbot, memory: Memory, core: Core) -> None:  # noqa: ANN001
    memory.reflect()
    memory.decide_insight(SHARED, "approve")
    pane = open_pane(qtbot, core, FOUND - 1)
    pane.tabs.setCurrentIndex(1)
    index = pane.decided_model.index(pane.decided_model.row_of(SHARED), 0)
    pane.decided_view.setCurrentIndex(index)
    assert "Approved" in pane.meta_label.text() and "by you" in pane.meta_label.text()
    assert not pane.approve_button.isVisible() and not pane.dismiss_button.isVisible()
    with qtbot.waitSignal(pane.entity_activated) as opened:
        pane.decided_view.doubleClicked.emit(index)
    assert opened.args == [SHARED]


@pytest.mark.parametrize("dark", [False, True])
def test_follows_the_palette(qtbot, memory: Memory, core: Core, dark: bool) -> None:  # noqa: ANN001
    from PySide6.QtGui import QColor, QPalette

    memory.reflect()
    pane = open_pane(qtbot, core, FOUND)
    palette = QPalette(pane.palette())
    base, text = (QColor("#1e1e1e"), QColor("#eeeeee")) if dark else (QColor("#ffffff"), QColor("#111111"))
    for role, color in ((QPalette.ColorRole.Base, base), (QPalette.ColorRole.Window, base),
                        (QPalette.ColorRole.Text, text), (QPalette.ColorRole.WindowText, text)):
        palette.setColor(role, color)
    pane.setPalette(palette)
    select(pane, SHARED)
    view = pane.pending_view.viewport()
    image = view.grab().toImage()
    last = pane.pending_model.rowCount() - 1  # an unselected row: the list's own colours
    rect = pane.pending_view.visualRect(pane.pending_model.index(last, 0))
    shades = [QColor(image.pixel(x, y)).lightness()
              for x in range(rect.left(), rect.right(), 2) for y in range(rect.top(), rect.bottom(), 2)]
    background = sorted(shades)[len(shades) // 2]
    ink = min(shades) if not dark else max(shades)
    assert (background < 60) if dark else (background > 200)
    assert (ink > 180) if dark else (ink < 80)  # the title is drawn in the palette's text colour


def test_a_decided_insight_goes_back_to_review(qtbot, memory: Memory, core: Core) -> None:  # noqa: ANN001
    """Issue 22: there was no way to take a decision back."""
    memory.reflect()
    memory.decide_insight(SHARED, "dismiss")
    pane = open_pane(qtbot, core, FOUND - 1)
    pane.tabs.setCurrentIndex(1)
    pane.decided_view.setCurrentIndex(pane.decided_model.index(pane.decided_model.row_of(SHARED), 0))
    assert pane.reopen_button.isVisible() and pane.reopen_button.isEnabled()
    with qtbot.waitSignal(pane.status_message) as said:
        pane.reopen_button.click()
    assert "back with the insights to review" in said.args[0]
    qtbot.waitUntil(lambda: pane.pending_count == FOUND and pane.decided_model.row_of(SHARED) < 0)
    assert status(memory, SHARED) == "pending"
    pane.tabs.setCurrentIndex(0)
    select(pane, SHARED)
    assert not pane.reopen_button.isVisible() and pane.approve_button.isVisible()

