"""Which MCP clients are connected to the hub: an ASGI middleware that watches sessions go by.

Streamable HTTP names each client session with an ``mcp-session-id`` header: the server hands it
out in its answer to ``initialize`` and the client sends it on every later request, and a
``DELETE`` ends it. The tracker remembers, per session, the client's name (from the
``initialize`` request's ``clientInfo``), when it connected and when it was last heard from, so the
desktop app and ``status`` can say "3 clients: claude-ai, cursor, opencode".
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

SESSION_HEADER = b"mcp-session-id"
IDLE_SECONDS = 15 * 60  # a session silent this long, with no open stream, no longer counts
_PEEK_LIMIT = 256 * 1024  # initialize requests are small; bigger bodies are never parsed


@dataclass
class ClientSession:
    """One connected client session."""

    session_id: str
    name: str
    version: str
    connected_at: float
    last_seen: float
    open_requests: int = 0


class ClientTracker:
    """ASGI middleware recording the MCP sessions that pass through it (thread-safe reads)."""

    def __init__(self, app: ASGIApp | None = None, *, clock: Any = time.time) -> None:
        self.app = app
        self._clock = clock
        self._lock = threading.Lock()
        self._sessions: dict[str, ClientSession] = {}

    def wrap(self, app: ASGIApp) -> ClientTracker:
        self.app = app
        return self

    def connected(self) -> list[ClientSession]:
        """Live sessions, oldest first: an open stream, or heard from within ``IDLE_SECONDS``."""
        now = self._clock()
        with self._lock:
            live = [s for s in self._sessions.values()
                    if s.open_requests > 0 or now - s.last_seen < IDLE_SECONDS]
        return sorted(live, key=lambda s: s.connected_at)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert self.app is not None, "ClientTracker.wrap(app) first"
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        sid = headers.get(SESSION_HEADER, b"").decode("latin-1") or None
        method = scope.get("method", "")
        if sid and method == "DELETE":
            with self._lock:
                self._sessions.pop(sid, None)
            await self.app(scope, receive, send)
            return

        body = bytearray()
        client: dict[str, str] | None = None

        async def peek_receive() -> Message:
            nonlocal client
            message = await receive()
            if message["type"] == "http.request" and client is None and len(body) < _PEEK_LIMIT:
                body.extend(message.get("body", b""))
                if not message.get("more_body", False):
                    client = _initialize_client(bytes(body))
            return message

        async def watch_send(message: Message) -> None:
            if message["type"] == "http.response.start" and client is not None:
                new_sid = dict(message.get("headers", [])).get(SESSION_HEADER)
                if new_sid:
                    self._opened(new_sid.decode("latin-1"), client)
            await send(message)

        self._touch(sid, +1)
        try:
            await self.app(scope, peek_receive if method == "POST" else receive, watch_send)
        finally:
            self._touch(sid, -1)

    def _opened(self, sid: str, client: dict[str, str]) -> None:
        now = self._clock()
        with self._lock:
            self._sessions[sid] = ClientSession(sid, client["name"], client["version"], now, now)

    def _touch(self, sid: str | None, delta: int) -> None:
        if sid is None:
            return
        with self._lock:
            session = self._sessions.get(sid)
            if session is not None:
                session.last_seen = self._clock()
                session.open_requests = max(0, session.open_requests + delta)


def _initialize_client(body: bytes) -> dict[str, str] | None:
    """``clientInfo`` of an ``initialize`` request body, or None for any other body."""
    if b"initialize" not in body:
        return None
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("method") != "initialize":
        return None
    params = message.get("params")
    info = params.get("clientInfo") if isinstance(params, dict) else None
    info = info if isinstance(info, dict) else {}
    name = info.get("name")
    version = info.get("version")
    return {"name": name.strip()[:100] if isinstance(name, str) and name.strip() else "unknown client",
            "version": version[:50] if isinstance(version, str) else ""}
