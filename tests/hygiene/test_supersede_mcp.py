"""Through MCP: engrama_reflect proposes, engrama_approve_insight approves (the fact kept, marked),
search_semantic leaves it out unless explain is asked for; reopening the insight makes it current."""

from __future__ import annotations

from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client

from core.hygiene.supersede import SUPERSEDED
from core.memory import Memory
from core.server.transports.app import build_server
from core.settings import Settings

pytestmark = pytest.mark.anyio
OLD, NEW = "p99 latency is 310 ms", "p99 latency is 180 ms"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_approve_through_mcp_and_search(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none")) as m:
        m.create_entities([{"name": "Payments", "entityType": "Service", "observations": [OLD, "Uses Go", NEW]}])
        async with Client(build_server(m), client_info=types.Implementation(name="claude-code", version="1")) as c:
            await c.call_tool("engrama_reflect", {})
            found = (await c.call_tool("engrama_surface_insights", {"limit": 50})).structured_content
            title = next(i["title"] for i in found["insights"] if i["pattern"] == SUPERSEDED)
            approved = await c.call_tool("engrama_approve_insight", {"title": title, "action": "approve"})
            assert not approved.is_error
            assert m.superseded_facts("Payments")[OLD]["by"] == NEW
            lean = (await c.call_tool("search_semantic", {"query": "p99 latency"})).structured_content
            assert [h["observations"] for h in lean["results"] if h["name"] == "Payments"] == [[NEW]]
            full = (await c.call_tool("search_semantic", {"query": "p99 latency", "explain": True})).structured_content
            hit = next(h for h in full["results"] if h["name"] == "Payments")
            assert OLD in hit["observations"] and hit["superseded"][0]["by"] == NEW
            opened = (await c.call_tool("open_nodes", {"names": ["Payments"]})).structured_content
            assert opened["entities"][0]["observations"] == [OLD, "Uses Go", NEW]
        m.reopen_insight(title)
        assert m.superseded_facts("Payments") == {}
