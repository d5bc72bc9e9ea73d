"""Issue 22: "toolbar texts clipped". At the sizes a laptop gives the window, in English and Spanish,
no toolbar or pane button shows less than its whole text (a button too narrow elides it, and the
tooltip then carries the whole text)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QAbstractButton, QApplication, QLineEdit, QPushButton, QToolButton

from core.memory import Memory
from core.settings import Settings
from desktop.app import install_translations
from desktop.workers import ChangeFeed, Core

SIZES = [(1280, 800), (1024, 768)]


def clipped(window) -> list[str]:  # noqa: ANN001
    """Every shown button whose text is wider than the room its style gives it."""
    out = []
    for button in window.findChildren(QAbstractButton):
        if not isinstance(button, QToolButton | QPushButton) or not button.isVisible() or not button.text():
            continue
        text = button.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        needed = button.fontMetrics().horizontalAdvance(text)
        room = button.width() - (button.sizeHint().width() - needed)  # the hint is text + the style's margins
        if needed > room + 1:
            out.append(f"{text!r}: {needed} px of text in a {button.width()} px button (room {room})")
    return out


@pytest.mark.parametrize("language", ["en", "es"])
def test_no_button_text_is_clipped(qtbot, qapp: QApplication, tmp_path: Path, language: str) -> None:  # noqa: ANN001
    from desktop.main_window import MainWindow
    from scripts.demo_memory import generate

    installed = install_translations(qapp, QLocale(QLocale.Language.Spanish if language == "es"
                                                   else QLocale.Language.English))
    db = generate(tmp_path / "demo.db", 60)
    memory = Memory(Settings(db=db, embeddings="none", actor="gui"))
    core = Core(memory)
    window = MainWindow()
    qtbot.addWidget(window)
    try:
        window.attach(core, ChangeFeed(memory), None)
        window.show()
        name = memory.read_graph().entities[0].name
        window.open_entity(name)
        editor = window.panes["editor"]
        qtbot.waitUntil(lambda: name in [w.text() for w in editor.findChildren(QLineEdit)], timeout=20_000)
        for width, height in SIZES:
            window.resize(width, height)
            window.reset_layout()
            qtbot.waitUntil(lambda w=width: window.width() == w, timeout=10_000)
            for _ in range(3):  # the docks' sizes, then the layouts inside them
                qapp.processEvents()
            for tab in ("insights", "activity"):  # the two share a tabbed dock at these sizes
                window.docks[tab].raise_()
                for _ in range(3):
                    qapp.processEvents()
                shots = os.environ.get("HIPOCAMPO_SHOTS")
                if shots:
                    window.grab().save(str(Path(shots) / f"window-{width}x{height}-{language}-{tab}.png"))
                assert not clipped(window), f"{width}×{height} {language} {tab}: {clipped(window)}"
    finally:
        window.detach()
        core.shutdown()
        memory.close()
        for translator in installed:
            qapp.removeTranslator(translator)


def test_the_graph_caption_ends_in_an_ellipsis_when_the_graph_is_narrow(qtbot) -> None:  # noqa: ANN001
    """The graph's toolbar caption ("Ada Lovelace: 8 entities 1 hop away") was cut mid-word when the
    graph was narrow; now it is elided and its tooltip holds all of it."""
    from desktop.graph.pane import ElidedLabel

    label = ElidedLabel()
    qtbot.addWidget(label)
    text = "Ada Lovelace: 8 entidades a 1 salto, de las que 3 se ampliaron"
    label.setText(text)
    label.resize(120, 24)
    label.show()
    shown = label.shown_text()
    assert shown.endswith("…") and text.startswith(shown[:-1])
    assert label.fontMetrics().horizontalAdvance(shown) <= label.contentsRect().width()
    assert label.toolTip() == text and label.text() == text
    label.resize(label.fontMetrics().horizontalAdvance(text) + 20, 24)
    assert label.shown_text() == text
