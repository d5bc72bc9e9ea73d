"""The entity editor over a real memory: edit and save, revert, rename, validation, a write from
another client while editing (reload or merge), undo, restore, history."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from core.memory import Memory
from core.settings import Settings
from desktop.editor import EditorPane
from desktop.editor.pane import DELETED, EDITING, EMPTY
from desktop.editor.relations import ENDED, OTHER, TYPE
from desktop.workers import Core

WAIT_MS = 20_000  # a deadline, not a speed claim: the machine may be busy


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as m:
        yield m


def seed(memory: Memory) -> None:
    memory.create_entities([
        {"name": "Ada Lovelace", "entityType": "Person",
         "observations": ["Wrote the first published algorithm", "Daughter of Lord Byron"]},
        {"name": "Charles Babbage", "entityType": "Person", "observations": ["Designed the Analytical Engine"]},
        {"name": "Analytical Engine", "entityType": "Machine"},
    ], actor="claude-code")
    memory.create_relations([
        {"from": "Ada Lovelace", "to": "Charles Babbage", "relationType": "worked_with"},
        {"from": "Charles Babbage", "to": "Ada Lovelace", "relationType": "mentored"},
        {"from": "Ada Lovelace", "to": "Analytical Engine", "relationType": "programmed"},
    ], actor="claude-code")


@pytest.fixture
def pane(qtbot, core: Core, memory: Memory) -> EditorPane:  # noqa: ANN001
    seed(memory)
    pane = EditorPane(core)
    qtbot.addWidget(pane)
    pane.resize(460, 760)
    pane.show()
    return pane


def settle(qtbot, pane: EditorPane) -> None:  # noqa: ANN001
    """Wait until every call the pane made has come back."""
    qtbot.waitUntil(lambda: not pane.is_busy(), timeout=WAIT_MS)
    pane.core.wait_idle()
    qtbot.waitUntil(lambda: not pane.is_busy(), timeout=WAIT_MS)


def open_(qtbot, pane: EditorPane, name: str) -> None:  # noqa: ANN001
    pane.open_entity(name)
    qtbot.waitUntil(lambda: pane.stack.currentIndex() != EMPTY and not pane.is_busy(), timeout=WAIT_MS)


def feed(pane: EditorPane, memory: Memory, after: int) -> None:
    """What the main window's ChangeFeed would deliver."""
    rows = memory.changes_since(after)
    if rows:
        pane.on_changes(rows)


def test_empty_state_says_what_to_do(qtbot, core: Core) -> None:  # noqa: ANN001
    pane = EditorPane(core)
    qtbot.addWidget(pane)
    assert pane.stack.currentIndex() == EMPTY and not pane.is_dirty()


def test_opens_an_entity_with_observations_relations_and_history(qtbot, pane: EditorPane) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Ada Lovelace")
    assert pane.stack.currentIndex() == EDITING
    assert pane.page.name_edit.text() == "Ada Lovelace" and pane.page.type_edit.text() == "Person"
    assert [o.text for o in pane.page.observations.items()] == ["Wrote the first published algorithm",
                                                         "Daughter of Lord Byron"]
    assert {(r.direction, r.type, r.other) for r in pane.page.relations.items()} == {
        ("out", "worked_with", "Charles Babbage"), ("in", "mentored", "Charles Babbage"),
        ("out", "programmed", "Analytical Engine")}
    texts = [pane.page.history.item(i).text() for i in range(pane.page.history.count())]
    assert any(t.startswith("added Charles Babbage —mentored→ Ada Lovelace\nclaude-code · ") for t in texts)
    assert texts[-1].startswith("created Ada Lovelace\nclaude-code · ")
    assert not pane.is_dirty() and not pane.page.save_button.isEnabled()
    assert "Person" in pane.page.type_choices.stringList()
    assert "worked_with" in pane.page.relations.type_choices.stringList()


