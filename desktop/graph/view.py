"""The graph pane's canvas: a QGraphicsView that draws a laid-out snapshot and lets the user zoom
(wheel around the cursor, +/-), pan (drag, arrow keys), fit (F), click a node (or Enter on the
selected one) and double-click it (or Space)."""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, QTimer, QVariantAnimation, Signal
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPainterPath, QPen, QTransform, QWheelEvent
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene, QGraphicsView, QWidget

from desktop.graph.data import GraphSnapshot
from desktop.graph.items import GraphStyle, LabelItem, NodeItem
from desktop.graph.items import label_height as _label_height
from desktop.graph.layout import Point

MIN_SCALE = 0.02
MAX_SCALE = 6.0
FIT_MAX_SCALE = 1.4  # fitting three nodes should not blow them up to fill the screen
MIN_LABEL_ZOOM = 0.2  # zoomed out further, only the best-connected nodes are labelled
ALWAYS_LABELLED = 24  # …these ones
LABEL_CELL_PX = 60  # grid for finding overlapping labels quickly
MAX_LABELS = 150  # more names than this on screen is clutter, not information
LABEL_DELAY_MS = 60
EDGE_PX = 2.0  # a label keeps this far from the view's edge
WHEEL_STEP = 1.0015  # per 1/8 degree of wheel turn: one notch (120) zooms by ≈ 20 %
KEY_STEP = 1.25
FIT_MARGIN_PX = 16.0  # empty pixels round a fitted picture
STRONG_EDGES_FULL = 40  # up to this many relations of the selected node are drawn fully strong


