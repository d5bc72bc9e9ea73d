"""The tray icon: keeps the hub alive with the window closed, and says what it is doing.

Its menu shows the endpoint's state and the connected assistants, starts and stops the endpoint,
copies a client's configuration snippet, opens the window and quits. Where the desktop has no tray
(some Linux sessions, offscreen), the menu still exists (tests drive it) and closing the window
quits instead of hiding.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from desktop.resources import app_icon

if TYPE_CHECKING:
    from desktop.hub import Hub

ClientSnippet = Callable[[str], str]


class Tray(QObject):
    """The tray icon and its menu."""

    show_window = Signal()
    quit_requested = Signal()
    copied = Signal(str)  # the client whose snippet was copied

    def __init__(self, clients: dict[str, str], snippet: ClientSnippet, parent: QObject | None = None) -> None:
        """``clients`` maps a client id to its display name; ``snippet(client_id)`` gives its config."""
        super().__init__(parent)
        self.hub: Hub | None = None
        self.pending = 0
        self._snippet = snippet
        self.menu = QMenu()
        self.status_action = self.menu.addAction(self.tr("Starting…"))
        self.status_action.setEnabled(False)
        self.clients_menu = self.menu.addMenu(self.tr("Connected assistants"))
        self.menu.addSeparator()
        self.endpoint_action = self.menu.addAction(self.tr("Stop the assistant endpoint"))
        self.endpoint_action.triggered.connect(self.on_toggle_endpoint)
        copy_menu = self.menu.addMenu(self.tr("Copy configuration for"))
        self.copy_actions: dict[str, QAction] = {}
        for client_id, label in clients.items():
            action = copy_menu.addAction(label)
            action.triggered.connect(lambda _checked=False, c=client_id: self.on_copy(c))
            self.copy_actions[client_id] = action
        self.menu.addSeparator()
        self.open_action = self.menu.addAction(self.tr("Open Hipocampo"))
        self.open_action.triggered.connect(self.show_window)
        self.quit_action = self.menu.addAction(self.tr("Quit Hipocampo"))
        self.quit_action.triggered.connect(self.quit_requested)

        self.icon = QSystemTrayIcon(app_icon(), self)
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self.on_activated)
        self.refresh()

    @staticmethod
    def available() -> bool:
        """Whether this desktop shows tray icons (False offscreen and on bare X servers)."""
        return QSystemTrayIcon.isSystemTrayAvailable()

    def show(self) -> None:
        if self.available():
            self.icon.show()

    def hide(self) -> None:
        self.icon.hide()

    def set_hub(self, hub: Hub | None) -> None:
        if self.hub is not None:
            self.hub.changed.disconnect(self.refresh)
        self.hub = hub
        if hub is not None:
            hub.changed.connect(self.refresh)
        self.refresh()

    def set_pending(self, count: int) -> None:
        self.pending = count
        self.refresh()

    # -- reacting ------------------------------------------------------------------------------

    def on_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self.show_window.emit()

    def on_toggle_endpoint(self) -> None:
        if self.hub is None:
            return
        if self.hub.running or self.hub.starting:
            self.hub.stop()
        else:
            self.hub.start()

    def on_copy(self, client_id: str) -> None:
        QGuiApplication.clipboard().setText(self._snippet(client_id))
        self.copied.emit(client_id)

    def refresh(self) -> None:
        """Bring the status line, the client list, the toggle and the tooltip up to date."""
        hub = self.hub
        clients = hub.clients() if hub is not None else []
        if hub is None:
            status = self.tr("Opening the memory…")
        elif hub.running:
            status = self.tr("Assistant endpoint on port {port}").format(port=hub.info.get("port"))
        elif hub.starting:
            status = self.tr("Starting the assistant endpoint…")
        elif hub.error:
            status = hub.error
        else:
            status = self.tr("Assistant endpoint stopped")
        self.status_action.setText(status)
        self.endpoint_action.setEnabled(hub is not None)
        self.endpoint_action.setText(
            self.tr("Stop the assistant endpoint") if hub is not None and (hub.running or hub.starting)
            else self.tr("Start the assistant endpoint"))

        self.clients_menu.clear()
        if clients:
            for session in clients:
                item = self.clients_menu.addAction(session.name)
                item.setEnabled(False)
        else:
            self.clients_menu.addAction(self.tr("None connected yet")).setEnabled(False)
        self.clients_menu.setTitle(self.tr("Connected assistants ({count})").format(count=len(clients)))

        lines = ["Hipocampo"]
        if hub is not None and hub.running:
            lines.append(self.tr("%n assistant(s) connected", "", len(clients)))
        elif hub is not None:
            lines.append(status)
        if self.pending:
            lines.append(self.tr("%n insight(s) to review", "", self.pending))
        self.icon.setToolTip("\n".join(lines))

    def tooltip(self) -> str:
        return self.icon.toolTip()
