"""The main window: the graph in the centre, the other panes in docks, menus, status bar.

It wires the panes to each other (open an entity anywhere → editor and graph follow; the change
feed → every pane) and leaves app-level work (opening another memory, quitting, importing) to
the app through signals. Geometry and dock layout are remembered between runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLocale, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QWidget,
)

from desktop.drop import importable_paths
from desktop.resources import app_icon

if TYPE_CHECKING:  # the panes (and the core under them) load once a memory is open
    from desktop.hub import Hub
    from desktop.workers import ChangeFeed, Core

STATUS_INTERVAL_MS = 1500
LAYOUT_VERSION = 1


class MainWindow(QMainWindow):
    """Hipocampo's window over one open memory."""

    import_requested = Signal(list)  # paths dropped or chosen
    export_requested = Signal()
    backup_requested = Signal()
    new_memory_requested = Signal()
    open_memory_requested = Signal()
    settings_requested = Signal()
    connect_requested = Signal()
    about_requested = Signal()
    quit_requested = Signal()
    hide_to_tray = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("MainWindow")
        self.setWindowIcon(app_icon())
        self.setAcceptDrops(True)
        self.core: Core | None = None
        self.feed: ChangeFeed | None = None
        self.hub: Hub | None = None
        self.db_path: Path | None = None
        self.close_to_tray = False
        self.panes: dict[str, QWidget] = {}
        self.docks: dict[str, QDockWidget] = {}
        self.pending_insights = 0

        self._placeholder = QLabel(self.tr("Opening your memory…"))
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setObjectName("placeholder")
        self.setCentralWidget(self._placeholder)
        self._build_status_bar()
        self._build_menus()
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(STATUS_INTERVAL_MS)
        self._status_timer.timeout.connect(self.refresh_status)
        self.set_title(None)
        self.resize(1280, 820)
        self._restore_geometry()

    # -- building ------------------------------------------------------------------------------

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.count_label = QLabel()
        self.embed_label = QLabel()
        self.embed_bar = QProgressBar()
        self.embed_bar.setMaximumWidth(120)
        self.embed_bar.setMaximumHeight(14)
        self.embed_bar.setTextVisible(False)
        self.embed_bar.hide()
        self.endpoint_label = QLabel()
        for widget in (self.count_label, self.embed_label, self.embed_bar, self.endpoint_label):
            bar.addPermanentWidget(widget)

    def _action(self, menu: Any, text: str, slot: Any, shortcut: QKeySequence | str | None = None,
                tip: str | None = None) -> QAction:
        action = menu.addAction(text)
        action.triggered.connect(slot)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu(self.tr("&File"))
        self._action(file, self.tr("&New memory…"), self.new_memory_requested.emit, None,
                     self.tr("Start an empty memory in a new file"))
        self._action(file, self.tr("&Open memory…"), self.open_memory_requested.emit, QKeySequence.StandardKey.Open)
        file.addSeparator()
        self.import_action = self._action(file, self.tr("&Import…"), self.on_import_chosen, "Ctrl+I",
                                          self.tr("Import memory.jsonl, Engrama NDJSON, MCP Memory .db or notes"))
        self.export_action = self._action(file, self.tr("&Export…"), self.export_requested.emit, "Ctrl+E")
        self.backup_action = self._action(file, self.tr("&Back up…"), self.backup_requested.emit, "Ctrl+Shift+B")
        file.addSeparator()
        self._action(file, self.tr("&Settings…"), self.settings_requested.emit, QKeySequence.StandardKey.Preferences)
        self._action(file, self.tr("&Close window"), self.close, QKeySequence.StandardKey.Close)
        self._action(file, self.tr("&Quit"), self.quit_requested.emit, QKeySequence.StandardKey.Quit)

        edit = bar.addMenu(self.tr("&Edit"))
        self.undo_action = self._action(edit, self.tr("&Undo last change"), self.on_undo, QKeySequence.StandardKey.Undo)
        self.new_entity_action = self._action(edit, self.tr("&New entity"), self.on_new_entity, "Ctrl+N")
        self.save_action = self._action(edit, self.tr("&Save entity"), self.on_save, QKeySequence.StandardKey.Save)
        edit.addSeparator()
        self.find_action = self._action(edit, self.tr("&Find…"), self.on_find, QKeySequence.StandardKey.Find)
        self.reflect_action = self._action(edit, self.tr("&Reflect now"), self.on_reflect, "Ctrl+R",
                                           self.tr("Look for patterns and propose insights to review"))

        self.view_menu = bar.addMenu(self.tr("&View"))
        self._action(self.view_menu, self.tr("Whole-memory &overview"), self.on_overview, "Ctrl+0")
        self._action(self.view_menu, self.tr("&Fit graph to window"), self.on_fit, "Ctrl+Shift+F")
        self.view_menu.addSeparator()
        self._dock_toggles_at = self.view_menu.addSeparator()
        self._action(self.view_menu, self.tr("&Reset layout"), self.reset_layout)

        help_menu = bar.addMenu(self.tr("&Help"))
        self._action(help_menu, self.tr("&Connect an assistant…"), self.connect_requested.emit, "F1")
        self._action(help_menu, self.tr("&About Hipocampo"), self.about_requested.emit)
        for action in (self.import_action, self.export_action, self.backup_action, self.undo_action,
                       self.new_entity_action, self.save_action, self.find_action, self.reflect_action):
            action.setEnabled(False)

    # -- one memory in, one memory out -------------------------------------------------------------

    def attach(self, core: Core, feed: ChangeFeed, hub: Hub | None) -> None:
        """Show the panes over ``core``'s memory and follow ``feed``."""
        self.detach()
        self.core, self.feed, self.hub = core, feed, hub
        self.db_path = Path(core.memory.settings.db)
        self.set_title(self.db_path)
        from desktop.panes.activity import ActivityPane
        from desktop.panes.editor import EditorPane
        from desktop.panes.graph import GraphPane
        from desktop.panes.insights import InsightsPane
        from desktop.panes.search import SearchPane

        graph = GraphPane(core)
        search = SearchPane(core)
        editor = EditorPane(core)
        insights = InsightsPane(core)
        activity = ActivityPane(core)
        self.panes = {"graph": graph, "search": search, "editor": editor, "insights": insights,
                      "activity": activity}
        self.setCentralWidget(graph)
        self._dock("search", self.tr("Search"), search, Qt.DockWidgetArea.LeftDockWidgetArea, "Ctrl+1")
        self._dock("editor", self.tr("Entity"), editor, Qt.DockWidgetArea.RightDockWidgetArea, "Ctrl+2")
        self._dock("insights", self.tr("Insights"), insights, Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+3")
        self._dock("activity", self.tr("Activity"), activity, Qt.DockWidgetArea.BottomDockWidgetArea, "Ctrl+4")
        self.tabifyDockWidget(self.docks["insights"], self.docks["activity"])
        self.docks["activity"].raise_()
        self.resizeDocks([self.docks["search"], self.docks["editor"]], [300, 380], Qt.Orientation.Horizontal)
        self.resizeDocks([self.docks["insights"]], [230], Qt.Orientation.Vertical)

        for pane in self.panes.values():
            signal = getattr(pane, "entity_activated", None)
            if signal is not None:
                signal.connect(self.open_entity)
            message = getattr(pane, "status_message", None)
            if message is not None:
                message.connect(self.show_message)
        search.fact_activated.connect(editor.show_observation)  # the result's fact, scrolled to
        insights.evidence_requested.connect(self.on_evidence)
        insights.pending_count_changed.connect(self.on_pending_count)
        feed.changed.connect(self.on_changes)
        if hub is not None:
            hub.changed.connect(self.refresh_endpoint)
        for action in (self.import_action, self.export_action, self.backup_action, self.undo_action,
                       self.new_entity_action, self.save_action, self.find_action, self.reflect_action):
            action.setEnabled(True)
        self._restore_layout()
        self._status_timer.start()
        self.refresh_status()
        self.refresh_endpoint()
        graph.show_overview()

    def detach(self) -> None:
        """Drop the panes (before another memory is opened, or on quit)."""
        self._status_timer.stop()
        if self.feed is not None:
            self.feed.changed.disconnect(self.on_changes)
        if self.hub is not None:
            self.hub.changed.disconnect(self.refresh_endpoint)
        if self.panes:
            self.save_layout()
        for dock in self.docks.values():
            self.view_menu.removeAction(dock.toggleViewAction())
            self.removeDockWidget(dock)
            dock.deleteLater()
        self.docks.clear()
        self.panes.clear()
        self.core = self.feed = self.hub = None
        self._placeholder = QLabel(self.tr("Opening your memory…"))
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setCentralWidget(self._placeholder)

    def _dock(self, key: str, title: str, widget: QWidget, area: Qt.DockWidgetArea, shortcut: str) -> None:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{key}")
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(area, dock)
        toggle = dock.toggleViewAction()
        toggle.setShortcut(QKeySequence(shortcut))
        self.view_menu.insertAction(self._dock_toggles_at, toggle)
        self.docks[key] = dock

    def set_title(self, db: Path | None) -> None:
        self.setWindowTitle("Hipocampo" if db is None else self.tr("{name} — Hipocampo").format(name=db.name))
        self.setWindowFilePath(str(db) if db is not None else "")

    # -- wiring ----------------------------------------------------------------------------------

    def open_entity(self, name: str) -> None:
        """Open ``name`` in the editor and centre the graph on it."""
        editor = self.panes.get("editor")
        graph = self.panes.get("graph")
        if editor is not None:
            editor.open_entity(name)
            dock = self.docks.get("editor")
            if dock is not None:
                dock.show()
                dock.raise_()
        if graph is not None and self.sender() is not graph:
            graph.show_entity(name)

    def on_changes(self, rows: list[dict[str, Any]]) -> None:
        for pane in self.panes.values():
            pane.on_changes(rows)

    def on_evidence(self, names: list[str]) -> None:
        graph = self.panes.get("graph")
        if graph is not None and names:
            graph.show_subgraph(names)

    def on_pending_count(self, count: int) -> None:
        self.pending_insights = count
        dock = self.docks.get("insights")
        if dock is not None:
            dock.setWindowTitle(self.tr("Insights ({count})").format(count=count) if count else self.tr("Insights"))

    def show_message(self, text: str) -> None:
        self.statusBar().showMessage(text, 6000)

    # -- menu actions ------------------------------------------------------------------------------

    def on_import_chosen(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        files, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Import into this memory"), str(Path.home()),
            self.tr("Memories and notes (*.jsonl *.json *.ndjson *.db *.sqlite *.md *.markdown *.txt);;All files (*)"))
        if files:
            self.import_requested.emit([Path(f) for f in files])

    def on_undo(self) -> None:
        editor = self.panes.get("editor")
        if editor is not None:
            editor.undo_last()

    def on_new_entity(self) -> None:
        editor = self.panes.get("editor")
        if editor is not None:
            self.docks["editor"].show()
            self.docks["editor"].raise_()
            editor.new_entity()

    def on_save(self) -> None:
        editor = self.panes.get("editor")
        if editor is not None:
            editor.save()

    def on_find(self) -> None:
        search = self.panes.get("search")
        if search is not None:
            self.docks["search"].show()
            self.docks["search"].raise_()
            search.focus_search()

    def on_reflect(self) -> None:
        insights = self.panes.get("insights")
        if insights is not None:
            self.docks["insights"].show()
            self.docks["insights"].raise_()
            insights.reflect_now()

    def on_overview(self) -> None:
        graph = self.panes.get("graph")
        if graph is not None:
            graph.show_overview()

    def on_fit(self) -> None:
        graph = self.panes.get("graph")
        if graph is not None:
            graph.fit()

    # -- status bar ------------------------------------------------------------------------------

    def refresh_status(self) -> None:
        if self.core is None:
            return
        self.core.read(lambda m: m.embedding_status(), done=self._show_status, key="window-status")

    def _show_status(self, status: dict[str, Any]) -> None:
        total = int(status.get("entities") or 0)
        done = int(status.get("embedded") or 0)
        self.count_label.setText(self.tr("{count} entities").format(count=QLocale().toString(total)))
        if status.get("model") is None:
            self.embed_label.setText(self.tr("Search by words only"))
            self.embed_label.setToolTip(str(status.get("error") or ""))
            self.embed_bar.hide()
        elif done < total:
            self.embed_label.setText(self.tr("Indexing meaning {done}/{total}").format(
                done=QLocale().toString(done), total=QLocale().toString(total)))
            self.embed_bar.setRange(0, total)
            self.embed_bar.setValue(done)
            self.embed_bar.show()
        else:
            self.embed_label.setText(self.tr("Search by meaning ready"))
            self.embed_bar.hide()
        if self.hub is not None:
            self.hub.poll_clients()

    def refresh_endpoint(self) -> None:
        hub = self.hub
        if hub is None:
            self.endpoint_label.setText(self.tr("Endpoint off"))
            return
        if hub.running:
            count = len(hub.clients())
            self.endpoint_label.setText(self.tr("Assistants: {count} connected").format(count=count))
            names = ", ".join(s.name for s in hub.clients()) or self.tr("none yet")
            self.endpoint_label.setToolTip(self.tr("Endpoint {url}\nConnected: {names}").format(
                url=hub.url, names=names))
        elif hub.error:
            self.endpoint_label.setText(self.tr("Endpoint unavailable"))
            self.endpoint_label.setToolTip(hub.error)
        elif hub.starting:
            self.endpoint_label.setText(self.tr("Endpoint starting…"))
        else:
            self.endpoint_label.setText(self.tr("Endpoint stopped"))

    # -- drag and drop -----------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        if self.core is not None and importable_paths(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = importable_paths(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.import_requested.emit(paths)

    # -- layout and closing ---------------------------------------------------------------------

    def _restore_geometry(self) -> None:
        geometry = QSettings().value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)

    def _restore_layout(self) -> None:
        state = QSettings().value("window/state")
        if state is not None:
            self.restoreState(state, LAYOUT_VERSION)

    def save_layout(self) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        if self.docks:
            settings.setValue("window/state", self.saveState(LAYOUT_VERSION))

    def reset_layout(self) -> None:
        QSettings().remove("window/state")
        if self.core is not None:
            core, feed, hub = self.core, self.feed, self.hub
            assert feed is not None
            self.attach(core, feed, hub)

    def confirm_discard(self) -> bool:
        """True when nothing unsaved would be lost (or the user agreed to lose it)."""
        editor = self.panes.get("editor")
        if editor is None or not editor.is_dirty():
            return True
        answer = QMessageBox.question(
            self, self.tr("Unsaved changes"),
            self.tr("The entity you are editing has unsaved changes. Save them?"),
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            editor.save()
            return True
        return answer == QMessageBox.StandardButton.Discard

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.save_layout()
        if self.close_to_tray:
            event.ignore()
            self.hide()
            self.hide_to_tray.emit()
            return
        event.ignore()
        self.quit_requested.emit()
