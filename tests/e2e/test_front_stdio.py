"""A real ``hipocampo mcp`` process answers the handshake before the MCP SDK has loaded (core/server/fast/front.py),
with the SDK's exact answers, and the SDK then serves the session as if it had answered them itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from core.memory import Memory
from core.server.fast.front_answers import ANSWERS
from tests.e2e.conftest import ROOT, START_TIMEOUT_S, read_line, server_env
from tests.jsonrpc import PROTOCOL_VERSION, initialize_request


def test_handshake_answered_early_then_the_sdk_serves_as_that_client(tmp_path: Path, hub_file: Path) -> None:
    db = tmp_path / "front.db"
    process = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--db", str(db), "mcp"],
        cwd=ROOT, env={**os.environ, **server_env(hub_file, HIPOCAMPO_LOG="debug")},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    create = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "create_entities", "arguments": {"entities": [{"name": "Ada", "entityType": "Person"}]}}}
    try:
        # Everything at once, as a client that does not wait (the front answers the first two).
        for request in (initialize_request("early-bird"), {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, create):
            process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        answers = [json.loads(read_line(process.stdout, START_TIMEOUT_S)) for _ in range(3)]
        process.stdin.close()
        assert process.wait(timeout=START_TIMEOUT_S) == 0
        assert process.stdout.read() == ""  # nothing else: the replayed initialize's answer was dropped
    finally:
        if process.poll() is None:
            process.kill()
    head = '{"jsonrpc":"2.0","id":'
    assert answers[0] == json.loads(head + "1" + ANSWERS[f"initialize {PROTOCOL_VERSION}"])
    assert answers[1] == json.loads(head + "2" + ANSWERS[f"tools/list {PROTOCOL_VERSION}"])
    assert answers[2]["id"] == 3 and not answers[2]["result"]["isError"]
    errors = process.stderr.read()
    assert f"answered initialize {PROTOCOL_VERSION} before the MCP SDK had loaded" in errors
    with Memory.open(db, embeddings="none") as memory:
        assert [(h.actor, h.op) for h in memory.history()] == [("early-bird", "create_entity")]


def test_a_server_that_forwards_to_the_hub_answers_the_handshake_early_too(tmp_path: Path, hub_file: Path) -> None:
    from tests.e2e.conftest import start_hub
    from tests.e2e.raw import RawStdio

    db = tmp_path / "front.db"
    hub = start_hub(db, hub_file)
    server = RawStdio(db, hub_file, HIPOCAMPO_LOG="debug")
    try:
        for request in (initialize_request("forwarded"), {"jsonrpc": "2.0", "method": "notifications/initialized"},
                        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
                            "name": "create_entities",
                            "arguments": {"entities": [{"entityType": "Note", "name": "Ada"}]}}},
                        {"jsonrpc": "2.0", "id": 4, "method": "prompts/list"}):
            server.request(request)
        answers = {a["id"]: a for a in (server.next_answer(START_TIMEOUT_S) for _ in range(4))}
    finally:
        assert server.close() == 0
        hub.stop()
    head = '{"jsonrpc":"2.0","id":'
    assert answers[1] == json.loads(head + "1" + ANSWERS[f"initialize {PROTOCOL_VERSION}"])
    assert answers[2] == json.loads(head + "2" + ANSWERS[f"tools/list {PROTOCOL_VERSION}"])
    assert not answers[3]["result"]["isError"] and "prompts" in answers[4]["result"]
    assert f"answered initialize {PROTOCOL_VERSION} before the MCP SDK had loaded" in server.stderr
    assert "Bridging to the Hipocampo hub" in server.stderr
    with Memory.open(db, embeddings="none") as memory:
        assert [(h.actor, h.op) for h in memory.history()] == [("forwarded", "create_entity")]
