"""Change notifications: telling a client that what it follows has changed, in both protocol eras.

- 2025-era sessions send ``resources/subscribe`` (and ``unsubscribe``) for a URI and get
  ``notifications/resources/updated`` on that session; ``notifications/resources/list_changed`` goes
  to every session that subscribed to anything.
- 2026-07-28 sessions open ``subscriptions/listen`` (the SDK's ``ListenHandler``) with
  ``resourceSubscriptions`` and ``resourcesListChanged``; events go through ``FollowBus``.

What changed is found the same way whoever wrote it (this process, the hub, another process on the
same file, the app): ``Follow`` polls the memory's cheap stamps (``data_version``, the newest
change_log id, the pins) every ``POLL_S`` while anybody follows something, and when they moved reads
the new change_log rows (which entities they touched: ``memory://entity/{name}``; any change:
``memory://knowledge-graph``), builds the brief again (``memory://brief``, announced only if its
text differs) and the resource list (the pinned entities: ``list_changed`` when it differs).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import weakref
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import mcp_types as types
from mcp.server.subscriptions import InMemorySubscriptionBus
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated, ServerEvent

from core.history.changes import touched_names
from core.server.tools.registry import TOOL_THREADS

log = logging.getLogger(__name__)

POLL_S = 0.5  # how often the stamps are read while somebody follows something (three cheap reads)
GRAPH_URI = "memory://knowledge-graph"
BRIEF_URI = "memory://brief"
ENTITY_PREFIX = "memory://entity/"


def entity_uri(name: str) -> str:
    """The resource of entity ``name`` (percent-encoded: names hold spaces, slashes, anything)."""
    return ENTITY_PREFIX + quote(name, safe="")


class FollowBus(InMemorySubscriptionBus):
    """The SDK's in-process bus, which also says whether any listen stream is open."""

    follow: Follow | None = None  # set by the Follow that uses this bus

    def active(self) -> bool:
        return bool(self._listeners)

    def subscribe(self, listener: Callable[[ServerEvent], None]) -> Callable[[], None]:
        unsubscribe = super().subscribe(listener)
        follow = self.follow
        if follow is not None:  # called before the listen stream is acknowledged: the baseline is taken now
            follow.baseline()
            follow.wake()
        return unsubscribe


