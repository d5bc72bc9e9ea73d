"""The graph pane over a real SQLite memory: neighbourhoods by hops, a capped overview with type
groups, click and double-click, an insight's evidence, live refresh, the empty state, dark palette."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette

from core.memory import Memory
from core.settings import Settings
from desktop.graph.bench import measure_pan_zoom_fps
from desktop.graph.data import COMMUNITIES, OVERVIEW_LIMIT, OVERVIEW_PER_TYPE
from desktop.graph.layout import SPACING, force_layout
from desktop.graph.pane import GraphPane
from desktop.shared.type_colours import OTHER_COLOUR, PALETTE, type_colour
from desktop.workers import Core

WAIT_MS = 20_000

# A chain A – B – C – D – E with a side branch B – X and a loner.
CHAIN = [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E"), ("B", "X")]


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"))
    yield memory
    memory.close()


@pytest.fixture
def chain(memory: Memory) -> Memory:
    memory.create_entities([{"name": n, "entityType": "Person" if n in "AE" else "Project"} for n in "ABCDEX"]
                           + [{"name": "Loner", "entityType": "Concept"}])
    memory.create_relations([{"from": a, "to": b, "relationType": "KNOWS"} for a, b in CHAIN])
    return memory


@pytest.fixture
def pane(qtbot, core: Core) -> GraphPane:  # noqa: ANN001
    pane = GraphPane(core)
    qtbot.addWidget(pane)
    pane.resize(900, 640)
    pane.show()
    return pane


def _shown(qtbot, pane: GraphPane, action) -> set[str]:  # noqa: ANN001
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        action()
    return pane.shown_names()


def _node_point(pane: GraphPane, name: str) -> QPoint:
    return pane.view.mapFromScene(pane.view.nodes[name].pos())


def test_neighbourhood_grows_with_hops(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    assert _shown(qtbot, pane, lambda: pane.show_entity("A", hops=1)) == {"A", "B"}
    assert pane.selected_name() == "A"
    assert _shown(qtbot, pane, lambda: pane.show_entity("A", hops=2)) == {"A", "B", "C", "X"}
    assert _shown(qtbot, pane, lambda: pane.show_entity("A", hops=3)) == {"A", "B", "C", "D", "X"}
    assert {(a, b) for a, b, _ in pane.view.edges} == {("A", "B"), ("B", "C"), ("C", "D"), ("B", "X")}
    # The hops selector redraws the same entity.
    assert _shown(qtbot, pane, lambda: pane.hops.setCurrentIndex(0)) == {"A", "B"}
    assert "A" in pane.caption.text()


def test_overview_of_a_large_memory_draws_its_communities_and_opens_one(qtbot, pane: GraphPane,
                                                                        memory: Memory) -> None:  # noqa: ANN001
    types = ["Person", "Project", "Concept", "Technology", "Decision"]
    memory.create_entities([{"name": f"E{i}", "entityType": types[i % 5]} for i in range(4990)]
                           + [{"name": f"Rare {i}", "entityType": "Client"} for i in range(10)])
    # Hubs: E0..E49 are each related to 40 others; rare Clients have no relations at all.
    memory.create_relations([{"from": f"E{h}", "to": f"E{50 + h * 40 + k}", "relationType": "HAS"}
                             for h in range(50) for k in range(40)])
    shown = _shown(qtbot, pane, pane.show_overview)
    # Not a few hundred of 5,000 dots: the largest communities, each named after its hub.
    groups = pane.groups()
    assert len(shown) == COMMUNITIES and set(groups) == shown
    assert shown <= {f"E{h}" for h in range(50)} and set(groups.values()) == {41}
    assert all(pane.view.nodes[n].label.text == f"{n} · 41" for n in shown)
    assert f"{COMMUNITIES} groups" in pane.caption.text() and "18 smaller groups" in pane.caption.text()
    assert pane.legend.isVisible() and set(pane.legend.types()) == {*types, "Client"}
    # A live write into one group redraws the groups where they were.
    before = pane.view.positions()
    last = memory.latest_change_id()
    memory.create_entities([{"name": "Newcomer", "entityType": "Person"}])
    memory.create_relations([{"from": "Newcomer", "to": "E3", "relationType": "KNOWS"}])
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        pane.on_changes(memory.changes_since(last))
    pane.view._stop_animation()
    after = pane.view.positions()
    assert all(math.dist(before[n], after[n]) < 1.0 for n in set(before) & set(after))
    # A double-click opens the group: its hub and its 40 members, related.
    hub = next(iter(shown))
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        qtbot.mouseDClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=_node_point(pane, hub))
    members = pane.shown_names()
    assert pane.request.kind == "community" and hub in members and len(members) in (41, 42)  # the newcomer
    assert len(pane.view.edges) == len(members) - 1 and not pane.groups()
    # The ranked overview (most recalled) is still capped, with every type on it.
    ranked = _shown(qtbot, pane, lambda: pane.show_overview(by="access"))
    assert len(ranked) == OVERVIEW_LIMIT  # 300 of 5,000
    assert {pane.view.nodes[n].entity_type for n in ranked} == {*types, "Client"}
    assert sum(1 for n in ranked if n.startswith("Rare")) == OVERVIEW_PER_TYPE
    # Clicking a type in the legend shows that type alone.
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        pane.on_legend_type_clicked("Client")
    assert pane.shown_names() == {f"Rare {i}" for i in range(10)}


def test_a_memory_that_fits_once_archived_entities_are_left_out_is_drawn_whole(qtbot, pane: GraphPane,  # noqa: ANN001
                                                                                memory: Memory) -> None:
    """More entities than the overview draws, counting the archived ones (insights awaiting review
    are archived entities): every live one is drawn, each in its own place, not communities."""
    memory.create_entities([{"name": f"N{i}", "entityType": "Thing"} for i in range(OVERVIEW_LIMIT + 5)])
    memory.create_relations([{"from": f"N{i}", "to": f"N{i + 1}", "relationType": "NEXT"} for i in range(20)])
    for i in range(10):
        memory.archive_node(f"N{OVERVIEW_LIMIT - 6 + i}")
    shown = _shown(qtbot, pane, pane.show_overview)
    assert len(shown) == OVERVIEW_LIMIT - 5 and not pane.groups()
    assert len({(p.x(), p.y()) for p in (node.pos() for node in pane.view.nodes.values())}) == len(shown)


def test_click_selects_and_activates(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("B", hops=1))
    with qtbot.waitSignal(pane.entity_activated, timeout=WAIT_MS) as signal:
        qtbot.mouseClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=_node_point(pane, "C"))
    assert signal.args == ["C"]
    assert pane.selected_name() == "C"
    # Empty space pans; it opens nothing.
    with qtbot.assertNotEmitted(pane.entity_activated, wait=100):
        qtbot.mouseClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(2, 2))


def test_double_click_expands_and_keeps_what_was_shown(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("A", hops=1))
    before = {n: pane.view.nodes[n].pos() for n in ("A", "B")}
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        qtbot.mouseDClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=_node_point(pane, "B"))
    assert pane.shown_names() == {"A", "B", "C", "X"}
    qtbot.waitUntil(lambda: all(pane.view.nodes[n].pos() == p for n, p in before.items()), timeout=WAIT_MS)
    _shown(qtbot, pane, lambda: pane.on_node_double_clicked("C"))
    assert pane.shown_names() == {"A", "B", "C", "X", "D"}
    assert "expanded" in pane.caption.text()


def test_show_subgraph_shows_exactly_the_names(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    shown = _shown(qtbot, pane, lambda: pane.show_subgraph(["B", "C", "E", "Loner", "No such entity"]))
    assert shown == {"B", "C", "E", "Loner"}
    assert [(a, b) for a, b, _ in pane.view.edges] == [("B", "C")]
    assert pane.caption.text().startswith("Evidence")


def test_live_change_adds_the_new_node_and_keeps_the_zoom(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("A", hops=1))
    pane.view.zoom_by(1.7)
    zoom = pane.view.zoom()
    last = chain.latest_change_id()
    chain.create_entities([{"name": "Newcomer", "entityType": "Person"}])
    chain.create_relations([{"from": "Newcomer", "to": "A", "relationType": "KNOWS"}])
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        pane.on_changes(chain.changes_since(last))
    assert pane.shown_names() == {"A", "B", "Newcomer"}
    assert pane.view.zoom() == pytest.approx(zoom)
    # A write that touches nothing shown redraws nothing.
    last = chain.latest_change_id()
    chain.add_observations([{"entityName": "E", "contents": ["far away"]}])
    with qtbot.assertNotEmitted(pane.view_changed, wait=800):
        pane.on_changes(chain.changes_since(last))
    # Deleting the entity in view falls back to the overview, saying why.
    last = chain.latest_change_id()
    chain.delete_entities(["A"])
    with qtbot.waitSignal(pane.status_message, timeout=WAIT_MS) as said:
        pane.on_changes(chain.changes_since(last))
    assert "A" in said.args[0]
    qtbot.waitUntil(lambda: pane.request is not None and pane.request.kind == "overview", timeout=WAIT_MS)


def test_renaming_the_entity_in_view_follows_it(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("B", hops=1))
    where = pane.view.nodes["B"].pos()
    last = chain.latest_change_id()
    chain.rename_entity("B", "Bea")
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        pane.on_changes(chain.changes_since(last))
    assert pane.shown_names() == {"A", "Bea", "C", "X"}
    assert pane.selected_name() == "Bea" and "Bea" in pane.caption.text()
    qtbot.waitUntil(lambda: (pane.view.nodes["Bea"].pos() - where).manhattanLength() < 60, timeout=WAIT_MS)


def test_empty_memory_shows_the_empty_state_then_the_first_entity(qtbot, pane: GraphPane,
                                                                  memory: Memory) -> None:  # noqa: ANN001
    assert _shown(qtbot, pane, pane.show_overview) == set()
    assert pane.stack.currentWidget() is pane.empty
    assert "Nothing remembered yet" in pane.empty.text()
    assert not pane.legend.isVisible()
    last = memory.latest_change_id()
    memory.create_entities([{"name": "First memory", "entityType": "Concept"}])
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        pane.on_changes(memory.changes_since(last))
    assert pane.shown_names() == {"First memory"}
    assert pane.stack.currentWidget() is pane.view


def test_overview_button_shows_the_whole_memory(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("A", hops=1))
    shown = _shown(qtbot, pane, lambda: qtbot.mouseClick(pane.overview_button, Qt.MouseButton.LeftButton))
    assert shown == {"A", "B", "C", "D", "E", "X", "Loner"}
    assert pane.caption.text() == "All 7 entities"
    # Ranked by recall instead: the recalled entity comes first, the choice sticks.
    chain.create_entities([{"name": f"Note {i}", "entityType": "Note"} for i in range(400)]
                          + [{"name": "Quiet", "entityType": "Note"}])
    chain.create_relations([{"from": f"Note {i}", "to": "E", "relationType": "ABOUT"} for i in range(400)])
    chain.graph.record_access(list(chain.graph.ids_for(["Quiet"]).values()))
    assert "Quiet" not in _shown(qtbot, pane, lambda: pane.show_overview())  # unrelated: not connected
    _shown(qtbot, pane, lambda: pane.rank_actions["access"].trigger())
    assert pane.request is not None and pane.request.by == "access"
    assert "Quiet" in pane.shown_names() and "most recalled" in pane.caption.text()
    _shown(qtbot, pane, lambda: pane.show_overview())
    assert pane.request.by == "access"


def test_unknown_entity_says_so_and_shows_the_overview(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    with qtbot.waitSignal(pane.status_message, timeout=WAIT_MS) as said:
        pane.show_entity("Nobody", hops=9)
    assert "Nobody" in said.args[0]
    assert pane.hops.currentData() == 3  # out-of-range hops are clamped, not an error
    qtbot.waitUntil(lambda: pane.shown_names() == {"A", "B", "C", "D", "E", "X", "Loner"}, timeout=WAIT_MS)


def test_zoom_fit_and_keys(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("C", hops=3))
    fitted = pane.view.zoom()
    viewport = pane.view.viewport().rect()
    assert all(viewport.contains(_node_point(pane, n)) for n in pane.shown_names())
    qtbot.keyClick(pane.view, Qt.Key.Key_Plus)
    assert pane.view.zoom() > fitted
    qtbot.keyClick(pane.view, Qt.Key.Key_Minus)
    qtbot.keyClick(pane.view, Qt.Key.Key_Minus)
    assert pane.view.zoom() < fitted
    qtbot.keyClick(pane.view, Qt.Key.Key_F)
    assert pane.view.zoom() == pytest.approx(fitted)
    # Enter opens the selected entity, Space expands it.
    with qtbot.waitSignal(pane.entity_activated, timeout=WAIT_MS) as signal:
        qtbot.keyClick(pane.view, Qt.Key.Key_Return)
    assert signal.args == ["C"]
    _shown(qtbot, pane, lambda: pane.show_entity("A", hops=1))
    assert _shown(qtbot, pane, lambda: qtbot.keyClick(pane.view, Qt.Key.Key_Space)) == {"A", "B"}  # A's own
    pane.view.select("B")
    assert _shown(qtbot, pane, lambda: qtbot.keyClick(pane.view, Qt.Key.Key_Space)) == {"A", "B", "C", "X"}


def test_dark_palette_repaints_the_graph(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("B", hops=2))
    dark = QPalette(pane.palette())
    dark.setColor(QPalette.ColorRole.Base, QColor("#17181a"))
    dark.setColor(QPalette.ColorRole.Text, QColor("#e8eaed"))
    pane.setPalette(dark)
    assert pane.view.backgroundBrush().color() == QColor("#17181a")
    assert pane.view.nodes["B"].label._text_colour == QColor("#e8eaed")
    assert not pane.grab().isNull()


def test_pan_zoom_measure_counts_frames_and_restores_the_view(qtbot, pane: GraphPane,
                                                              chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("C", hops=3))
    transform = pane.view.transform()
    assert measure_pan_zoom_fps(pane, 0.2) > 0
    assert pane.view.transform() == transform


def test_layout_keeps_pinned_nodes_and_places_new_ones_near_their_neighbour() -> None:
    first = force_layout(["a", "b", "c"], [("a", "b"), ("b", "c")])
    assert set(first) == {"a", "b", "c"} and len(set(first.values())) == 3
    grown = force_layout(["a", "b", "c", "d"], [("a", "b"), ("b", "c"), ("c", "d")], known=first, pin_known=True)
    for name in "abc":
        assert grown[name] == pytest.approx(first[name])
    assert force_layout([], []) == {}
    assert force_layout(["solo"], [], known={"solo": (5.0, 6.0)}) == {"solo": (5.0, 6.0)}
    # Nodes without a relation line up under the others, in the order given.
    lined = force_layout(["a", "b", "c", "p", "q"], [("a", "b"), ("b", "c")])
    assert lined["p"][1] == lined["q"][1] > max(lined[n][1] for n in "abc")
    assert lined["p"][0] < lined["q"][0]


def test_layout_packs_separate_groups_under_the_largest_and_spaces_nodes_evenly() -> None:
    ring = [f"r{i}" for i in range(40)]
    edges = [(ring[i], ring[(i + 1) % 40]) for i in range(40)] + [(f"p{k}a", f"p{k}b") for k in range(6)]
    pairs = [f"p{k}{side}" for k in range(6) for side in "ab"]
    laid = force_layout(ring + pairs, edges)
    main_x = [laid[n][0] for n in ring]
    main_bottom = max(laid[n][1] for n in ring)
    assert all(laid[n][1] > main_bottom for n in pairs)
    spread = max(p[0] for p in laid.values()) - min(p[0] for p in laid.values())
    assert spread <= 2 * (max(main_x) - min(main_x))
    # A dense graph and a sparse one end up with nodes about as far apart.
    dense = force_layout([f"d{i}" for i in range(200)],
                         [(f"d{i}", f"d{j}") for i in range(200) for j in (i * 7 % 200, i * 13 % 200) if i != j])
    nearest = sorted(min(math.dist(p, q) for m, q in dense.items() if m != n) for n, p in dense.items())
    assert 0.5 * SPACING < nearest[len(nearest) // 2] < 2 * SPACING



def _label_rects(pane: GraphPane) -> dict[str, tuple[float, float, float, float]]:
    """Each visible label's rectangle on screen (left, top, right, bottom), in pixels."""
    out = {}
    for name, node in pane.view.nodes.items():
        label = node.label
        if label.isVisible():
            at = pane.view.mapFromScene(label.scenePos())
            r = label.boundingRect()
            out[name] = (at.x() + r.left(), at.y() + r.top(), at.x() + r.right(), at.y() + r.bottom())
    return out


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def test_a_neighbourhood_shows_every_name_without_overlaps(qtbot, pane: GraphPane, memory: Memory) -> None:  # noqa: ANN001
    """The view a user opens most: one entity and its neighbours. Every name is shown, the entity's
    own included, and no label covers another label or another entity's disc."""
    around = ["Support decision", "Kafka", "PostgreSQL", "Grace Hopper", "Search problem 72", "Redis",
              "Redis memory spikes", "Duplicate invoices", "Payments"]
    memory.create_entities([{"name": n, "entityType": "Project" if n == "Billing service" else "Thing"}
                            for n in ["Billing service", *around]])
    memory.create_relations([{"from": "Billing service", "to": n, "relationType": "USES"} for n in around])
    assert _shown(qtbot, pane, lambda: pane.show_entity("Billing service")) == {"Billing service", *around}
    labels = _label_rects(pane)
    assert set(labels) == {"Billing service", *around}
    names = sorted(labels)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not _overlap(labels[a], labels[b]), (a, b)
        for other, node in pane.view.nodes.items():
            if other != a:
                disc = pane.view.mapFromScene(node.disc.sceneBoundingRect()).boundingRect()
                assert not _overlap(labels[a], (disc.left(), disc.top(), disc.right(), disc.bottom())), (a, other)


