"""The MCP hub inside the app: core's Streamable HTTP server on a thread and event loop of its own.

Exactly what ``hipocampo mcp --http`` serves (127.0.0.1, bearer token, Host/Origin checks, the hub
file), so every ``hipocampo mcp`` an assistant spawns forwards here and the window sees its writes
live (the change feed polls ``change_log``, whoever wrote). The server runs on its own asyncio loop
in a thread of its own, not on the GUI's: a window busy painting a big graph, or a modal dialog, can
never keep an assistant waiting. Tool bodies run on that loop's worker threads; ``Memory`` is
thread-safe. ``changed`` is emitted from the hub's thread; Qt queues it to the GUI thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from pathlib import Path
from typing import Any

import anyio
from PySide6.QtCore import QObject, Signal

from core.memory import Memory
from core.server.transports import endpoint as hubfile
from core.server.transports.http import serve_http
from core.server.transports.sessions import ClientSession, ClientTracker

log = logging.getLogger(__name__)


class Hub(QObject):
    """Start, stop and watch the hub. ``changed`` fires on every state change."""

    changed = Signal()

    def __init__(self, memory: Memory, *, port: int = 0, hub_file: Path | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.memory = memory
        self.port = port
        self.hub_file = hub_file or hubfile.endpoint_file()
        self.tracker = ClientTracker()
        self.info: dict[str, Any] = {}
        self.error: str | None = None
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: anyio.Event | None = None
        self._known_clients: tuple[str, ...] = ()
        self._serving = False

    # -- state ---------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return bool(self.info)

    @property
    def starting(self) -> bool:
        return self._serving and not self.info

    @property
    def url(self) -> str | None:
        return self.info.get("url")

    def clients(self) -> list[ClientSession]:
        """The MCP client sessions connected now, oldest first."""
        return self.tracker.connected() if self.running else []

    def poll_clients(self) -> None:
        """Emit ``changed`` when the set of connected clients changed (call on a timer)."""
        names = tuple(c.name for c in self.clients())
        if names != self._known_clients:
            self._known_clients = names
            self.changed.emit()

    # -- control -------------------------------------------------------------------------------

    def start(self) -> None:
        """Start serving, on a thread and event loop of the hub's own."""
        if self._serving:
            return
        other = hubfile.live_hub(str(self.memory.settings.db), path=self.hub_file)
        if other is not None and other.get("pid") is not None:
            self.error = self.tr("Another Hipocampo hub serves this memory (process {pid}, port {port}); "
                                 "assistants use that one.").format(pid=other.get("pid"), port=other.get("port"))
            self.changed.emit()
            return
        self.error = None
        self._serving = True
        # A hub stopped a moment ago may still be closing its loop (its state is already cleared):
        # the new one waits for it on its own thread, so a quick stop-then-start always starts.
        previous = self._thread
        self._thread = threading.Thread(target=self._run, args=(previous,), name="hipocampo-hub", daemon=True)
        self._thread.start()
        self.changed.emit()

    def _run(self, previous: threading.Thread | None) -> None:
        if previous is not None:
            previous.join()
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = anyio.Event()
        try:
            await serve_http(self.memory, port=self.port, hub_file=self.hub_file, handle_signals=False,
                             on_ready=self._on_ready, stop=self._stop, tracker=self.tracker)
        except OSError as exc:
            self.error = self.tr("The assistant endpoint could not listen on port {port}: {reason}").format(
                port=self.port, reason=exc.strerror or exc)
            log.warning("hub failed: %s", exc)
        except Exception as exc:  # keep the app alive; the tray says what happened
            self.error = self.tr("The assistant endpoint stopped: {reason}").format(reason=exc)
            log.exception("hub crashed")
        finally:
            self._serving = False
            self.info = {}
            self._stop = None
            self._loop = None
            self._known_clients = ()
            self.changed.emit()

    def _on_ready(self, info: dict[str, Any]) -> None:
        self.info = info
        self.changed.emit()

    def stop(self) -> None:
        """Ask the hub to stop: open requests finish (briefly), the hub file is withdrawn."""
        loop, stop = self._loop, self._stop
        if loop is not None and stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop ended meanwhile
                loop.call_soon_threadsafe(stop.set)

    async def stop_and_wait(self, timeout: float = 5.0) -> None:
        """Stop and wait (bounded, without blocking the caller's loop) until the server has shut down."""
        thread = self._thread
        if thread is None:
            return
        deadline = asyncio.get_running_loop().time() + timeout
        while thread.is_alive() and asyncio.get_running_loop().time() < deadline:
            self.stop()  # again, in case the hub was still starting when first asked
            await asyncio.sleep(0.02)
        if thread.is_alive():
            log.warning("the hub did not stop within %.0f s; it ends with the app", timeout)
        else:
            self._thread = None

    def wait_stopped(self, timeout: float = 5.0) -> bool:
        """Stop and block until the server has shut down (for callers without an event loop)."""
        thread = self._thread
        if thread is None:
            return True
        self.stop()
        thread.join(timeout)
        return not thread.is_alive()