class Follow:
    """Who follows what in one server process, and the task that tells them when it changes.

    ``memory`` is the Memory, or a function that opens one on first use (the stdio bridge, which
    forwards everything else to the hub, only opens the file once somebody follows something)."""

    def __init__(self, memory: Any, bus: FollowBus) -> None:
        self._memory = memory if not callable(memory) else None
        self._open = memory if callable(memory) else None
        self.bus = bus
        bus.follow = self
        self.sessions: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
        self._task: asyncio.Task[None] | None = None
        self._stamp: Any = None
        self._last_change = 0
        self._brief_hash = ""
        self._listed: list[str] | None = None
        self.nudged: asyncio.Event | None = None  # created on the loop, in wake()

    # -- the 2025-era requests ---------------------------------------------------------------

    async def subscribe(self, ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        self.sessions.setdefault(_connection(ctx), set()).add(str(params.uri))
        if self._stamp is None:
            await asyncio.get_running_loop().run_in_executor(TOOL_THREADS, self.baseline)
        self.wake()
        return types.EmptyResult()

    async def unsubscribe(self, ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        uris = self.sessions.get(_connection(ctx))
        if uris is not None:
            uris.discard(str(params.uri))
        return types.EmptyResult()

    def register(self, lowlevel: Any) -> None:
        """Serve ``resources/subscribe`` / ``unsubscribe`` on ``lowlevel`` (a lowlevel ``Server``)."""
        lowlevel.add_request_handler("resources/subscribe", types.SubscribeRequestParams, self.subscribe)
        lowlevel.add_request_handler("resources/unsubscribe", types.UnsubscribeRequestParams, self.unsubscribe)

    # -- the task ------------------------------------------------------------------------------

    def following(self) -> bool:
        return self.bus.active() or any(self.sessions.values())

    def wake(self) -> None:
        """Somebody follows something now: make sure the task runs, and look at once."""
        with contextlib.suppress(RuntimeError):  # no running loop: the next request starts it
            loop = asyncio.get_running_loop()
            if self.nudged is None:
                self.nudged = asyncio.Event()
            self.nudged.set()
            if self._task is None or self._task.done():
                self._task = loop.create_task(self._run(), name="hipocampo-follow")

    def poke(self) -> None:
        """This process changed something (a pin, say): look now rather than at the next tick."""
        if self.nudged is not None:
            self.nudged.set()

    async def _run(self) -> None:
        try:
            while self.following():
                try:  # on the tools' threads: anyio's would start a thread per look on the app's qasync loop
                    events = await asyncio.get_running_loop().run_in_executor(TOOL_THREADS, self._changes)
                except Exception:  # the memory closing, a busy file: the next tick tries again
                    log.debug("change check failed", exc_info=True)
                    events = []
                for event in events:
                    await self._deliver(event)
                assert self.nudged is not None
                self.nudged.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.nudged.wait(), POLL_S)
        finally:
            self._task = None

    def memory(self) -> Any:
        if self._memory is None and self._open is not None:
            self._memory = self._open()
        return self._memory

    def close(self) -> None:
        """Close a memory this opened itself."""
        if self._open is not None and self._memory is not None:
            self._memory.close()
            self._memory = None

    def _wanted(self) -> set[str]:
        return set().union(*self.sessions.values()) if self.sessions else set()

    def _stamps(self) -> tuple[Any, ...]:
        memory = self.memory()
        return (memory.data_version(), memory.latest_change_id(), tuple(memory.graph.pins()))

    def baseline(self) -> None:
        """Where things are now: changes are announced from here on (taken when the first client
        starts following, before its subscription is answered, so nothing written after is missed)."""
        if self._stamp is not None:
            return
        try:
            self._stamp = self._stamps()
            self._last_change = self._stamp[1]
            self._listed = listed_uris(self.memory())
        except Exception:  # the memory cannot be read now: the first tick takes the baseline instead
            log.debug("no baseline yet", exc_info=True)
            self._stamp = None

    def _changes(self) -> list[ServerEvent]:
        """What changed since the last look (on a worker thread)."""
        memory = self.memory()
        if self._stamp is None:
            self.baseline()
            return []
        stamp = self._stamps()
        if stamp == self._stamp and self._last_change == stamp[1]:  # (a long batch is read 2,000 rows a look)
            return []
        self._stamp = stamp
        events: list[ServerEvent] = []
        rows = memory.changes_since(self._last_change, limit=2000) if stamp[1] != self._last_change else []
        if rows:
            self._last_change = rows[-1].id
            events.append(ResourceUpdated(uri=GRAPH_URI))
            events += [ResourceUpdated(uri=entity_uri(n)) for n in sorted(touched_names(rows))]
        digest = _digest(memory.brief().text)  # the first change after the baseline always announces it
        if digest != self._brief_hash:
            self._brief_hash = digest
            events.append(ResourceUpdated(uri=BRIEF_URI))
        listed = listed_uris(memory)
        if listed != self._listed:
            self._listed = listed
            events.append(ResourcesListChanged())
        return events

    async def _deliver(self, event: ServerEvent) -> None:
        await self.bus.publish(event)
        for session, uris in list(self.sessions.items()):
            if isinstance(event, ResourceUpdated) and event.uri not in uris:
                continue
            if isinstance(event, ResourcesListChanged) and not uris:
                continue
            try:
                if isinstance(event, ResourceUpdated):
                    await session.send_resource_updated(event.uri)
                else:
                    await session.send_resource_list_changed()
            except Exception:  # that client went away: forget it
                log.debug("dropping a subscriber that cannot be reached", exc_info=True)
                self.sessions.pop(session, None)


def notifying(lowlevel: Any) -> None:
    """Make ``lowlevel`` (a lowlevel ``Server``) advertise ``resources.listChanged`` to 2025-era
    sessions as well (2026-era capabilities follow from ``subscriptions/listen`` by themselves)."""
    from mcp.server.lowlevel.server import NotificationOptions, Server

    def options(notification_options: Any = None, *args: Any, **kwargs: Any) -> Any:
        return Server.create_initialization_options(
            lowlevel, notification_options or NotificationOptions(resources_changed=True), *args, **kwargs)

    lowlevel.create_initialization_options = options


def listed_uris(memory: Any) -> list[str]:
    """The entity resources resources/list shows: the pinned entities."""
    return sorted(dict.fromkeys(entity_uri(p["name"]) for p in memory.pins()))


def _connection(ctx: Any) -> Any:
    """The client's connection a request came on (the SDK makes a new ``ServerSession`` per request;
    the connection lasts, and can send notifications outside any request)."""
    return getattr(ctx.session, "_connection", ctx.session)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
