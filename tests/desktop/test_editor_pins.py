"""The editor's pin controls: pin the open entity, or its selected observation, to the session brief."""

from __future__ import annotations

import os
from pathlib import Path

from core.memory import Memory
from desktop.editor import EditorPane
from tests.desktop.test_editor_pane import WAIT_MS, memory, open_, pane, settle  # noqa: F401


def shot(widget: EditorPane, name: str) -> None:
    """A picture of the pane where HIPOCAMPO_SHOTS names a folder (to look at it)."""
    folder = os.environ.get("HIPOCAMPO_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        widget.grab().save(str(Path(folder) / f"{name}.png"))


def test_pin_the_entity_and_an_observation_then_unpin(qtbot, pane: EditorPane, memory: Memory) -> None:  # noqa: ANN001, F811
    open_(qtbot, pane, "Ada Lovelace")
    bar = pane.page.pins
    qtbot.waitUntil(lambda: bar.entity_button.text() == "Pin to brief", timeout=WAIT_MS)
    assert not bar.fact_button.isEnabled()  # nothing selected
    shot(pane, "editor-unpinned")
    with qtbot.waitSignal(bar.status, timeout=WAIT_MS) as said:
        bar.entity_button.click()
    assert said.args == ["“Ada Lovelace” is pinned to the brief."]
    qtbot.waitUntil(lambda: bar.entity_button.isChecked() and bar.entity_button.text() == "✓ Pinned to brief",
                    timeout=WAIT_MS)
    pane.page.observations.list.setCurrentRow(1)
    assert bar.fact_button.isEnabled() and bar.fact_button.text() == "Pin observation"
    with qtbot.waitSignal(bar.status, timeout=WAIT_MS):
        bar.fact_button.click()
    qtbot.waitUntil(lambda: bar.fact_button.text() == "Unpin observation", timeout=WAIT_MS)
    settle(qtbot, pane)
    shot(pane, "editor-pinned")
    assert [(p["name"], p["fact"]) for p in memory.pins()] == [("Ada Lovelace", None),
                                                                ("Ada Lovelace", "Daughter of Lord Byron")]
    assert memory.brief().sections["pinned"] == ["Ada Lovelace"]
    with qtbot.waitSignal(bar.status, timeout=WAIT_MS):
        bar.entity_button.click()
    qtbot.waitUntil(lambda: not bar.entity_button.isChecked(), timeout=WAIT_MS)
    assert [(p["name"], p["fact"]) for p in memory.pins()] == [("Ada Lovelace", "Daughter of Lord Byron")]


def test_an_unsaved_observation_cannot_be_pinned(qtbot, pane: EditorPane) -> None:  # noqa: ANN001, F811
    open_(qtbot, pane, "Charles Babbage")
    item = pane.page.observations.add_observation("Not saved yet")
    pane.page.observations.list.setCurrentItem(item)
    assert not pane.page.pins.fact_button.isEnabled()


def test_a_new_entity_has_nothing_to_pin(qtbot, pane: EditorPane) -> None:  # noqa: ANN001, F811
    pane.new_entity()
    assert not pane.page.pins.isEnabled()
