"""The activity pane over a real memory: who wrote what, filters, live rows, open and undo."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import QDate, Qt

from core.memory import Memory
from core.settings import Settings
from desktop.activity.model import ActivityModel
from desktop.activity.pane import LIVE_ROWS, ON_DAY, PAGE, TODAY, YESTERDAY, ActivityPane
from desktop.workers import Core
from tests.conftest import SteppingClock


def _local(day: date, hour: int) -> datetime:
    return datetime.combine(day, time(hour)).astimezone().astimezone(UTC)


@pytest.fixture
def clock() -> SteppingClock:
    """Two days ago at local noon, so Today and Yesterday have something in them."""
    return SteppingClock(_local(date.today() - timedelta(days=2), 12))


@pytest.fixture
def memory(tmp_path: Path, clock: SteppingClock) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"), clock=clock) as m:
        yield m


def _write_three_days(memory: Memory, clock: SteppingClock) -> None:
    memory.create_entities([{"name": "Ada Lovelace", "entityType": "Person"},
                            {"name": "Charles Babbage", "entityType": "Person"}], actor="cursor")
    clock.now = _local(date.today() - timedelta(days=1), 12)
    memory.create_relations([{"from": "Ada Lovelace", "to": "Charles Babbage", "relationType": "knows"}],
                            actor="claude-code")
    memory.add_observations([{"entityName": "Ada Lovelace", "contents": ["Wrote Note G", "Byron's daughter"]}],
                            actor="claude-code")
    clock.now = datetime.now(UTC) - timedelta(seconds=5)
    memory.delete_entities(["Charles Babbage"], actor="opencode")


def _pane(qtbot, core: Core) -> ActivityPane:  # noqa: ANN001
    pane = ActivityPane(core)
    qtbot.addWidget(pane)
    pane.resize(760, 400)
    pane.show()
    return pane


def _texts(pane: ActivityPane, column: int = ActivityModel.WHAT) -> list[str]:
    return [pane.model.index(r, column).data() for r in range(pane.model.rowCount())]


def test_empty_memory_explains_what_will_appear(qtbot, core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane._loaded)
    assert pane.stack.currentWidget() is pane.empty
    assert "assistants write" in pane.empty.text()


def test_rows_newest_first_with_client_and_wording(qtbot, core: Core, memory: Memory,  # noqa: ANN001
                                                   clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5)
    assert _texts(pane) == [
        "deleted Charles Babbage (Person, 0 observations)",
        "added 2 observations to Ada Lovelace",
        "related Ada Lovelace → Charles Babbage (knows)",
        "created Charles Babbage",
        "created Ada Lovelace",
    ]
    assert _texts(pane, ActivityModel.CLIENT) == ["opencode", "claude-code", "claude-code", "cursor", "cursor"]
    assert _texts(pane, ActivityModel.WHEN)[0] == "just now"
    assert _texts(pane, ActivityModel.WHEN)[1].startswith("yesterday")
    assert "<b>Ada Lovelace</b>" in pane.model.index(1, 2).data(ActivityModel.HtmlRole)
    hues = {pane.model.index(r, 1).data(ActivityModel.HueRole) for r in range(5)}
    assert len(hues) == 3  # one colour per client


def test_filters_by_client_and_by_day(qtbot, core: Core, memory: Memory, clock: SteppingClock) -> None:  # noqa: ANN001
    _write_three_days(memory, clock)
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.client_combo.count() == 4)  # All clients + three
    pane.client_combo.setCurrentIndex(pane.client_combo.findData("claude-code"))
    qtbot.waitUntil(lambda: _texts(pane, ActivityModel.CLIENT) == ["claude-code", "claude-code"])
    pane.client_combo.setCurrentIndex(0)
    pane.day_combo.setCurrentIndex(pane.day_combo.findData(TODAY))
    qtbot.waitUntil(lambda: _texts(pane) == ["deleted Charles Babbage (Person, 0 observations)"])
    pane.day_combo.setCurrentIndex(pane.day_combo.findData(YESTERDAY))
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2)
    pane.client_combo.setCurrentIndex(pane.client_combo.findData("cursor"))
    qtbot.waitUntil(lambda: pane.stack.currentWidget() is pane.empty)
    assert "cursor" in pane.empty.text()
    pane.on_show_everything()
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5)
    pane.day_combo.setCurrentIndex(pane.day_combo.findData(ON_DAY))
    assert pane.day_edit.isVisibleTo(pane)
    pane.day_edit.setDate(QDate(date.today() - timedelta(days=2)))
    qtbot.waitUntil(lambda: _texts(pane) == ["created Charles Babbage", "created Ada Lovelace"])


def test_a_write_by_claude_code_arrives_on_top_and_lit(qtbot, core: Core, memory: Memory,  # noqa: ANN001
                                                      clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5)
    after = memory.latest_change_id()
    clock.now = datetime.now(UTC)
    memory.add_observations([{"entityName": "Ada Lovelace", "contents": ["First programmer"]}], actor="claude-code")
    pane.on_changes(memory.changes_since(after))
    assert pane.model.rowCount() == 6
    top = pane.model.index(0, ActivityModel.WHAT)
    assert top.data() == "added to Ada Lovelace: “First programmer”"
    assert pane.model.index(0, ActivityModel.CLIENT).data() == "claude-code"
    assert top.data(ActivityModel.FreshRole) > 0
    qtbot.waitUntil(lambda: top.data(ActivityModel.FreshRole) == 0, timeout=6000)  # the highlight fades
    combo = pane.client_combo
    qtbot.waitUntil(lambda: combo.itemText(combo.findData("claude-code")) == "claude-code (3)", timeout=8000)

    pane.client_combo.setCurrentIndex(pane.client_combo.findData("cursor"))
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2)
    after = memory.latest_change_id()
    memory.create_entities([{"name": "Note G", "entityType": "Concept"}], actor="claude-code")
    pane.on_changes(memory.changes_since(after))
    assert pane.model.rowCount() == 2  # filtered out: not by cursor


def test_a_new_client_joins_the_client_filter(qtbot, core: Core, memory: Memory) -> None:  # noqa: ANN001
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane._loaded)
    memory.create_entities([{"name": "Ada Lovelace", "entityType": "Person"}], actor="claude-desktop")
    pane.on_changes(memory.changes_since(0))
    qtbot.waitUntil(lambda: pane.client_combo.findData("claude-desktop") > 0)
    assert pane.stack.currentWidget() is pane.table


def test_a_write_during_the_first_read_shows_once(qtbot, core: Core, memory: Memory,  # noqa: ANN001
                                                  clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    pane = _pane(qtbot, core)  # its first page is being read on a worker thread now
    after = memory.latest_change_id()
    memory.create_entities([{"name": "Note G", "entityType": "Concept"}], actor="claude-code")
    pane.on_changes(memory.changes_since(after))
    qtbot.waitUntil(lambda: pane.model.rowCount() == 6)
    assert _texts(pane)[0] == "created Note G"
    assert len({pane.model.row_at(r).id for r in range(6)}) == 6


def test_enter_opens_the_entity_and_a_deleted_one_says_so(qtbot, core: Core, memory: Memory,  # noqa: ANN001
                                                          clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5)
    pane.table.setFocus()
    pane.table.setCurrentIndex(pane.model.index(1, 0))
    with qtbot.waitSignal(pane.entity_activated) as opened:
        qtbot.keyClick(pane.table, Qt.Key.Key_Return)
    assert opened.args == ["Ada Lovelace"]
    pane.table.setCurrentIndex(pane.model.index(0, 0))  # Charles Babbage, deleted
    with qtbot.assertNotEmitted(pane.entity_activated, wait=300):
        qtbot.keyClick(pane.table, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: pane.banner.isVisible())
    assert "no longer exists" in pane.banner_text.text()


def test_undo_from_the_pane_reverts_the_change_and_a_refusal_reads_well(qtbot, core: Core,  # noqa: ANN001
                                                                        memory: Memory, clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5)
    pane.table.setCurrentIndex(pane.model.index(1, 0))  # added 2 observations to Ada Lovelace
    added_id = pane.model.row_at(1).id
    assert pane.undo_button.isEnabled()
    after = memory.latest_change_id()
    with qtbot.waitSignal(pane.status_message) as said:
        pane.undo_button.click()
    assert said.args[0] == "Undone: added 2 observations to Ada Lovelace"
    assert memory.get_node("Ada Lovelace").observations == []

    pane.on_changes(memory.changes_since(after))  # the feed brings the undo: one row, its parts hidden
    assert pane.model.rowCount() == 6
    assert pane.model.index(0, ActivityModel.WHAT).data() == "undid: added 2 observations to Ada Lovelace"
    undone_row = pane.model.row_of(added_id)
    assert pane.model.index(undone_row, 0).data(ActivityModel.UndoneRole) is not None
    pane.table.setCurrentIndex(pane.model.index(undone_row, 0))
    assert not pane.undo_button.isEnabled()

    before = memory.latest_change_id()
    pane.undo_change(added_id)  # refused by the core: it was undone already
    qtbot.waitUntil(lambda: pane.banner.isVisible())
    assert pane.banner_text.text().startswith("Could not undo: Change #")
    assert "already undone" in pane.banner_text.text()
    assert memory.latest_change_id() == before and memory.get_node("Ada Lovelace").observations == []

    pane.table.setCurrentIndex(pane.model.index(0, 0))  # the undo row itself: redo
    assert pane.undo_button.text() == "Redo"
    after = memory.latest_change_id()
    pane.undo_button.click()
    qtbot.waitUntil(lambda: len(memory.get_node("Ada Lovelace").observations) == 2)
    pane.on_changes(memory.changes_since(after))
    assert pane.model.index(pane.model.row_of(added_id), 0).data(ActivityModel.UndoneRole) is None  # redone
    assert pane.model.index(0, ActivityModel.WHAT).data() == "redid: added 2 observations to Ada Lovelace"


def test_undo_of_a_deletion_brings_the_entity_back(qtbot, core: Core, memory: Memory,  # noqa: ANN001
                                                   clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 5)
    pane.table.setCurrentIndex(pane.model.index(0, 0))
    pane.undo_button.click()
    qtbot.waitUntil(lambda: memory.get_node("Charles Babbage") is not None)
    graph = memory.open_nodes(["Ada Lovelace", "Charles Babbage"])
    assert [(r.from_, r.to) for r in graph.relations] == [("Ada Lovelace", "Charles Babbage")]


def test_older_rows_load_on_scroll(qtbot, core: Core, memory: Memory) -> None:  # noqa: ANN001
    memory.create_entities([{"name": "Ada Lovelace", "entityType": "Person"}], actor="cursor")
    for i in range(PAGE + 60):
        memory.add_observations([{"entityName": "Ada Lovelace", "contents": [f"fact {i}"]}], actor="claude-code")
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.model.rowCount() == PAGE)

    def scrolled_to_the_end() -> bool:
        pane.table.scrollToBottom()
        return pane.model.rowCount() == PAGE + 61

    qtbot.waitUntil(scrolled_to_the_end)
    assert _texts(pane)[-1] == "created Ada Lovelace"
    assert _texts(pane)[0] == f"added to Ada Lovelace: “fact {PAGE + 59}”"


def test_one_reflect_is_one_row_listing_its_insights(qtbot, core: Core, memory: Memory) -> None:  # noqa: ANN001
    memory.create_entities([{"name": "Idempotency", "entityType": "Concept"}]
                           + [{"name": f"Service {i}", "entityType": "Project"} for i in range(3)], actor="cursor")
    memory.create_relations([{"from": f"Service {i}", "to": "Idempotency", "relationType": "USES"} for i in range(3)],
                            actor="cursor")
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 7)
    after = memory.latest_change_id()
    memory.reflect(actor="hipocampo")
    pane.on_changes(memory.changes_since(after))
    assert pane.model.rowCount() == 8  # the insights it proposed stand behind the one row
    top = pane.model.index(0, ActivityModel.WHAT)
    assert top.data() == "reflected on the memory: 2 new insights"
    assert "proposed the insight Concept cluster: Idempotency" in top.data(Qt.ItemDataRole.ToolTipRole)
    with qtbot.waitSignal(pane.model.modelReset):
        pane.reload()  # read back from the memory: the same one row
    assert pane.model.rowCount() == 8 and pane.model.index(0, 2).data() == "reflected on the memory: 2 new insights"
    assert not pane.undo_button.isEnabled()  # reflect is reviewed in the insights pane, not undone here


def test_an_undo_by_another_client_strikes_through_a_filtered_view(qtbot, core: Core, memory: Memory,  # noqa: ANN001
                                                                   clock: SteppingClock) -> None:
    _write_three_days(memory, clock)
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.client_combo.findData("claude-code") > 0)
    pane.client_combo.setCurrentIndex(pane.client_combo.findData("claude-code"))
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2)
    added = pane.model.row_at(0).id
    after = memory.latest_change_id()
    memory.undo_change(added, actor="cursor")
    pane.on_changes(memory.changes_since(after))
    assert pane.model.rowCount() == 2  # the undo itself is by cursor: not shown here
    assert pane.model.index(0, 0).data(ActivityModel.UndoneRole) is not None


def test_a_long_stream_of_writes_keeps_the_table_bounded_and_older_rows_come_back_on_scroll(  # noqa: ANN001
        qtbot, core: Core, memory: Memory) -> None:
    memory.create_entities([{"name": "Ada Lovelace", "entityType": "Person"}], actor="cursor")
    pane = _pane(qtbot, core)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1)
    resets: list[int] = []
    pane.model.modelReset.connect(lambda: resets.append(1))
    total = LIVE_ROWS + PAGE + 50
    for start in range(0, total, 250):  # an import streaming in, as the change feed delivers it
        after = memory.latest_change_id()
        for i in range(start, min(total, start + 250)):
            memory.add_observations([{"entityName": "Ada Lovelace", "contents": [f"fact {i}"]}], actor="claude-code")
        pane.on_changes(memory.changes_since(after, limit=1000))
    assert pane.model.rowCount() == LIVE_ROWS  # not every row ever written: the view walks them all
    assert resets == []  # rows inserted and dropped, never the whole table reset
    assert _texts(pane)[0] == f"added to Ada Lovelace: “fact {total - 1}”"

    def scrolled_to_the_end() -> bool:
        pane.table.scrollToBottom()
        return _texts(pane)[-1] == "created Ada Lovelace"

    qtbot.waitUntil(scrolled_to_the_end, timeout=15000)
    texts = _texts(pane)
    assert len(texts) == len(set(texts)) == total + 1  # every change once, none lost at the seam
