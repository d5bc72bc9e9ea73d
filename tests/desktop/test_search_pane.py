"""The search pane over a real memory: results as you type, exact text, type filter, keyboard,
meaning across languages with the real model, live refresh."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.settings import Settings
from desktop.search.model import EXACT, best_snippet, match_spans, needles_for
from desktop.search.pane import SearchPane
from desktop.workers import Core

PEOPLE = [
    {"name": "Ada Lovelace", "entityType": "Person", "observations": [
        "Daughter of the poet Lord Byron",
        "Wrote the first published algorithm, for the Analytical Engine"]},
    {"name": "José Martínez", "entityType": "Person", "observations": ["Backend engineer in Valencia"]},
    {"name": "Canción de cuna", "entityType": "Concept", "observations": [
        "Una canción tranquila; la abuela de José la cantaba cada noche"]},
    {"name": "Analytical Engine", "entityType": "Technology", "observations": [
        "Mechanical general-purpose computer programmed with punched cards"]},
]


def _names(pane: SearchPane) -> list[str]:
    return [pane.model.hit(r).name for r in range(pane.model.rowCount())]


def _pane(qtbot, core: Core) -> SearchPane:  # noqa: ANN001
    pane = SearchPane(core)
    qtbot.addWidget(pane)
    pane.resize(420, 500)
    pane.show()
    return pane


@pytest.fixture
def words_core(tmp_path: Path) -> Iterator[Core]:
    """A memory without a model: meaning search falls back to words."""
    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"))
    memory.create_entities(PEOPLE)
    core = Core(memory)
    yield core
    core.shutdown()
    memory.close()


@pytest.fixture
def model_core(tmp_path: Path, local_embedder: OnnxEmbeddingProvider) -> Iterator[Core]:
    memory = Memory(Settings(db=tmp_path / "m.db", actor="gui"), embedder=local_embedder)
    memory.create_entities(PEOPLE)
    memory.embed_pending()
    core = Core(memory)
    yield core
    core.shutdown()
    memory.close()


def test_snippet_marks_folded_matches_in_the_original_text() -> None:
    assert match_spans("Canción de Ángel y José", ["jose", "angel"]) == [(11, 5), (19, 4)]
    snippet, spans = best_snippet(["nothing here", "x " * 200 + "Aquí está José"], ["jose"])
    assert snippet.startswith("…") and [snippet[s:s + n] for s, n in spans] == ["José"]
    assert needles_for("the Analytical ENGINE", "meaning") == ["analytical", "engine"]
    assert best_snippet(["first", "second"], ["zzz"]) == ("first", [])


def test_an_empty_memory_says_there_is_nothing_yet(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"))
    core = Core(memory)
    try:
        pane = _pane(qtbot, core)
        qtbot.waitUntil(lambda: "Nothing to search yet" in pane.empty.text())
        after = memory.latest_change_id()
        memory.create_entities(PEOPLE, actor="claude-code")
        pane.on_changes(memory.changes_since(after))
        qtbot.waitUntil(lambda: "Search everything" in pane.empty.text())
    finally:
        core.shutdown()
        memory.close()


def test_first_use_hint_then_results_after_the_debounce(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    assert pane.stack.currentWidget() is pane.empty_page
    assert "Search everything" in pane.empty.text()
    qtbot.keyClicks(pane.box, "algorithm")
    assert pane.model.rowCount() == 0  # nothing yet: the debounce holds the search back
    qtbot.waitUntil(lambda: _names(pane) == ["Ada Lovelace"])
    hit = pane.model.hit(0)
    assert hit.entity_type == "Person" and hit.score is not None
    assert [hit.snippet[s:s + n] for s, n in hit.snippet_spans] == ["algorithm"]
    assert pane.stack.currentWidget() is pane.results
    memory = words_core.memory
    ids = [memory.get_node(p["name"]).id for p in PEOPLE]
    assert memory.graph.limbic_stats(ids)["access"] == {}  # looking is not recalling: no limbic training


def test_the_first_results_on_their_way_say_searching(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    pane.box.setText("Byron")
    pane.search_now()  # its answer comes back through the event loop, not before this returns
    assert pane.stack.currentWidget() is pane.empty_page and pane.empty.text() == "Searching…"
    qtbot.waitUntil(lambda: pane.stack.currentWidget() is pane.results)


def test_exact_mode_finds_accent_folded_substrings(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    pane.set_mode(EXACT)
    pane.box.setText("JOSE")
    qtbot.waitUntil(lambda: sorted(_names(pane)) == ["Canción de cuna", "José Martínez"])
    song = pane.model.hit(pane.model.row_of("Canción de cuna"))
    assert song.score is None
    assert [song.snippet[s:s + n] for s, n in song.snippet_spans] == ["José"]
    person = pane.model.hit(pane.model.row_of("José Martínez"))
    assert [person.name[s:s + n] for s, n in person.name_spans] == ["José"]
    assert pane.hint.text() == "2 entities contain “JOSE”."


def test_no_results_says_so(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    pane.set_mode(EXACT)
    pane.box.setText("qqzz")
    qtbot.waitUntil(lambda: "qqzz" in pane.empty.text())
    assert pane.stack.currentWidget() is pane.empty_page and pane.model.rowCount() == 0


def test_type_filter_lists_types_and_narrows_results(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    qtbot.waitUntil(lambda: pane.type_combo.count() == 4)  # All types + Person, Concept, Technology
    assert pane.type_combo.itemText(1) == "Person (2)"
    pane.set_mode(EXACT)
    pane.box.setText("e")
    qtbot.waitUntil(lambda: len(_names(pane)) == 4)
    pane.type_combo.setCurrentIndex(pane.type_combo.findData("Person"))
    qtbot.waitUntil(lambda: sorted(_names(pane)) == ["Ada Lovelace", "José Martínez"])


def test_arrows_move_and_enter_opens_the_entity(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    pane.set_mode(EXACT)
    pane.box.setText("a")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 4)
    assert pane.results.currentIndex().row() == 0
    qtbot.keyClick(pane.box, Qt.Key.Key_Down)
    qtbot.keyClick(pane.box, Qt.Key.Key_Down)
    assert pane.results.currentIndex().row() == 2
    expected = pane.model.hit(2).name
    with qtbot.waitSignal(pane.entity_activated) as opened:
        qtbot.keyClick(pane.box, Qt.Key.Key_Return)
    assert opened.args == [expected]


def test_enter_before_results_arrive_opens_the_first_fresh_result(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    with qtbot.waitSignal(pane.entity_activated) as opened:
        qtbot.keyClicks(pane.box, "punched")
        qtbot.keyClick(pane.box, Qt.Key.Key_Return)
    assert opened.args == ["Analytical Engine"]


def test_double_click_opens_the_entity(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    pane.box.setText("Byron")
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1)
    rect = pane.results.visualRect(pane.model.index(0))
    qtbot.mouseClick(pane.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a real one presses first
    with qtbot.waitSignal(pane.entity_activated) as opened:
        qtbot.mouseDClick(pane.results.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert opened.args == ["Ada Lovelace"]


def test_changes_rerun_the_search_keeping_what_was_typed(qtbot, words_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, words_core)
    pane.set_mode(EXACT)
    pane.box.setText("valencia")
    qtbot.waitUntil(lambda: _names(pane) == ["José Martínez"])
    memory = words_core.memory
    after = memory.latest_change_id()
    memory.create_entities([{"name": "Valencia", "entityType": "Place", "observations": ["A city"]}],
                           actor="claude-code")
    pane.on_changes(memory.changes_since(after))
    qtbot.waitUntil(lambda: sorted(_names(pane)) == ["José Martínez", "Valencia"])
    qtbot.waitUntil(lambda: pane.type_combo.findData("Place") > 0)
    assert pane.box.text() == "valencia"


def test_hint_says_search_is_words_only_while_entities_are_indexed(qtbot, tmp_path: Path,  # noqa: ANN001
                                                                   local_embedder: OnnxEmbeddingProvider) -> None:
    memory = Memory(Settings(db=tmp_path / "m.db", actor="gui"), embedder=local_embedder)
    memory.create_entities(PEOPLE)  # not embedded yet
    core = Core(memory)
    try:
        pane = _pane(qtbot, core)
        qtbot.waitUntil(lambda: pane.hint.isVisible())
        assert "until 4 entities are indexed" in pane.hint.text()
        memory.embed_pending()
        qtbot.waitUntil(lambda: not pane.hint.isVisible(), timeout=10_000)  # the pane polls progress
    finally:
        core.shutdown()
        memory.close()


def test_a_spanish_query_finds_an_english_entity_by_meaning(qtbot, model_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, model_core)
    pane.box.setText("máquina mecánica que se programaba con tarjetas perforadas")
    qtbot.waitUntil(lambda: pane.model.rowCount() > 0, timeout=10_000)
    assert _names(pane)[0] == "Analytical Engine"
    assert pane.model.hit(0).similarity is not None
    assert not pane.hint.isVisible()  # everything is indexed: no words-only warning


LONG = {"name": "Carmen", "entityType": "Person", "observations": [
    *(f"Carmen filed weekly report number {i} for the logistics team" for i in range(40)),
    "Carmen se mudó a Sevilla para trabajar en un hospital",
    *(f"Carmen reviewed shipment batch {i}" for i in range(40))]}


def test_by_meaning_the_snippet_is_the_fact_that_matched(qtbot, model_core: Core) -> None:  # noqa: ANN001
    model_core.memory.create_entities([LONG])
    model_core.memory.embed_pending()
    pane = _pane(qtbot, model_core)
    pane.box.setText("Carmen moved to Sevilla to work at a hospital")
    qtbot.waitUntil(lambda: "Carmen" in _names(pane), timeout=10_000)
    hit = pane.model.hit(pane.model.row_of("Carmen"))
    assert hit.fact == "Carmen se mudó a Sevilla para trabajar en un hospital" and hit.snippet == hit.fact
    assert [hit.snippet[s:s + n] for s, n in hit.snippet_spans] == ["Carmen", "Sevilla", "hospital"]
    assert hit.observation_count == 81 and 0 < hit.score <= 1


def test_nonsense_says_no_good_matches(qtbot, model_core: Core) -> None:  # noqa: ANN001
    pane = _pane(qtbot, model_core)
    pane.box.setText("*")
    qtbot.waitUntil(lambda: "No good matches" in pane.empty.text(), timeout=10_000)
    assert pane.stack.currentWidget() is pane.empty_page and pane.model.rowCount() == 0


def test_opening_a_result_scrolls_the_editor_to_its_fact(qtbot, model_core: Core) -> None:  # noqa: ANN001
    from desktop.editor import EditorPane

    model_core.memory.create_entities([LONG])
    model_core.memory.embed_pending()
    pane = _pane(qtbot, model_core)
    editor = EditorPane(model_core)
    qtbot.addWidget(editor)
    editor.resize(400, 400)
    editor.show()
    pane.entity_activated.connect(editor.open_entity)
    pane.fact_activated.connect(editor.show_observation)
    pane.box.setText("Carmen moved to Sevilla to work at a hospital")
    qtbot.waitUntil(lambda: "Carmen" in _names(pane), timeout=10_000)
    pane.on_result_activated(pane.model.index(pane.model.row_of("Carmen")))
    observations = editor.page.observations.list
    qtbot.waitUntil(lambda: observations.currentItem() is not None, timeout=10_000)
    current = observations.currentItem()
    assert current.text() == "Carmen se mudó a Sevilla para trabajar en un hospital"
    assert observations.viewport().rect().intersects(observations.visualItemRect(current))  # scrolled to it


def test_a_marked_last_letter_is_drawn(qtbot) -> None:  # noqa: ANN001
    """A name marked to its end ("Nginx" for "nginx") is drawn whole: it used to lose its last letter."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter

    from desktop.search.delegate import draw_marked

    font = QFont()
    font.setBold(True)
    width = QFontMetrics(font).horizontalAdvance("Nginx") + 4  # as the delegate sizes a name

    def ink(spans: list[tuple[int, int]]) -> int:
        image = QImage(width + 40, 30, QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        draw_marked(painter, QRect(0, 0, width, 30), "Nginx", spans, font, QColor("black"), QColor(0, 0, 0, 0))
        painter.end()
        dark = [x for x in range(image.width()) for y in range(image.height()) if image.pixelColor(x, y).value() < 128]
        return max(dark) if dark else -1

    assert ink([(0, 4)]) == ink([])  # "Ngin" marked: the "x" is drawn as far as unmarked
    assert ink([(0, 5)]) >= ink([]) - 1
