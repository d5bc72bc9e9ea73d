"""The express lane (core/server/fast/express.py) writes, byte for byte, what the SDK's session writes for
the same request at the same protocol version, for every tool it serves (``SERVES``), by calling the tool's
own body; and it leaves to the SDK everything it is not sure of."""

from __future__ import annotations

import inspect
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.message import SessionMessage

from core.memory import Memory
from core.server.fast.express import HANDSHAKE_VERSIONS, MODERN_VERSIONS, SERVES, Express
from core.server.tools import memory as tools_memory
from core.server.transports.app import build_server
from core.settings import Settings

pytestmark = pytest.mark.anyio

CLIENT = {"name": "test-assistant", "version": "1"}


def envelope(version: str) -> dict[str, Any]:
    return {"io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientInfo": CLIENT,
            "io.modelcontextprotocol/clientCapabilities": {}}


def message(raw: dict[str, Any]) -> Any:
    return types.jsonrpc_message_adapter.validate_json(json.dumps(raw), by_name=False)


def call(request_id: int, tool: str, arguments: Any, version: str | None = None, **meta: Any) -> dict[str, Any]:
    """A tools/call; with ``version``, in the 2026 era's envelope (plus ``meta``)."""
    params: dict[str, Any] = {"name": tool, "arguments": arguments}
    if version is not None:
        params["_meta"] = {**envelope(version), **meta}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def initialize(version: str, request_id: int = 0) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT}}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


class Connection:
    """One connection to the server as stdio gives it: every message goes through the SDK's
    session, and an ``Express`` follows the same messages and is asked each request too."""

    def __init__(self, server: Any, to_server: Any, from_server: Any) -> None:
        self.express = Express(server.memory, server._lowlevel_server.server_info_stamp)
        self._to, self._from = to_server, from_server

    async def send(self, raw: dict[str, Any]) -> tuple[bytes | None, bytes | None]:
        """(the SDK's answer, the express lane's answer) to ``raw``; None where there is none."""
        msg = message(raw)
        served = self.express.answer_line(json.dumps(raw).encode())  # as pipes.py offers each line
        lane = served[1] if served is not None else None
        if served is None:
            self.express.seen(msg)
        else:
            assert served[0] == raw["id"]
        await self._to.send(SessionMessage(msg))
        if "id" not in raw:
            await anyio.sleep(0.05)  # let the session take the notification in
            return None, lane
        answer = (await self._from.receive()).message
        self.express.sent(answer)
        return answer.__pydantic_serializer__.to_json(answer, by_alias=True, exclude_unset=True), lane


@asynccontextmanager
async def connection(mem: Memory) -> AsyncIterator[Connection]:
    server = build_server(mem)
    lowlevel = server._lowlevel_server
    to_server, read_stream = anyio.create_memory_object_stream[Any](0)
    write_stream, from_server = anyio.create_memory_object_stream[Any](0)
    async with anyio.create_task_group() as tg:
        tg.start_soon(lowlevel.run, read_stream, write_stream, lowlevel.create_initialization_options())
        yield Connection(server, to_server, from_server)
        tg.cancel_scope.cancel()


@pytest.fixture
def graph(mem: Memory) -> Memory:
    mem.create_entities([
        {"name": "Ada Lovelace", "entityType": "Person", "observations": ["Wrote the first program", "Née Byron"]},
        {"name": "Charles Babbage", "entityType": "Person", "observations": ["Designed the Analytical Engine"]},
        {"name": "Analytical Engine", "entityType": "Machine", "observations": []},
        {"name": "Zoë", "entityType": "Persona", "observations": ["Vive en Sevilla", "😀 emoji \"quoted\" \\ back"]},
    ])
    mem.create_relations([
        {"from": "Ada Lovelace", "to": "Charles Babbage", "relationType": "worked_with"},
        {"from": "Charles Babbage", "to": "Analytical Engine", "relationType": "designed"},
        {"from": "Zoë", "to": "Ada Lovelace", "relationType": "admires"},
    ])
    return mem


CALLS = [
    ("open_nodes", {"names": ["Ada Lovelace", "Zoë"]}),
    ("open_nodes", {"names": ["Analytical Engine", "Analytical Engine", "nobody"]}),
    ("open_nodes", {"names": []}),
    ("search_nodes", {"query": "person"}),
    ("search_nodes", {"query": "NEE"}),
    ("search_nodes", {"query": "sevilla", "limit": 1}),
    ("search_nodes", {"query": "a", "limit": None}),
    ("search_nodes", {"query": "not in the graph"}),
    ("search_nodes", {"query": ""}),
    ("read_graph", {}),
    ("read_graph", {"limit": 2, "offset": 1}),
    ("read_graph", {"limit": 0}),
    ("read_graph", {"names_only": True}),
    ("read_graph", {"limit": None, "offset": 0, "names_only": False}),
]


