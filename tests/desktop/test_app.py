"""The whole app in-process (offscreen): it opens a memory behind the painted window, hosts the hub,
sees what another process writes to the same file, obeys its tray menu, and quits cleanly."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
import qasync
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from PySide6.QtGui import QGuiApplication

from core.memory import Memory
from core.settings import Settings
from desktop.app import HipocampoApp
from tests.desktop.conftest import until


@pytest.fixture
def hipocampo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> HipocampoApp:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with Memory(Settings(db=tmp_path / "memory.db", embeddings="none")) as memory:
        memory.create_entities([{"name": "Ada Lovelace", "entityType": "Person", "observations": ["Writes notes"]}])
    settings = Settings(db=tmp_path / "memory.db", embeddings="none", actor="gui", close_to_tray=False)
    return HipocampoApp(settings, hub_file=tmp_path / "endpoint.json", first_run=False)




async def write_from_another_process(db: Path, tmp_path: Path) -> None:
    """A stdio server of its own (not bridged: another hub file), as a second client would start."""
    env = {**os.environ, "HIPOCAMPO_ENDPOINT_FILE": str(tmp_path / "elsewhere.json"), "HIPOCAMPO_EMBEDDINGS": "none"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "core.cli", "--db", str(db), "mcp"], env=env)
    async with Client(stdio_client(params), client_info=types.Implementation(name="cursor", version="1")) as client:
        result = await client.call_tool("create_entities", {"entities": [
            {"name": "Grace Hopper", "entityType": "Person", "observations": ["Found a moth"]}]})
        assert not result.is_error


def test_app_opens_serves_refreshes_live_and_quits(loop: qasync.QEventLoop, hipocampo: HipocampoApp,
                                                  tmp_path: Path) -> None:
    window = hipocampo.window
    db = tmp_path / "memory.db"
    finished: list[bool] = []
    hipocampo.finished.connect(lambda: finished.append(True))

    async def scenario() -> None:
        hipocampo.start()
        assert window.isVisible()  # painted before the memory is open
        await until(lambda: hipocampo.hub is not None and hipocampo.hub.running)
        assert set(window.panes) == {"graph", "search", "editor", "insights", "activity"}
        assert "memory.db" in window.windowTitle() and "Hipocampo" in window.windowTitle()
        assert json.loads((tmp_path / "endpoint.json").read_text())["url"] == hipocampo.hub.url

        seen: list[list[dict[str, Any]]] = []
        assert hipocampo.feed is not None
        hipocampo.feed.changed.connect(seen.append)
        await write_from_another_process(db, tmp_path)
        await until(lambda: any(r.entity == "Grace Hopper" for rows in seen for r in rows))
        activity = window.panes["activity"]
        await until(lambda: any("Grace Hopper" in (activity.model.row_at(i).entity or "")
                                for i in range(activity.model.rowCount())))

        tray = hipocampo.tray
        tray.endpoint_action.trigger()  # stop
        await until(lambda: not hipocampo.hub.running and not hipocampo.hub.starting)
        # The hub's thread says so first; the tray hears it through a queued signal a moment later.
        await until(lambda: "Start" in tray.endpoint_action.text(), timeout=10)
        assert "port" not in json.loads((tmp_path / "endpoint.json").read_text())
        assert "Start" in tray.endpoint_action.text()
        tray.endpoint_action.trigger()  # start again
        await until(lambda: hipocampo.hub.running)
        tray.copy_actions["claude-desktop"].trigger()
        assert json.loads(QGuiApplication.clipboard().text())["mcpServers"]
        tray.quit_action.trigger()
        await until(lambda: finished)

    loop.run_until_complete(scenario())
    assert hipocampo.memory is None and hipocampo.hub is None
    assert "port" not in json.loads((tmp_path / "endpoint.json").read_text())
    with Memory(Settings(db=db, embeddings="none")) as memory:
        assert {e.name for e in memory.read_graph().entities} == {"Ada Lovelace", "Grace Hopper"}


def test_a_memory_that_cannot_be_opened_is_said_not_crashed(loop: qasync.QEventLoop, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    messages: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda _parent, title, text: messages.append(f"{title}: {text}"))
    not_a_db = tmp_path / "notes.db"
    not_a_db.write_text("these are my notes, not a database\n" * 100)
    before = not_a_db.read_bytes()
    app = HipocampoApp(Settings(db=not_a_db, embeddings="none", actor="gui"), hub_file=tmp_path / "endpoint.json",
                       first_run=False)

    async def scenario() -> None:
        app.start()
        await until(lambda: messages)
        app.quit(force=True)
        await asyncio.sleep(0.1)

    loop.run_until_complete(scenario())
    assert "Cannot open the memory" in messages[0] and str(not_a_db) in messages[0]
    assert not_a_db.read_bytes() == before


def test_first_run_screen_opens_while_the_hub_already_serves(loop: qasync.QEventLoop, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QMimeData, QUrl

    from desktop.dialogs.first_run import FirstRunDialog
    from desktop.dialogs.import_dialog import ImportDialog

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = HipocampoApp(Settings(db=tmp_path / "new.db", embeddings="none", actor="gui"),
                       hub_file=tmp_path / "endpoint.json", first_run=True)
    notes = tmp_path / "memory.jsonl"
    notes.write_text('{"type":"entity","name":"Kafka","entityType":"technology","observations":["queue"]}\n')

    async def scenario() -> None:
        app.start()
        await until(lambda: any(isinstance(d, FirstRunDialog) and d.isVisible() for d in app.dialogs))
        await until(lambda: app.hub is not None and app.hub.running)  # serving behind the welcome screen
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(str(notes))])
        from desktop.drop import importable_paths

        app.window.import_requested.emit(importable_paths(mime))
        await until(lambda: any(isinstance(d, ImportDialog) for d in app.dialogs))
        app.quit(force=True)
        await until(lambda: app.memory is None)

    loop.run_until_complete(scenario())


def test_the_memory_is_shown_first_then_the_hub_and_the_model_follow(loop: qasync.QEventLoop, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: the panes waited for the MCP stack's import and the model's load (17–28 s under load).
    Now ``ready`` comes with the panes alone; the hub serves and the model loads after, before the
    first search would need it."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    settings = Settings(db=tmp_path / "memory.db", embeddings="onnx", actor="gui", close_to_tray=False)
    hipocampo = HipocampoApp(settings, hub_file=tmp_path / "endpoint.json", first_run=False)
    finished: list[bool] = []
    hipocampo.finished.connect(lambda: finished.append(True))
    at_ready: list[tuple[bool, bool, bool]] = []
    hipocampo.ready.connect(lambda: at_ready.append(
        ("graph" in hipocampo.window.panes, hipocampo.hub is None, hipocampo.memory.embedder.loaded)))
    at_model: list[bool] = []
    hipocampo.model_ready.connect(lambda: at_model.append(hipocampo.memory.embedder.loaded))

    async def scenario() -> None:
        hipocampo.start()
        await until(lambda: at_model and hipocampo.hub is not None and hipocampo.hub.running)
        hipocampo.quit(force=True)
        await until(lambda: finished)

    loop.run_until_complete(scenario())
    assert at_ready == [(True, True, False)]
    assert at_model == [True]
    assert "port" not in json.loads((tmp_path / "endpoint.json").read_text())


def test_closed_welcome_screens_do_not_follow_the_hub(qtbot, loop: qasync.QEventLoop, tmp_path: Path,  # noqa: ANN001
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 22: a welcome screen that was closed (and deleted) kept a lambda on ``hub.changed``; the
    first assistant's write then raised "Internal C++ object (QLabel) already deleted"."""
    from PySide6.QtCore import QCoreApplication, QEvent

    from desktop.dialogs.connect_client import ConnectDialog
    from desktop.dialogs.first_run import FirstRunDialog

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HIPOCAMPO_SETTINGS_FILE", str(tmp_path / "settings.json"))
    app = HipocampoApp(Settings(db=tmp_path / "new.db", embeddings="none", actor="gui"),
                       hub_file=tmp_path / "endpoint.json", first_run=True)

    def welcome() -> FirstRunDialog | ConnectDialog | None:  # the first-run screen, then Help → Connect's
        return next((d for d in app.dialogs if isinstance(d, FirstRunDialog | ConnectDialog) and d.isVisible()),
                    None)

    async def scenario() -> None:
        app.start()
        await until(lambda: welcome() is not None and app.hub is not None and app.hub.running)
        for _ in range(3):  # the first-run screen, then Help → Connect an assistant twice
            dialog = welcome()
            assert dialog is not None
            dialog.accept()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            await asyncio.sleep(0)
            app.show_connect()
            await until(lambda: welcome() is not None)
        welcome().reject()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        assert app.hub.receivers("2changed()") <= 2  # the window's status bar and the tray
        app.hub.changed.emit()  # what an assistant's first write does
        app.quit(force=True)
        await until(lambda: app.memory is None)

    loop.run_until_complete(scenario())


