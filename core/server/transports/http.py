"""MCP over Streamable HTTP on 127.0.0.1: the hub that stdio servers bridge to.

Three checks wrap the SDK's app, before anything reaches MCP:
- ``Host`` must be ``127.0.0.1:<port>`` or ``localhost:<port>`` (DNS rebinding: a web page that
  resolves its own name to 127.0.0.1 still sends its own name here);
- an ``Origin``, when a browser sends one, must be a loopback origin;
- ``Authorization: Bearer <token>``, the token from the hub file only the user can read.

One path needs no token: ``/hello?nonce=…`` answers an HMAC of the nonce under the token, so a
client checks that the hub is really there before it sends the token (a port taken over by
another program after the hub died never sees it).

``serve_http`` runs uvicorn on a socket it binds itself (port 0 picks a free one), so the port is
known before the first request and can be published at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import anyio
import uvicorn
from mcp.server.transport_security import TransportSecuritySettings
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from core import __version__
from core.errors import Conflict
from core.memory import Memory
from core.server.transports import endpoint as hubfile
from core.server.transports import hook_route
from core.server.transports.app import build_server
from core.server.transports.connections import IDLE_TIMEOUT_S, bounded_protocol, connection_cap, listen_backlog
from core.server.transports.sessions import ClientTracker

log = logging.getLogger(__name__)

# The names this server answers to: it listens on 127.0.0.1 only.
SERVED_HOSTS = ("127.0.0.1", "localhost")
# Pages a browser may call it from (still with the token): any loopback origin.
LOOPBACK_ORIGINS = ("127.0.0.1", "localhost", "[::1]")
SHUTDOWN_GRACE_S = 1  # on stop, open requests get this long (uvicorn takes whole seconds)


class LocalOnly:
    """ASGI middleware: Host, Origin and bearer-token checks for a loopback-only server."""

    def __init__(self, app: ASGIApp, *, token: str, port: int) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()
        self._token = token
        self._port = port
        self._hosts = {f"{h}:{port}".encode() for h in SERVED_HOSTS}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # lifespan events carry no request
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        if scope["type"] == "http" and scope.get("path") == hubfile.HELLO_PATH:
            await self._hello(scope, receive, send, headers)
            return
        refusal = self._refusal(headers)
        if refusal is not None:
            status, message = refusal
            extra = {"WWW-Authenticate": "Bearer"} if status == 401 else None
            await JSONResponse({"error": message}, status_code=status, headers=extra)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    async def _hello(self, scope: Scope, receive: Receive, send: Send, headers: dict[bytes, bytes]) -> None:
        """Prove to a client that this is the hub (it knows the token) before the client sends it:
        an HMAC of the client's nonce. Host and Origin are checked as for any request."""
        refusal = self._refusal(headers, token_needed=False)
        nonce = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("nonce", [""])[0]
        if refusal is None and not 16 <= len(nonce) <= 256:
            refusal = (400, "Send a nonce of 16 to 256 characters.")
        if refusal is not None:
            await JSONResponse({"error": refusal[1]}, status_code=refusal[0])(scope, receive, send)
            return
        proof = hubfile.hub_proof(self._token, nonce, self._port)
        await JSONResponse({"server": "hipocampo", "proof": proof})(scope, receive, send)

    def _refusal(self, headers: dict[bytes, bytes], *, token_needed: bool = True) -> tuple[int, str] | None:
        if headers.get(b"host", b"").lower() not in self._hosts:
            return 421, "Misdirected request: this server answers only as 127.0.0.1 or localhost."
        origin = headers.get(b"origin")
        if origin is not None and not is_loopback_origin(origin.decode("latin-1")):
            return 403, "Forbidden origin: only pages served from this machine may call this server."
        if token_needed and not secrets.compare_digest(headers.get(b"authorization", b""), self._expected):
            return 401, "Missing or wrong bearer token (see the hub file, endpoint.json)."
        return None


def is_loopback_origin(origin: str) -> bool:
    """True for ``http(s)://127.0.0.1|localhost|[::1][:port]``; ``null`` and anything else is not."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.hostname in ("127.0.0.1", "localhost", "::1")


def build_http_app(
    memory: Memory, *, token: str, port: int, endpoint: dict[str, Any] | None = None,
    tracker: ClientTracker | None = None,
) -> ASGIApp:
    """The MCP server as an ASGI app at ``/mcp`` (plus ``/health``), behind ``LocalOnly``;
    ``tracker`` (inside the checks) records which clients are connected."""
    server = build_server(memory, endpoint={k: v for k, v in (endpoint or {}).items() if k != "token"})
    db = str(memory.settings.db)

    @server.custom_route(hubfile.HEALTH_PATH, methods=["GET"])  # type: ignore[untyped-decorator]  # the SDK's decorator is unannotated
    async def health(_request: Request) -> Response:
        return JSONResponse(
            {"ok": True, "server": "hipocampo", "version": __version__, "db": db, "pid": os.getpid()}
        )

    hook_route.register(server, memory)  # GET /brief for the clients' hooks (core/hooks.py)
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[f"{h}:{port}" for h in SERVED_HOSTS],
        allowed_origins=[f"{scheme}://{h}:*" for scheme in ("http", "https") for h in LOOPBACK_ORIGINS],
    )
    app: ASGIApp = server.streamable_http_app(streamable_http_path=hubfile.MCP_PATH, transport_security=security)
    if tracker is not None:
        app = tracker.wrap(app)
    return LocalOnly(app, token=token, port=port)


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> socket.socket:
    """A listening TCP socket on ``host:port`` (0: a free port, chosen by the OS)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if sys.platform != "win32":  # on Windows SO_REUSEADDR would let another process take the port
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(listen_backlog())
    return sock


