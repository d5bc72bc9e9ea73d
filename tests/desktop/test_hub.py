"""The hub inside the app: core's HTTP server on a qasync loop over the Qt event loop, answering
a real MCP SDK client, naming connected clients, and stopping cleanly (hub file withdrawn)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
import qasync
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from PySide6.QtCore import QTimer

from core.memory import Memory
from core.settings import Settings
from desktop.hub import Hub
from desktop.tray import Tray
from tests.desktop.conftest import until


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "hub.db", embeddings="none", actor="gui")) as m:
        yield m




def _client_calls(url: str, token: str, name: str, calls: int, seen: dict[str, Any]) -> None:
    """A separate thread with its own event loop: the client side, as another process would be."""

    async def run() -> None:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        async with Client(streamable_http_client(url, http_client=http),
                          client_info=types.Implementation(name=name, version="1.0")) as client:
            for i in range(calls):
                result = await client.call_tool(
                    "create_entities", {"entities": [{"name": f"{name}-{i}", "entityType": "Note",
                                                      "observations": [f"written by {name}"]}]})
                assert not result.is_error
            seen["tools"] = [t.name for t in (await client.list_tools()).tools]
            seen["connected"].set()
            await anyio.to_thread.run_sync(seen["release"].wait)

    anyio.run(run)


def test_hub_serves_a_real_client_on_the_qt_loop(loop: qasync.QEventLoop, memory: Memory, tmp_path: Path) -> None:
    hub_file = tmp_path / "endpoint.json"
    hub = Hub(memory, hub_file=hub_file)
    tray = Tray({"claude-desktop": "Claude Desktop"}, lambda c: "{}")
    tray.set_hub(hub)
    gaps: list[float] = []
    seen: dict[str, Any] = {"connected": threading.Event(), "release": threading.Event()}

    async def scenario() -> None:
        ticker = QTimer()
        last = [loop.time()]

        def tick() -> None:
            now = loop.time()
            gaps.append(now - last[0])
            last[0] = now

        ticker.timeout.connect(tick)
        ticker.start(20)
        hub.start()
        await until(lambda: hub.running)
        published = json.loads(hub_file.read_text())
        assert published["port"] == hub.info["port"] and published["url"] == hub.url
        worker = threading.Thread(target=_client_calls,
                                  args=(hub.url, published["token"], "claude-ai", 20, seen), daemon=True)
        worker.start()
        await until(seen["connected"].is_set, 60)
        hub.poll_clients()
        assert [s.name for s in hub.clients()] == ["claude-ai"]
        tray.refresh()
        assert "1" in tray.clients_menu.title() and "claude-ai" in [a.text() for a in tray.clients_menu.actions()]
        assert "Stop" in tray.endpoint_action.text()
        seen["release"].set()
        await asyncio.get_running_loop().run_in_executor(None, worker.join, 30)
        await hub.stop_and_wait()
        ticker.stop()

    loop.run_until_complete(scenario())
    assert not hub.running and "Start" in tray.endpoint_action.text()
    assert json.loads(hub_file.read_text()) == {"token": json.loads(hub_file.read_text())["token"]}
    assert "create_entities" in seen["tools"]
    history = memory.history(limit=100)
    assert {row.actor for row in history} == {"claude-ai"}
    assert len(memory.read_graph().entities) == 20
    assert gaps, "the Qt timer never fired while the hub served: the GUI thread was blocked"


def test_a_busy_port_is_reported_not_raised(loop: qasync.QEventLoop, memory: Memory, tmp_path: Path) -> None:
    from core.server.transports.http import bind_socket

    taken = bind_socket()
    try:
        hub = Hub(memory, port=taken.getsockname()[1], hub_file=tmp_path / "endpoint.json")

        async def scenario() -> None:
            hub.start()
            await until(lambda: hub.error is not None or hub.running)

        loop.run_until_complete(scenario())
        assert not hub.running
        assert "could not listen" in (hub.error or "")
    finally:
        taken.close()


def test_the_hub_answers_while_the_gui_thread_is_busy(loop: qasync.QEventLoop, memory: Memory, tmp_path: Path) -> None:
    """A window busy for seconds (a big layout, a modal dialog's own loop) never keeps an assistant waiting:
    the hub runs on a thread and loop of its own."""
    import time

    hub_file = tmp_path / "endpoint.json"
    hub = Hub(memory, hub_file=hub_file)
    answered = threading.Event()
    status: list[int] = []

    def ask() -> None:
        token = json.loads(hub_file.read_text())["token"]
        response = httpx2.get(f"http://127.0.0.1:{hub.info['port']}/health",
                              headers={"Authorization": f"Bearer {token}"}, timeout=30)
        status.append(response.status_code)
        answered.set()

    async def started() -> None:
        hub.start()
        await until(lambda: hub.running)

    loop.run_until_complete(started())
    try:
        threading.Thread(target=ask, daemon=True).start()
        deadline = time.monotonic() + 20
        while not answered.is_set() and time.monotonic() < deadline:  # the GUI thread, busy: no event loop
            sum(range(1000))
        assert answered.is_set() and status == [200], "the hub waited for the GUI thread"
    finally:
        loop.run_until_complete(hub.stop_and_wait())
    assert not hub.running