def test_every_tool_the_lane_serves_is_compared_with_the_sdk() -> None:
    assert {tool for tool, _ in CALLS} == set(SERVES)


async def test_the_lane_takes_exactly_the_arguments_each_tool_declares(graph: Memory) -> None:
    """A parameter added to a served tool fails here until the lane's guard knows it (meanwhile the
    lane leaves a call that uses it to the SDK, never answers it wrong)."""
    schemas = {tool.name: tool.input_schema for tool in await build_server(graph).list_tools()}
    for tool, (guard, reply) in SERVES.items():
        declared = set(schemas[tool]["properties"])
        accepted = {key for name, arguments in CALLS if name == tool for key in guard(arguments) or {}}
        assert accepted == declared, tool
        # ``client``: who reads, for the read log (the tool passes its actor, the lane the client's name)
        assert set(inspect.signature(reply).parameters) == {"memory", "client", *declared}, tool
        assert reply is getattr(tools_memory, f"{tool}_reply")  # the tool's own body, not a copy


async def test_an_edit_to_a_served_tool_reaches_the_lane(graph: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lane answers with what the tool's body returns: change the body and the lane's bytes follow."""
    original = tools_memory.tool_result

    def stamped(structured: dict[str, Any], *args: Any) -> Any:
        return original({**structured, "edited": True}, *args)

    monkeypatch.setattr(tools_memory, "tool_result", stamped)
    modern = sorted(MODERN_VERSIONS)[0]
    async with connection(graph) as conn:
        for i, (tool, arguments) in enumerate(CALLS, start=1):
            sdk, lane = await conn.send(call(i, tool, arguments, modern))
            assert lane == sdk
            assert json.loads(lane)["result"]["structuredContent"]["edited"] is True, tool


@pytest.mark.parametrize("version", sorted(MODERN_VERSIONS))
async def test_the_2026_era_answers_are_the_sdks_own(graph: Memory, version: str) -> None:
    async with connection(graph) as conn:
        for i, (tool, arguments) in enumerate(CALLS, start=1):
            sdk, lane = await conn.send(call(i, tool, arguments, version))
            assert lane is not None, (tool, arguments)
            assert lane == sdk
            assert json.loads(lane)["result"]["structuredContent"]["entities"] is not None


@pytest.mark.parametrize("version", sorted(HANDSHAKE_VERSIONS))
async def test_handshake_era_answers_are_the_sdks_own_once_initialized(graph: Memory, version: str) -> None:
    async with connection(graph) as conn:
        _, lane = await conn.send(initialize(version))
        assert lane is None
        sdk, lane = await conn.send(call(1, "open_nodes", {"names": ["Ada Lovelace"]}))
        assert lane is None, "before notifications/initialized, the SDK answers"
        assert json.loads(sdk)["result"]["structuredContent"]["entities"][0]["name"] == "Ada Lovelace"
        await conn.send(INITIALIZED)
        for i, (tool, arguments) in enumerate(CALLS, start=2):
            sdk, lane = await conn.send(call(i, tool, arguments))
            assert lane is not None, (tool, arguments)
            assert lane == sdk


async def test_what_the_lane_is_not_sure_of_is_left_to_the_sdk(graph: Memory) -> None:
    modern = sorted(MODERN_VERSIONS)[0]
    declined = [
        call(1, "open_nodes", {"names": "Ada Lovelace"}, modern),  # not a list: the SDK explains
        call(2, "open_nodes", {"names": ["Ada Lovelace", 3]}, modern),
        call(3, "open_nodes", {"names": ["Ada Lovelace"], "extra": 1}, modern),
        call(4, "search_nodes", {"query": 5}, modern),
        call(5, "search_nodes", {"query": "ada", "limit": 0}, modern),
        call(6, "search_nodes", {"query": "ada", "limit": "2"}, modern),
        call(7, "search_nodes", {"query": "ada", "limit": True}, modern),
        call(8, "search_nodes", {}, modern),
        call(9, "read_graph", {"limit": -1}, modern),
        call(14, "read_graph", {"names_only": 1}, modern),
        call(15, "read_graph", {"offset": 1.0}, modern),
        call(16, "entity_history", {"name": "Ada Lovelace"}, modern),  # not an express tool
        call(10, "create_entities", {"entities": [{"name": "Eve", "entityType": "Person"}]}, modern),
        call(11, "open_nodes", {"names": ["Ada Lovelace"]}, modern, progressToken="p"),  # progress asked for
        call(12, "open_nodes", {"names": ["Ada Lovelace"]}, "2099-01-01"),  # a version it does not know
        call(13, "open_nodes", {"names": ["Ada Lovelace"]}),  # no envelope, no handshake
    ]
    async with connection(graph) as conn:
        for raw in declined:
            sdk, lane = await conn.send(raw)
            assert lane is None, raw
            assert sdk is not None
    assert graph.open_nodes_dump(["Eve"])["entities"][0]["name"] == "Eve"  # the SDK did the write


async def test_a_handshake_the_sdk_refused_leaves_the_lane_closed(graph: Memory) -> None:
    refused = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": 2025}}
    async with connection(graph) as conn:
        sdk, _ = await conn.send(refused)
        assert "error" in json.loads(sdk)
        await conn.send(INITIALIZED)
        sdk, lane = await conn.send(call(1, "open_nodes", {"names": ["Ada Lovelace"]}))
        assert lane is None
        assert sdk is not None


async def test_a_second_initialize_turns_the_lane_off(graph: Memory) -> None:
    version = sorted(HANDSHAKE_VERSIONS)[0]
    async with connection(graph) as conn:
        await conn.send(initialize(version))
        await conn.send(INITIALIZED)
        _, lane = await conn.send(call(1, "open_nodes", {"names": ["Ada Lovelace"]}))
        assert lane is not None
        await conn.send(initialize(version, request_id=2))
        _, lane = await conn.send(call(3, "open_nodes", {"names": ["Ada Lovelace"]}))
        assert lane is None


async def test_an_error_in_the_memory_is_reported_by_the_sdk(tmp_path: Path) -> None:
    modern = sorted(MODERN_VERSIONS)[0]
    graph = Memory(Settings(db=tmp_path / "closing.db", embeddings="none"))
    async with connection(graph) as conn:
        graph.close()  # every read of a closed SQLite memory fails
        sdk, lane = await conn.send(call(1, "open_nodes", {"names": ["Ada Lovelace"]}, modern))
        assert lane is None
        assert json.loads(sdk)["result"]["isError"] is True


def test_lines_that_are_not_plain_requests_are_left_to_the_sdk(graph: Memory) -> None:
    express = Express(graph, {"name": "hipocampo", "version": "0"})
    good = call(1, "open_nodes", {"names": ["Ada Lovelace"]}, sorted(MODERN_VERSIONS)[0])
    assert express.answer_line(json.dumps(good).encode()) is not None
    odd = [dict(good, id=1.5), dict(good, id=None), dict(good, id=True), dict(good, jsonrpc="1.0"),
           dict(good, extra=1), dict(good, params=["open_nodes"]), {k: v for k, v in good.items() if k != "id"}]
    lines = [json.dumps(o).encode() for o in odd]
    lines += [json.dumps(good).encode()[:-1], b'"tools/call"', b"\xff" + json.dumps(good).encode()]
    for line in lines:
        assert express.answer_line(line) is None, line


def test_the_read_is_logged_once_the_answer_is_out_as_the_sdk_logs_it(graph: Memory) -> None:
    """The lane wrote the read log (~160 µs) before its answer: now the caller (pipes.py) logs it
    once the line is written, with the same row the SDK's tool writes for the same call."""
    express = Express(graph, {"name": "hipocampo", "version": "0"})
    modern = sorted(MODERN_VERSIONS)[0]
    for i, (tool, arguments) in enumerate([("open_nodes", {"names": ["Ada Lovelace"]}),
                                           ("search_nodes", {"query": "ada"})], start=1):
        before = len(graph.read_log())
        served = express.answer_line(json.dumps(call(i, tool, arguments, modern)).encode())
        assert served is not None and len(graph.read_log()) == before  # answered, not logged yet
        express.answered()
        lane_row = graph.read_log()[0]
        getattr(tools_memory, f"{tool}_reply")(graph, **arguments, client=CLIENT["name"])  # the SDK's tool body
        sdk_row = graph.read_log()[0]
        assert len(graph.read_log()) == before + 2
        same = ("client", "tool", "query", "entities")
        assert {k: lane_row[k] for k in same} == {k: sdk_row[k] for k in same}
        assert lane_row["client"] == "test-assistant" and "Ada Lovelace" in lane_row["entities"]
    express.answered()  # nothing left: no second row
    assert len(graph.read_log()) == 4


def test_a_call_left_to_the_sdk_is_not_logged_by_the_lane(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "off.db", embeddings="none")) as graph:
        graph.create_entities([{"name": "Ada Lovelace", "entityType": "Person"}])
        express = Express(graph, {"name": "hipocampo", "version": "0"})
        line = call(1, "open_nodes", {"names": ["Ada Lovelace"]}, sorted(MODERN_VERSIONS)[0], extra=1)
        assert express.answer_line(json.dumps(line).encode()) is None
        express.answered()
        assert graph.read_log() == []
