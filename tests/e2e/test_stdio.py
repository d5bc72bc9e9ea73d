"""``hipocampo mcp`` as an MCP client starts it: a subprocess speaking JSON-RPC on stdin/stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp.shared.exceptions import MCPError

from core.memory import Memory
from tests.e2e.conftest import ROOT, START_TIMEOUT_S, Backend, read_line, server_env, stdio_client_for
from tests.jsonrpc import initialize_request
from tests.server.test_surface import TOOL_COUNT

pytestmark = pytest.mark.anyio


async def test_tools_work_over_stdio_and_writes_name_the_client(tmp_path: Path, hub_file: Path,
                                                                 backend: Backend) -> None:
    db = tmp_path / "stdio.db"
    async with stdio_client_for(db, hub_file, "claude-code", **backend.env) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert len(tools) == TOOL_COUNT and {"create_entities", "read_graph", "engrama_remember"} <= tools
        created = await client.call_tool(
            "create_entities",
            {"entities": [{"name": "Ada", "entityType": "Person", "observations": ["first programmer"]}]},
        )
        assert created.structured_content == {
            "entities": [{"name": "Ada", "entityType": "Person", "observations": ["first programmer"]}]
        }
        failed = await client.call_tool(
            "add_observations", {"observations": [{"entityName": "Nobody", "contents": ["x"]}]}
        )
        assert failed.is_error and "'Nobody' does not exist" in failed.content[0].text
        status = await client.call_tool("engrama_status", {})
        assert (
            status.structured_content["database"] == backend.where(db)
            and status.structured_content["endpoint"] is None
        )
        resource = await client.read_resource("memory://knowledge-graph")
        assert json.loads(resource.contents[0].text)["entities"][0]["name"] == "Ada"
    with backend.open(db) as memory:
        assert [(h.actor, h.op) for h in memory.history()] == [("claude-code", "create_entity")]


def test_stdout_carries_nothing_but_the_protocol(tmp_path: Path, hub_file: Path, backend: Backend) -> None:
    """A raw, handshake-era session (what Claude Desktop sends), line by line."""
    process = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--db", str(tmp_path / "raw.db"), "mcp"],
        cwd=ROOT,
        env={**os.environ, **server_env(hub_file, HIPOCAMPO_LOG="debug", **backend.env)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    requests = [
        initialize_request("raw"),
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "read_graph", "arguments": {}},
        },
    ]
    responses = []
    try:
        for request in requests:
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            if "id" in request:
                responses.append(json.loads(read_line(process.stdout, START_TIMEOUT_S)))
        process.stdin.close()  # the client goes away: the server must exit cleanly
        assert process.wait(timeout=START_TIMEOUT_S) == 0
        assert process.stdout.read() == ""  # nothing after the last response, not even a newline
    finally:
        if process.poll() is None:
            process.kill()
    assert [r["id"] for r in responses] == [1, 2, 3]
    assert responses[0]["result"]["serverInfo"]["name"] == "hipocampo"
    assert len(responses[1]["result"]["tools"]) == TOOL_COUNT
    assert responses[2]["result"]["structuredContent"] == {"entities": [], "relations": []}
    assert "hipocampo DEBUG" in process.stderr.read()  # the logs went to stderr


async def test_mcp_memory_entry_point_serves_the_same_tools(tmp_path: Path, hub_file: Path) -> None:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "core.server.transports.stdio", "--db", str(tmp_path / "v2.db")],
        cwd=str(ROOT),
        env=server_env(hub_file),
    )
    async with Client(stdio_client(params)) as client:
        assert len((await client.list_tools()).tools) == TOOL_COUNT


def test_a_database_from_a_newer_hipocampo_is_refused_cleanly(tmp_path: Path, hub_file: Path) -> None:
    db = tmp_path / "new.db"
    Memory.open(db, embeddings="none").close()
    import sqlean

    conn = sqlean.connect(str(db))
    conn.execute("PRAGMA user_version = 99")
    conn.close()
    proc = subprocess.run(
        [sys.executable, "-m", "core.cli", "--db", str(db), "mcp"],
        cwd=ROOT,
        input="",
        env={**os.environ, **server_env(hub_file)},
        capture_output=True,
        text=True,
        timeout=START_TIMEOUT_S,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "newer Hipocampo" in proc.stderr and "Traceback" not in proc.stderr


async def test_semantics_over_stdio_at_size_and_under_load(tmp_path: Path, hub_file: Path,
                                                            backend: Backend) -> None:
    """Issue 3's end-to-end checks through a real subprocess and the SDK client."""
    import anyio

    db = tmp_path / "semantics.db"
    async with stdio_client_for(db, hub_file, "e2e-semantics", **backend.env) as client:
        big = [{"name": f"bulk-{i:04d}", "entityType": "Bulk", "observations": [f"fact {i}"]} for i in range(1000)]
        created = await client.call_tool("create_entities", {"entities": big})
        assert not created.is_error and len(created.structured_content["entities"]) == 1000
        again = await client.call_tool("create_entities", {"entities": big[:3]})
        assert again.structured_content["entities"] == []  # only new entities come back

        # unicode round-trips; search folds case and accents and keeps wildcards literal
        await client.call_tool("create_entities", {"entities": [
            {"name": "José Ñúñez", "entityType": "Persona", "observations": ["canción 🎸 東京", "50% de _todo_"]},
            {"entityType": "Note", "name": "Other", "observations": ["5000 things"]}]})
        found = await client.call_tool("search_nodes", {"query": "JOSE NUNEZ"})
        assert [e["name"] for e in found.structured_content["entities"]] == ["José Ñúñez"]
        assert found.structured_content["entities"][0]["observations"] == ["canción 🎸 東京", "50% de _todo_"]
        wildcard = await client.call_tool("search_nodes", {"query": "50%"})
        assert [e["name"] for e in wildcard.structured_content["entities"]] == ["José Ñúñez"]

        # relations: dedup, unknown ends refused, deletion cascades
        rel = {"from": "José Ñúñez", "to": "Other", "relationType": "knows"}
        first = await client.call_tool("create_relations", {"relations": [rel, rel]})
        assert first.structured_content == {"relations": [rel]}
        assert (await client.call_tool("create_relations", {"relations": [rel]})).structured_content == {
            "relations": []}
        ghost = await client.call_tool("create_relations", {"relations": [{**rel, "to": "Ghost"}]})
        assert not ghost.is_error and ghost.structured_content == {"relations": [{**rel, "to": "Ghost"}]}
        await client.call_tool("delete_entities", {"entityNames": ["Other", "Ghost"]})
        opened = await client.call_tool("open_nodes", {"names": ["José Ñúñez", "Other"]})
        assert opened.structured_content["relations"] == [] and len(opened.structured_content["entities"]) == 1

        # a 100 KB observation is stored, as the official server stores it; a request over the
        # protective limit (8 MiB by default) gets a clear error and stores nothing
        big = await client.call_tool("add_observations", {"observations": [
            {"entityName": "José Ñúñez", "contents": ["x" * 100_000]}]})
        assert not big.is_error
        # the line is never read whole, so it is answered as a protocol error for its request id
        with pytest.raises(MCPError, match="HIPOCAMPO_MAX_REQUEST_BYTES"):
            await client.call_tool("add_observations", {"observations": [
                {"entityName": "José Ñúñez", "contents": ["z" * (9 << 20)]}]})

        # malformed calls get errors, and the server keeps answering
        for bad in ({"entities": "not a list"}, {"entities": [{"entityType": "no name"}]}, {}):
            result = await client.call_tool("create_entities", bad)
            assert result.is_error
        assert (await client.call_tool("read_graph", {"limit": 1})).structured_content["total_entities"] == 1001

        # 20 concurrent calls over one session all land
        async def create(i: int) -> None:
            entity = {"name": f"concurrent-{i}", "entityType": "Note"}
            result = await client.call_tool("create_entities", {"entities": [entity]})
            assert not result.is_error

        async with anyio.create_task_group() as tg:
            for i in range(20):
                tg.start_soon(create, i)
    with backend.open(db) as memory:
        names = {e.name for e in memory.read_graph().entities}
        assert {f"concurrent-{i}" for i in range(20)} <= names and len(names) == 1021
        assert memory.open_nodes(["José Ñúñez"]).entities[0].observations == [
            "canción 🎸 東京", "50% de _todo_", "x" * 100_000]
