"""The express lane of a stdio server: the official reads answered beside the SDK's dispatch.

An assistant's reads are small and frequent. Through the MCP SDK's session, a tools/call passes a
memory stream, a task per request, middleware, a request context, argument models, a worker
thread, the result's model dump and its per-version sieve: ~0.5 ms of Python between the line read
and the line written, against ~0.1 ms for the memory's own answer to open_nodes. After the pause
between two calls of an assistant, with the processor's caches gone cold, those steps take twice
as long again.

This lane answers, on the event loop, the tools it declares in ``SERVES`` (the three official reads)
when it can be sure of the answer, and nothing else: ``tools/call`` of ``open_nodes``, ``search_nodes``
or ``read_graph`` whose arguments are exactly the JSON types and ranges the tool declares, in a
session whose protocol version it knows the answer's shape for. The answer is the tool's own: the
lane calls the function the MCP tool calls (``core.server.tools.memory.*_reply``) and writes its
``CallToolResult`` the way the SDK would. The setting ``fast_path`` (``HIPOCAMPO_FAST_PATH=false``)
turns the lane and the early answers (``front.py``) off. The read is logged (the same row the SDK's
tool writes) after the answer is written: the caller calls ``answered()`` once the line is out.

- the 2026-era (stateless) envelope: ``_meta`` holding the protocol version, the client's info and
  capabilities, and nothing more (no progress token), in a connection that never sent ``initialize``;
- a handshake-era session that the SDK initialized (its answer to ``initialize`` seen going out, and
  ``notifications/initialized`` read), with no ``_meta`` at all.

Anything else (other tools, other shapes, a second ``initialize``, an error from the memory) goes to
the SDK, which answers it as before: an error is re-done by the SDK to be reported its way, as
these tools only read. A test compares this lane's bytes with the SDK's for the same requests at
every version it serves, for every tool in ``SERVES``, so the two cannot drift apart unnoticed.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

import pydantic_core
from mcp_types import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    PROTOCOL_VERSION_META_KEY,
    SERVER_INFO_META_KEY,
    CallToolResult,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
    TextContent,
)

from core.memory import Memory
from core.server.tools import memory as tools_memory
from core.server.tools.read_log import DeferredReads, reads_deferred

log = logging.getLogger(__name__)

# The versions whose tools/call result this lane writes, and how: the 2026 era adds ``resultType``
# and the server's info in ``_meta``; the handshake era sends the result as it is. A version the SDK
# learns later is the SDK's to answer until a test here has compared the two.
MODERN_VERSIONS = frozenset({"2026-07-28"})
HANDSHAKE_VERSIONS = frozenset({"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_ENVELOPE = frozenset({PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY})


Reply = Callable[..., CallToolResult]
Guard = Callable[[dict[str, Any]], dict[str, Any] | None]


def _open_nodes(arguments: dict[str, Any]) -> dict[str, Any] | None:
    names = arguments.get("names")
    if arguments.keys() != {"names"} or type(names) is not list or not all(type(n) is str for n in names):
        return None
    return {"names": names}


def _search_nodes(arguments: dict[str, Any]) -> dict[str, Any] | None:
    query, limit = arguments.get("query"), arguments.get("limit")
    if not {"query"} <= arguments.keys() <= {"query", "limit"} or type(query) is not str:
        return None
    if limit is not None and (type(limit) is not int or limit < 1):
        return None
    return {"query": query, "limit": limit}


def _read_graph(arguments: dict[str, Any]) -> dict[str, Any] | None:
    limit, offset, names_only = arguments.get("limit"), arguments.get("offset", 0), arguments.get("names_only", False)
    if not arguments.keys() <= {"limit", "offset", "names_only"} or type(names_only) is not bool:
        return None
    if (limit is not None and (type(limit) is not int or limit < 0)) or type(offset) is not int or offset < 0:
        return None
    return {"limit": limit, "offset": offset, "names_only": names_only}


#: The tools this lane serves: for each, the arguments it is sure the tool's input schema accepts
#: as they are (anything else is the SDK's, to validate and explain), and the tool's own body, the
#: function its MCP tool calls, so an edit to the tool is an edit to this lane too.
SERVES: dict[str, tuple[Guard, Reply]] = {
    "open_nodes": (_open_nodes, tools_memory.open_nodes_reply),
    "search_nodes": (_search_nodes, tools_memory.search_nodes_reply),
    "read_graph": (_read_graph, tools_memory.read_graph_reply),
}


def wire_result(result: CallToolResult) -> dict[str, Any] | None:
    """A tool's successful text-and-structured result as the SDK's session writes it (keys in its
    order), or None for any other kind of result (an error, other content, extra fields)."""
    if result.is_error or result.structured_content is None or result.meta is not None:
        return None
    if result.model_fields_set - {"content", "structured_content"}:
        return None
    content = []
    for block in result.content:
        if not isinstance(block, TextContent) or block.model_fields_set - {"type", "text"}:
            return None
        content.append({"text": block.text, "type": "text"})
    return {"content": content, "isError": False, "structuredContent": result.structured_content}


class Express:
    """Answers what it can of one stdio connection's requests (see the module docstring).

    ``answer_line`` is offered each line read; ``seen`` is told every message the SDK is given, and
    ``sent`` every answer it writes."""

    def __init__(self, memory: Memory, server_info: dict[str, Any]) -> None:
        self._memory = memory
        self._server_info = server_info
        self._era: str | None = None  # "modern" after an enveloped request, "handshake" after initialize
        self._initialize_id: Any = None
        self._version: str | None = None  # agreed at initialize, once the SDK's answer went out
        self._initialized = False
        self._off = False
        self._client = "mcp"  # the client's name from initialize, for the read log
        self._unlogged = DeferredReads()  # the read answered last, logged by answered()

    def seen(self, message: Any) -> None:
        """Follow the connection's state from what the client sends."""
        if isinstance(message, JSONRPCRequest):
            if message.method == "initialize":
                if self._era is not None:  # a second handshake, or one after enveloped requests
                    self._off = True
                self._era, self._initialize_id = "handshake", message.id
                self._client = _client_name((message.params or {}).get("clientInfo")) or self._client
            elif self._era is None and _envelope_version(message.params) is not None:
                self._era = "modern"
        elif isinstance(message, JSONRPCNotification) and message.method == "notifications/initialized":
            self._initialized = True

    def sent(self, answer: Any) -> None:
        """Note the version the SDK agreed to, from its answer to ``initialize``."""
        if self._initialize_id is not None and isinstance(answer, JSONRPCResponse) and answer.id == self._initialize_id:
            version = answer.result.get("protocolVersion")
            self._version = version if isinstance(version, str) else None
            self._initialize_id = None

    def answer_line(self, line: bytes) -> tuple[int | str, bytes] | None:
        """(the request's id, the whole JSON-RPC response) when this lane serves the request on
        ``line``; None leaves it to the SDK. Marks the request in flight (``Foreground.begin``) once
        it runs a tool; the caller ends it when the answer is written, then calls ``answered()``."""
        if self._off or b'"tools/call"' not in line:
            return None
        try:
            return self._answer(line)
        except Exception:  # noqa: BLE001 - a line this lane cannot take (nested too deep …) is the SDK's
            log.debug("express lane left a line to the SDK", exc_info=True)
            return None

    def _answer(self, line: bytes) -> tuple[int | str, bytes] | None:
        if _SURROGATE.search(line):  # Python's parser keeps a lone one, which the SDK refuses: leave it there
            return None
        try:
            request = json.loads(line)
        except (ValueError, RecursionError):
            return None
        if not isinstance(request, dict) or request.keys() != {"jsonrpc", "id", "method", "params"}:
            return None
        request_id, params = request["id"], request["params"]
        if request["jsonrpc"] != "2.0" or request["method"] != "tools/call" or type(request_id) not in (int, str):
            return None
        if not isinstance(params, dict):
            return None
        name, arguments = params.get("name"), params.get("arguments")
        served = SERVES.get(name) if isinstance(name, str) else None
        if served is None or not isinstance(arguments, dict):
            return None
        guard, reply = served
        kwargs = guard(arguments)
        if kwargs is None:
            return None
        if self._era is None and _envelope_version(params) is not None:
            self._era = "modern"  # what ``seen`` notes of a first enveloped request
        modern = self._modern(params)
        if not modern and not self._handshake(params):
            return None
        client = (_client_name(params["_meta"][CLIENT_INFO_META_KEY]) if modern else self._client) or "mcp"
        self._memory.foreground.begin(request_id)  # background embedding steps aside meanwhile
        try:
            with reads_deferred() as read:  # the reply's read is logged once its answer is written
                answer = wire_result(reply(self._memory, **kwargs, client=client))
        except Exception:  # noqa: BLE001 - the SDK re-does it and reports the error its way
            log.debug("express lane left %s to the SDK", params["name"], exc_info=True)
            return None
        if answer is None:
            return None  # the SDK answers (and logs) it
        log.debug("answered %s on the express lane", params["name"])
        result: dict[str, Any] = {"content": answer["content"], "isError": False}
        if modern:
            result["resultType"] = "complete"
        result["structuredContent"] = answer["structuredContent"]
        if modern:
            result["_meta"] = {SERVER_INFO_META_KEY: self._server_info}
        line = pydantic_core.to_json({"jsonrpc": "2.0", "id": request_id, "result": result})
        self._unlogged = read
        return request_id, line

    def answered(self) -> None:
        """The answer ``answer_line`` gave is written (or could not be): log its read now, off the
        answer's path (~160 µs of writing the read log a call)."""
        self._unlogged.log()

    def _modern(self, params: dict[str, Any]) -> bool:
        return self._era == "modern" and params.keys() == {"name", "arguments", "_meta"} and (
            _envelope_version(params) in MODERN_VERSIONS
        )

    def _handshake(self, params: dict[str, Any]) -> bool:
        return (self._era == "handshake" and self._initialized and self._version in HANDSHAKE_VERSIONS
                and params.keys() == {"name", "arguments"})


def _client_name(info: Any) -> str | None:
    name = info.get("name") if isinstance(info, dict) else None
    return (name.strip()[:100] or None) if isinstance(name, str) else None



def _envelope_version(params: Any) -> str | None:
    """The protocol version of a 2026-era request whose ``_meta`` is the envelope and nothing else."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict) or meta.keys() != _ENVELOPE:
        return None
    version, info, caps = (meta[k] for k in (PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY,
                                             CLIENT_CAPABILITIES_META_KEY))
    if not (isinstance(info, dict) and isinstance(info.get("name"), str) and isinstance(info.get("version"), str)
            and isinstance(caps, dict)):
        return None
    return version if isinstance(version, str) else None
