"""``serve_http`` hosted inside another program's event loop (how the desktop app runs the hub):
ready callback, a real HTTP client on the real socket, graceful stop on an event."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from core.memory import Memory
from core.server.transports.http import serve_http

pytestmark = pytest.mark.anyio


async def test_serve_http_in_process_until_stopped(mem: Memory, tmp_path: Path) -> None:
    hub_file = tmp_path / "endpoint.json"
    ready, stop = anyio.Event(), anyio.Event()
    info: dict[str, Any] = {}

    def on_ready(record: dict[str, Any]) -> None:
        info.update(record)
        ready.set()

    async with anyio.create_task_group() as tg:
        tg.start_soon(
            lambda: serve_http(mem, hub_file=hub_file, handle_signals=False, on_ready=on_ready, stop=stop)
        )
        with anyio.fail_after(30):
            await ready.wait()
        published = json.loads(hub_file.read_text())
        assert published["port"] == info["port"] and "token" not in info
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {published['token']}"})
        async with Client(
            streamable_http_client(info["url"], http_client=http),
            client_info=types.Implementation(name="desktop-test", version="1"),
        ) as client:
            result = await client.call_tool("create_entities", {"entities": [{"name": "Live", "entityType": "T"}]})
            assert not result.is_error
        stop.set()
    assert json.loads(hub_file.read_text()) == {"token": published["token"]}
    assert mem.history()[0].actor == "desktop-test"


def test_tool_calls_reuse_threads_on_a_loop_run_forever(mem: Memory, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The desktop app runs its loop forever, with no ``run_until_complete`` task for anyio to take as
    its root: tool bodies must still run on threads kept for the process, not on a new thread started
    (and waited for) on the loop's thread for every call."""
    started_on_loop: list[str] = []
    start = threading.Thread.start

    def recording_start(thread: threading.Thread) -> None:
        if threading.current_thread() is threading.main_thread():
            started_on_loop.append(thread.name)
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", recording_start)
    hub_file = tmp_path / "endpoint.json"
    outcome: list[BaseException | None] = []

    async def client_calls(url: str, token: str) -> None:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        async with Client(streamable_http_client(url, http_client=http),
                          client_info=types.Implementation(name="cursor", version="1")) as client:
            for i in range(30):
                entity = {"name": f"note {i}", "entityType": "Note"}
                result = await client.call_tool("create_entities", {"entities": [entity]})
                assert not result.is_error

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        ready, stop = asyncio.Event(), anyio.Event()
        info: dict[str, Any] = {}
        server = asyncio.ensure_future(serve_http(mem, hub_file=hub_file, handle_signals=False, stop=stop,
                                                  on_ready=lambda record: (info.update(record), ready.set())))
        try:
            await asyncio.wait_for(ready.wait(), 30)
            token = json.loads(hub_file.read_text())["token"]
            # The client on a thread of its own, as another process would be.
            await loop.run_in_executor(None, lambda: anyio.run(client_calls, info["url"], token))
            outcome.append(None)
        except BaseException as exc:  # reported after the loop stops
            outcome.append(exc)
        finally:
            stop.set()
            await asyncio.wait_for(server, 30)
            loop.stop()

    loop = asyncio.new_event_loop()
    try:
        task = loop.create_task(scenario())
        loop.run_forever()
        loop.run_until_complete(task)
    finally:
        loop.close()
    assert outcome == [None], outcome
    assert len(mem.read_graph().entities) == 30
    per_call = [name for name in started_on_loop if name.startswith("AnyIO worker")]
    assert per_call == [], f"{len(per_call)} threads started on the loop's thread for 30 calls"
