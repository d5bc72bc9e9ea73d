"""The hub (``hipocampo mcp --http``) and the stdio bridge to it, as real processes. The bridge shares
one SQLite file; on a graph server every process writes to the server itself, hub or not."""

from __future__ import annotations

import json
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.memory import Memory
from tests.e2e.conftest import Backend, Hub, start_hub, stdio_client_for
from tests.jsonrpc import initialize_request
from tests.server.test_surface import TOOL_COUNT

pytestmark = pytest.mark.anyio


@pytest.fixture
def any_hub(tmp_path: Path, hub_file: Path, backend: Backend) -> Iterator[Hub]:
    """A hub on each backend."""
    running = start_hub(tmp_path / "hub.db", hub_file, **backend.env)
    yield running
    running.stop()


async def test_hub_serves_mcp_over_http_with_the_token(any_hub: Hub, hub_file: Path, backend: Backend) -> None:
    hub = any_hub
    assert hub.info["port"] > 0 and hub.url == f"http://127.0.0.1:{hub.info['port']}/mcp"
    published = json.loads(hub_file.read_text())
    assert published["port"] == hub.info["port"] and published["pid"] == hub.process.pid
    if sys.platform != "win32":
        assert stat.S_IMODE(hub_file.stat().st_mode) == 0o600
    async with hub.client("http-client") as client:
        created = await client.call_tool("create_entities", {"entities": [{"entityType": "Note", "name": "Ada"}]})
        assert created.structured_content == {
            "entities": [{"name": "Ada", "entityType": "Note", "observations": []}]
        }
        status = (await client.call_tool("engrama_status", {})).structured_content
        assert status["endpoint"]["port"] == hub.info["port"] and "token" not in status["endpoint"]
        assert status["database"] == backend.where(hub.info["db"])
    with backend.open(hub.info["db"]) as memory:
        assert memory.history()[0].actor == "http-client"


async def test_on_a_graph_server_a_stdio_server_beside_the_hub_writes_to_the_graph(
        tmp_path: Path, hub_file: Path, graph_settings: dict[str, object]) -> None:
    backend = Backend("falkordb", dict(graph_settings))
    db = tmp_path / "hub.db"
    hub = start_hub(db, hub_file, **backend.env)
    try:
        async with stdio_client_for(db, hub_file, "beside-the-hub", **backend.env) as client:
            status = (await client.call_tool("engrama_status", {})).structured_content
            assert status["endpoint"] is None  # in-process: the server is already shared
            await client.call_tool("create_entities", {"entities": [{"entityType": "Note", "name": "FromStdio"}]})
            async with hub.client("via-hub") as direct:
                await direct.call_tool("create_entities", {"entities": [{"entityType": "Note", "name": "FromHub"}]})
                seen = (await direct.call_tool("read_graph", {})).structured_content
            assert [e["name"] for e in seen["entities"]] == ["FromStdio", "FromHub"]
            mine = (await client.call_tool("open_nodes", {"names": ["FromHub"]})).structured_content
            assert [e["name"] for e in mine["entities"]] == ["FromHub"]
    finally:
        assert hub.stop() == 0
    with backend.open(db) as memory:
        assert [(h.actor, h.entity) for h in memory.history()] == [
            ("via-hub", "FromHub"), ("beside-the-hub", "FromStdio")]
    assert not db.exists()  # the --db file is not used on a graph server


def test_hub_refuses_requests_without_token_or_from_elsewhere(hub: Hub) -> None:
    init = initialize_request("x")
    headers = {"Accept": "application/json, text/event-stream"}
    assert httpx.post(hub.url, json=init, headers=headers).status_code == 401
    good = {**headers, "Authorization": f"Bearer {hub.token}"}
    assert httpx.post(hub.url, json=init, headers={**good, "Host": "attacker.example"}).status_code == 421
    assert (
        httpx.post(hub.url, json=init, headers={**good, "Origin": "https://attacker.example"}).status_code
        == 403
    )
    assert httpx.post(hub.url, json=init, headers=good).status_code == 200


def test_stopping_the_hub_withdraws_it_and_keeps_the_token(hub: Hub, hub_file: Path) -> None:
    assert hub.stop() == 0
    assert json.loads(hub_file.read_text()) == {"token": hub.token}
    assert "Traceback" not in hub.process.stderr.read()


async def test_stdio_bridges_to_the_hub_for_the_same_database(hub: Hub, hub_file: Path) -> None:
    db = Path(hub.info["db"])
    async with stdio_client_for(db, hub_file, "bridged-assistant") as client:
        status = (await client.call_tool("engrama_status", {})).structured_content
        assert status["endpoint"]["port"] == hub.info["port"]  # answered by the hub, not in-process
        assert len((await client.list_tools()).tools) == TOOL_COUNT
        await client.call_tool("create_entities", {"entities": [{"entityType": "Note", "name": "Bridged"}]})
        error = await client.call_tool("open_nodes", {"names": "not a list"})
        assert error.is_error and "Invalid arguments" in error.content[0].text
        assert "Bridged" in (await client.read_resource("memory://knowledge-graph")).contents[0].text
    async with hub.client() as direct:
        graph = (await direct.call_tool("read_graph", {})).structured_content
        assert [e["name"] for e in graph["entities"]] == ["Bridged"]
    with Memory.open(db, embeddings="none") as memory:
        assert memory.history()[0].actor == "bridged-assistant"  # the downstream client's name


async def test_a_hub_for_another_database_is_not_used(hub: Hub, hub_file: Path, tmp_path: Path) -> None:
    async with stdio_client_for(tmp_path / "other.db", hub_file) as client:
        status = (await client.call_tool("engrama_status", {})).structured_content
        assert status["endpoint"] is None and status["database"] == str(tmp_path / "other.db")


async def test_bridge_carries_on_in_process_when_the_hub_goes_away(tmp_path: Path, hub_file: Path) -> None:
    hub = start_hub(tmp_path / "shared.db", hub_file)
    try:
        async with stdio_client_for(tmp_path / "shared.db", hub_file, "survivor") as client:
            await client.call_tool("create_entities", {"entities": [{"entityType": "Note", "name": "Before"}]})
            assert hub.stop() == 0
            lost = await client.call_tool("create_entities", {"entities": [{"entityType": "Note", "name": "During"}]})
            assert lost.is_error and "stopped answering" in lost.content[0].text
            after = await client.call_tool("create_entities", {"entities": [{"entityType": "Note", "name": "After"}]})
            assert not after.is_error
            status = (await client.call_tool("engrama_status", {})).structured_content
            assert status["endpoint"] is None  # now served in-process
            names = [
                e["name"] for e in (await client.call_tool("read_graph", {})).structured_content["entities"]
            ]
            assert names[0] == "Before" and names[-1] == "After"
    finally:
        hub.stop()
