"""Calls in flight, so background embedding can step aside for them.

On a 2-core machine an embedding pass uses both cores; a tool call that lands during one takes
several times longer. The server marks each request from the moment it is read until its answer is
written (``begin``/``end``, or ``with foreground.call():``); the background embedder waits until no
request is in flight and the client has had time to read the last answer, and a request that
arrives mid-pass interrupts the pass (its batch stays due and is embedded again later) — for at
most ``YIELD_AT_MOST_SECONDS`` per pass: then the pass runs to its end, so that what was written
is found by meaning within seconds however often the client calls.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Hashable, Iterator

QUIET_SECONDS = 0.3  # after an answer, before the embedder may start
CLIENT_BYTES_PER_SECOND = 5e6  # … plus the time a client takes to parse what it was sent (6 MB: ~1.2 s)
START_SECONDS = 1.5  # after start: the client's first requests (initialize, tools/list) come first
STALE_SECONDS = 120.0  # a request never answered (cancelled, lost) stops counting after this long
# A background pass steps aside for at most this long; then it runs, calls or not. A client that
# searches every 2-3 s would otherwise interrupt every pass of a loaded machine before it ends,
# and what it wrote would never get its vector (issue 23: "fresh under pressure").
YIELD_AT_MOST_SECONDS = 3.0


class Foreground:
    """The requests in flight and when the client will be done with the last answer."""

    def __init__(self, *, quiet: float = QUIET_SECONDS, start_delay: float = START_SECONDS) -> None:
        self.quiet = quiet
        self._cond = threading.Condition()
        self._in_flight: dict[Hashable, float] = {}  # request key -> when it began
        self._quiet_from = time.monotonic() + start_delay
        self._on_start: list[Callable[[], None]] = []

    def on_call_start(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (cheap, any thread) whenever a request begins, e.g. to interrupt a pass."""
        self._on_start.append(callback)

    def begin(self, key: Hashable) -> None:
        """A request ``key`` arrived."""
        with self._cond:
            self._in_flight[key] = time.monotonic()
        for callback in self._on_start:
            callback()

    def end(self, key: Hashable, size: int = 0) -> None:
        """Request ``key`` was answered with ``size`` bytes (the client still has to read them)."""
        with self._cond:
            self._in_flight.pop(key, None)
            until = time.monotonic() + self.quiet + size / CLIENT_BYTES_PER_SECOND
            self._quiet_from = max(self._quiet_from, until)
            self._cond.notify_all()

    @contextlib.contextmanager
    def call(self) -> Iterator[None]:
        """Mark a foreground call for the duration of the block."""
        key = object()
        self.begin(key)
        try:
            yield
        finally:
            self.end(key)

    def _wait_left(self) -> float:
        """Seconds until the embedder may run (0: now); the caller holds ``_cond``."""
        now = time.monotonic()
        if any(now - began < STALE_SECONDS for began in self._in_flight.values()):
            return 0.5  # re-check now and then
        return max(0.0, self._quiet_from - now)

    @property
    def busy(self) -> bool:
        """True while a request is in flight or its answer is fresh."""
        with self._cond:
            return self._wait_left() > 0

    def wait_quiet(self, stop: threading.Event | None = None, timeout: float | None = None) -> bool:
        """Block until the foreground is quiet (see ``busy``), ``stop`` is set, or ``timeout``
        seconds have passed; True if it is quiet."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not (stop is not None and stop.is_set()):
                left = self._wait_left()
                if left <= 0:
                    return True
                if deadline is not None:
                    if time.monotonic() >= deadline:
                        return False
                    left = min(left, deadline - time.monotonic())
                self._cond.wait(min(left, 0.5))
            return False
