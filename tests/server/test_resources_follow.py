"""Resources beside the graph (the brief, an entity by name, the pinned ones listed) and the change
notifications of both protocol eras, when another connection to the same memory writes (as another
process would: SQLite sees it only through the file, FalkorDB through the server)."""

from __future__ import annotations

import json
from collections.abc import Callable
from urllib.parse import quote

import anyio
import mcp_types as types
import pytest
from mcp import Client

from core.memory import Memory
from core.server.transports.app import build_server
from tests.server.conftest import CLIENT_NAME, ok

pytestmark = [pytest.mark.anyio, pytest.mark.filterwarnings("ignore:resources/(un)?subscribe is removed")]
DEADLINE_S = 10


def seed(mem: Memory) -> None:
    mem.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["wrote the first program"]},
                         {"name": "a/b ..", "entityType": "Odd", "observations": ["a name like a path"]}])


def another(mem: Memory) -> Memory:
    """A second, independent connection to the same memory."""
    return Memory(mem.settings)


async def until(condition: Callable[[], bool]) -> None:
    with anyio.fail_after(DEADLINE_S):
        while not condition():
            await anyio.sleep(0.02)


async def test_brief_and_entity_resources_read_what_the_memory_holds(client: Client, mem: Memory) -> None:
    seed(mem)
    brief = (await client.read_resource("memory://brief")).contents[0]
    assert brief.mime_type == "text/plain" and brief.text == mem.brief().text
    odd = (await client.read_resource("memory://entity/" + quote("a/b ..", safe=""))).contents[0]
    assert json.loads(odd.text)["entities"][0]["observations"] == ["a name like a path"]
    with pytest.raises(Exception, match="No entity named 'Nobody'"):
        await client.read_resource("memory://entity/Nobody")


async def test_pinned_entities_are_listed_and_the_brief_tool_matches_the_resource(client: Client, mem: Memory) -> None:
    seed(mem)
    pinned = await ok(client, "pin", {"name": "Ada"})
    assert pinned == {"name": "Ada", "fact": None, "pinned": True, "changed": True}
    uris = [str(r.uri) for r in (await client.list_resources()).resources]
    assert uris == ["memory://knowledge-graph", "memory://brief", "memory://entity/Ada"]
    result = await client.call_tool("brief", {})
    assert result.content[0].text == mem.brief().text
    assert result.structured_content["entities_total"] == 2
    refused = await client.call_tool("pin", {"name": "Ada", "fact": "no such fact"})
    assert refused.is_error and "has no observation" in refused.content[0].text


async def test_2025_subscribers_hear_of_another_writer(mem: Memory) -> None:
    seed(mem)
    heard: list[str] = []

    async def on_message(message: object) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append(message.params.uri)
        elif isinstance(message, types.ResourceListChangedNotification):
            heard.append("list_changed")

    async with Client(build_server(mem), mode="legacy", message_handler=on_message,
                      client_info=types.Implementation(name=CLIENT_NAME, version="1")) as client:
        assert client.protocol_version < "2026"
        caps = client.server_capabilities.resources
        assert caps.subscribe and caps.list_changed
        for uri in ("memory://entity/Ada", "memory://brief"):
            await client.subscribe_resource(uri)
        with another(mem) as other:
            other.add_observations([{"entityName": "Ada", "contents": ["born 1815"]}])
        await until(lambda: {"memory://entity/Ada", "memory://brief"} <= set(heard))
        assert "memory://entity/" + quote("a/b ..", safe="") not in heard  # not touched, not followed
        heard.clear()
        with another(mem) as other:
            other.pin("a/b ..")
        await until(lambda: "list_changed" in heard and "memory://brief" in heard)
        await client.unsubscribe_resource("memory://entity/Ada")
        heard.clear()
        with another(mem) as other:
            other.add_observations([{"entityName": "Ada", "contents": ["died 1852"]}])
        await until(lambda: "memory://brief" in heard)
        assert "memory://entity/Ada" not in heard


async def test_2026_listeners_hear_of_another_writer(mem: Memory) -> None:
    seed(mem)
    async with Client(build_server(mem), client_info=types.Implementation(name=CLIENT_NAME, version="1")) as client:
        assert client.protocol_version == "2026-07-28"
        async with client.listen(resource_subscriptions=["memory://entity/Ada", "memory://brief"],
                                 resources_list_changed=True) as events:
            with another(mem) as other:
                other.add_observations([{"entityName": "Ada", "contents": ["born 1815"]}])
                other.pin("Ada")
            seen: list[object] = []
            with anyio.fail_after(DEADLINE_S):
                async for event in events:
                    seen.append(event)
                    if {"ResourceUpdated", "ResourcesListChanged"} <= {type(e).__name__ for e in seen} and any(
                            getattr(e, "uri", "") == "memory://brief" for e in seen):
                        break
            assert {getattr(e, "uri", None) for e in seen} >= {"memory://entity/Ada", "memory://brief"}
