"""The hub's HTTP connections, bounded: a cap below the descriptor limit, header and idle timeouts.

Any local process can connect to the hub's port, token or not. Without bounds, a few hundred
sockets that never send a request hold the hub's file descriptors until none is left for the
assistants (at a 1,024-descriptor limit, 1,100 idle sockets made every request time out), and a
socket that sends its headers a byte at a time is kept for as long as it likes.

``BoundedH11`` is uvicorn's h11 protocol with three rules:
- a connection must send its request's headers within ``HEADER_TIMEOUT_S`` of opening (or of the
  previous answer); an idle keep-alive connection is closed after uvicorn's ``timeout_keep_alive``;
- at most ``connection_cap()`` connections are open: a new one past the cap closes the oldest that
  is not being answered (a socket that never sent a request goes first), so a held-open flood
  cannot keep an assistant out; if every connection is being answered, the new one is closed;
- shutting down closes whatever is open without waiting on a half-sent request.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

HEADER_TIMEOUT_S = 10.0  # to send a request's headers (slow-header sockets are closed after this)
IDLE_TIMEOUT_S = 5  # uvicorn's timeout_keep_alive: an idle connection between requests
MAX_BACKLOG = 128  # connections the kernel queues before they are accepted
RESERVED_FDS = 96  # the database and its -wal/-shm per connection, the model, pipes, logs
MAX_CONNECTIONS = 512  # far more than the assistants of one person need


def listen_backlog(soft_limit: int | None = None) -> int:
    """The listen queue: asyncio accepts up to this many connections at once, each a descriptor
    before the cap can close any, so a small descriptor limit gets a short queue."""
    limit = _descriptor_limit() if soft_limit is None else soft_limit
    return max(16, min(MAX_BACKLOG, limit // 8))


def connection_cap(soft_limit: int | None = None) -> int:
    """How many connections the hub keeps open at most: below this process's descriptor limit,
    leaving room for the memory's own files and for what a flood has accepted but not yet closed
    (up to three accept batches: one being accepted, one being closed, one closing)."""
    limit = _descriptor_limit() if soft_limit is None else soft_limit
    return max(8, min(MAX_CONNECTIONS, limit - 3 * listen_backlog(limit) - RESERVED_FDS))


def _descriptor_limit() -> int:
    if sys.platform == "win32":  # no RLIMIT_NOFILE; sockets are not counted against a small limit
        return 4096
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class BoundedH11(H11Protocol):
    """uvicorn's h11 protocol with a connection cap and a header timeout (see the module docstring)."""

    cap: ClassVar[int] = MAX_CONNECTIONS
    header_timeout: ClassVar[float] = HEADER_TIMEOUT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._opened = 0.0
        self._header_timer: asyncio.TimerHandle | None = None
        self._served = 0  # answers completed on this connection

    # asyncio gives a stream server's protocol an asyncio.Transport; typeshed types the base method's
    # argument as BaseTransport, so the narrower one here is an [override] mypy cannot see is safe.
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._opened = self.loop.time()
        self._arm_header_timer()
        if len(self.connections) > self.cap:
            self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_timer()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        self._served += 1
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_header_timer()  # the next request's headers get the same time

    def shutdown(self) -> None:
        """Close at once unless an answer is being written (that one ends the connection after it)."""
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.keep_alive = False
            return
        self._close()

    @property
    def answering(self) -> bool:
        """True while a request on this connection is being answered."""
        return self.cycle is not None and not self.cycle.response_complete

    def _make_room(self) -> None:
        live = [c for c in self.connections if isinstance(c, BoundedH11) and not c.transport.is_closing()]
        excess = len(live) - self.cap
        if excess <= 0:
            return
        idle = [c for c in live if c is not self and not c.answering]
        idle.sort(key=lambda c: (c._served > 0, c._opened))  # never-served sockets first, oldest first
        for connection in idle[:excess]:
            connection._close()
        _Flood.note(len(live), evicted=min(excess, len(idle)))
        if len(idle) < excess:  # every other connection is being answered: this one is refused
            self._close()

    def _arm_header_timer(self) -> None:
        self._disarm_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.answering:  # no whole request arrived in time: a slow or silent socket
            self._close()

    def _close(self) -> None:
        self._disarm_header_timer()
        if self.transport.is_closing():
            return
        try:
            self.conn.send(h11.ConnectionClosed())
        except h11.LocalProtocolError:  # half a request read: nothing to say, just close
            pass
        self.transport.close()


class _Flood:
    """One warning per burst of connections past the cap, not one per connection."""

    warned_at = -1e9
    dropped = 0

    @classmethod
    def note(cls, live: int, evicted: int) -> None:
        cls.dropped += max(evicted, 1)
        now = asyncio.get_running_loop().time()
        if now - cls.warned_at >= 60:
            cls.warned_at = now
            log.warning("the hub is at its cap of open connections (%d); closing the oldest idle ones "
                        "(%d so far): is a local program holding connections open?", live - 1, cls.dropped)


def bounded_protocol(cap: int | None = None, header_timeout: float = HEADER_TIMEOUT_S) -> type[BoundedH11]:
    """A ``BoundedH11`` class with these bounds (uvicorn's ``http=`` takes a class)."""
    return type("BoundedH11", (BoundedH11,), {"cap": cap if cap is not None else connection_cap(),
                                              "header_timeout": header_timeout})