def test_in_a_crowd_the_entity_in_view_keeps_its_name_clear(qtbot, pane: GraphPane, memory: Memory) -> None:  # noqa: ANN001
    """Too many neighbours to name them all: some names are left out, never the entity's own, and
    no name shown covers another."""
    around = [f"Neighbour with a long name {i}" for i in range(60)]
    memory.create_entities([{"name": n, "entityType": "Thing"} for n in ["Hub", *around]])
    memory.create_relations([{"from": "Hub", "to": n, "relationType": "USES"} for n in around])
    _shown(qtbot, pane, lambda: pane.show_entity("Hub"))
    for _ in range(3):  # as laid out, then zoomed out twice
        labels = _label_rects(pane)
        assert "Hub" in labels and len(labels) < 61
        names = sorted(labels)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                assert not _overlap(labels[a], labels[b]), (a, b)
        pane.view.zoom_by(0.6)
        pane.view.update_labels()


def _global_rect(widget, rect) -> tuple[float, float, float, float]:  # noqa: ANN001
    top_left = widget.mapToGlobal(rect.topLeft())
    return (top_left.x(), top_left.y(), top_left.x() + rect.width(), top_left.y() + rect.height())


def test_the_legend_never_covers_a_node_or_a_name(qtbot, pane: GraphPane, memory: Memory) -> None:  # noqa: ANN001
    names = [f"Entity number {i}" for i in range(150)]
    memory.create_entities([{"name": n, "entityType": f"Type {i % 6}"} for i, n in enumerate(names)])
    memory.create_relations([{"from": names[i], "to": names[(i * 7 + 1) % 150], "relationType": "KNOWS"}
                             for i in range(150)])
    _shown(qtbot, pane, pane.show_overview)
    assert pane.legend.isVisible()
    legend = _global_rect(pane.legend, pane.legend.rect())
    viewport = pane.view.viewport()
    for zoom, pan in ((1.0, 0), (1.5, 0), (1.5, -300), (0.5, 200)):
        pane.view.zoom_by(zoom)
        pane.view.horizontalScrollBar().setValue(pane.view.horizontalScrollBar().value() + pan)
        pane.view.update_labels()
        for name, node in pane.view.nodes.items():
            disc = pane.view.mapFromScene(node.disc.sceneBoundingRect()).boundingRect() & viewport.rect()
            if not disc.isEmpty():  # the part drawn: the view clips the rest
                assert not _overlap(_global_rect(viewport, disc), legend), name
        for name, (left, top, right, bottom) in _label_rects(pane).items():
            at = viewport.mapToGlobal(QPoint(0, 0))
            assert not _overlap((left + at.x(), top + at.y(), right + at.x(), bottom + at.y()), legend), name


