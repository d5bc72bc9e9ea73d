"""Early answers (core/server/fast/front.py): the stored copy is the SDK's live answer, the front answers only
what it is sure of, and the SDK's session takes over from it with the client known."""

from __future__ import annotations

import json
import os
import select
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.message import SessionMessage

from core.memory import Memory
from core.server.fast.front import REPLAY_ID, Front, Handover
from core.server.fast.front_answers import ANSWERS
from core.server.fast.front_build import render, sdk_answers
from core.server.transports.app import build_server
from core.server.transports.pipes import pipe_stdio

MODERN = "2026-07-28"


def envelope(version: str = MODERN, **extra: Any) -> dict[str, Any]:
    meta = {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": {"name": "early-client", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": {}, **extra}
    return {"_meta": meta}


def initialize(request_id: int | str = 1, version: str = "2025-06-18", **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {"roots": {"listChanged": True}},
        "clientInfo": {"name": "early-client", "version": "1"}, **params}}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def expected(request_id: int | str, key: str) -> dict[str, Any]:
    return json.loads('{"jsonrpc":"2.0","id":' + json.dumps(request_id) + ANSWERS[key])


class Wire:
    """Two real pipes: the client writes requests into one and reads answers from the other."""

    def __init__(self) -> None:
        self.server_in, self.client_out = os.pipe()
        self.client_in, self.server_out = os.pipe()
        self._buffer = b""

    def send(self, *messages: dict[str, Any] | bytes) -> None:
        for message in messages:
            os.write(self.client_out, message if isinstance(message, bytes) else line(message))

    def read(self, timeout: float = 30.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.client_in], [], [], left)[0]:
                raise TimeoutError("no answer")
            chunk = os.read(self.client_in, 1 << 20)
            if not chunk:
                raise EOFError("the server closed its end")
            self._buffer += chunk
        first, _, self._buffer = self._buffer.partition(b"\n")
        return json.loads(first)

    def nothing_more(self) -> bool:
        return not self._buffer and not select.select([self.client_in], [], [], 0)[0]

    def close(self) -> None:
        for fd in (self.client_out, self.client_in, self.server_in, self.server_out):
            if fd < 0:  # handed to the server's transport, which closed it
                continue
            try:
                os.close(fd)
            except OSError:
                pass


@pytest.fixture
def wire() -> Any:
    w = Wire()
    yield w
    w.close()


def test_the_stored_answers_are_the_sdks_live_answers() -> None:
    """If this fails, a tool, its schema, the instructions or the version changed:
    run ``python -m core.server.fast.front_build`` and commit core/server/fast/front_answers.py."""
    live = sdk_answers()
    assert live == ANSWERS
    stored = Path(__file__).resolve().parents[2] / "core/server/fast/front_answers.py"
    assert render(live) == stored.read_text("utf-8")
    for key, answer in ANSWERS.items():
        if key != "latest":
            assert "result" in json.loads('{"jsonrpc":"2.0","id":0' + answer)


def test_handshake_answered_early_and_the_rest_handed_over(wire: Wire) -> None:
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "read_graph", "arguments": {}}}
    wire.send(initialize(1), INITIALIZED, {"jsonrpc": "2.0", "id": "two", "method": "tools/list"}, call)
    front = Front((wire.server_in, wire.server_out)).start()
    assert wire.read() == expected(1, "initialize 2025-06-18")
    assert wire.read() == expected("two", "tools/list 2025-06-18")
    handover = front.handover()
    assert wire.nothing_more()
    assert handover.unread == line(call)  # the first request it does not answer, left for the SDK
    replayed = [json.loads(raw) for raw in handover.replay]
    assert replayed == [dict(initialize(1), id=REPLAY_ID), INITIALIZED]
    assert handover.drop_ids == {REPLAY_ID} and handover.answered == 2


