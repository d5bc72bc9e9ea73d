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
    QApplication,
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

STATUS_INTERVAL_MS = 1500  # while the model loads or vectors are due; idle, the change feed drives it
STATUS_SETTLE_MS = 300  # a burst of changes reads the status once
LAYOUT_VERSION = 2  # 2: the default layout of 2026-12 (the graph keeps half the width)
WIDE_LAYOUT_FROM = 1440  # from this window width, search gets a column of its own on the left


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
        # The entity editor takes the window's whole height on the right: its relations and history
        # need the rows more than the insights and activity need the width under it.
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self._build_status_bar()
        self._build_menus()
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(STATUS_INTERVAL_MS)
        self._status_timer.timeout.connect(self.refresh_status)
        self._status_soon = QTimer(self)
        self._status_soon.setSingleShot(True)
        self._status_soon.setInterval(STATUS_SETTLE_MS)
        self._status_soon.timeout.connect(self.refresh_status)
        self.dock_sizer = QTimer(self)  # sizes the default layout's columns once its docks have a size
        self.dock_sizer.setSingleShot(True)
        self.dock_sizer.setInterval(0)
        self.dock_sizer.timeout.connect(self._size_docks)
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
        self.redo_action = self._action(edit, self.tr("Re&do"), self.on_redo, QKeySequence.StandardKey.Redo,
                                        self.tr("Make again the change the last undo took back"))
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
                       self.redo_action, self.new_entity_action, self.save_action, self.find_action,
                       self.reflect_action):
            action.setEnabled(False)

    # -- one memory in, one memory out -------------------------------------------------------------

    def attach(self, core: Core, feed: ChangeFeed, hub: Hub | None) -> None:
        """Show the panes over ``core``'s memory and follow ``feed``."""
        self.detach()
        self.core, self.feed, self.hub = core, feed, hub
        self.db_path = Path(core.memory.settings.db)
        self.set_title(self.db_path)
        from desktop.activity.pane import ActivityPane
        from desktop.editor import EditorPane
        from desktop.graph.pane import GraphPane
        from desktop.insights.pane import InsightsPane
        from desktop.search.pane import SearchPane

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
                       self.redo_action, self.new_entity_action, self.save_action, self.find_action,
                       self.reflect_action):
            action.setEnabled(True)
        if not self._restore_layout():
            self._default_layout()
        self._status_timer.start()
        self.refresh_status()
        self.refresh_endpoint()
        graph.show_overview()

    def set_hub(self, hub: Hub | None) -> None:
        """Follow ``hub`` in the status bar (the app starts it after the panes show the memory)."""
        if self.hub is not None:
            self.hub.changed.disconnect(self.refresh_endpoint)
        self.hub = hub
        if hub is not None:
            hub.changed.connect(self.refresh_endpoint)
        self.refresh_endpoint()

    def detach(self) -> None:
        """Drop the panes (before another memory is opened, or on quit)."""
        self._status_timer.stop()
        self._status_soon.stop()
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
        self._status_soon.start()  # the counts follow the feed; the status bar does not poll when idle
        for pane in self.panes.values():
            pane.on_changes(rows)

    def on_evidence(self, names: list[str]) -> None:
        """The graph shows an insight's evidence when the user picks the insight, not when the
        insights pane selects one by itself (as it loads, at launch)."""
        graph = self.panes.get("graph")
        insights = self.panes.get("insights")
        focus = QApplication.focusWidget()
        asked = insights is not None and focus is not None and (focus is insights or insights.isAncestorOf(focus))
        if graph is not None and names and asked:
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

    def on_redo(self) -> None:
        editor = self.panes.get("editor")
        if editor is not None:
            editor.redo_last()

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
        self.core.read(status_of, done=self._show_status, key="window-status")

    def _show_status(self, status: dict[str, Any]) -> None:
        total = int(status.get("entities") or 0)  # what read_graph returns: pending insights left out
        done = int(status.get("embedded") or 0)
        self.count_label.setText(self.tr("%Ln entities", "", total))
        self.count_label.setToolTip(self.tr("What read_graph returns: insights waiting for review are not counted"))
        if status.get("model") is None:
            self.embed_label.setText(self.tr("Search by words only"))
            self.embed_label.setToolTip(str(status.get("error") or ""))
            self.embed_bar.hide()
        elif done < total:
            self.embed_label.setText(self.tr("Indexing meaning {percent} %").format(
                percent=QLocale().toString(int(100 * done / max(total, 1)))))
            self.embed_bar.setRange(0, total)
            self.embed_bar.setValue(done)
            self.embed_bar.show()
        else:
            self.embed_label.setText(self.tr("Search by meaning ready"))
            self.embed_bar.hide()
        # Poll only while something moves by itself (the model loading, vectors due); a write
        # anywhere comes through the change feed (on_changes), which starts polling again if needed.
        busy = status.get("model") is not None and (not status.get("running") or int(status.get("pending") or 0) > 0)
        if busy and self.core is not None:
            if not self._status_timer.isActive():
                self._status_timer.start()
        else:
            self._status_timer.stop()
        if self.hub is not None:
            self.hub.poll_clients()

    def refresh_endpoint(self) -> None:
        hub = self.hub
        if hub is None:  # the app creates the hub once the memory is shown
            self.endpoint_label.setText(self.tr("Endpoint starting…") if self.core is not None
                                        else self.tr("Endpoint off"))
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

    def _restore_layout(self) -> bool:
        """The docks as the user left them; False if there is no such layout (or an older one)."""
        state = QSettings().value("window/state")
        return state is not None and self.restoreState(state, LAYOUT_VERSION)

    def save_layout(self) -> None:
        settings = QSettings()
        settings.setValue("window/geometry", self.saveGeometry())
        if self.docks:
            settings.setValue("window/state", self.saveState(LAYOUT_VERSION))

    def reset_layout(self) -> None:
        """Put every pane back where it starts, keeping what they show (the search, the open entity)."""
        QSettings().remove("window/state")
        if self.docks:
            self._default_layout()

    def _default_layout(self) -> None:
        """Search on the left and the entity on the right (in a narrower window both on the right,
        one above the other), insights and activity tabbed under the graph, which keeps at least
        half the window's width: the side columns are sized from the window, not from their content."""
        docks = self.docks
        for dock in docks.values():
            dock.setFloating(False)
        # Side by side only where both columns fit in half the window at their narrowest.
        narrowest = sum(docks[k].minimumSizeHint().width() for k in ("search", "editor"))
        wide = self.width() >= WIDE_LAYOUT_FROM and narrowest + 24 <= self.width() / 2
        # The side columns reach the bottom; the insights and activity tabs sit under the graph only.
        self.setCorner(Qt.Corner.BottomLeftCorner, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, docks["editor"])
        if wide:
            self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, docks["search"])
        else:
            self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, docks["search"])
            self.splitDockWidget(docks["search"], docks["editor"], Qt.Orientation.Vertical)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, docks["insights"])
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, docks["activity"])
        self.tabifyDockWidget(docks["insights"], docks["activity"])
        for dock in docks.values():
            dock.show()
        docks["activity"].raise_()
        self._size_docks()
        # Docks made a moment ago are sized from their contents once the layout runs: again then.
        self.dock_sizer.start()

    def _size_docks(self) -> None:
        docks = self.docks
        if set(docks) != {"search", "editor", "insights", "activity"}:
            return  # detached meanwhile
        width, height = max(self.width(), 640), max(self.height(), 480)
        wide = self.dockWidgetArea(docks["search"]) == Qt.DockWidgetArea.LeftDockWidgetArea
        if wide:
            self.resizeDocks([docks["search"], docks["editor"]], [round(width * 0.19), round(width * 0.27)],
                             Qt.Orientation.Horizontal)
        else:
            self.resizeDocks([docks["editor"]], [round(width * 0.34)], Qt.Orientation.Horizontal)
            self.resizeDocks([docks["search"], docks["editor"]], [round(height * 0.36), round(height * 0.64)],
                             Qt.Orientation.Vertical)
        self.resizeDocks([docks["insights"]], [min(230, round(height * 0.28))], Qt.Orientation.Vertical)

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


def status_of(memory: Any) -> dict[str, Any]:
    """The status bar's figures: the embedder's progress over the entities ``read_graph`` returns
    (pending and dismissed insights are archived entities: not in the memory until approved), the
    same figures ``hipocampo search`` warns with."""
    return dict(memory.embedding_status())