def test_names_are_never_clipped_at_the_edge(qtbot, pane: GraphPane, memory: Memory) -> None:  # noqa: ANN001
    """Long names of nodes at the picture's edges, as fitted and after panning them to the view's
    edge: every name shown is whole inside the view."""
    around = [f"A rather long entity name number {i}" for i in range(14)]
    memory.create_entities([{"name": n, "entityType": "Thing"} for n in ["Centre", *around]])
    memory.create_relations([{"from": "Centre", "to": n, "relationType": "USES"} for n in around])
    _shown(qtbot, pane, lambda: pane.show_entity("Centre"))
    width, height = pane.view.viewport().width(), pane.view.viewport().height()

    def check() -> None:
        labels = _label_rects(pane)
        assert "Centre" in labels
        for name, (left, top, right, bottom) in labels.items():
            assert left >= 0 and top >= 0 and right <= width and bottom <= height, (name, left, right, top, bottom)

    check()
    for dx, dy in ((260, 0), (-520, 0), (260, 200), (0, -400)):
        pane.view.horizontalScrollBar().setValue(pane.view.horizontalScrollBar().value() + dx)
        pane.view.verticalScrollBar().setValue(pane.view.verticalScrollBar().value() + dy)
        pane.view.update_labels()
        check()


def test_live_writes_and_expanding_keep_what_is_shown_in_place(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("C", hops=2))
    before = pane.view.positions()
    last = chain.latest_change_id()
    chain.create_entities([{"name": "Newcomer", "entityType": "Person"}])
    chain.create_relations([{"from": "Newcomer", "to": "D", "relationType": "KNOWS"}])
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        pane.on_changes(chain.changes_since(last))
    pane.view._stop_animation()
    after = pane.view.positions()
    assert set(after) == {*before, "Newcomer"}
    assert all(math.dist(before[n], after[n]) < 1.0 for n in before), {n: (before[n], after[n]) for n in before}
    # The newcomer settles beside its neighbour, not somewhere across the picture.
    assert math.dist(after["Newcomer"], after["D"]) < 3 * SPACING
    # Expanding (a double-click) adds around the node and moves nothing already there.
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        qtbot.mouseDClick(pane.view.viewport(), Qt.MouseButton.LeftButton, pos=_node_point(pane, "D"))
    pane.view._stop_animation()
    expanded = pane.view.positions()
    assert "E" in expanded
    assert all(math.dist(after[n], expanded[n]) < 1.0 for n in after)
    assert math.dist(expanded["E"], expanded["D"]) < 3 * SPACING