def test_the_assistant_count_goes_back_down_when_one_leaves(loop: qasync.QEventLoop, hipocampo: HipocampoApp,
                                                            tmp_path: Path) -> None:
    """Issue 22: "Assistants: 1 connected" never went back down (stateless clients never say goodbye).
    A real ``hipocampo mcp`` (bridged to the app's hub, as an assistant starts it) now does."""
    window = hipocampo.window
    finished: list[bool] = []
    hipocampo.finished.connect(lambda: finished.append(True))
    env = {**os.environ, "HIPOCAMPO_ENDPOINT_FILE": str(tmp_path / "endpoint.json"), "HIPOCAMPO_EMBEDDINGS": "none"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "core.cli", "--db", str(tmp_path / "memory.db"),
                                                                 "mcp"], env=env)

    async def scenario() -> None:
        hipocampo.start()
        await until(lambda: hipocampo.hub is not None and hipocampo.hub.running)
        async with Client(stdio_client(params), client_info=types.Implementation(name="cursor", version="1")) as client:
            assert not (await client.call_tool("read_graph", {})).is_error
            await until(lambda: window.endpoint_label.text() == "Assistants: 1 connected")
            assert "cursor" in window.endpoint_label.toolTip()
        await until(lambda: window.endpoint_label.text() == "Assistants: 0 connected")
        hipocampo.quit(force=True)
        await until(lambda: finished)

    loop.run_until_complete(scenario())


def test_saving_settings_keeps_the_search_and_moves_the_hub(loop: qasync.QEventLoop, hipocampo: HipocampoApp,
                                                            tmp_path: Path) -> None:
    """Issue 22: saving settings (a new port) reopened the memory, which cleared the search."""
    import socket

    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QLineEdit

    finished: list[bool] = []
    hipocampo.finished.connect(lambda: finished.append(True))
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def scenario() -> None:
        hipocampo.start()
        await until(lambda: hipocampo.hub is not None and hipocampo.hub.running)
        memory, search = hipocampo.memory, hipocampo.window.panes["search"]
        box = search.findChild(QLineEdit)
        QTest.keyClicks(box, "Ada")
        hipocampo.apply_settings(hipocampo.settings.model_copy(update={"hub_port": port}))
        await until(lambda: hipocampo.hub.running and hipocampo.hub.info.get("port") == port)
        assert hipocampo.memory is memory and hipocampo.window.panes["search"] is search and box.text() == "Ada"
        assert json.loads((tmp_path / "endpoint.json").read_text())["port"] == port
        hipocampo.quit(force=True)
        await until(lambda: finished)

    loop.run_until_complete(scenario())
