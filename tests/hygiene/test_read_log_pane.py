"""The activity pane shows what the assistants recalled beside what they wrote (reads, writes or
both), and the editor says when and by whom an entity was last recalled."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from core.memory import Memory
from core.settings import Settings
from desktop.activity.model import ActivityModel
from desktop.activity.pane import BOTH, READS, WRITES, ActivityPane
from desktop.editor import EditorPane
from desktop.editor.pane import EMPTY
from desktop.workers import Core
from tests.conftest import SteppingClock

WAIT_MS = 20_000  # a deadline, not a speed claim


@pytest.fixture
def memory(tmp_path: Path, clock: SteppingClock) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"), clock=clock) as m:
        m.create_entities([
            {"name": "Billing service", "entityType": "Service", "observations": ["facturas duplicadas en enero"]},
            {"name": "Payments", "entityType": "Service", "observations": ["cobra facturas"]},
        ], actor="cursor")
        clock.advance(seconds=5)
        m.record_read("claude-code", "search_semantic", "facturas duplicadas", ["Billing service", "Payments"],
                      [("Billing service", "facturas duplicadas en enero")])
        yield m


def _texts(pane: ActivityPane, column: int = ActivityModel.WHAT) -> list[str]:
    return [pane.model.index(r, column).data() for r in range(pane.model.rowCount())]


def _shot(widget, name: str) -> None:  # noqa: ANN001
    folder = os.environ.get("HIPOCAMPO_SHOTS")
    if folder:
        widget.grab().save(str(Path(folder) / name))


def test_reads_beside_writes_and_the_filter(qtbot, core: Core, memory: Memory,  # noqa: ANN001
                                            clock: SteppingClock) -> None:
    pane = ActivityPane(core)
    qtbot.addWidget(pane)
    pane.resize(820, 300)
    pane.show()
    assert pane.kind() == BOTH
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3, timeout=WAIT_MS)
    assert _texts(pane)[0] == "recalled Billing service, Payments for “facturas duplicadas”"
    assert _texts(pane, ActivityModel.CLIENT)[0] == "claude-code"
    tip = pane.model.index(0, ActivityModel.WHAT).data(Qt.ItemDataRole.ToolTipRole)
    assert "through search_semantic" in tip and "facturas duplicadas en enero" in tip  # the facts returned
    assert not pane.undo_button.isEnabled()  # a read is nothing to take back
    clock.advance(seconds=5)
    memory.record_read("opencode", "open_nodes", "Payments", ["Payments"])
    qtbot.waitUntil(lambda: _texts(pane)[0] == "recalled Payments", timeout=WAIT_MS)  # new reads arrive live
    _shot(pane, "activity-reads.png")
    pane.kind_combo.setCurrentIndex(pane.kind_combo.findData(READS))
    qtbot.waitUntil(lambda: pane.model.rowCount() == 2, timeout=WAIT_MS)
    assert all(t.startswith("recalled") for t in _texts(pane))
    pane.kind_combo.setCurrentIndex(pane.kind_combo.findData(WRITES))
    qtbot.waitUntil(lambda: _texts(pane) == ["created Payments", "created Billing service"], timeout=WAIT_MS)
    pane.kind_combo.setCurrentIndex(pane.kind_combo.findData(BOTH))
    pane.refresh_actors()  # a client that only read is in the list too
    qtbot.waitUntil(lambda: pane.client_combo.findData("claude-code") >= 0, timeout=WAIT_MS)
    assert pane.client_combo.itemText(pane.client_combo.findData("claude-code")) == "claude-code"
    pane.client_combo.setCurrentIndex(pane.client_combo.findData("claude-code"))
    qtbot.waitUntil(lambda: _texts(pane) == ["recalled Billing service, Payments for “facturas duplicadas”"],
                    timeout=WAIT_MS)


def test_the_pane_looks_for_new_reads_only_while_it_is_shown(qtbot, core: Core) -> None:  # noqa: ANN001
    """Reads have no change feed: a hidden pane (the window in the tray) does not wake up for them."""
    pane = ActivityPane(core)
    qtbot.addWidget(pane)
    assert not pane._reads_poll.isActive()
    pane.show()
    qtbot.waitUntil(pane.isVisible, timeout=WAIT_MS)
    assert pane._reads_poll.isActive()
    pane.hide()
    assert not pane._reads_poll.isActive()


def test_the_editor_says_who_last_recalled_it(qtbot, core: Core, memory: Memory) -> None:  # noqa: ANN001
    pane = EditorPane(core)
    qtbot.addWidget(pane)
    pane.resize(460, 640)
    pane.show()
    pane.open_entity("Payments")
    qtbot.waitUntil(lambda: pane.stack.currentIndex() != EMPTY and not pane.is_busy(), timeout=WAIT_MS)
    assert pane.page.recall.text().startswith("Last recalled by claude-code")
    assert "“facturas duplicadas”" in pane.page.recall.text()
    memory.create_entities([{"name": "Kim", "entityType": "Person", "observations": ["likes tea"]}])
    pane.open_entity("Kim")
    qtbot.waitUntil(lambda: pane.page.title.text() == "Kim" and not pane.is_busy(), timeout=WAIT_MS)
    assert pane.page.recall.text() == "No assistant has recalled it yet."


def test_settings_turn_the_log_off_and_auto_approval_on(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    from desktop.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(db=tmp_path / "m.db"), settings_path=tmp_path / "settings.json")
    qtbot.addWidget(dialog)
    assert dialog.read_log_box.isChecked() and not dialog.auto_approve_box.isChecked()  # the defaults
    dialog.read_log_box.setChecked(False)
    dialog.auto_approve_box.setChecked(True)
    assert dialog.changes() == {"read_log": False, "auto_approve_supersessions": True}
    dialog.accept()
    saved = Settings(**json.loads((tmp_path / "settings.json").read_text()))
    assert saved.read_log is False and saved.auto_approve_supersessions is True
    _shot(dialog, "settings-recall.png")


def test_reads_only_with_none_logged_says_so(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    with Memory(Settings(db=tmp_path / "empty.db", embeddings="none")) as m:
        m.create_entities([{"name": "Kim", "entityType": "Person"}])
        core = Core(m)
        try:
            pane = ActivityPane(core)
            qtbot.addWidget(pane)
            pane.show()
            pane.kind_combo.setCurrentIndex(pane.kind_combo.findData(READS))
            qtbot.waitUntil(lambda: "recalled anything" in pane.empty.text(), timeout=WAIT_MS)
            assert pane.stack.currentWidget() is pane.empty
        finally:
            core.shutdown()


READ_ELSEWHERE = ("import sys; from core.memory import Memory; from core.settings import Settings\n"
                  "with Memory(Settings(db=sys.argv[1], embeddings='none')) as m:\n"
                  "    m.record_read('cursor', 'open_nodes', 'Payments', ['Payments'])\n")


def test_a_read_another_process_logs_arrives_without_polling(qtbot, core: Core, memory: Memory,  # noqa: ANN001
                                                             tmp_path: Path) -> None:
    """The pane looked for new reads every 3 s while shown: an idle app's reader threads woke ~1.8
    times a second for it. It follows the read log's file instead (the poll is only a safety net)."""
    import subprocess
    import sys

    pane = ActivityPane(core)
    qtbot.addWidget(pane)
    pane.show()
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3, timeout=WAIT_MS)
    pane._reads_poll.stop()  # only the file's notification can bring it now
    subprocess.run([sys.executable, "-c", READ_ELSEWHERE, str(tmp_path / "m.db")], check=True, timeout=60)
    qtbot.waitUntil(lambda: _texts(pane)[0] == "recalled Payments", timeout=WAIT_MS)
    assert _texts(pane, ActivityModel.CLIENT)[0] == "cursor"
