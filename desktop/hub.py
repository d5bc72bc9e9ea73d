"""The MCP hub inside the app: core's Streamable HTTP server on the app's qasync event loop.

Exactly what ``hipocampo mcp --http`` serves (127.0.0.1, bearer token, Host/Origin checks, the hub
file), so every ``hipocampo mcp`` an assistant spawns forwards here and the window sees its writes
live. Tool bodies run on anyio worker threads; the GUI thread only carries the HTTP plumbing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

import anyio
from PySide6.QtCore import QObject, Signal

from core.memory import Memory
from core.server import endpoint as hubfile
from core.server.http import serve_http
from core.server.sessions import ClientSession, ClientTracker

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
        self._task: asyncio.Task[None] | None = None
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
        """Start serving on the running asyncio loop (the app's qasync loop)."""
        if self._task is not None and not self._task.done():
            return
        other = hubfile.live_hub(str(self.memory.settings.db), path=self.hub_file)
        if other is not None and other.get("pid") is not None:
            self.error = self.tr("Another Hipocampo hub serves this memory (process {pid}, port {port}); "
                                 "assistants use that one.").format(pid=other.get("pid"), port=other.get("port"))
            self.changed.emit()
            return
        self.error = None
        self._serving = True
        self._task = asyncio.ensure_future(self._serve())
        self.changed.emit()

    async def _serve(self) -> None:
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
            self._known_clients = ()
            self.changed.emit()

    def _on_ready(self, info: dict[str, Any]) -> None:
        self.info = info
        self.changed.emit()

    def stop(self) -> None:
        """Ask the hub to stop: open requests finish, the hub file is withdrawn."""
        if self._stop is not None:
            self._stop.set()

    async def stop_and_wait(self, timeout: float = 5.0) -> None:
        """Stop and wait (bounded) until the server has shut down."""
        task = self._task
        if task is None or task.done():
            return
        self.stop()
        if self._stop is None:  # asked before the task got going: cancel it outright
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError, asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(task), timeout)
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
