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
