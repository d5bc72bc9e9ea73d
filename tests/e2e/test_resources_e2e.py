"""Resources, subscriptions and prompts with the real SDK client over real transports, in both
protocol eras: ``hipocampo mcp`` on stdio (alone, and as the bridge to a hub) and the hub over HTTP.
The writes come from other processes (``hipocampo pin``, another program on the same file)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import anyio
import mcp_types as types
import pytest
from mcp import Client

from tests.e2e.conftest import ROOT, Hub, start_hub, stdio_params

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore:resources/(un)?subscribe is removed")]
DEADLINE_S = 30


def add_fact(db: Path, name: str, fact: str) -> None:
    """Another process adds ``fact`` to ``name`` (created if missing)."""
    subprocess.run([sys.executable, "-c", "import sys; from core.memory import Memory; from core.settings import "
                    "Settings; m = Memory(Settings(db=sys.argv[1], embeddings='none')); m.create_entities([{'name': "
                    "sys.argv[2], 'entityType': 'Person', 'observations': [sys.argv[3]]}]); m.close()",
                    str(db), name, fact], check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                   timeout=60)


def pin(db: Path, name: str) -> None:
    done = subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), "pin", name], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"Pinned {name}.", done.stderr


async def until(condition: Callable[[], bool]) -> None:
    with anyio.fail_after(DEADLINE_S):
        while not condition():
            await anyio.sleep(0.05)


def stdio_client(db: Path, hub_file: Path, mode: str, heard: list[str]) -> Client:
    from mcp.client.stdio import stdio_client as transport

    return Client(transport(stdio_params(db, hub_file)), mode=mode, message_handler=_recorder(heard),
                  client_info=types.Implementation(name="e2e-follow", version="1"))


def http_client(hub: Hub, mode: str, heard: list[str]) -> Client:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {hub.token}"})
    return Client(streamable_http_client(hub.url, http_client=http), mode=mode, message_handler=_recorder(heard),
                  client_info=types.Implementation(name="e2e-follow", version="1"))


def _recorder(heard: list[str]):  # noqa: ANN202
    async def on_message(message: object) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append(message.params.uri)
        elif isinstance(message, types.ResourceListChangedNotification):
            heard.append("list_changed")
    return on_message


async def exercise(client: Client, db: Path, heard: list[str]) -> None:
    """resources/list, templates, read, prompts, then following while other processes write."""
    listed = [str(r.uri) for r in (await client.list_resources()).resources]
    assert listed == ["memory://knowledge-graph", "memory://brief"]
    templates = [t.uri_template for t in (await client.list_resource_templates()).resource_templates]
    assert templates == ["memory://entity/{name}"]
    ada = json.loads((await client.read_resource("memory://entity/Ada")).contents[0].text)
    assert ada["entities"][0]["observations"] == ["wrote the first program"]
    brief = (await client.read_resource("memory://brief")).contents[0].text
    assert "- Ada (Person): wrote the first program" in brief
    assert [p.name for p in (await client.list_prompts()).prompts] == ["recall", "remember-session", "review-insights"]
    recall = await client.get_prompt("recall", {"topic": "Ada"})
    assert "wrote the first program" in recall.messages[0].content.text

    if client.protocol_version < "2026":
        assert client.server_capabilities.resources.subscribe
        for uri in ("memory://entity/Ada", "memory://brief"):
            await client.subscribe_resource(uri)
        add_fact(db, "Ada", "born 1815")
        await until(lambda: {"memory://entity/Ada", "memory://brief"} <= set(heard))
        pin(db, "Ada")
        await until(lambda: "list_changed" in heard)
    else:
        async with client.listen(resource_subscriptions=["memory://entity/Ada", "memory://brief"],
                                 resources_list_changed=True) as events:
            add_fact(db, "Ada", "born 1815")
            pin(db, "Ada")
            with anyio.fail_after(DEADLINE_S):
                async for event in events:
                    heard.append(getattr(event, "uri", "list_changed"))
                    if {"memory://entity/Ada", "memory://brief", "list_changed"} <= set(heard):
                        break
    listed = [str(r.uri) for r in (await client.list_resources()).resources]
    assert listed == ["memory://knowledge-graph", "memory://brief", "memory://entity/Ada"]
    ada = json.loads((await client.read_resource("memory://entity/Ada")).contents[0].text)
    assert ada["entities"][0]["observations"] == ["wrote the first program", "born 1815"]


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_server_follows_other_processes(tmp_path: Path, hub_file: Path, mode: str) -> None:
    db = tmp_path / "memory.db"
    add_fact(db, "Ada", "wrote the first program")
    heard: list[str] = []
    async with stdio_client(db, hub_file, mode, heard) as client:
        assert (client.protocol_version == "2026-07-28") == (mode == "auto")
        await exercise(client, db, heard)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_hub_over_http_follows_other_processes(tmp_path: Path, hub_file: Path, mode: str) -> None:
    db = tmp_path / "hub.db"
    add_fact(db, "Ada", "wrote the first program")
    hub = start_hub(db, hub_file)
    try:
        heard: list[str] = []
        async with http_client(hub, mode, heard) as client:
            await exercise(client, db, heard)
    finally:
        hub.stop()


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_bridge_to_the_hub_follows_too(tmp_path: Path, hub_file: Path, mode: str) -> None:
    db = tmp_path / "hub.db"
    add_fact(db, "Ada", "wrote the first program")
    hub = start_hub(db, hub_file)
    try:
        heard: list[str] = []
        async with stdio_client(db, hub_file, mode, heard) as client:
            await exercise(client, db, heard)
            result = await client.call_tool("brief", {})  # forwarded to the hub
            assert "born 1815" in result.content[0].text
    finally:
        hub.stop()
