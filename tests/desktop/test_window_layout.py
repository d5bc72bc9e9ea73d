"""The main window's layout: the graph keeps at least half the width by default and after View →
Reset layout, which keeps the search and the open entity; at launch the graph shows the memory,
not an insight's evidence the insights pane happened to select."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt

from core.memory import Memory
from core.settings import Settings
from desktop.main_window import MainWindow
from desktop.workers import ChangeFeed, Core

WAIT_MS = 20_000


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"))
    memory.create_entities([{"name": n, "entityType": "Person"} for n in ("Ada", "Grace", "Alan")])
    memory.create_relations([{"from": "Ada", "to": "Grace", "relationType": "KNOWS"},
                             {"from": "Grace", "to": "Alan", "relationType": "KNOWS"}])
    yield memory
    memory.close()


@pytest.fixture
def window(qtbot, core: Core) -> Iterator[MainWindow]:  # noqa: ANN001
    QSettings().remove("window/state")  # a first launch
    window = MainWindow()
    qtbot.addWidget(window)
    yield window
    window.detach()


def _open(qtbot, window: MainWindow, core: Core, width: int) -> None:  # noqa: ANN001
    window.resize(width, 860)
    window.show()
    qtbot.waitExposed(window)
    window.attach(core, ChangeFeed(core.memory), None)
    qtbot.waitUntil(lambda: not window.dock_sizer.isActive(), timeout=WAIT_MS)


def _graph_width(window: MainWindow) -> int:
    return window.panes["graph"].width()


@pytest.mark.parametrize("width", [1280, 1600, 1920])
def test_the_graph_keeps_half_the_window_by_default_and_after_reset(qtbot, window: MainWindow,  # noqa: ANN001
                                                                    core: Core, width: int) -> None:
    _open(qtbot, window, core, width)
    qtbot.waitUntil(lambda: _graph_width(window) >= width / 2, timeout=WAIT_MS)
    assert all(dock.isVisible() and not dock.isFloating() for dock in window.docks.values())
    # The user widens the entity pane until the graph is a strip, searches, opens an entity…
    window.resizeDocks([window.docks["editor"]], [width - 300], Qt.Orientation.Horizontal)
    qtbot.waitUntil(lambda: _graph_width(window) < width / 2, timeout=WAIT_MS)
    search, editor, graph = window.panes["search"], window.panes["editor"], window.panes["graph"]
    search.box.setText("Grace")
    window.open_entity("Grace")
    qtbot.waitUntil(lambda: editor.page.title.text() == "Grace", timeout=WAIT_MS)
    # …and resets the layout: the graph has its room again, nothing they looked at is lost.
    window.reset_layout()
    qtbot.waitUntil(lambda: not window.dock_sizer.isActive(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: _graph_width(window) >= width / 2, timeout=WAIT_MS)
    assert window.panes["search"] is search and window.panes["editor"] is editor and window.panes["graph"] is graph
    assert search.box.text() == "Grace"
    assert editor.page.title.text() == "Grace" and editor.stack.currentWidget() is editor.page
    assert all(dock.isVisible() for dock in window.docks.values())


def test_at_launch_the_graph_shows_the_memory_not_a_selected_insights_evidence(qtbot, window: MainWindow,  # noqa: ANN001
                                                                               core: Core) -> None:
    _open(qtbot, window, core, 1600)
    graph, insights = window.panes["graph"], window.panes["insights"]
    qtbot.waitUntil(lambda: graph.request is not None and graph.snapshot is not None, timeout=WAIT_MS)
    # The insights pane selects an insight by itself as it loads: the graph stays on the memory.
    window.panes["search"].box.setFocus()
    insights.evidence_requested.emit(["Ada", "Grace"])
    assert graph.request.kind == "overview"
    # The user picking an insight (the focus is in the insights pane) shows its evidence.
    insights.setFocus()
    qtbot.waitUntil(lambda: insights.hasFocus() or insights.isAncestorOf(qtbot_focus()), timeout=WAIT_MS)
    insights.evidence_requested.emit(["Ada", "Grace"])
    assert graph.request.kind == "subgraph" and set(graph.request.names) == {"Ada", "Grace"}


def qtbot_focus():  # noqa: ANN201
    from PySide6.QtWidgets import QApplication

    return QApplication.focusWidget()
