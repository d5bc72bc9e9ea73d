"""The MCP server driven by the SDK's in-memory client, over a real SQLite file and a real FalkorDB graph."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp import Client

from core.memory import Memory
from core.server.transports.app import build_server
from core.settings import Settings
from tests.conftest import SteppingClock

CLIENT_NAME = "test-assistant"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=["sqlite", "falkordb"])
def mem(tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest) -> Iterator[Memory]:
    """Full text only: these tests are about the tools, not about embeddings. Every backend (FalkorDB
    on the session's server)."""
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "server.db", embeddings="none", **server), clock=clock) as m:
        yield m


@pytest.fixture
async def client(mem: Memory) -> AsyncIterator[Client]:
    async with Client(
        build_server(mem), client_info=types.Implementation(name=CLIENT_NAME, version="1")
    ) as c:
        yield c


def text_of(result: types.CallToolResult, block: int = 0) -> str:
    content = result.content[block]
    assert isinstance(content, types.TextContent)
    return content.text


def js_stringify(value: Any) -> str:
    """What the official server's ``JSON.stringify(value, null, 2)`` writes."""
    return json.dumps(value, indent=2, ensure_ascii=False)


async def ok(client: Client, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """Call ``tool``; it must succeed; return its structured content."""
    result = await client.call_tool(tool, args)
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    return result.structured_content


async def fails(client: Client, tool: str, args: dict[str, Any]) -> str:
    """Call ``tool``; it must fail in-band (isError); return the message."""
    result = await client.call_tool(tool, args)
    assert result.is_error, result
    return text_of(result)
