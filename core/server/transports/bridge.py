"""The stdio↔hub bridge: a stdio MCP server that forwards to the running hub over HTTP.

When the desktop app (or ``hipocampo mcp --http``) serves the same database, every stdio server an
MCP client spawns forwards its tools and resources there, so one process holds the model and the
GUI sees each change as it happens. The upstream connection is opened on the first request, with
the downstream client's own clientInfo, so change_log still names the assistant that wrote.

If the hub cannot be reached, or stops answering, the bridge opens the database itself and
carries on; a call that was in flight when the hub went away is reported as an error (it may or
may not have been applied), never retried behind the model's back.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit

import anyio
import httpx2
import mcp_types as types
from anyio.abc import TaskGroup
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.server.subscriptions import ListenHandler
from mcp.shared.exceptions import MCPError

from core import __version__
from core.memory import Memory
from core.server.fast.front import Front
from core.server.tools.state import FALLBACK_ACTOR, start_background
from core.server.transports.app import INSTRUCTIONS, SERVER_NAME, build_server
from core.server.transports.endpoint import HEALTH_PATH
from core.server.transports.pipes import pipe_stdio, pipes_usable
from core.server.transports.sessions import BRIDGE_HEADER, GOODBYE_HEADER
from core.server.transports.subscriptions import Follow, FollowBus, notifying
from core.settings import Settings

log = logging.getLogger(__name__)

UPSTREAM_TIMEOUT_S = 300.0  # reflect or a big import can take a while, on a hub that is alive
HUB_SILENCE_S = 3.0  # a call unanswered this long: the bridge asks the hub whether it is alive
HEALTH_TIMEOUT_S = 2.0  # … and a hub that does not answer that within this long is taken as hung
# Tools that only read: when the hub stops answering, these are asked again of the file itself.
READ_TOOLS = frozenset({"read_graph", "search_nodes", "open_nodes", "search_semantic", "entity_history",
                        "engrama_search", "engrama_context", "engrama_surface_insights", "engrama_status",
                        "brief"})
ClientFactory = Callable[[types.Implementation], AbstractAsyncContextManager[Client]]
T = TypeVar("T")


class Upstream:
    """The one connection requests are forwarded on: the hub, else the database in-process.

    The connection is entered and left by a task of its own (anyio scopes must close in the task
    that opened them); requests only borrow it.
    """

    def __init__(self, hub: dict[str, Any], settings: Settings, tg: TaskGroup) -> None:
        self._hub = hub
        self._settings = settings
        self._tg = tg
        self._lock = anyio.Lock()
        self._client: Client | None = None
        self._release = anyio.Event()
        self.local = False

    async def client(self, info: types.Implementation) -> Client:
        """The live connection, opened on first use (hub first, then in-process)."""
        async with self._lock:
            if self._client is not None:
                return self._client
            error: BaseException | None = None
            for use_local in (True,) if self.local else (False, True):
                ready = anyio.Event()
                self._release = anyio.Event()
                factory = self._local_client if use_local else self._hub_client
                outcome: dict[str, BaseException] = {}
                self._tg.start_soon(self._hold, factory, info, ready, self._release, outcome)
                await ready.wait()
                if self._client is not None:
                    return self._client
                error = outcome.get("error")
                if not use_local and error is not None and not is_connection_error(error):
                    raise error  # the hub answered, with an error: not a reason to go around it
                if not use_local:
                    log.warning(
                        "The Hipocampo hub at %s cannot be reached (%s); using %s directly.",
                        self._hub.get("url"),
                        error,
                        self._settings.db,
                    )
                    self.local = True
            assert error is not None
            raise error

    async def alive(self) -> bool:
        """Whether the hub answers its health check now (a hub that is frozen, stopped or swamped
        does not: its calls are not waited for any longer)."""
        parts = urlsplit(str(self._hub.get("url", "")))
        url = f"{parts.scheme}://{parts.netloc}{HEALTH_PATH}"
        try:
            async with httpx2.AsyncClient(timeout=HEALTH_TIMEOUT_S) as http:
                response = await http.get(url, headers={"Authorization": f"Bearer {self._hub['token']}"})
        except (httpx2.HTTPError, OSError):
            return False
        return response.status_code == 200

    def broken(self) -> None:
        """The hub stopped answering: drop the connection; the next request opens the database."""
        if not self.local:
            log.warning(
                "The Hipocampo hub stopped answering; using %s directly from now on.", self._settings.db
            )
        self.local = True
        self._client = None
        self._release.set()

    def close(self) -> None:
        self._client = None
        self._release.set()

    async def _hold(
        self,
        factory: ClientFactory,
        info: types.Implementation,
        ready: anyio.Event,
        release: anyio.Event,
        outcome: dict[str, BaseException],
    ) -> None:
        try:
            async with factory(info) as client:
                if release.is_set():  # given up on while it connected (a hung hub): not to be used
                    return
                self._client = client
                ready.set()
                await release.wait()
        except Exception as exc:  # reported to the waiting request, or logged if it came later
            outcome["error"] = exc
            if ready.is_set():
                log.info("Upstream connection closed: %r", exc)
        finally:
            ready.set()

    @asynccontextmanager
    async def _hub_client(self, info: types.Implementation) -> AsyncIterator[Client]:
        # BRIDGE_HEADER names this bridge, so the hub can count its client as gone when it says goodbye
        # (the stateless protocol has no session to end); see core.server.transports.sessions.
        headers = {"Authorization": f"Bearer {self._hub['token']}", BRIDGE_HEADER: uuid.uuid4().hex}
        timeout = httpx2.Timeout(10.0, read=UPSTREAM_TIMEOUT_S)
        async with httpx2.AsyncClient(headers=headers, timeout=timeout) as http:
            transport = streamable_http_client(self._hub["url"], http_client=http)
            try:
                async with Client(
                    transport, client_info=info, read_timeout_seconds=UPSTREAM_TIMEOUT_S, cache=None
                ) as client:
                    yield client
            finally:
                with anyio.move_on_after(2), contextlib.suppress(httpx2.HTTPError, OSError):
                    await http.delete(self._hub["url"], headers={GOODBYE_HEADER: "1"})

    @asynccontextmanager
    async def _local_client(self, info: types.Implementation) -> AsyncIterator[Client]:
        with Memory(self._settings) as memory:
            start_background(memory)
            async with Client(build_server(memory), client_info=info, cache=None) as client:
                yield client


def _client_info(ctx: ServerRequestContext[Upstream]) -> types.Implementation:
    params = ctx.session.client_params
    if params is not None and params.client_info is not None:
        return params.client_info
    return types.Implementation(name=FALLBACK_ACTOR, version="")


def _failure(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)], is_error=True)


def is_connection_error(exc: BaseException) -> bool:
    """True when ``exc`` says the hub cannot be reached (refused, reset, timed out, closed),
    also inside the exception groups task groups raise; False for anything the hub answered."""
    if isinstance(exc, BaseExceptionGroup):
        return all(is_connection_error(e) for e in exc.exceptions)
    if isinstance(exc, MCPError):
        return exc.code == types.CONNECTION_CLOSED
    return isinstance(exc, (httpx2.TransportError, OSError, anyio.BrokenResourceError,
                            anyio.ClosedResourceError, anyio.EndOfStream))


class HubLost(Exception):
    """The hub went away while a request was on its way; it may or may not have been applied."""


class HubHung(Exception):
    """The hub stopped answering (not even its health check) while a request was on its way."""


async def _watched(upstream: Upstream, work: Callable[[], Awaitable[T]]) -> T:
    """``work()``, unless the hub stops answering meanwhile: every ``HUB_SILENCE_S`` without an
    answer the hub's health is checked, and a hub that does not answer it raises ``HubHung`` (a slow
    call on a live hub, reflect or a big import, is waited for)."""
    if upstream.local:
        return await work()
    outcome: dict[str, Any] = {}
    async with anyio.create_task_group() as tg:

        async def run() -> None:
            try:
                outcome["value"] = await work()
            except Exception as exc:  # re-raised below, as it is (not inside an exception group)
                outcome["error"] = exc
            tg.cancel_scope.cancel()

        tg.start_soon(run)
        while True:
            await anyio.sleep(HUB_SILENCE_S)
            if not await upstream.alive():
                outcome["hung"] = True
                tg.cancel_scope.cancel()
                break
    if "hung" in outcome and "value" not in outcome:
        raise HubHung(f"no answer from the hub at {upstream._hub.get('url')} for {HUB_SILENCE_S:.0f} s, "
                      "nor to its health check")
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value


async def _forward(
    ctx: ServerRequestContext[Upstream], call: Callable[[Client], Awaitable[T]], *, retry: bool
) -> T:
    """Run ``call`` on the upstream connection.

    When the hub stops answering, the bridge switches to the database in-process; ``retry``
    (reads only) then runs ``call`` again there, otherwise ``HubLost`` is raised. Errors the hub
    itself answered with pass through unchanged.
    """
    upstream = ctx.lifespan_context

    async def work() -> T:
        return await call(await upstream.client(_client_info(ctx)))

    try:
        return await _watched(upstream, work)
    except HubHung as exc:
        lost: Exception = exc
    except MCPError as exc:
        if exc.code != types.CONNECTION_CLOSED:
            raise
        lost = exc
    except Exception as exc:
        if not is_connection_error(exc):
            raise
        lost = exc  # the transport failed (connection refused, reset …)
    upstream.broken()
    if not retry:
        raise HubLost(repr(lost)) from lost
    return await call(await upstream.client(_client_info(ctx)))


def build_bridge(hub: dict[str, Any], settings: Settings) -> Server[Upstream]:
    """A stdio-facing server that forwards tools and resources to ``hub`` (see the module doc).

    Subscriptions are not forwarded: the bridge follows the file itself (``Follow``, on a memory
    without embeddings it opens once somebody subscribes), so it notices the hub's writes and everybody else's."""
    bus = FollowBus()
    follow = Follow(lambda: Memory(settings.model_copy(update={"embeddings": "none", "backup_keep": 0})), bus)

    @asynccontextmanager
    async def lifespan(_server: Server[Upstream]) -> AsyncIterator[Upstream]:
        async with anyio.create_task_group() as tg:
            upstream = Upstream(hub, settings, tg)
            try:
                yield upstream
            finally:
                upstream.close()
                follow.close()

    async def list_tools(
        ctx: ServerRequestContext[Upstream], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return await _forward(
            ctx, lambda c: c.list_tools(cursor=params.cursor if params else None), retry=True
        )

    async def call_tool(
        ctx: ServerRequestContext[Upstream], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        try:
            return await _forward(
                ctx, lambda c: c.call_tool(params.name, params.arguments or {}), retry=params.name in READ_TOOLS
            )
        except HubLost as exc:
            return _failure(
                f"The Hipocampo hub (the app, or `hipocampo mcp --http`) stopped answering during "
                f"{params.name} ({exc.__cause__ or exc}); it may or may not have been applied, and it was not sent "
                "again. Check with a read before retrying; further calls use the memory file directly."
            )

    async def list_resources(
        ctx: ServerRequestContext[Upstream], params: types.PaginatedRequestParams | None
    ) -> types.ListResourcesResult:
        return await _forward(
            ctx, lambda c: c.list_resources(cursor=params.cursor if params else None), retry=True
        )

    async def list_templates(
        ctx: ServerRequestContext[Upstream], params: types.PaginatedRequestParams | None
    ) -> types.ListResourceTemplatesResult:
        return await _forward(
            ctx, lambda c: c.list_resource_templates(cursor=params.cursor if params else None), retry=True
        )

    async def read_resource(
        ctx: ServerRequestContext[Upstream], params: types.ReadResourceRequestParams
    ) -> types.ReadResourceResult:
        return await _forward(ctx, lambda c: c.read_resource(str(params.uri)), retry=True)

    async def list_prompts(
        ctx: ServerRequestContext[Upstream], params: types.PaginatedRequestParams | None
    ) -> types.ListPromptsResult:
        return await _forward(ctx, lambda c: c.list_prompts(cursor=params.cursor if params else None), retry=True)

    async def get_prompt(
        ctx: ServerRequestContext[Upstream], params: types.GetPromptRequestParams
    ) -> types.GetPromptResult:
        return await _forward(ctx, lambda c: c.get_prompt(params.name, params.arguments), retry=True)

    server = Server(
        SERVER_NAME,
        version=__version__,
        title="Hipocampo memory",
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
        on_list_resources=list_resources,
        on_list_resource_templates=list_templates,
        on_read_resource=read_resource,
        on_list_prompts=list_prompts,  # the same capabilities as the hub's (and as front.py's answers)
        on_get_prompt=get_prompt,
        on_subscriptions_listen=ListenHandler(bus),
    )
    follow.register(server)
    notifying(server)
    return server


async def run_bridge(hub: dict[str, Any], settings: Settings, front: Front | None = None) -> None:
    """Serve the bridge on this process's stdin/stdout until the client goes away; ``front``: the
    early answers given so far (front.py), which the SDK's session takes over from."""
    server = build_bridge(hub, settings)
    if front is not None:
        transport = pipe_stdio(settings.max_request_bytes, wire=front.wire, handover=front.handover())
    else:
        transport = pipe_stdio(settings.max_request_bytes) if pipes_usable() else stdio_server()
    async with transport as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())
