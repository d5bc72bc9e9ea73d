"""The welcome screen finds the memories a switcher already has and imports them through the
usual preview; Help → Connect an assistant opens a dialog of its own; no slot of a closed dialog
stays connected to the hub. Real files in a home folder of the test's own, the real app and hub."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import SIGNAL, QCoreApplication, QEvent
from PySide6.QtWidgets import QApplication, QLabel

from core.memory import Memory
from core.settings import Settings
from desktop.app import HipocampoApp
from desktop.dialogs.connect_client import ConnectDialog
from desktop.dialogs.first_run import FirstRunDialog
from desktop.hub import Hub
from tests.desktop.conftest import until
from tests.io.test_discover import write_official
from tests.io.test_engrama_db import build_engrama_db

#: where the dialogs are drawn to PNG for a person to look at; unset, nothing is saved
SHOTS = Path(os.environ["HIPOCAMPO_SHOTS"]) if os.environ.get("HIPOCAMPO_SHOTS") else None


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    for name in ("CLAUDE_CONFIG_DIR", "MEMORY_FILE_PATH", "ENGRAMA_DB_PATH", "HIPOCAMPO_FIRST_RUN_DONE",
                 "LOCALAPPDATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HIPOCAMPO_SETTINGS_FILE", str(tmp_path / "settings.json"))
    return home


def switcher_home(home: Path) -> tuple[Path, Path]:
    """Claude Desktop configured with the official server on a file of its own, and Engrama."""
    official = write_official(home / "Documents" / "claude-memory.jsonl", 3, 2)
    config = home / ".config" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    config.write_text(json.dumps({"mcpServers": {"memory": {
        "command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"],
        "env": {"MEMORY_FILE_PATH": str(official)}}}}), encoding="utf-8")
    (home / ".engrama").mkdir()
    engrama = build_engrama_db(home / ".engrama" / "engrama.db")
    return official, engrama


def grab(widget: object, name: str) -> None:
    image = widget.grab()  # type: ignore[attr-defined]
    assert not image.isNull()
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        image.save(str(SHOTS / f"{name}.png"))


def hub_receivers(hub: Hub) -> int:
    return hub.receivers(SIGNAL("changed()"))


def flush_deletes() -> None:
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()


def test_the_welcome_screen_offers_each_memory_with_its_counts(qtbot, home: Path, tmp_path: Path) -> None:  # noqa: ANN001
    official, engrama = switcher_home(home)
    dialog = FirstRunDialog(Settings(db=tmp_path / "memory.db", embeddings="none"))
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.memories_found, timeout=30_000):
        dialog.show()
    assert {m.path for m in dialog.found} == {official, engrama}
    labels = {m.path: dialog._describe(m) for m in dialog.found}
    assert labels[official] == "Official memory server: 3 entities, 2 relations (set in Claude Desktop)"
    assert labels[engrama] == "Engrama: 4 entities, 3 relations, 3 insights"
    assert dialog.others_heading.isVisible() and set(dialog.import_buttons) == {official, engrama}
    assert all(button.isVisible() for button in dialog.import_buttons.values())
    shown = [w.text() for w in dialog.findChildren(QLabel, "foundMemory") if w.isVisible()]
    assert sorted(shown) == sorted(labels.values())
    grab(dialog, "first_run_switcher")
    with qtbot.waitSignal(dialog.import_requested) as asked:
        dialog.import_buttons[engrama].click()
    assert asked.args == [[engrama]]


def test_nothing_to_offer_keeps_the_screen_as_it_was(qtbot, home: Path, tmp_path: Path) -> None:  # noqa: ANN001
    dialog = FirstRunDialog(Settings(db=tmp_path / "memory.db", embeddings="none"))
    qtbot.addWidget(dialog)
    with qtbot.waitSignal(dialog.memories_found, timeout=30_000):
        dialog.show()
    assert dialog.found == [] and not dialog.others_heading.isVisible() and not dialog.others_note.isVisible()
    grab(dialog, "first_run_plain")


def test_a_closed_dialog_leaves_no_slot_on_the_hub(qtbot, home: Path, tmp_path: Path) -> None:  # noqa: ANN001
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as memory:
        hub = Hub(memory, hub_file=tmp_path / "endpoint.json")
        baseline = hub_receivers(hub)
        for make in (lambda: FirstRunDialog(memory.settings, endpoint=hub, discover=False),
                     lambda: ConnectDialog(memory.settings.db, endpoint=hub)):
            for _ in range(3):
                dialog = make()
                assert hub_receivers(hub) == baseline + 1
                dialog.show()
                dialog.reject()
                assert hub_receivers(hub) == baseline  # closed: already let go
                dialog.deleteLater()
                flush_deletes()
        hub.changed.emit()  # as when the first assistant connects: no dead label is touched
        assert hub_receivers(hub) == baseline


def test_the_switchers_memory_imports_through_the_preview(loop: qasync.QEventLoop, home: Path,
                                                          tmp_path: Path) -> None:
    from desktop.dialogs.import_dialog import ImportDialog

    _, engrama = switcher_home(home)
    db = tmp_path / "new.db"
    app = HipocampoApp(Settings(db=db, embeddings="none", actor="gui", close_to_tray=False),
                       hub_file=tmp_path / "endpoint.json", first_run=True, start_hub=False)

    def welcome() -> FirstRunDialog | None:
        return next((d for d in app.dialogs if isinstance(d, FirstRunDialog)), None)

    def importer() -> ImportDialog | None:
        return next((d for d in app.dialogs if isinstance(d, ImportDialog)), None)

    async def scenario() -> None:
        app.start()
        await until(lambda: welcome() is not None and engrama in welcome().import_buttons)
        welcome().import_buttons[engrama].click()
        await until(lambda: importer() is not None and importer().import_button.isEnabled())
        dialog = importer()
        assert dialog.import_button.isVisible()
        grab(dialog, "first_run_import_preview")
        assert app.memory.read_graph().entities == []  # the preview changed nothing
        dialog.import_button.click()
        await until(lambda: any(n.name == "Hipocampo" for n in app.memory.read_graph().entities))

        def insights() -> dict[str, str]:
            return {i["title"]: i["status"] for i in app.memory.surface_insights(status="all")}
        await until(lambda: len(insights()) == 3)  # the import adopts them after its entities
        assert insights() == {"Shared SQLite": "approved", "Maybe Rust": "pending", "Not this": "dismissed"}
        app.quit(force=True)
        await until(lambda: app.memory is None)

    loop.run_until_complete(scenario())


def test_help_connect_opens_the_connect_dialog_not_the_welcome(loop: qasync.QEventLoop, home: Path,
                                                               tmp_path: Path) -> None:
    app = HipocampoApp(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui", close_to_tray=False),
                       hub_file=tmp_path / "endpoint.json", first_run=False)

    async def scenario() -> None:
        app.start()
        await until(lambda: app.hub is not None and app.hub.running)
        baseline = hub_receivers(app.hub)
        for _ in range(2):
            app.window.connect_requested.emit()
            await until(lambda: any(isinstance(d, ConnectDialog) and d.isVisible() for d in app.dialogs))
            dialog = next(d for d in app.dialogs if isinstance(d, ConnectDialog))
            assert not any(isinstance(d, FirstRunDialog) for d in app.dialogs)
            assert dialog.windowTitle() == "Connect an assistant"
            assert f"Assistants connect to {app.hub.url}" in dialog.endpoint_label.text()
            assert "Start using" not in " ".join(b.text() for b in dialog.findChildren(type(dialog.close_button)))
            assert dialog.tabs.count() == 4
            await asyncio.sleep(0.05)  # let it lay out before the picture
            grab(dialog, "connect_dialog")
            dialog.close_button.click()
            await until(lambda: not any(isinstance(d, ConnectDialog) for d in app.dialogs))
            flush_deletes()
            assert hub_receivers(app.hub) == baseline
        app.hub.changed.emit()
        app.quit(force=True)
        await until(lambda: app.memory is None)

    loop.run_until_complete(scenario())
