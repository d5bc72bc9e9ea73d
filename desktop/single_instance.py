"""One app per user: a second launch hands its request to the running one and exits.

The first instance listens on a local socket (a named pipe on Windows) whose name is derived from
the hub file, so two profiles (``HIPOCAMPO_ENDPOINT_FILE``) or two users never meet. A second
launch connects, sends one JSON line — ``{"action": "show"}`` or ``{"action": "import", "paths":
[…]}`` — and leaves.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from core.settings import endpoint_path

log = logging.getLogger(__name__)
CONNECT_TIMEOUT_MS = 500


def endpoint_file() -> Path:
    """The hub file's path (``core.settings.endpoint_path``, without importing the HTTP stack)."""
    return endpoint_path()


def server_name(hub_file: Path | None = None) -> str:
    """The local socket name for this user and profile."""
    key = str((hub_file or endpoint_file()).expanduser().resolve())
    return "hipocampo-" + hashlib.sha256(key.encode()).hexdigest()[:16]


def send_to_running(request: dict[str, Any], name: str) -> bool:
    """Deliver ``request`` to a running instance; False when none is listening."""
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        return False
    socket.write((json.dumps(request) + "\n").encode())
    socket.flush()
    socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
    socket.disconnectFromServer()
    return True


class InstanceServer(QObject):
    """Listens for later launches; ``requested`` carries each one's JSON request."""

    requested = Signal(dict)

    def __init__(self, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self.on_new_connection)

    def listen(self) -> bool:
        """Start listening; clears a socket left behind by a crashed instance first."""
        if self._server.listen(self.name):
            return True
        QLocalServer.removeServer(self.name)  # stale after a crash: nobody answered us
        return self._server.listen(self.name)

    def close(self) -> None:
        self._server.close()

    def on_new_connection(self) -> None:
        # A launch writes its one line right after connecting: read it here, briefly and
        # bounded, rather than keeping per-socket callbacks alive.
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            buffer = bytearray()
            while b"\n" not in buffer and len(buffer) < 1 << 20:
                if not socket.bytesAvailable() and not socket.waitForReadyRead(CONNECT_TIMEOUT_MS):
                    break
                buffer.extend(bytes(socket.readAll()))
            socket.disconnectFromServer()
            socket.deleteLater()
            if b"\n" in buffer:
                self._handle(bytes(buffer).split(b"\n", 1)[0])

    def _handle(self, line: bytes) -> None:
        try:
            request = json.loads(line)
        except ValueError:
            log.warning("ignored a malformed request from another launch")
            return
        if isinstance(request, dict) and request.get("action") in ("show", "import"):
            self.requested.emit(request)
