"""The desktop app's toolkit works here: Qt loads offscreen (setup installs the system libraries
it needs) and renders a widget. Catches a machine set up without them before any pane exists."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel


def test_a_widget_renders_offscreen(qtbot) -> None:  # noqa: ANN001
    label = QLabel("Hipocampo — memoria 🧠")
    label.setStyleSheet("background: white; color: black; font-size: 24px;")
    label.resize(320, 60)
    qtbot.addWidget(label)
    image = QImage(label.size(), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    label.render(image)
    dark = sum(1 for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)
               if QColor(image.pixel(x, y)).lightness() < 128)
    assert dark > 20  # the text was drawn: fonts and the raster engine work
    assert label.text().endswith("🧠") and label.alignment() & Qt.AlignmentFlag.AlignLeft


def test_qt_bindings_keep_their_references_to_none() -> None:
    """PySide6 6.12.0 dropped a reference to None on every call returning nothing; on Python 3.11
    a few thousand calls freed None and aborted the process (pyproject.toml keeps it below 6.12)."""
    import sys

    from PySide6.QtCore import QObject

    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(1000):
        probe.setObjectName("probe")
    assert before - sys.getrefcount(None) < 10