def test_the_twelve_most_used_types_have_distinct_colours_whatever_their_case(qtbot, pane: GraphPane,  # noqa: ANN001
                                                                            memory: Memory) -> None:
    """Lower-case types an assistant writes (they used to share colours), the 12 most used of them
    each distinct; the rest grey."""
    common = ["person", "organization", "technology", "preference", "plan", "note", "todo", "decision",
              "Person", "project", "idea", "event"]
    memory.create_entities([{"name": f"{t} {i}", "entityType": t} for k, t in enumerate(common)
                            for i in range(20 - k)] + [{"name": "odd one", "entityType": "misc"}])
    _shown(qtbot, pane, pane.show_overview)
    colours = {t: pane.view.nodes[f"{t} 0"].disc.brush().color().name() for t in common}
    assert len(set(colours.values())) == 12, colours
    assert pane.view.nodes["odd one"].disc.brush().color().name() == QColor(OTHER_COLOUR).name()
    assert colours["Person"] != colours["person"]
    assert {c.lower() for c in colours.values()} == {c.lower() for c in PALETTE}
    # The same colours in the legend and in the other panes (the search list's type filter).
    assert type_colour("note").name() == colours["note"]


def test_a_renamed_entity_is_labelled_by_its_new_name(qtbot, pane: GraphPane, chain: Memory) -> None:  # noqa: ANN001
    _shown(qtbot, pane, lambda: pane.show_entity("A", hops=2))
    last = chain.latest_change_id()
    chain.rename_entity("C", "Carmen")
    with qtbot.waitSignal(pane.view_changed, timeout=WAIT_MS):
        pane.on_changes(chain.changes_since(last))
    node = pane.view.nodes["Carmen"]
    assert node.label.text == "Carmen" and "Carmen" in node.disc.toolTip()
    assert node.disc.data(0) == "Carmen" and "C" not in pane.shown_names()
