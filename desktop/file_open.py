"""The system's "open file" events: on macOS a file double-clicked in Finder, opened with "Open
With" or dropped on the Dock icon reaches the running app as a ``QFileOpenEvent`` (never as a
second launch with the file in ``argv``, as on Linux and Windows). Each one goes where a second
launch's files go: the window comes up and the import dialog previews them, then imports.

Finder sends one event per file when several are opened at once; those arriving in the same turn
of the event loop are handed over together, as one request (one import dialog for all of them).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QFileOpenEvent


class FileOpenHandler(QObject):
    """An event filter on the application that turns file-open events into import requests."""

    def __init__(self, request: Callable[[dict[str, Any]], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._request = request
        self._paths: list[str] = []
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.setInterval(0)
        self._flush.timeout.connect(self._hand_over)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() != QEvent.Type.FileOpen or not isinstance(event, QFileOpenEvent):
            return False
        path = event.file() or event.url().toLocalFile()
        if path:  # a URL that is not a local file has nothing to import
            self._paths.append(str(Path(path).resolve()))
            self._flush.start()
        return True

    def _hand_over(self) -> None:
        paths, self._paths = self._paths, []
        if paths:
            self._request({"action": "import", "paths": paths})


def handle_file_open_events(app: QObject, request: Callable[[dict[str, Any]], None]) -> FileOpenHandler:
    """Install the handler on ``app`` (the QApplication); ``request`` gets what a second launch sends
    (``{"action": "import", "paths": [...]}``), e.g. ``HipocampoApp.on_instance_request``."""
    handler = FileOpenHandler(request, app)
    app.installEventFilter(handler)
    return handler
