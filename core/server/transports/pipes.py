"""A stdio transport on asyncio pipes, without a thread hop per line.

The SDK's ``stdio_server`` reads and writes through ``anyio.wrap_file``: every line read, every
write and every flush is a trip to a worker thread. Measured here over stdio, that is ~0.5 ms of a
~1.5 ms round trip for a trivial tool. Where stdin and stdout are pipes (how every MCP client starts
a server) this transport reads and writes them on the event loop instead; anywhere else (Windows,
a terminal, a file) the caller falls back to the SDK's transport.

Like the SDK's, it points fd 0 at the null device and fd 1 at stderr while serving, so a stray
``print`` or a child process can never write into the protocol stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from core.embeddings.foreground import Foreground
from core.server.fast.express import Express
from core.server.fast.front import Handover, pipes_usable, take_stdio
from core.server.transports.framing import INTERNAL_ERROR, error_line, refusal, unreadable, without_bom

__all__ = ["DEFAULT_MAX_LINE", "pipe_stdio", "pipes_usable"]

log = logging.getLogger(__name__)

DEFAULT_MAX_LINE = 8 * 1024 * 1024  # Settings.max_request_bytes: one JSON-RPC message is one line


@asynccontextmanager
async def pipe_stdio(
    max_line: int = DEFAULT_MAX_LINE,
    foreground: Foreground | None = None,
    *,
    wire: tuple[int, int] | None = None,
    handover: Handover | None = None,
    express: Express | None = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """(read_stream, write_stream) for ``Server.run``, over this process's stdin/stdout pipes.

    A line longer than ``max_line`` bytes is dropped (never held whole in memory) and answered
    with a JSON-RPC error saying the request is too large. ``foreground`` is told when each
    request arrives and when its answer has been written, so background embedding stays out of
    the way from the first byte read to the last one sent. ``wire`` and ``handover``: the
    protocol's file descriptors and what was read and answered before the SDK loaded (``front.py``).
    ``express`` answers the reads it is sure of without the SDK's dispatch (``express.py``)."""
    loop = asyncio.get_running_loop()
    wire_in, wire_out = wire if wire is not None else take_stdio()
    handover = handover or Handover()
    reader = asyncio.StreamReader(limit=max_line)
    if handover.unread:
        reader.feed_data(handover.unread)
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(wire_in, "rb", buffering=0)
    )
    write_transport, protocol = await loop.connect_write_pipe(
        asyncio.streams.FlowControlMixin, os.fdopen(wire_out, "wb", buffering=0)
    )
    writer = asyncio.StreamWriter(write_transport, protocol, None, loop)

    to_server, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, from_server = anyio.create_memory_object_stream[SessionMessage](0)

    async def read_lines() -> None:
        async with to_server:
            for line in handover.replay:  # what the client said before the SDK loaded
                replayed = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
                if express is not None:
                    express.seen(replayed)
                await to_server.send(SessionMessage(replayed))
            while True:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError as end:  # the client closed stdin
                    line = end.partial
                except asyncio.LimitOverrunError:  # longer than max_line: drop it whole, answer its id
                    request_id = await _skip_line(reader)
                    error = {"jsonrpc": "2.0", "id": request_id, "error": {
                        "code": -32600,
                        "message": f"Request larger than {max_line:,} bytes (HIPOCAMPO_MAX_REQUEST_BYTES); it was "
                                   "not read. Send it in smaller parts."}}
                    if request_id is None:  # a notification, or no id found: nobody waits for an answer
                        continue
                    writer.write(json.dumps(error).encode() + b"\n")
                    await writer.drain()
                    continue
                if not line:
                    break
                line = without_bom(line)
                if not line.strip():
                    continue
                try:
                    served = express.answer_line(line) if express is not None else None
                    if served is not None:
                        try:
                            await write_line(served[1], served[0])
                        finally:
                            del served  # as write_lines does: free a large answer now
                            if express is not None:  # (it served the line)
                                express.answered()  # its read is logged now that the answer is out
                        continue
                    message = _message(line)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client went away
                except Exception:  # noqa: BLE001 - one bad line must never end the session
                    log.exception("could not serve a line")
                    message = Refused(error_line(None, INTERNAL_ERROR, "Internal error: the line could not be served."))
                if isinstance(message, Refused):  # not a JSON-RPC message the SDK can take: answered here
                    if message.answer is not None:
                        try:
                            await write_line(message.answer, None)
                        except (BrokenPipeError, ConnectionResetError):
                            return
                    continue
                if foreground is not None and isinstance(message, types.JSONRPCRequest):
                    foreground.begin(message.id)
                if express is not None:
                    express.seen(message)
                await to_server.send(SessionMessage(message))

    async def write_line(data: bytes, answered_id: Any) -> None:
        writer.write(data)
        writer.write(b"\n")
        await writer.drain()
        if foreground is not None and answered_id is not None:
            foreground.end(answered_id, len(data))

    async def write_lines() -> None:
        async with from_server:
            try:
                async for message in from_server:
                    answer = message.message
                    answered = isinstance(answer, types.JSONRPCResponse | types.JSONRPCError)
                    answer_id = answer.id if isinstance(answer, types.JSONRPCResponse | types.JSONRPCError) else None
                    if express is not None and answered:
                        express.sent(answer)
                    if answer_id is not None and answer_id in handover.drop_ids:
                        handover.drop_ids.discard(answer_id)  # the replayed initialize: answered already
                        if isinstance(answer, types.JSONRPCError):
                            log.warning("the SDK refused the replayed initialize: %s", answer.error.message)
                        continue
                    # Bytes straight from pydantic-core: a broad search's answer is megabytes, and the
                    # str, its encoding and the line with its newline were three more copies of it.
                    data = answer.__pydantic_serializer__.to_json(answer, by_alias=True, exclude_unset=True)
                    await write_line(data, answer_id)
                    # Free the answer now, while the client reads it. Held until the next message, a
                    # broad search's ~70k objects were freed at the start of the next call (an
                    # open_nodes after it took 6.8 ms from the client instead of 5.2).
                    del message, answer, data
            except (BrokenPipeError, ConnectionResetError):
                return  # the client went away; its stdin closing ends the session

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(read_lines)
            tg.start_soon(write_lines)
            try:
                yield read_stream, write_stream
            finally:
                tg.cancel_scope.cancel()
    finally:
        read_transport.close()
        write_transport.close()


