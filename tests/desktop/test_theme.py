"""Light and dark themes: text fields keep a visible edge on the dark palette."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QLineEdit, QPlainTextEdit, QSpinBox, QWidget

from desktop.theme import apply_theme


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[None]:
    apply_theme(qapp, "dark")
    yield
    apply_theme(qapp, "light")


def _contrast(a: QColor, b: QColor) -> int:
    return abs(a.lightness() - b.lightness())


@pytest.mark.parametrize("kind", [QLineEdit, QSpinBox, QPlainTextEdit])
def test_dark_text_fields_have_a_visible_border(qtbot, dark: None, kind: type[QWidget]) -> None:  # noqa: ANN001
    """Issue 22: in the dark theme, text fields had no visible border."""
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(320, 120)
    field = kind(host)
    field.setGeometry(20, 20, 240, 60 if kind is QPlainTextEdit else 28)
    host.show()
    qtbot.waitExposed(host)
    image = host.grab().toImage()
    base = field.palette().base().color()
    around = host.palette().window().color()
    middle_y = field.y() + field.height() // 2
    edge = max((QColor(image.pixel(x, middle_y)) for x in range(field.x(), field.x() + 3)),
               key=lambda c: _contrast(c, base))
    assert _contrast(edge, base) >= 40 and _contrast(edge, around) >= 40, (edge.name(), base.name(), around.name())
