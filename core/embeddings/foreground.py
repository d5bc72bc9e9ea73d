"""Calls in flight, so background embedding can step aside for them.

On a 2-core machine an embedding pass uses both cores; a tool call that lands during one takes
several times longer. The server marks each call (``with foreground.call():``); the background
embedder waits until no call is in flight and none has ended for ``quiet`` seconds, and a call
that starts mid-pass interrupts the pass (its batch stays due and is embedded again later).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator

QUIET_SECONDS = 0.3  # after a call: its answer is still being encoded and sent
START_SECONDS = 1.5  # after start: the client's first requests (initialize, tools/list) come first


class Foreground:
    """Counts calls in flight and remembers when the last one ended."""

    def __init__(self, *, quiet: float = QUIET_SECONDS, start_delay: float = START_SECONDS) -> None:
        self.quiet = quiet
        self._cond = threading.Condition()
        self._in_flight = 0
        self._last_end = time.monotonic() + start_delay - quiet  # the first pass waits start_delay
        self._on_start: list[Callable[[], None]] = []

    def on_call_start(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (cheap, any thread) whenever a call starts, e.g. to interrupt a pass."""
        self._on_start.append(callback)

    @contextlib.contextmanager
    def call(self) -> Iterator[None]:
        """Mark a foreground call for the duration of the block."""
        with self._cond:
            self._in_flight += 1
        for callback in self._on_start:
            callback()
        try:
            yield
        finally:
            with self._cond:
                self._in_flight -= 1
                self._last_end = time.monotonic()
                self._cond.notify_all()

    @property
    def busy(self) -> bool:
        """True while a call is in flight or ended less than ``quiet`` seconds ago."""
        with self._cond:
            return self._in_flight > 0 or time.monotonic() - self._last_end < self.quiet

    def wait_quiet(self, stop: threading.Event | None = None) -> None:
        """Block until no call is in flight and the last ended ``quiet`` seconds ago (or ``stop``)."""
        with self._cond:
            while not (stop is not None and stop.is_set()):
                if self._in_flight:
                    self._cond.wait(0.5)  # re-check ``stop`` now and then
                    continue
                left = self.quiet - (time.monotonic() - self._last_end)
                if left <= 0:
                    return
                self._cond.wait(min(left, 0.5))
