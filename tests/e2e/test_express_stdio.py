"""A real ``hipocampo mcp`` process answers the official reads on its express lane (core/server/fast/express.py),
in both protocol eras, after the early answers of the front, and the SDK answers everything else in between."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.memory import Memory
from tests.e2e.conftest import ROOT, START_TIMEOUT_S, read_line, server_env, stdio_client_for
from tests.jsonrpc import initialize_request

pytestmark = pytest.mark.anyio

ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "lane-test", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}}


def seed(db: Path) -> None:
    with Memory.open(db, embeddings="none") as memory:
        memory.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["Née Byron"]},
                                {"name": "Babbage", "entityType": "Person", "observations": []}])
        memory.create_relations([{"from": "Ada", "to": "Babbage", "relationType": "worked_with"}])


def tool_call(request_id: int, tool: str, arguments: dict[str, Any], modern: bool) -> dict[str, Any]:
    params: dict[str, Any] = {"name": tool, "arguments": arguments}
    if modern:
        params["_meta"] = ENVELOPE
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "fast path off"])
@pytest.mark.parametrize("modern", [False, True], ids=["handshake era", "2026 era"])
def test_reads_take_the_express_lane_writes_the_sdk(tmp_path: Path, hub_file: Path, modern: bool, fast: bool) -> None:
    """The same answers with the fast path off (``HIPOCAMPO_FAST_PATH=false``): then the SDK gives them all."""
    db = tmp_path / "lane.db"
    seed(db)
    process = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--db", str(db), "mcp"],
        cwd=ROOT, env={**os.environ, **server_env(hub_file, HIPOCAMPO_LOG="debug",
                                                  HIPOCAMPO_FAST_PATH=str(fast).lower())},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    handshake = [initialize_request("lane-test", request_id=0),
                 {"jsonrpc": "2.0", "method": "notifications/initialized"},
                 # answered by the SDK once it has taken over: the handshake it replayed is done by then
                 {"jsonrpc": "2.0", "id": "ping", "method": "ping"}]
    discover = [{"jsonrpc": "2.0", "id": 0, "method": "tools/list", "params": {"_meta": ENVELOPE}}]
    opening = discover if modern else handshake
    calls = [
        tool_call(1, "open_nodes", {"names": ["Ada"]}, modern),
        tool_call(2, "create_entities", {"entities": [{"name": "Eve", "entityType": "Person"}]}, modern),
        tool_call(3, "search_nodes", {"query": "NEE"}, modern),
        tool_call(4, "search_nodes", {"query": 7}, modern),  # the SDK explains what is wrong
        tool_call(5, "read_graph", {"names_only": True}, modern),
    ]
    try:
        for message in opening:
            process.stdin.write(json.dumps(message) + "\n")
        process.stdin.flush()
        for _ in range(1 if modern else 2):  # tools/list or initialize (answered early), and the ping
            read_line(process.stdout, START_TIMEOUT_S)
        answers = {}
        for message in calls:  # one at a time: each read sees the writes before it
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            answer = json.loads(read_line(process.stdout, START_TIMEOUT_S))
            answers[answer["id"]] = answer["result"]
        process.stdin.close()
        assert process.wait(timeout=START_TIMEOUT_S) == 0
    finally:
        if process.poll() is None:
            process.kill()
    assert answers[1]["structuredContent"] == {
        "entities": [{"name": "Ada", "entityType": "Person", "observations": ["Née Byron"]}],
        "relations": [{"from": "Ada", "to": "Babbage", "relationType": "worked_with"}]}
    assert json.loads(answers[1]["content"][0]["text"]) == answers[1]["structuredContent"]
    assert ("resultType" in answers[1]) is modern and ("_meta" in answers[1]) is modern
    assert [e["name"] for e in answers[3]["structuredContent"]["entities"]] == ["Ada"]
    assert answers[4]["isError"] and "query: Input should be a valid string" in answers[4]["content"][0]["text"]
    assert [e["name"] for e in answers[5]["structuredContent"]["entities"]] == ["Ada", "Babbage", "Eve"]
    log = process.stderr.read()
    lane = [line.split()[-5] for line in log.splitlines() if line.endswith("on the express lane")]
    assert lane == (["open_nodes", "search_nodes", "read_graph"] if fast else [])
    if not fast:
        assert "before the MCP SDK had loaded" not in log
    with Memory.open(db, embeddings="none") as memory:
        assert ("lane-test", "create_entity") in [(h.actor, h.op) for h in memory.history()]


async def test_an_sdk_client_reads_the_same_through_the_lane(tmp_path: Path, hub_file: Path) -> None:
    db = tmp_path / "client.db"
    seed(db)
    async with stdio_client_for(db, hub_file, "sdk-client") as client:
        opened = await client.call_tool("open_nodes", {"names": ["Babbage", "Ada", "Nobody"]})
        assert not opened.is_error
        assert [e["name"] for e in opened.structured_content["entities"]] == ["Babbage", "Ada"]
        worked_with = {"from": "Ada", "to": "Babbage", "relationType": "worked_with"}
        assert opened.structured_content["relations"] == [worked_with]
        found = await client.call_tool("search_nodes", {"query": "byron", "limit": 1})
        assert [e["name"] for e in found.structured_content["entities"]] == ["Ada"]
