"""How fluid the graph pane's pan and zoom are: frames per second while the view moves.

``bench/desktop_bench.py`` calls :func:`measure_pan_zoom_fps` on a pane showing ~2,000 nodes; the
goal is ≥ 30 frames/s. Each frame changes the view's transform (a zoom step and a pan step) and
then paints the whole viewport, as a real frame on screen would be painted.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QPoint
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QWidget

from desktop.graph.view import GraphView


def measure_pan_zoom_fps(view_or_pane: QWidget, seconds: float = 3.0) -> float:
    """Frames per second of pan + zoom on ``view_or_pane`` (a GraphView or a GraphPane), rendered
    offscreen for ``seconds``; the view's transform and scroll position are restored afterwards."""
    view: GraphView = getattr(view_or_pane, "view", view_or_pane)  # type: ignore[assignment]  # a pane or a view
    viewport = view.viewport()
    image = QImage(viewport.size(), QImage.Format.Format_ARGB32_Premultiplied)
    transform = view.transform()
    scroll = QPoint(view.horizontalScrollBar().value(), view.verticalScrollBar().value())
    frames = 0
    start = time.perf_counter()
    try:
        while (elapsed := time.perf_counter() - start) < seconds or frames == 0:
            phase = frames % 60
            factor = 1.02 if phase < 30 else 1 / 1.02  # zoom in for half a second, then out
            view.scale(factor, factor)
            step = 6 if (frames // 15) % 2 == 0 else -6  # and pan back and forth meanwhile
            view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + step)
            view.verticalScrollBar().setValue(view.verticalScrollBar().value() + step // 2)
            painter = QPainter(image)
            view.render(painter)
            painter.end()
            frames += 1
    finally:
        view.setTransform(transform)
        view.horizontalScrollBar().setValue(scroll.x())
        view.verticalScrollBar().setValue(scroll.y())
    return frames / max(elapsed, 1e-9)