def test_protocol_2026_discover_and_tools_list_answered_early(wire: Wire) -> None:
    wire.send({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": envelope()},
              {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": envelope()})
    front = Front((wire.server_in, wire.server_out)).start()
    assert wire.read() == expected(1, f"server/discover {MODERN}")
    assert wire.read() == expected(2, f"tools/list {MODERN}")
    handover = front.handover()
    assert handover == Handover(answered=2)  # nothing to replay: each 2026 request carries its client


def test_an_unknown_protocol_version_gets_the_sdks_counter_offer(wire: Wire) -> None:
    wire.send(initialize(7, version="2099-01-01"))
    front = Front((wire.server_in, wire.server_out)).start()
    answer = wire.read()
    assert answer == expected(7, "initialize 2025-11-25") and answer["result"]["protocolVersion"] == "2025-11-25"
    front.handover()


@pytest.mark.parametrize("first", [
    {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read_graph", "arguments": {}}},
    {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},  # before initialize: the SDK refuses it
    initialize(1, _meta={"progressToken": 5}),  # params it does not know
    initialize(1, capabilities={"roots": True}),  # malformed: the SDK says so
    {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": envelope(version="2030-01-01")},
    {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": envelope(**{"x/logLevel": "debug"})},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
])
def test_anything_unusual_is_left_whole_to_the_sdk(wire: Wire, first: dict[str, Any] | bytes) -> None:
    later = line(initialize(2))
    raw = first if isinstance(first, bytes) else line(first)
    wire.send(raw, later)
    front = Front((wire.server_in, wire.server_out)).start()
    deadline = time.monotonic() + 30
    while front._pending != bytearray(raw + later) and time.monotonic() < deadline:  # it reads, then stops
        time.sleep(0.01)
    handover = front.handover()
    assert handover.unread == raw + later and handover.answered == 0 and not handover.replay
    assert wire.nothing_more()


@pytest.mark.parametrize("first", [
    {"jsonrpc": "2.0", "id": True, "method": "initialize", "params": initialize()["params"]},
    b"{not json\n",
    b"[" * 5000 + b"]" * 5000 + b"\n",
])
def test_a_malformed_line_is_refused_at_once_and_the_front_goes_on(wire: Wire, first: dict[str, Any] | bytes) -> None:
    wire.send(first if isinstance(first, bytes) else line(first), line(initialize(2)))
    front = Front((wire.server_in, wire.server_out)).start()
    refused = wire.read()
    assert refused["id"] is None and refused["error"]["code"] in (-32700, -32600)
    assert wire.read() == expected(2, "initialize 2025-06-18")
    front.handover()


def test_after_the_first_unanswerable_message_nothing_more_is_answered(wire: Wire) -> None:
    ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
    tools = {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}
    wire.send(initialize(1), ping, tools)  # tools/list after an unanswered ping: order is kept
    front = Front((wire.server_in, wire.server_out)).start()
    assert wire.read()["id"] == 1
    deadline = time.monotonic() + 30
    while front._pending != bytearray(line(ping) + line(tools)) and time.monotonic() < deadline:
        time.sleep(0.01)
    handover = front.handover()
    assert handover.unread == line(ping) + line(tools) and handover.answered == 1
    assert wire.nothing_more()


async def _serve(memory: Memory, wire: Wire, front: Front) -> None:
    server = build_server(memory)
    lowlevel = server._lowlevel_server
    handover = front.handover()
    async with pipe_stdio(wire=front.wire, handover=handover) as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


@pytest.mark.anyio
async def test_the_sdk_takes_over_knowing_the_client(tmp_path: Path, wire: Wire) -> None:
    """Handshake answered early; the SDK then serves the pipelined call and records the client's name."""
    create = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "create_entities", "arguments": {"entities": [{"name": "Ada", "entityType": "Person"}]}}}
    wire.send(initialize(1), INITIALIZED, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, create)
    front = Front((wire.server_in, wire.server_out)).start()
    assert (await anyio.to_thread.run_sync(wire.read))["id"] == 1
    assert (await anyio.to_thread.run_sync(wire.read))["id"] == 2
    with Memory.open(tmp_path / "front.db", embeddings="none") as memory:
        async with anyio.create_task_group() as tg:
            tg.start_soon(_serve, memory, wire, front)
            answer = await anyio.to_thread.run_sync(wire.read)
            assert answer["id"] == 3 and answer["result"]["structuredContent"]["entities"][0]["name"] == "Ada"
            wire.send({"jsonrpc": "2.0", "id": 4, "method": "tools/list"})
            assert await anyio.to_thread.run_sync(wire.read) == expected(4, "tools/list 2025-06-18")
            os.close(wire.client_out)  # the client goes away: the session ends
            wire.client_out = -1
            await anyio.to_thread.run_sync(lambda: os.read(wire.client_in, 1))  # our end sees EOF
            tg.cancel_scope.cancel()
        wire.server_in = wire.server_out = -1  # closed with the transport
        assert [(h.actor, h.op) for h in memory.history()] == [("early-client", "create_entity")]


@pytest.mark.anyio
async def test_an_answer_is_let_go_once_written(wire: Wire) -> None:
    """The writer frees an answer once the client has it, not when the next message comes: a broad
    search's answer is ~70k objects, and freeing them at the start of the next call made that call
    ~1.6 ms slower."""
    payload = [{"name": f"E{i}", "observations": ["x"]} for i in range(1000)]
    held = sys.getrefcount(payload)
    async with pipe_stdio(wire=(wire.server_in, wire.server_out)) as (_read_stream, write_stream):
        wire.server_in = wire.server_out = -1  # the transport owns and closes them
        answer = types.JSONRPCResponse(jsonrpc="2.0", id=1, result={"entities": payload})
        assert sys.getrefcount(payload) > held  # the answer holds the very list
        await write_stream.send(SessionMessage(answer))
        del answer
        got = await anyio.to_thread.run_sync(wire.read)
        assert got["id"] == 1 and len(got["result"]["entities"]) == 1000
        with anyio.fail_after(10):
            while sys.getrefcount(payload) > held:  # the writer lets go right after the write
                await anyio.sleep(0.01)
