"""End to end: a real MCP SDK client starts ``hipocampo mcp`` over stdio; its searches land in the
read log under the client's name (the express lane and the SDK's tools alike)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from tests.e2e.conftest import stdio_client_for

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_search_over_stdio_is_logged_with_the_clients_name(tmp_path: Path) -> None:
    db = tmp_path / "stdio.db"
    with Memory(Settings(db=db, embeddings="none")) as m:
        m.create_entities([
            {"name": "Billing service", "entityType": "Service", "observations": ["facturas duplicadas"]},
            {"name": "Payments", "entityType": "Service", "observations": ["cobra las facturas"]},
        ])
    async with stdio_client_for(db, tmp_path / "config" / "endpoint.json", "claude-code",
                                HIPOCAMPO_EMBEDDINGS="none") as client:
        found = await client.call_tool("search_nodes", {"query": "facturas"})
        assert not found.is_error
        await client.call_tool("search_semantic", {"query": "facturas duplicadas"})
        opened = await client.call_tool("open_nodes", {"names": ["Payments"]})  # the last: logged after its answer
        assert not opened.is_error
    with Memory(Settings(db=db, embeddings="none")) as m:
        reads = m.read_log()
        assert [(r["client"], r["tool"], r["query"]) for r in reads] == [
            ("claude-code", "open_nodes", "Payments"), ("claude-code", "search_semantic", "facturas duplicadas"),
            ("claude-code", "search_nodes", "facturas")]
        assert set(reads[2]["entities"]) == {"Billing service", "Payments"}
        assert reads[0]["entities"] == ["Payments"] and reads[0]["facts"]
        assert m.last_recall("Payments")["client"] == "claude-code"