class Refused:
    """A line answered (``answer``; None: a notification or response, dropped) without the SDK."""

    def __init__(self, answer: bytes | None) -> None:
        self.answer = answer


def _message(line: bytes) -> types.JSONRPCMessage | Refused:
    """The JSON-RPC message on ``line``, or how it is refused (``framing.py``)."""
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError as exc:
        log.debug("refused a malformed line: %s", exc)
        return Refused(unreadable(line, _first_error(exc)))
    suspect = (b'"id"' in line if isinstance(message, types.JSONRPCNotification)  # an id the SDK dropped
               else b'"method"' in line if isinstance(message, types.JSONRPCResponse | types.JSONRPCError)
               else False)  # … or a request the SDK took for a response: either way nobody would answer it
    if suspect:
        answer = refusal(line)
        if answer is not None:
            return Refused(answer)
    return message


def _first_error(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        with contextlib.suppress(Exception):
            first = errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            return f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
    return str(exc).splitlines()[0]


_ID = re.compile(rb'"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})')


async def _skip_line(reader: asyncio.StreamReader) -> str | int | None:
    """Discard what is left of an over-long line, up to and including its newline; return the
    JSON-RPC id found near its start or its end (clients put it first or last), so the request can
    be answered instead of leaving its client waiting."""
    head = b""
    tail = b""
    while True:
        try:
            chunk = await reader.readuntil(b"\n")
            tail = (tail + chunk)[-4096:]
            break
        except asyncio.LimitOverrunError as exc:
            chunk = await reader.readexactly(exc.consumed)
        except asyncio.IncompleteReadError as end:
            tail = (tail + end.partial)[-4096:]
            break
        if len(head) < 4096:
            head += chunk[: 4096 - len(head)]
        tail = (tail + chunk)[-4096:]
    for part in (head, tail):
        found = _ID.search(part)
        if found is not None:
            try:
                value = json.loads(found.group(1))
            except ValueError:
                continue
            if isinstance(value, (str, int)):
                return value
    return None
