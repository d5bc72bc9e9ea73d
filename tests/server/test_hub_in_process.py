"""``serve_http`` hosted inside another program's event loop (how the desktop app runs the hub):
ready callback, a real HTTP client on the real socket, graceful stop on an event."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from core.memory import Memory
from core.server.http import serve_http

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
            result = await client.call_tool("create_entities", {"entities": [{"name": "Live"}]})
            assert not result.is_error
        stop.set()
    assert json.loads(hub_file.read_text()) == {"token": published["token"]}
    assert mem.history()[0]["actor"] == "desktop-test"