class _Uvicorn(uvicorn.Server):
    """uvicorn that tells us when it accepts connections, and may leave signals to its host."""

    def __init__(
        self, config: uvicorn.Config, *, on_started: Callable[[], None], handle_signals: bool
    ) -> None:
        super().__init__(config)
        self._on_started = on_started
        self._handle_signals = handle_signals

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if not self.should_exit:
            self._on_started()

    # uvicorn's main loop wakes ten times a second to look at ``should_exit`` (and to refresh the
    # Date header): a hub that runs all day should cost nothing while nobody calls it. Here the
    # loop sleeps until ``should_exit`` is set, from whatever thread or signal handler sets it.
    @property
    def should_exit(self) -> bool:
        return getattr(self, "_exit_flag", False)

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        self._exit_flag = value
        waiting = getattr(self, "_exit_waiting", None)
        if value and waiting is not None:
            loop, event = waiting
            loop.call_soon_threadsafe(event.set)

    async def main_loop(self) -> None:
        event = asyncio.Event()
        self._exit_waiting: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = (asyncio.get_running_loop(), event)
        if not await self.on_tick(0):  # the Date header once, then only an exit wakes us
            await event.wait()
        self._exit_waiting = None

    def handle_exit(self, sig: int, frame: Any) -> None:
        # A clean stop gets a moment; then the lease is released and the process exits anyway
        # (a request stuck in the model or on a busy disk must not keep the hub up).
        if self._handle_signals:
            from core.server.transports.stdio import begin_stop

            begin_stop(sig)
        super().handle_exit(sig, frame)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        # The desktop app owns SIGINT/SIGTERM (and qasync has no add_signal_handler). When we do
        # handle them, unlike uvicorn we do not re-raise the signal afterwards: the caller's
        # clean-up (withdrawing the hub file) must run and the process exit normally.
        if not self._handle_signals or threading.current_thread() is not threading.main_thread():
            yield
            return
        originals = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in originals.items():
                signal.signal(sig, handler)


async def serve_http(
    memory: Memory,
    *,
    port: int = 0,
    hub_file: Path | None = None,
    handle_signals: bool = True,
    on_ready: Callable[[dict[str, Any]], None] | None = None,
    stop: anyio.Event | None = None,
    tracker: ClientTracker | None = None,
) -> None:
    """Serve ``memory`` over Streamable HTTP until stopped; publish the endpoint while running.

    ``on_ready`` gets the hub record (url, port, …, without the token) once connections are
    accepted. Set ``stop`` (or send SIGINT/SIGTERM when ``handle_signals``) to shut down
    gracefully: open requests finish, the hub file is withdrawn.
    """
    hub_file = hub_file or hubfile.endpoint_file()
    refuse_second_hub(hub_file)
    sock = bind_socket("127.0.0.1", port)
    bound = sock.getsockname()[1]
    token = hubfile.ensure_token(hub_file)
    info = {
        "port": bound,
        "url": f"http://127.0.0.1:{bound}{hubfile.MCP_PATH}",
        "db": str(memory.settings.db),
        "pid": os.getpid(),
        "endpoint_file": str(hub_file),
    }
    app = build_http_app(memory, token=token, port=bound, endpoint=info, tracker=tracker)

    def started() -> None:
        hubfile.publish(bound, str(memory.settings.db), path=hub_file)
        log.info("MCP over HTTP at %s (token in %s)", info["url"], hub_file)
        if on_ready is not None:
            on_ready(dict(info))

    cap = connection_cap()
    # No Date header: it would need a wake-up every second to stay true (a local endpoint, no caches).
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="on", date_header=False,
        http=bounded_protocol(cap),  # a connection cap and a header timeout (connections.py)
        limit_concurrency=cap + 1,  # requests in flight: never more than the connections kept
        timeout_keep_alive=IDLE_TIMEOUT_S, backlog=listen_backlog(),
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,  # then open requests and streams are cancelled
    )
    server = _Uvicorn(config, on_started=started, handle_signals=handle_signals)
    try:
        async with anyio.create_task_group() as tg:
            if stop is not None:

                async def stop_when_asked() -> None:
                    await stop.wait()
                    server.should_exit = True

                tg.start_soon(stop_when_asked)
            await server.serve(sockets=[sock])
            tg.cancel_scope.cancel()
    finally:
        hubfile.withdraw(hub_file)
        sock.close()


def refuse_second_hub(hub_file: Path | None = None) -> None:
    """One hub per user, so its endpoint file always describes the live one: Conflict if one runs."""
    hub_file = hub_file or hubfile.endpoint_file()
    other = hubfile.running_hub(hub_file)
    if other is not None:
        raise Conflict(
            f"A Hipocampo hub is already running (pid {other.get('pid')}, port {other.get('port')}) for "
            f"{other.get('db')}; clients reach it through {hub_file}. Stop it first to start another."
        )


def print_ready(info: dict[str, Any]) -> None:
    """``on_ready`` for the command line: one JSON line on stdout (for scripts and tests), and a
    sentence on stderr for the person who started it."""
    print(json.dumps(info), flush=True)
    print(
        f"hipocampo: MCP over HTTP at {info['url']} (bearer token in {info['endpoint_file']})",
        file=sys.stderr,
        flush=True,
    )
