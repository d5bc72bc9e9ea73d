"""Which MCP clients use the hub: an ASGI middleware that notes who sends each request.

Clients name themselves with ``clientInfo``: on every request's ``_meta`` in the stateless protocol
(2026-07-28 and later: ``io.modelcontextprotocol/clientInfo``), or once in ``initialize`` for older
clients, which then send an ``mcp-session-id`` header (remembered here) and end with ``DELETE``.
The tracker keeps, per client name, when it was first and last heard from and how many requests
it made, so the app and ``status`` can say "3 assistants: claude-ai, cursor, opencode".
The body is only searched (C-speed), never parsed: the hub runs on the app's GUI thread.

Stateless clients send no ``DELETE``: they would count for ``IDLE_SECONDS`` after leaving. The
stdio bridge (what an assistant's ``hipocampo mcp`` is while the app runs) names itself in a
header on every request and says goodbye when its assistant leaves; a client whose bridges have
all said goodbye no longer counts.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_HEADER = b"mcp-session-id"
BRIDGE_HEADER = "x-hipocampo-bridge"  # one bridge process (a random id), on each of its requests
GOODBYE_HEADER = "x-hipocampo-goodbye"  # on the bridge's last request, a DELETE: its client left
IDLE_SECONDS = 15 * 60  # a client silent this long, with no open request, no longer counts
_PEEK_LIMIT = 4 * 1024 * 1024  # larger bodies are not searched
_CLIENT_INFO = re.compile(rb'clientInfo"\s*:\s*\{[^{}]*?"name"\s*:\s*"((?:[^"\\]|\\.){1,200})"')


@dataclass
class ClientSession:
    """One assistant seen by the hub (all its processes and sessions together)."""

    name: str
    first_seen: float
    last_seen: float
    requests: int = 0
    open_requests: int = 0
    bridges: set[str] = field(default_factory=set)  # the bridges it talks through now


class ClientTracker:
    """ASGI middleware recording which MCP clients talk to the app it wraps (thread-safe reads)."""

    def __init__(self, app: ASGIApp | None = None, *, clock: Any = time.time) -> None:
        self.app = app
        self._clock = clock
        self._lock = threading.Lock()
        self._clients: dict[str, ClientSession] = {}
        self._sessions: dict[str, str] = {}  # mcp-session-id → client name (older protocol)

    def wrap(self, app: ASGIApp) -> ClientTracker:
        self.app = app
        return self

    def connected(self) -> list[ClientSession]:
        """Clients with a request open or heard from within ``IDLE_SECONDS``, first seen first."""
        now = self._clock()
        with self._lock:
            live = [c for c in self._clients.values() if c.open_requests > 0 or now - c.last_seen < IDLE_SECONDS]
        return sorted(live, key=lambda c: c.first_seen)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert self.app is not None, "ClientTracker.wrap(app) first"
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        sid = headers.get(SESSION_HEADER, b"").decode("latin-1") or None
        bridge = headers.get(BRIDGE_HEADER.encode(), b"").decode("latin-1")[:64] or None
        if scope.get("method") == "DELETE" and bridge and headers.get(GOODBYE_HEADER.encode()):
            self._bridge_left(bridge)
            await send({"type": "http.response.start", "status": 204, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        if scope.get("method") == "DELETE" and sid:
            self._ended(sid)
            await self.app(scope, receive, send)
            return
        name = self._sessions.get(sid) if sid else None
        body = bytearray()
        state: dict[str, str | None] = {"name": name}
        counted = [False]  # set inside begin(), read in the finally below

        def begin(client: str) -> None:
            state["name"] = client
            self._seen(client, +1, bridge)
            counted[0] = True

        if name is not None:
            begin(name)

        async def peek_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request" and state["name"] is None and len(body) < _PEEK_LIMIT:
                body.extend(message.get("body", b""))
                if not message.get("more_body", False):
                    found = _client_name(bytes(body))
                    if found is not None:
                        begin(found)
            return message

        async def watch_send(message: Message) -> None:
            if message["type"] == "http.response.start" and state["name"] is not None:
                new_sid = dict(message.get("headers", [])).get(SESSION_HEADER)
                if new_sid:
                    with self._lock:
                        self._sessions[new_sid.decode("latin-1")] = state["name"]
            await send(message)

        try:
            await self.app(scope, peek_receive if scope.get("method") == "POST" else receive, watch_send)
        finally:
            counted_name = state["name"]
            if counted[0] and counted_name is not None:
                self._seen(counted_name, -1)

    def _seen(self, name: str, delta: int, bridge: str | None = None) -> None:
        now = self._clock()
        with self._lock:
            client = self._clients.get(name)
            if client is None:
                client = self._clients[name] = ClientSession(name, now, now)
            if bridge is not None and delta > 0:
                client.bridges.add(bridge)
            client.last_seen = now
            client.open_requests = max(0, client.open_requests + delta)
            if delta > 0:
                client.requests += 1

    def _bridge_left(self, bridge: str) -> None:
        with self._lock:
            for name, client in list(self._clients.items()):
                if bridge in client.bridges:
                    client.bridges.discard(bridge)
                    if not client.bridges and client.open_requests == 0 and name not in self._sessions.values():
                        del self._clients[name]

    def _ended(self, sid: str) -> None:
        with self._lock:
            name = self._sessions.pop(sid, None)
            if name is not None and name not in self._sessions.values():
                client = self._clients.get(name)
                if client is not None and client.open_requests == 0:
                    del self._clients[name]


def _client_name(body: bytes) -> str | None:
    """The ``clientInfo.name`` a JSON-RPC request body carries, if any."""
    at = body.find(b"clientInfo")
    if at < 0:
        return None
    match = _CLIENT_INFO.search(body, max(0, at - 40))
    if match is None:
        return None
    try:
        name = json.loads(b'"' + match.group(1) + b'"')
    except ValueError:
        return None
    name = name.strip()[:100] if isinstance(name, str) else ""
    return name or None
