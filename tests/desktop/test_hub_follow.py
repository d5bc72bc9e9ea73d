"""Change notifications through the app's own hub (qasync over the Qt loop): a client listening over
HTTP hears of a pin made in the app (the editor's Memory, in this process) and of another process's write."""

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

from core.memory import Memory
from core.settings import Settings
from desktop.hub import Hub
from tests.desktop.conftest import until


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "hub.db", embeddings="none", actor="gui")) as m:
        m.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["wrote the first program"]}])
        yield m


def _listen(url: str, token: str, seen: dict[str, Any]) -> None:
    """The client, on a thread and loop of its own as another process would be: listen, report events."""

    async def run() -> None:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        async with Client(streamable_http_client(url, http_client=http),
                          client_info=types.Implementation(name="listener", version="1")) as client:
            async with client.listen(resource_subscriptions=["memory://brief", "memory://entity/Ada"],
                                     resources_list_changed=True) as events:
                seen["listening"].set()
                with anyio.fail_after(60):
                    async for event in events:
                        seen["events"].append(getattr(event, "uri", "list_changed"))
                        if {"memory://brief", "memory://entity/Ada", "list_changed"} <= set(seen["events"]):
                            break

    anyio.run(run)


def test_a_listener_hears_of_the_apps_pin_and_anothers_write(loop: qasync.QEventLoop, memory: Memory,
                                                             tmp_path: Path) -> None:
    hub = Hub(memory, hub_file=tmp_path / "endpoint.json")
    seen: dict[str, Any] = {"listening": threading.Event(), "events": []}

    async def scenario() -> None:
        hub.start()
        await until(lambda: hub.running)
        token = json.loads((tmp_path / "endpoint.json").read_text())["token"]
        worker = threading.Thread(target=_listen, args=(hub.url, token, seen), daemon=True)
        worker.start()
        await until(seen["listening"].is_set, 60)
        memory.pin("Ada")  # what the editor's Pin button does, in the app's own process
        with Memory(Settings(db=tmp_path / "hub.db", embeddings="none")) as other:  # another writer on the file
            other.add_observations([{"entityName": "Ada", "contents": ["born 1815"]}])
        await asyncio.get_running_loop().run_in_executor(None, worker.join, 60)
        await hub.stop_and_wait()

    loop.run_until_complete(scenario())
    assert {"memory://brief", "memory://entity/Ada", "list_changed"} <= set(seen["events"])
