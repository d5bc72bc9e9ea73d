"""``hipocampo mcp`` as an MCP client starts it: a subprocess speaking JSON-RPC on stdin/stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.memory import Memory
from tests.e2e.conftest import ROOT, START_TIMEOUT_S, read_line, server_env, stdio_client_for
from tests.jsonrpc import initialize_request

pytestmark = pytest.mark.anyio


async def test_tools_work_over_stdio_and_writes_name_the_client(tmp_path: Path, hub_file: Path) -> None:
    db = tmp_path / "stdio.db"
    async with stdio_client_for(db, hub_file, "claude-code") as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert len(tools) == 20 and {"create_entities", "read_graph", "engrama_remember"} <= tools
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
            status.structured_content["database"] == str(db) and status.structured_content["endpoint"] is None
        )
        resource = await client.read_resource("memory://knowledge-graph")
        assert json.loads(resource.contents[0].text)["entities"][0]["name"] == "Ada"
    with Memory.open(db, embeddings="none") as memory:
        assert [(h["actor"], h["op"]) for h in memory.history()] == [("claude-code", "create_entity")]


def test_stdout_carries_nothing_but_the_protocol(tmp_path: Path, hub_file: Path) -> None:
    """A raw, handshake-era session (what Claude Desktop sends), line by line."""
    process = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--db", str(tmp_path / "raw.db"), "mcp"],
        cwd=ROOT,
        env={**os.environ, **server_env(hub_file, HIPOCAMPO_LOG="debug")},
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
    assert len(responses[1]["result"]["tools"]) == 20
    assert responses[2]["result"]["structuredContent"] == {"entities": [], "relations": []}
    assert "hipocampo DEBUG" in process.stderr.read()  # the logs went to stderr


async def test_mcp_memory_entry_point_serves_the_same_tools(tmp_path: Path, hub_file: Path) -> None:
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "core.server.stdio", "--db", str(tmp_path / "v2.db")],
        cwd=str(ROOT),
        env=server_env(hub_file),
    )
    async with Client(stdio_client(params)) as client:
        assert len((await client.list_tools()).tools) == 20


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