def test_edit_then_save_writes_everything(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Ada Lovelace")
    pane.page.type_edit.setText("Mathematician")
    pane.page.type_edit.textEdited.emit("Mathematician")
    pane.page.observations.edit_row(1, "Only legitimate child of Lord Byron")
    pane.page.observations.add_observation("Wrote Note G\non the Engine")
    pane.page.relations.table.selectRow(2)
    pane.page.relations.remove_selected()
    row = pane.page.relations.add_relation(rtype="admired", other="Analytical Engine")
    assert row == 2
    assert pane.is_dirty() and pane.page.dirty_label.isVisible() and pane.page.save_button.isEnabled()
    assert memory.require_node("Ada Lovelace").label == "Person"  # nothing written before Save
    with qtbot.waitSignal(pane.saved, timeout=WAIT_MS) as saved:
        qtbot.keyClick(pane.page.name_edit, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert saved.args == ["Ada Lovelace"]
    settle(qtbot, pane)
    node = memory.require_node("Ada Lovelace")
    assert node.label == "Mathematician"
    assert node.observations == ["Wrote the first published algorithm", "Only legitimate child of Lord Byron",
                                 "Wrote Note G\non the Engine"]
    rels = {(r["from"], r["to"], r["relationType"]) for r in memory.entity_for_edit("Ada Lovelace")["relations"]}
    assert ("Ada Lovelace", "Analytical Engine", "admired") in rels
    assert ("Ada Lovelace", "Analytical Engine", "programmed") not in rels
    assert not pane.is_dirty()
    assert memory.entity_history("Ada Lovelace")[0].actor == "gui"


def test_revert_discards_edits(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Ada Lovelace")
    before = memory.latest_change_id()
    pane.page.name_edit.setText("Countess")
    pane.page.name_edit.textEdited.emit("Countess")
    pane.page.observations.list.setCurrentRow(0)
    pane.page.observations.delete_selected()
    assert pane.is_dirty()
    pane.page.revert_button.click()
    assert not pane.is_dirty() and pane.page.name_edit.text() == "Ada Lovelace"
    assert len(pane.page.observations.items()) == 2
    settle(qtbot, pane)
    assert memory.latest_change_id() == before


def test_rename_keeps_relations(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Charles Babbage")
    qtbot.keyClicks(pane.page.name_edit, " (1791-1871)")
    pane.save()
    settle(qtbot, pane)
    assert memory.get_node("Charles Babbage") is None
    rels = {(r["from"], r["to"], r["relationType"])
            for r in memory.entity_for_edit("Charles Babbage (1791-1871)")["relations"]}
    assert rels == {("Ada Lovelace", "Charles Babbage (1791-1871)", "worked_with"),
                    ("Charles Babbage (1791-1871)", "Ada Lovelace", "mentored")}
    assert pane.page.title.text() == "Charles Babbage (1791-1871)"
    assert pane.page.history.item(0).text().startswith("renamed Charles Babbage to Charles Babbage (1791-1871)\n"
                                                  "you (this app) · ")


def test_validation_errors_shown_in_place_and_nothing_written(qtbot, pane: EditorPane,  # noqa: ANN001
                                                              memory: Memory) -> None:
    open_(qtbot, pane, "Ada Lovelace")
    before = memory.latest_change_id()
    pane.page.name_edit.setText("")
    pane.page.name_edit.textEdited.emit("")
    assert pane.page.name_error.isVisible() and "empty" in pane.page.name_error.text()
    assert not pane.page.save_button.isEnabled()
    pane.save()  # Ctrl+S anyway: refused, with the reason
    assert pane.page.error.isVisible() and "nothing was saved" in pane.page.error.text()
    pane.page.name_edit.setText("x" * 600)
    pane.page.name_edit.textEdited.emit("x" * 600)
    assert "too long" in pane.page.name_error.text()
    pane.page.name_edit.setText("Charles Babbage")  # another entity's name
    pane.page.name_edit.textEdited.emit("Charles Babbage")
    qtbot.waitUntil(lambda: "already exists" in pane.page.name_error.text(), timeout=WAIT_MS)
    assert not pane.page.save_button.isEnabled()
    pane.page.name_edit.setText("Ada Lovelace")
    pane.page.name_edit.textEdited.emit("Ada Lovelace")
    item = pane.page.observations.add_observation("   ")
    assert item.toolTip() and "must not be empty" in pane.page.observations.error.text()
    assert not pane.page.save_button.isEnabled()
    pane.page.relations.add_relation(rtype="knows", other="")
    assert "other end" in pane.page.relations.error.text()
    pane.save()
    settle(qtbot, pane)
    assert memory.latest_change_id() == before


def test_clean_editor_reloads_when_another_client_writes(qtbot, pane: EditorPane,  # noqa: ANN001
                                                        memory: Memory) -> None:
    open_(qtbot, pane, "Ada Lovelace")
    mark = memory.latest_change_id()
    memory.add_observations([{"entityName": "Ada Lovelace", "contents": ["Born in London"]}], actor="claude-code")
    feed(pane, memory, mark)
    qtbot.waitUntil(lambda: "Born in London" in [o.text for o in pane.page.observations.items()], timeout=WAIT_MS)
    assert not pane.page.banner.isVisible() and not pane.is_dirty()


def _conflict(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    """Edit, then claude-code changes the same entity: the banner appears and nothing is lost."""
    open_(qtbot, pane, "Ada Lovelace")
    mark = memory.latest_change_id()
    pane.page.observations.edit_row(0, "Wrote the first algorithm for a machine")
    pane.page.observations.add_observation("Mine: poetical science")
    memory.add_observations([{"entityName": "Ada Lovelace", "contents": ["Theirs: born 1815"]}],
                            actor="claude-code")
    memory.set_entity_type("Ada Lovelace", "Mathematician", actor="claude-code")
    feed(pane, memory, mark)
    assert pane.page.banner.isVisible()
    assert pane.page.banner.title.text() == "Changed by claude-code while you were editing"
    assert "Mine: poetical science" in [o.text for o in pane.page.observations.items()]  # not overwritten


def test_conflict_then_reload_discards_mine(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    _conflict(qtbot, pane, memory)
    pane.page.banner.reload_button.click()
    qtbot.waitUntil(lambda: not pane.is_busy() and not pane.page.banner.isVisible(), timeout=WAIT_MS)
    texts = [o.text for o in pane.page.observations.items()]
    assert "Theirs: born 1815" in texts and "Mine: poetical science" not in texts
    assert pane.page.type_edit.text() == "Mathematician" and not pane.is_dirty()


def test_conflict_then_merge_keeps_mine_on_theirs(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    _conflict(qtbot, pane, memory)
    pane.page.banner.merge_button.click()
    qtbot.waitUntil(lambda: not pane.is_busy() and not pane.page.banner.isVisible(), timeout=WAIT_MS)
    assert pane.is_dirty() and pane.page.type_edit.text() == "Mathematician"
    pane.save()
    settle(qtbot, pane)
    node = memory.require_node("Ada Lovelace")
    assert node.label == "Mathematician"
    assert node.observations == ["Wrote the first algorithm for a machine", "Daughter of Lord Byron",
                                 "Theirs: born 1815", "Mine: poetical science"]


def test_save_is_refused_when_the_change_arrives_late(qtbot, pane: EditorPane,  # noqa: ANN001
                                                     memory: Memory) -> None:
    open_(qtbot, pane, "Ada Lovelace")
    pane.page.observations.add_observation("Mine")
    memory.delete_observations([{"entityName": "Ada Lovelace", "observations": ["Daughter of Lord Byron"]}],
                               actor="cursor")
    pane.save()  # before the change feed said anything
    qtbot.waitUntil(lambda: pane.page.banner.isVisible(), timeout=WAIT_MS)
    assert "cursor" in pane.page.banner.detail.text()
    assert "Mine" not in memory.require_node("Ada Lovelace").observations
    assert pane.is_dirty()


def test_undo_last_change(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Analytical Engine")
    pane.page.observations.add_observation("Never completed")
    pane.save()
    settle(qtbot, pane)
    assert pane.page.undo_button.isEnabled() and "Never completed" in pane.page.undo_button.toolTip()
    pane.page.observations.list.setFocus()
    qtbot.keyClick(pane.page.observations.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, pane)
    assert memory.require_node("Analytical Engine").observations == []
    assert pane.page.observations.items() == []
    assert pane.page.history.item(0).text().startswith("undid: added “Never completed”\nyou (this app) · ")
    pane.page.observations.add_observation("unsaved")
    before = memory.latest_change_id()
    with qtbot.waitSignal(pane.status_message) as said:
        pane.undo_last()  # unsaved edits: refused, with the reason
    assert "Save or revert" in said.args[0] and memory.latest_change_id() == before


def test_delete_then_restore(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Charles Babbage")
    pane.delete_entity(ask=False)
    qtbot.waitUntil(lambda: pane.stack.currentIndex() == DELETED and not pane.is_busy(), timeout=WAIT_MS)
    assert memory.get_node("Charles Babbage") is None
    assert "deleted by you (this app)" in pane.deleted_label.text()
    pane.restore_button.click()
    qtbot.waitUntil(lambda: pane.stack.currentIndex() == EDITING and not pane.is_busy(), timeout=WAIT_MS)
    assert memory.require_node("Charles Babbage").observations == ["Designed the Analytical Engine"]
    assert len(pane.page.relations.items()) == 2


def test_opening_a_deleted_name_offers_restore(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    memory.delete_entities(["Analytical Engine"], actor="claude-code")
    open_(qtbot, pane, "Analytical Engine")
    assert pane.stack.currentIndex() == DELETED and pane.restore_button.isVisibleTo(pane)
    assert "claude-code" in pane.deleted_label.text()
    open_(qtbot, pane, "Never existed")
    assert not pane.restore_button.isVisibleTo(pane)


def test_end_a_relation(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Ada Lovelace")
    row = next(i for i, r in enumerate(pane.page.relations.items()) if r.type == "worked_with")
    pane.page.relations.table.selectRow(row)
    pane.page.relations.end_selected()
    assert pane.page.relations.table.item(row, ENDED).text()
    pane.save()
    settle(qtbot, pane)
    ended = {r["relationType"]: r["ended_at"] for r in memory.entity_for_edit("Ada Lovelace")["relations"]}
    assert ended["worked_with"] is not None and ended["programmed"] is None
    item = pane.page.relations.table.item(row, TYPE)
    assert item.font().italic() and not item.flags() & Qt.ItemFlag.ItemIsEditable


def test_new_entity_is_created_on_save(qtbot, core: Core, memory: Memory) -> None:  # noqa: ANN001
    seed(memory)
    pane = EditorPane(core)
    qtbot.addWidget(pane)
    pane.new_entity()
    assert not pane.page.save_button.isEnabled()
    qtbot.keyClicks(pane.page.name_edit, "Mary Somerville")
    pane.page.observations.add_observation("Introduced Ada to Babbage")
    pane.page.relations.add_relation(rtype="knows", other="Ada Lovelace")
    pane.save()
    settle(qtbot, pane)
    assert memory.require_node("Mary Somerville").observations == ["Introduced Ada to Babbage"]
    assert pane.page.title.text() == "Mary Somerville" and not pane.is_dirty()


def test_relation_to_a_missing_entity_is_reported_next_to_the_table(qtbot, pane: EditorPane,  # noqa: ANN001
                                                                   memory: Memory) -> None:
    open_(qtbot, pane, "Ada Lovelace")
    before = memory.latest_change_id()
    pane.page.relations.add_relation(rtype="knows", other="Nobody At All")
    pane.save()
    settle(qtbot, pane)
    assert "Nobody At All" in pane.page.relations.error.text() and pane.is_dirty()
    assert memory.latest_change_id() == before
    assert pane.page.relations.table.item(3, OTHER).text() == "Nobody At All"


def test_merge_follows_a_rename_by_another_client(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Charles Babbage")
    mark = memory.latest_change_id()
    pane.page.observations.add_observation("Mine: invented the cowcatcher")
    memory.rename_entity("Charles Babbage", "C. Babbage", actor="claude-code")
    feed(pane, memory, mark)
    assert "renamed Charles Babbage to C. Babbage" in pane.page.banner.detail.text()
    pane.page.banner.merge_button.click()
    qtbot.waitUntil(lambda: not pane.is_busy() and not pane.page.banner.isVisible(), timeout=WAIT_MS)
    assert pane.page.name_edit.text() == "C. Babbage" and pane.is_dirty()
    pane.save()
    settle(qtbot, pane)
    assert memory.require_node("C. Babbage").observations == ["Designed the Analytical Engine",
                                                              "Mine: invented the cowcatcher"]


def test_other_end_completes_from_the_memory(qtbot, pane: EditorPane) -> None:  # noqa: ANN001
    open_(qtbot, pane, "Ada Lovelace")
    pane.page.relations.names_wanted.emit("babb")
    qtbot.waitUntil(lambda: pane.page.relations.name_choices.stringList() == ["Charles Babbage"], timeout=WAIT_MS)


def test_an_observation_is_edited_in_place_over_several_lines(qtbot, pane: EditorPane,  # noqa: ANN001
                                                             memory: Memory) -> None:
    from PySide6.QtWidgets import QPlainTextEdit

    open_(qtbot, pane, "Analytical Engine")
    item = pane.page.observations.add_observation()  # opens the in-place editor
    editor = pane.page.observations.list.findChild(QPlainTextEdit)
    assert editor is not None
    qtbot.keyClicks(editor, "Designed in 1837")
    qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # a new line
    qtbot.keyClicks(editor, "never built")
    assert not pane.page.save_button.isEnabled()  # still typing
    qtbot.keyClick(editor, Qt.Key.Key_Return)  # Enter finishes the observation (issue 22)
    assert item.text() == "Designed in 1837\nnever built"
    assert pane.page.save_button.isEnabled() and pane.is_dirty()  # without moving the focus away
    pane.save()
    settle(qtbot, pane)
    assert memory.require_node("Analytical Engine").observations == ["Designed in 1837\nnever built"]


def test_ctrl_s_in_a_window_with_its_own_save_action_is_not_ambiguous(qtbot, core: Core,  # noqa: ANN001
                                                                      memory: Memory) -> None:
    from PySide6.QtGui import QAction, QKeySequence
    from PySide6.QtWidgets import QMainWindow

    seed(memory)
    window = QMainWindow()
    qtbot.addWidget(window)
    pane = EditorPane(core)
    save = QAction("Save", window)
    save.setShortcut(QKeySequence.StandardKey.Save)
    save.triggered.connect(pane.save)  # what the main window's Edit ▸ Save entity does
    window.addAction(save)
    window.setCentralWidget(pane)
    window.show()
    open_(qtbot, pane, "Analytical Engine")
    pane.page.observations.add_observation("Steam powered")
    pane.page.type_edit.setFocus()
    with qtbot.waitSignal(pane.saved, timeout=WAIT_MS):
        qtbot.keyClick(pane.page.type_edit, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    settle(qtbot, pane)
    assert memory.require_node("Analytical Engine").observations == ["Steam powered"]


def test_opening_another_entity_before_the_first_loads_shows_the_last(qtbot, pane: EditorPane) -> None:  # noqa: ANN001
    pane.open_entity("Ada Lovelace")
    pane.open_entity("Charles Babbage")
    settle(qtbot, pane)
    assert pane.page.title.text() == "Charles Babbage" and not pane.is_busy()


def test_problems_stay_readable_on_a_dark_palette(qtbot, pane: EditorPane) -> None:  # noqa: ANN001
    from PySide6.QtGui import QColor, QPalette

    light = pane.page.name_error.styleSheet()
    dark = QPalette(pane.palette())
    dark.setColor(QPalette.ColorRole.Window, QColor("#202124"))
    pane.setPalette(dark)
    assert pane.page.name_error.styleSheet() != light
    assert pane.page.observations.error.styleSheet() == pane.page.name_error.styleSheet()


def test_clean_editor_follows_a_rename_and_a_dirty_one_hears_of_a_deletion(qtbot, pane: EditorPane,  # noqa: ANN001
                                                                          memory: Memory) -> None:
    open_(qtbot, pane, "Charles Babbage")
    mark = memory.latest_change_id()
    memory.rename_entity("Charles Babbage", "Babbage", actor="claude-code")
    feed(pane, memory, mark)
    qtbot.waitUntil(lambda: pane.page.title.text() == "Babbage" and not pane.is_busy(), timeout=WAIT_MS)
    assert not pane.page.banner.isVisible()
    mark = memory.latest_change_id()
    pane.page.observations.add_observation("Mine")
    memory.delete_entities(["Babbage"], actor="cursor")
    feed(pane, memory, mark)
    assert pane.page.banner.title.text() == "Deleted by cursor while you were editing"
    assert not pane.page.banner.merge_button.isVisibleTo(pane)  # nothing to merge into
    assert "Mine" in [o.text for o in pane.page.observations.items()]  # still there until Reload
    pane.page.banner.reload_button.click()
    qtbot.waitUntil(lambda: pane.stack.currentIndex() == DELETED and not pane.is_busy(), timeout=WAIT_MS)
    assert pane.restore_button.isVisibleTo(pane)


def test_an_observation_of_any_accepted_size_opens_elided_with_all_of_it_on_demand(qtbot, pane: EditorPane,  # noqa: ANN001
                                                                                    memory: Memory) -> None:
    """Issue 22: a 3 MB observation froze the window for 10–25 s and the row was an endless line."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QPlainTextEdit

    from desktop.editor.viewer import ObservationViewer

    huge = ("Minutes of the meeting, verbatim. " * 300_000)[: memory.settings.max_request_bytes - 64]
    memory.add_observations([{"entityName": "Analytical Engine", "contents": ["Short one", huge]}])
    open_(qtbot, pane, "Analytical Engine")
    rows = pane.page.observations
    assert [len(o.text) for o in rows.items()] == [9, len(huge)]  # the whole text is kept
    shown = rows.list.item(1).text()
    assert len(shown) < 1000 and shown.startswith("Minutes of the meeting") and "MiB in all" in shown
    assert rows.list.item(0).text() == "Short one"

    rows.list.setCurrentRow(1)
    rows.on_item_double_clicked(rows.list.item(1))  # what a double-click does
    assert rows.list.findChild(QPlainTextEdit) is None  # not laid out in place
    viewer = rows.viewer
    assert isinstance(viewer, ObservationViewer) and viewer.isVisible()
    assert max(len(line) for line in viewer.body.toPlainText().splitlines()) <= 2000
    viewer.copy_button.click()
    assert QGuiApplication.clipboard().text() == huge
    viewer.close()
    assert not pane.is_dirty()
    pane.page.observations.edit_row(0, "Short, edited")
    pane.save()
    settle(qtbot, pane)
    assert memory.require_node("Analytical Engine").observations == ["Short, edited", huge]


def test_problems_wait_until_the_user_has_typed(qtbot, pane: EditorPane) -> None:  # noqa: ANN001
    """Issue 22: a new entity and a new, empty row showed red errors before anything was typed."""
    pane.new_entity()
    assert not pane.page.name_error.isVisible() and not pane.page.save_button.isEnabled()
    pane.page.observations.add_observation()  # an empty row, open for typing
    assert not pane.page.observations.error.isVisible()
    pane.page.relations.add_relation()  # its type open for typing
    assert not pane.page.relations.error.isVisible()
    assert not pane.page.name_error.isVisible()
    qtbot.keyClicks(pane.page.name_edit, "Loom")
    pane.page.name_edit.clear()
    pane.page.name_edit.textEdited.emit("")
    assert pane.page.name_error.isVisible() and "empty" in pane.page.name_error.text()
    assert not pane.page.save_button.isEnabled()


def test_relations_and_history_have_room_and_grow_with_the_pane(qtbot, core: Core, memory: Memory) -> None:  # noqa: ANN001
    """Issue 22: 2.5 visible rows for 47 relations, history entries cut mid-line, fixed heights."""
    from PySide6.QtCore import QRect

    memory.create_entities([{"name": "Billing", "entityType": "Project", "observations": ["Invoices"]}])
    memory.create_entities([{"name": f"Person {i}", "entityType": "Person"} for i in range(47)])
    memory.create_relations([{"from": f"Person {i}", "to": "Billing", "relationType": "works_on"} for i in range(47)])
    for i in range(8):
        memory.add_observations([{"entityName": "Billing", "contents": [
            f"Note {i}: the invoices were sent twice to the customers of the northern region in March"]}],
            actor="claude-code")
    pane = EditorPane(core)
    qtbot.addWidget(pane)
    pane.resize(380, 760)  # the editor dock at the window's default size
    pane.show()
    open_(qtbot, pane, "Billing")
    table = pane.page.relations.table

    def visible_rows() -> float:
        return table.viewport().height() / table.rowHeight(0)

    assert pane.page.sections.tabText(0) == "Relations (47)"
    assert visible_rows() >= 12
    pane.resize(380, 1100)
    qtbot.waitUntil(lambda: visible_rows() >= 20, timeout=WAIT_MS)  # grows with the window

    history = pane.page.history
    pane.page.sections.setCurrentWidget(history)
    qtbot.waitUntil(history.isVisible, timeout=WAIT_MS)
    width = history.viewport().width()
    for row in range(history.count()):
        item = history.item(row)
        needed = history.fontMetrics().boundingRect(QRect(0, 0, width - 8, 10_000), Qt.TextFlag.TextWordWrap,
                                                    item.text()).height()
        qtbot.waitUntil(lambda item=item, needed=needed: history.visualItemRect(item).height() >= needed,
                        timeout=WAIT_MS)


def test_redo_makes_again_what_undo_took_back(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001
    """Issue 22: there was no Redo (core redoes a change when its undo is undone)."""
    open_(qtbot, pane, "Analytical Engine")
    assert not pane.can_redo()
    for text in ("Designed in 1837", "Never completed"):
        pane.page.observations.add_observation(text)
        pane.save()
        settle(qtbot, pane)
    pane.undo_last()
    settle(qtbot, pane)
    pane.undo_last()
    settle(qtbot, pane)
    assert memory.require_node("Analytical Engine").observations == [] and pane.can_redo()
    pane.redo_last()
    settle(qtbot, pane)
    assert memory.require_node("Analytical Engine").observations == ["Designed in 1837"]
    pane.redo_last()  # the older undo next
    settle(qtbot, pane)
    assert memory.require_node("Analytical Engine").observations == ["Designed in 1837", "Never completed"]
    assert not pane.can_redo()
    pane.undo_last()
    settle(qtbot, pane)
    pane.page.observations.add_observation("A new change")
    pane.save()
    settle(qtbot, pane)
    assert not pane.can_redo()  # a new change since the undo: nothing to redo
    before = memory.latest_change_id()
    with qtbot.waitSignal(pane.status_message) as said:
        pane.redo_last()
    assert "Nothing to redo" in said.args[0] and memory.latest_change_id() == before
