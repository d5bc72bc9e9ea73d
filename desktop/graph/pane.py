"""The graph pane: an entity's neighbourhood (1–3 hops), an overview of the whole memory (every
entity of a small one; a large one's communities, as labelled groups), one community's entities,
or an insight's evidence — read and laid out off the GUI thread.

Click a node to select it (and open it in the editor); double-click to add its neighbours, or to
open a community. The legend has its own column, so it never covers a node.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QEvent, QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QPainter, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.history.changes import touched_names
from core.model import Change
from desktop.graph.bench import measure_pan_zoom_fps
from desktop.graph.data import GraphRequest, GraphSnapshot, load_graph
from desktop.graph.items import GraphStyle
from desktop.graph.legend import GraphLegend
from desktop.graph.view import KEY_STEP, GraphView
from desktop.shared.type_colours import rank_types
from desktop.workers import Core

__all__ = ["GraphPane", "measure_pan_zoom_fps"]

REFRESH_DELAY_MS = 400  # a burst of writes (an import, a client's batch) redraws once
OVERVIEW_REFRESH_MS = 3000  # ranking a large memory takes a few hundred ms: not after every write
REFRESH_SHARE = 4  # a live refresh waits at least this many times its last load: the reader stays free
MAX_REFRESH_MS = 30_000


class ElidedLabel(QLabel):
    """One line that ends in "…" when the toolbar is too narrow for it; its tooltip is the whole text."""

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        super().setText(text)
        self.setToolTip(text)

    def shown_text(self) -> str:
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.contentsRect().width())

    def paintEvent(self, _event: QEvent) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         self.shown_text())


class GraphPane(QWidget):
    """The centre of the main window: the knowledge graph, drawn around what the user looks at."""

    entity_activated = Signal(str)
    status_message = Signal(str)
    #: a new picture is on screen (after show_*, an expansion or a live refresh)
    view_changed = Signal()

    def __init__(self, core: Core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.request: GraphRequest | None = None
        self.snapshot: GraphSnapshot | None = None
        self._key = f"graph-pane-{id(self)}"
        self._load_ms = 0.0  # how long the last picture took to read and lay out
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.timeout.connect(self.on_refresh_due)

        self.view = GraphView(GraphStyle.from_palette(self.palette()))
        self.view.node_clicked.connect(self.on_node_clicked)
        self.view.node_double_clicked.connect(self.on_node_double_clicked)
        self.legend = GraphLegend()
        self.legend.type_clicked.connect(self.on_legend_type_clicked)
        self.legend.hide()

        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setMargin(40)
        self.empty.setTextFormat(Qt.TextFormat.RichText)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.empty)

        # The legend's column is part of the canvas (the graph's background), beside the view.
        canvas = QWidget()
        canvas.setBackgroundRole(QPalette.ColorRole.Base)
        canvas.setAutoFillBackground(True)
        body = QHBoxLayout(canvas)
        body.setContentsMargins(0, 0, 8, 0)
        body.setSpacing(0)
        body.addWidget(self.stack, 1)
        body.addWidget(self.legend, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._build_toolbar())
        layout.addWidget(canvas, 1)
        self._show_empty(self.tr("Loading the graph…"), "")

    def _build_toolbar(self) -> QWidget:
        bar = QWidget()
        bar.setObjectName("graphToolbar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(6, 4, 6, 4)
        row.setSpacing(4)
        overview_tip = self.tr("The whole memory, coloured by type: a large one as groups of related "
                               "entities (double-click one to open it)")
        self.overview_button = self._tool(self.tr("Overview"), overview_tip, lambda: self.show_overview())
        ranking = QMenu(self.overview_button)
        self.rank_actions: dict[str, QAction] = {}
        for by, text in (("degree", self.tr("Most connected")), ("access", self.tr("Most recalled"))):
            action = ranking.addAction(text)
            action.setCheckable(True)
            action.setChecked(by == "degree")
            action.triggered.connect(lambda _checked=False, by=by: self.show_overview(by=by))
            self.rank_actions[by] = action
        self.overview_button.setMenu(ranking)
        self.overview_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        row.addWidget(self.overview_button)
        self.hops = QComboBox()
        for n in (1, 2, 3):
            self.hops.addItem(self._hops_text(n), n)
        self.hops.setToolTip(self.tr("How far from the selected entity to look"))
        self.hops.currentIndexChanged.connect(self.on_hops_changed)
        row.addWidget(self.hops)
        row.addSpacing(8)
        row.addWidget(self._tool(self.tr("Fit"), self.tr("Show everything (F)"), lambda: self.fit()))
        row.addWidget(self._tool("−", self.tr("Zoom out (-)"), lambda: self.view.zoom_by(1 / KEY_STEP)))
        row.addWidget(self._tool("+", self.tr("Zoom in (+)"), lambda: self.view.zoom_by(KEY_STEP)))
        row.addSpacing(8)
        self.caption = ElidedLabel()
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        row.addWidget(self.caption, 1)
        return bar

    def _tool(self, text: str, tip: str, slot: Any) -> QToolButton:
        button = QToolButton()
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.clicked.connect(slot)
        return button

    # -- what to show --------------------------------------------------------------------------

    def show_entity(self, name: str, hops: int | None = None) -> None:
        """Show ``name`` and its neighbours within ``hops`` (default: the hops selector), selected."""
        if hops is not None:
            self.hops.blockSignals(True)
            self.hops.setCurrentIndex(max(1, min(3, hops)) - 1)
            self.hops.blockSignals(False)
        self.view.selected = name
        self._load(GraphRequest("entity", name=name, hops=self.hops.currentData()), fresh=True)

    def show_overview(self, entity_type: str | None = None, by: str | None = None) -> None:
        """Show the whole memory by connection (``by="degree"``: every entity of a small memory, the
        communities of a large one) or its most recalled entities (``"access"``), or the best
        connected of one type, coloured by type; ``by`` defaults to the last choice."""
        if by is None:
            by = next((b for b, action in self.rank_actions.items() if action.isChecked()), "degree")
        for name, action in self.rank_actions.items():
            action.setChecked(name == by)
        self._load(GraphRequest("overview", entity_type=entity_type, by=by), fresh=True)

    def show_community(self, name: str) -> None:
        """Show the community of ``name`` (its best-connected members and their relations)."""
        self._load(GraphRequest("community", name=name), fresh=True)

    def groups(self) -> dict[str, int]:
        """The communities on screen (named after their hub) and their sizes; empty for entities."""
        return dict(self.snapshot.groups) if self.snapshot is not None else {}

    def show_subgraph(self, names: list[str]) -> None:
        """Show exactly ``names`` and the relations among them (an insight's evidence)."""
        self._load(GraphRequest("subgraph", names=tuple(dict.fromkeys(names))), fresh=True)

    def fit(self) -> None:
        """Zoom and pan so every shown node is in view."""
        self.view.fit()

    def shown_names(self) -> set[str]:
        return set(self.view.nodes)

    def node_count(self) -> int:
        """How many nodes are on screen now."""
        return len(self.view.nodes)

    def selected_name(self) -> str | None:
        return self.view.selected

    # -- loading -------------------------------------------------------------------------------

    def _load(self, request: GraphRequest, *, fresh: bool) -> None:
        """Read and lay out ``request`` on a worker; a fresh view fits itself, a refresh keeps the
        user's zoom and starts the layout from where the nodes are now."""
        self.request = request
        known = {} if fresh and not request.expanded else self.view.positions()
        if fresh:
            self.caption.setText(self.tr("Laying out…"))
        started = time.monotonic()

        def measured(memory: Any, *args: Any) -> GraphSnapshot:
            snap = load_graph(memory, *args)
            self._load_ms = (time.monotonic() - started) * 1000
            return snap

        self.core.read(measured, request, known, key=self._key,
                       done=lambda snap: self.on_loaded(snap, fresh), failed=self.on_load_failed)

    def on_loaded(self, snap: GraphSnapshot, fresh: bool) -> None:
        if snap.request != self.request:
            return  # the user asked for something else meanwhile
        if rank_types(snap.palette):
            self.view.restyle(self.view.style_)  # the colours follow the memory's most used types
        if snap.missing:
            message = self.tr("“{name}” is no longer in the memory.").format(name=snap.request.name)
            self.status_message.emit(message)
            self.show_overview()
            return
        self.snapshot = snap
        if not snap.types:
            self.view.clear()
            self.legend.hide()
            self.caption.clear()
            if snap.request.kind == "overview" and snap.request.entity_type is None:
                self._show_empty(self.tr("Nothing remembered yet"),
                                 self.tr("When you or your assistants remember people, projects and ideas, "
                                         "they appear here, linked by what relates them."))
            else:
                self._show_empty(self.tr("Nothing to show"), self.tr("None of these entities exist any more."))
            self.view_changed.emit()
            return
        was_empty = self.stack.currentWidget() is not self.view
        self.stack.setCurrentWidget(self.view)
        self.view.set_snapshot(snap, animate=not fresh and not was_empty)
        self.legend.set_counts(snap.type_counts)
        if fresh or was_empty:
            self.view.fit()
        self.caption.setText(self._describe(snap))
        self.view_changed.emit()

    def on_load_failed(self, message: str) -> None:
        self.caption.setText(message)
        self.status_message.emit(message)

    def _describe(self, snap: GraphSnapshot) -> str:
        locale = QLocale()
        shown = len(snap.types)
        request = snap.request
        if snap.groups:
            text = self.tr("{groups} groups of related entities, of {total} entities").format(
                groups=locale.toString(len(snap.groups)), total=locale.toString(snap.total))
            if snap.others[0]:
                text += self.tr(" · {count} smaller groups").format(count=locale.toString(snap.others[0]))
            if snap.unlinked:
                text += self.tr(" · {count} without relations").format(count=locale.toString(snap.unlinked))
            return text
        if request.kind == "community":
            template = (self.tr("Group around {name}: {total} entities") if shown >= snap.total
                        else self.tr("Group around {name}: the {shown} best-connected of {total} entities"))
            text = template.format(name=request.name, shown=locale.toString(shown), total=locale.toString(snap.total))
        elif request.kind == "overview":
            total = snap.type_counts.get(request.entity_type, 0) if request.entity_type else snap.total
            if shown >= total:
                text = self.tr("All {shown} entities").format(shown=locale.toString(shown))
            else:
                template = (self.tr("The {shown} most recalled of {total} entities") if request.by == "access"
                            else self.tr("The {shown} best-connected of {total} entities"))
                text = template.format(shown=locale.toString(shown), total=locale.toString(total))
            if request.entity_type:
                text = self.tr("{type}: {text}").format(type=request.entity_type, text=text)
        elif request.kind == "entity":
            text = self.tr("{name}: {count} entities within {hops}").format(
                name=request.name, count=locale.toString(shown), hops=self._hops_text(request.hops))
        else:
            text = self.tr("Evidence: {count} entities").format(count=locale.toString(shown))
        if request.expanded:
            text += self.tr(" · {count} expanded").format(count=locale.toString(len(request.expanded)))
        return text

    def _hops_text(self, hops: int) -> str:
        return {1: self.tr("1 hop"), 2: self.tr("2 hops")}.get(hops, self.tr("3 hops"))

    def _show_empty(self, title: str, body: str) -> None:
        self.empty.setText(f"<p style='font-size:15pt'>{title}</p><p>{body}</p>")
        self.stack.setCurrentWidget(self.empty)

    # -- user input ------------------------------------------------------------------------------

    def on_node_clicked(self, name: str) -> None:
        if self.snapshot is not None and name in self.snapshot.groups:
            self.status_message.emit(self.tr("A group of {count} related entities around {name}: "
                                             "double-click to open it").format(
                count=QLocale().toString(self.snapshot.groups[name]), name=name))
            return
        self.entity_activated.emit(name)

    def on_node_double_clicked(self, name: str) -> None:
        if self.snapshot is not None and name in self.snapshot.groups:
            self.show_community(name)
        elif self.request is not None:
            self._load(self.request.expanding(name), fresh=False)

    def on_hops_changed(self, _index: int) -> None:
        if self.request is not None and self.request.kind == "entity" and self.request.name:
            self.show_entity(self.request.name)

    def on_legend_type_clicked(self, entity_type: str) -> None:
        self.show_overview(entity_type)

    # -- live refresh ------------------------------------------------------------------------------

    def on_changes(self, rows: list[dict[str, Any]]) -> None:
        """Redraw (once, shortly) if a write touched something shown, keeping the user's zoom."""
        if self.request is None:
            return
        self._follow_renames(rows)
        touched = touched_names(rows)
        if not touched:
            return
        if self.request.kind == "overview" or not self.view.nodes or touched & self.shown_names():
            # Not restarted while pending: a steady stream of writes still redraws regularly.
            if not self._refresh_timer.isActive():
                big = self.request.kind == "overview" and (self.snapshot is not None and self.snapshot.total > 20_000)
                # Communities of 100k entities on a server take seconds to find again: a stream
                # of writes redraws them now and then, not all the time.
                due = max(OVERVIEW_REFRESH_MS if big else REFRESH_DELAY_MS, REFRESH_SHARE * self._load_ms)
                self._refresh_timer.start(int(min(MAX_REFRESH_MS, due)))

    def _follow_renames(self, rows: list[Change]) -> None:
        """A renamed entity keeps its place: in the request, the selection and on screen."""
        renames = {row.before["name"]: row.after["name"] for row in rows
                   if row.op == "rename_entity" and isinstance(row.before, dict) and isinstance(row.after, dict)}
        if not renames or self.request is None:
            return
        def new(name: str | None) -> str | None:
            return renames.get(name, name) if name is not None else None
        request = self.request
        self.request = replace(request, name=new(request.name),
                               names=tuple(renames.get(n, n) for n in request.names),
                               expanded=tuple(renames.get(n, n) for n in request.expanded))
        self.view.rename(renames)
        if self.snapshot is not None and self.snapshot.groups:
            self.snapshot.groups = {renames.get(k, k): v for k, v in self.snapshot.groups.items()}

    def on_refresh_due(self) -> None:
        if self.request is not None:
            self._load(self.request, fresh=False)

    # -- Qt ----------------------------------------------------------------------------------------

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.PaletteChange:
            self.view.restyle(GraphStyle.from_palette(self.palette()))
            self.legend.update()
        super().changeEvent(event)
