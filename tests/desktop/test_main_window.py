"""The main window over a real memory: what its status bar counts, its Edit menu's Undo and Redo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QApplication

from core.memory import Memory
from core.settings import Settings
from desktop.app import install_translations
from desktop.main_window import MainWindow
from desktop.workers import ChangeFeed, Core

WAIT_MS = 20_000


@pytest.fixture
def english(qapp: QApplication) -> Iterator[None]:
    """English plural forms ("1 entity"), as the app installs them."""
    installed = install_translations(qapp, QLocale(QLocale.Language.English))
    yield
    for translator in installed:
        qapp.removeTranslator(translator)


def open_window(qtbot, memory: Memory) -> MainWindow:  # noqa: ANN001
    core = Core(memory)
    feed = ChangeFeed(memory)
    window = MainWindow()
    qtbot.addWidget(window)
    window.attach(core, feed, None)
    window.show()
    return window


def close_window(window: MainWindow) -> None:
    core = window.core
    window.detach()
    if core is not None:
        core.shutdown()


def test_the_status_bar_counts_what_read_graph_returns(qtbot, english: None, tmp_path: Path) -> None:  # noqa: ANN001
    """Issue 22: insights waiting for review were counted as entities (215 beside read_graph's 203)."""
    from scripts.demo_memory import generate

    db = generate(tmp_path / "demo.db", 200)
    with Memory(Settings(db=db, embeddings="none", actor="gui")) as memory:
        in_memory = len(memory.read_graph().entities)
        assert memory.health_check()["counts"]["insights"] > 0  # the demo's reflect pass proposed some
        window = open_window(qtbot, memory)
        try:
            expected = f"{QLocale().toString(in_memory)} entities"
            qtbot.waitUntil(lambda: window.count_label.text() == expected, timeout=WAIT_MS)
        finally:
            close_window(window)


def test_one_entity_is_one_entity(qtbot, english: None, tmp_path: Path) -> None:  # noqa: ANN001
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as memory:
        memory.create_entities([{"name": "Ada", "entityType": "Person"}])
        window = open_window(qtbot, memory)
        try:
            qtbot.waitUntil(lambda: window.count_label.text() == "1 entity", timeout=WAIT_MS)
        finally:
            close_window(window)


def test_the_status_bar_follows_the_change_feed_without_polling(qtbot, english: None, tmp_path: Path) -> None:  # noqa: ANN001
    """Idle, the status bar read the memory every 1.5 s: the largest of an idle app's wakeups."""
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as memory:
        memory.create_entities([{"name": "Ada", "entityType": "Person"}])
        window = open_window(qtbot, memory)
        window.feed.start()
        try:
            qtbot.waitUntil(lambda: window.count_label.text() == "1 entity", timeout=WAIT_MS)
            assert not window._status_timer.isActive()  # nothing moves by itself: no polling
            window.core.write(lambda m: m.create_entities([{"name": "Grace", "entityType": "Person"}]))
            qtbot.waitUntil(lambda: window.count_label.text() == "2 entities", timeout=WAIT_MS)
            assert not window._status_timer.isActive()
        finally:
            window.feed.stop()
            close_window(window)


def test_insights_waiting_for_review_do_not_hold_back_search_by_meaning(  # noqa: ANN201
        qtbot, english: None, tmp_path: Path, local_embedder) -> None:  # noqa: ANN001
    """The status bar read the embedder's count of every entity row, insights too: with its two
    entities embedded and two insights proposed since, it said "Indexing meaning 50 %"."""
    with Memory(Settings(db=tmp_path / "m.db", embeddings="onnx", actor="gui"), embedder=local_embedder) as memory:
        memory.create_entities([{"name": "Ana García", "entityType": "Person", "observations": ["works at Acme"]},
                                {"name": "Ana_Garcia", "entityType": "Person", "observations": ["lives in Madrid"]}])
        memory.embed_pending()
        memory.reflect(actor="gui")
        assert memory.insight_counts()["pending"] >= 2
        window = open_window(qtbot, memory)
        try:
            qtbot.waitUntil(lambda: window.count_label.text() == "2 entities", timeout=WAIT_MS)
            assert window.embed_label.text() == "Search by meaning ready"
            assert window.embed_bar.isHidden()
        finally:
            close_window(window)