class GraphView(QGraphicsView):
    """Nodes and relations of one :class:`GraphSnapshot`, with zoom, pan, fit and selection."""

    node_clicked = Signal(str)
    node_double_clicked = Signal(str)

    def __init__(self, style: GraphStyle, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        scene = QGraphicsScene(self)
        # Measured: a BSP index keeps a 2,000-node frame at ≈ 50 frames/s offscreen while panning.
        scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.setScene(scene)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setOptimizationFlags(QGraphicsView.OptimizationFlag.DontSavePainterState
                                  | QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.style_ = style
        self.nodes: dict[str, NodeItem] = {}
        self.edges: list[tuple[str, str, str]] = []
        self.selected: str | None = None
        self._important: set[str] = set()
        self._animation: QVariantAnimation | None = None
        self._ranked: list[NodeItem] = []
        self._hovered: str | None = None
        self.overlays: list[QWidget] = []  # widgets drawn over the view (the legend): no label goes under them
        self._label_timer = QTimer(self)
        self._label_timer.setSingleShot(True)
        self._label_timer.setInterval(LABEL_DELAY_MS)
        self._label_timer.timeout.connect(self.update_labels)
        self.setBackgroundBrush(style.background)
        self._strong_count = 0
        self._edge_item = QGraphicsPathItem()
        self._edge_item.setZValue(0)
        self._strong_item = QGraphicsPathItem()
        self._strong_item.setZValue(1)
        scene.addItem(self._edge_item)
        scene.addItem(self._strong_item)
        self._style_edges()

    # -- content ------------------------------------------------------------------------------

    def set_snapshot(self, snap: GraphSnapshot, *, animate: bool = True) -> None:
        """Show ``snap``: nodes already shown glide to their new place, new ones appear, gone ones go."""
        self._stop_animation()
        scene = self.scene()
        for name in [n for n in self.nodes if n not in snap.types]:
            self.nodes.pop(name).remove_from(scene)
        moves: dict[str, tuple[QPointF, QPointF]] = {}
        for name, etype in snap.types.items():
            x, y = snap.positions.get(name, (0.0, 0.0))
            target = QPointF(x, y)
            node = self.nodes.get(name)
            degree = snap.degree.get(name, 0)
            focus = name == snap.focus
            group = snap.groups.get(name, 0)
            kinds = snap.group_types.get(name)
            changed = node is not None and (node.group != group or (group and kinds != node.group_types))
            if node is None or node.entity_type != etype or changed:
                if node is not None:
                    node.remove_from(scene)
                node = NodeItem(name, etype, degree, self.style_, focus, group, kinds)
                node.set_pos(target)
                node.add_to(scene)
                self.nodes[name] = node
            else:
                node.degree, node.focus = degree, focus
                node.restyle(self.style_)
                if node.pos() != target:
                    moves[name] = (node.pos(), target)
                    if not animate:
                        node.set_pos(target)
        self.edges = list(snap.edges)
        self._ranked = sorted(self.nodes.values(), key=lambda n: (not n.focus, -n.degree, n.name))
        # Every community is named; of entities, the best-connected few.
        self._important = {n.name for n in self._ranked[:ALWAYS_LABELLED]} | {n.name for n in self._ranked if n.group}
        if self.selected not in self.nodes:
            self.selected = None
        self.select(self.selected)
        self._grow_scene_rect()
        if moves and animate:
            self._animate(moves)
        self._draw_edges()
        self._labels_soon()

    def _draw_edges(self) -> None:
        """All relations as one path (measured: 3× the frame rate of one item per line), and the
        selected node's relations as a second, stronger one."""
        every, strong = QPainterPath(), QPainterPath()
        nodes, selected = self.nodes, self.selected
        strong_count = 0
        for source, target, _ in self.edges:
            a, b = nodes[source].pos(), nodes[target].pos()
            if selected in (source, target):
                path = strong
                strong_count += 1
            else:
                path = every
            path.moveTo(a)
            path.lineTo(b)
        self._edge_item.setPath(every)
        self._strong_item.setPath(strong)
        if strong_count != self._strong_count:
            self._strong_count = strong_count
            self._style_edges()

    def rename(self, renames: Mapping[str, str]) -> None:
        """Entities renamed elsewhere: their nodes keep their place until the next picture arrives."""
        for old, new in renames.items():
            node = self.nodes.pop(old, None)
            if node is None:
                continue
            if new in self.nodes:  # merged into one already shown
                node.remove_from(self.scene())
            else:
                node.rename(new)
                self.nodes[new] = node
        self.edges = [e for e in ((renames.get(a, a), renames.get(b, b), t) for a, b, t in self.edges)
                      if e[0] in self.nodes and e[1] in self.nodes]
        self.selected = renames.get(self.selected, self.selected) if self.selected else None
        self._ranked = [n for n in self._ranked if self.nodes.get(n.name) is n]
        self._draw_edges()
        self._labels_soon()

    def positions(self) -> dict[str, Point]:
        """Where each shown node is now (the next layout starts from here)."""
        return {name: (node.pos().x(), node.pos().y()) for name, node in self.nodes.items()}

    def clear(self) -> None:
        self._stop_animation()
        for node in self.nodes.values():
            node.remove_from(self.scene())
        self.nodes, self.edges, self.selected, self._ranked = {}, [], None, []
        self._draw_edges()

    def restyle(self, style: GraphStyle) -> None:
        self.style_ = style
        self.setBackgroundBrush(style.background)
        for node in self.nodes.values():
            node.restyle(style)
        self._style_edges()

    def _style_edges(self) -> None:
        # A hub's hundreds of relations drawn strong would flood the picture: fainter when many.
        strong = QColor(self.style_.edge_strong)
        if self._strong_count > STRONG_EDGES_FULL:
            strong.setAlpha(max(70, int(strong.alpha() * STRONG_EDGES_FULL / self._strong_count)))
        strong_width = 2.0 if self._strong_count <= STRONG_EDGES_FULL else 1.2
        for item, colour, width in ((self._edge_item, self.style_.edge, 1.0),
                                    (self._strong_item, strong, strong_width)):
            pen = QPen(colour, width)
            pen.setCosmetic(True)
            item.setPen(pen)

    def select(self, name: str | None) -> None:
        """Ring ``name`` and strengthen its relations (``None`` clears the selection)."""
        previous = self.nodes.get(self.selected) if self.selected else None
        if previous is not None:
            previous.selected = False
            previous.restyle(self.style_)
        self.selected = name if name in self.nodes else None
        node = self.nodes.get(self.selected) if self.selected else None
        if node is not None:
            node.selected = True
            node.restyle(self.style_)
        self._draw_edges()
        self._labels_soon()

    # -- zoom, pan, fit ------------------------------------------------------------------------

    def zoom(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float, *, under_mouse: bool = False) -> None:
        """Zoom by ``factor``, around the cursor or the centre, within sensible bounds."""
        target = min(MAX_SCALE, max(MIN_SCALE, self.zoom() * factor))
        if target == self.zoom():
            return
        if not under_mouse:
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.scale(target / self.zoom(), target / self.zoom())
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self._labels_soon()

    def fit(self) -> None:
        """Show every node, as large as fits (but not larger than life)."""
        if not self.nodes:
            return
        bounds = QRectF()
        for node in self.nodes.values():
            bounds = bounds.united(node.disc.sceneBoundingRect())
        # Margins in pixels (labels keep their size whatever the zoom): a little on each side (a
        # name by the edge slides inwards, see _place_label), a label's height under the lowest disc.
        side = FIT_MARGIN_PX
        label_h = _label_height()
        room_w = max(self.viewport().width() - 2 * side, 40.0)
        room_h = max(self.viewport().height() - FIT_MARGIN_PX - label_h - FIT_MARGIN_PX, 40.0)
        scale = min(room_w / max(bounds.width(), 1.0), room_h / max(bounds.height(), 1.0), FIT_MAX_SCALE)
        scale = min(MAX_SCALE, max(MIN_SCALE, scale))
        self.setTransform(QTransform.fromScale(scale, scale))
        # Centred, the label strip under the lowest discs counted in.
        centre = bounds.center() + QPointF(0, label_h / 2 / scale)
        self.centerOn(centre)
        self.update_labels()

    def update_labels(self) -> None:
        """Label as many nodes in view as fit without overlapping, the most important first; the
        selected and focused nodes always. Zooming in makes room, so more labels appear."""
        self._label_timer.stop()
        zoom = self.zoom()
        cell = LABEL_CELL_PX / zoom
        area = self.mapToScene(self.viewport().rect()).boundingRect()
        view = (area.left(), area.top(), area.right(), area.bottom())
        # Rectangles as plain tuples (left, top, right, bottom): comparing them in Python is several
        # times faster than QRectF calls, and this runs for every node after each zoom.
        taken: dict[tuple[int, int], list[tuple[float, float, float, float, bool]]] = {}
        for node in self._ranked:  # a label over another disc hides it: discs count as taken
            pos, radius = node.pos(), node.radius()
            x, y = pos.x(), pos.y()
            if view[0] - cell < x < view[2] + cell and view[1] - cell < y < view[3] + cell:
                taken.setdefault((int(x // cell), int(y // cell)), []).append(
                    (x - radius, y - radius, x + radius, y + radius, True))
        for overlay in self.overlays:
            if overlay.isVisible():
                box = self.mapToScene(overlay.geometry().translated(-self.viewport().pos())).boundingRect()
                for i in range(int(box.left() // cell), int(box.right() // cell) + 1):
                    for j in range(int(box.top() // cell), int(box.bottom() // cell) + 1):
                        taken.setdefault((i, j), []).append((box.left(), box.top(), box.right(), box.bottom(), False))
        placed = 0
        # The selected and focused names first: always shown, and the others make room for them.
        for node in sorted(self._ranked, key=lambda n: not (n.name == self.selected or n.focus)):
            label: LabelItem = node.label
            must = node.name == self.selected or node.focus
            important = node.name in self._important
            wanted = must or (placed < MAX_LABELS and (zoom >= MIN_LABEL_ZOOM or important))
            if wanted:
                wanted = self._place_label(node, zoom, cell, view, taken, important, must) or must
                placed += wanted
            label.wanted = wanted
            label.setVisible(wanted or node.name == self._hovered)

    def _place_label(self, node: NodeItem, zoom: float, cell: float, view: tuple[float, float, float, float],
                     taken: dict[tuple[int, int], list[tuple[float, float, float, float, bool]]],
                     important: bool, must: bool = False) -> bool:
        """Find room for ``node``'s label below its disc, else above, and mark it taken. The
        best-connected names may cover other discs when nothing else is free; a name that must
        show goes below its disc when neither place is free."""
        pos = node.pos()
        x, y, radius = pos.x(), pos.y(), node.radius()
        if not (view[0] < x < view[2] and view[1] < y < view[3]):
            return False  # out of sight: placed when the view pans there
        width, height = node.label.size_on_screen()
        half, tall = width / 2 / zoom, height / zoom
        # By the view's edge a name slides sideways (at most half its width) to stay whole.
        edge = EDGE_PX / zoom
        shift = max(0.0, view[0] + edge - (x - half)) - max(0.0, (x + half) - (view[2] - edge))
        shift = max(-half, min(half, shift))
        sides = [False, True]
        if y + radius + tall > view[3] - edge:  # no room below: above first (and only, if it fits)
            sides = [True] if y - radius - tall >= view[1] + edge else [True, False]
        elif y - radius - tall < view[1] + edge:
            sides = [False]
        tries: list[tuple[bool, bool | None]] = [(above, False) for above in sides]
        if important:  # they matter more than the discs they would cover; others yield
            tries += [(above, True) for above in sides]
        if must:
            tries.append((sides[0], None))
        for above, over_discs in tries:
            top = y - radius - tall if above else y + radius
            box = (x - half + shift, top, x + half + shift, top + tall)
            cells = [(i, j) for i in range(int(box[0] // cell), int(box[2] // cell) + 1)
                     for j in range(int(box[1] // cell), int(box[3] // cell) + 1)]
            clash = over_discs is not None and any(
                not (over_discs and disc) and left < box[2] and box[0] < right and up < box[3] and box[1] < down
                for c in cells for left, up, right, down, disc in taken.get(c, ()))
            if not clash:
                for c in cells:
                    taken.setdefault(c, []).append((*box, False))
                node.label.place(above, shift * zoom)
                return True
        return False

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 (Qt's name)
        super().scrollContentsBy(dx, dy)
        self._labels_soon()  # labels are placed for what is in view

    def _labels_soon(self) -> None:
        # While the wheel turns, place labels once it pauses: zooming itself stays fluid.
        self._label_timer.start()

    def _grow_scene_rect(self) -> None:
        # A scene rect far larger than the nodes lets the user drag the picture anywhere.
        bounds = QRectF()
        for node in self.nodes.values():
            bounds = bounds.united(node.disc.sceneBoundingRect())
        margin = max(bounds.width(), bounds.height(), 400) * 3
        self.setSceneRect(bounds.adjusted(-margin, -margin, margin, margin))

    def _animate(self, moves: Mapping[str, tuple[QPointF, QPointF]]) -> None:
        animation = QVariantAnimation(self)
        animation.setStartValue(0.0)
        animation.setEndValue(1.0)
        animation.setDuration(300)
        nodes = [(self.nodes[n], a, b) for n, (a, b) in moves.items()]

        def step(value: object) -> None:
            t = float(value)  # type: ignore[arg-type]  # the animation's value: a float
            for node, start, end in nodes:
                node.set_pos(start + (end - start) * t)
            self._draw_edges()

        animation.valueChanged.connect(step)
        self._animation = animation
        animation.start()

    def _stop_animation(self) -> None:
        if self._animation is not None:
            self._animation.stop()
            self._animation.setCurrentTime(self._animation.duration())
            self._animation = None

    # -- input ---------------------------------------------------------------------------------

    def node_at(self, point: QPoint) -> NodeItem | None:
        """The node (or the node whose label) is under ``point`` in viewport coordinates."""
        labelled = None
        for item in self.items(point):  # a disc wins over a name drawn across it
            found = self._node_of(item)
            if found is not None and not isinstance(item, LabelItem):
                return found
            labelled = labelled or found
        return labelled

    def _node_of(self, item: QGraphicsItem) -> NodeItem | None:
        if isinstance(item, LabelItem):
            return item.owner
        name = item.data(0)
        return self.nodes.get(name) if isinstance(name, str) else None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        # Hovering a node shows its name even where labels were left out to avoid overlaps.
        if event.buttons() == Qt.MouseButton.NoButton:
            node = self.node_at(event.position().toPoint())
            name = node.name if node is not None else None
            if name != self._hovered:
                for old in (self._hovered, name):
                    item = self.nodes.get(old) if old else None
                    if item is not None:
                        item.label.setVisible(item.label.wanted or old == name)
                self._hovered = name
        super().mouseMoveEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        node = self.node_at(event.position().toPoint()) if event.button() == Qt.MouseButton.LeftButton else None
        if node is None:
            super().mousePressEvent(event)  # drag to pan
            return
        self.select(node.name)
        self.node_clicked.emit(node.name)
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        node = self.node_at(event.position().toPoint()) if event.button() == Qt.MouseButton.LeftButton else None
        if node is None:
            super().mouseDoubleClickEvent(event)
            return
        self.node_double_clicked.emit(node.name)
        event.accept()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 (Qt's name)
        delta = event.angleDelta().y() or event.angleDelta().x()
        if delta:
            self.zoom_by(WHEEL_STEP ** delta, under_mouse=True)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(KEY_STEP)
        elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom_by(1 / KEY_STEP)
        elif key in (Qt.Key.Key_F, Qt.Key.Key_0):
            self.fit()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.selected:
            self.node_clicked.emit(self.selected)  # open it, as a click does
        elif key == Qt.Key.Key_Space and self.selected:
            self.node_double_clicked.emit(self.selected)  # expand it, as a double-click does
        else:
            super().keyPressEvent(event)
