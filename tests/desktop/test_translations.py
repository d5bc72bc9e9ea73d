"""The app speaks Spanish: every string the desktop code shows has a finished translation in
``resources/i18n/hipocampo_es.ts``, the shipped ``.qm`` files are those translations compiled, and the
main window reads in Spanish under a Spanish locale (and in English again once the translators go)."""

from __future__ import annotations

import ast
import importlib.util
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QTranslator
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QComboBox, QHeaderView, QLineEdit, QMenu, QTabBar, QWidget

from core.memory import Memory
from core.settings import Settings
from desktop.app import install_translations

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "resources" / "i18n"
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
TRANSLATE = {"translate", "QCoreApplication.translate", "QApplication.translate"}


def _update_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("update_translations", ROOT / "packaging" / "update_translations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tools = _update_script()

Key = tuple[str, str, str]  # context, source, disambiguation


def messages(ts: Path) -> dict[Key, tuple[ET.Element, str]]:
    """Every message of a .ts file by its lookup key, with where it comes from (file:line)."""
    found: dict[Key, tuple[ET.Element, str]] = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            places = []
            for location in message.iter("location"):
                source = (ts.parent / location.get("filename", "")).resolve()
                shown = source.relative_to(ROOT) if source.is_relative_to(ROOT) else source
                places.append(f"{shown}:{location.get('line')}")
            key = (name, message.findtext("source") or "", message.findtext("comment") or "")
            found[key] = (message, ", ".join(places) or "?")
    return found


def translations(message: ET.Element) -> list[str] | None:
    """The finished translation(s) of a message; None when unfinished, obsolete or empty."""
    translation = message.find("translation")
    if translation is None or translation.get("type") in ("unfinished", "vanished", "obsolete"):
        return None
    forms = [form.text or "" for form in translation.iter("numerusform")] if message.get("numerus") == "yes" \
        else [translation.text or ""]
    return forms if forms and all(form.strip() for form in forms) else None


def problems_of(source: str, numerus: bool, forms: list[str]) -> list[str]:
    """What a translation breaks: its {placeholders}, its accelerator, its %n, its markup."""
    problems = []
    for form in forms:
        if sorted(PLACEHOLDER.findall(form)) != sorted(PLACEHOLDER.findall(source)):
            problems.append(f"placeholders differ in {form!r}")
        if form.replace("&&", "").count("&") != source.replace("&&", "").count("&"):
            problems.append(f"the accelerator (&) is lost or doubled in {form!r}")
        if numerus and "%n" not in form.replace("%Ln", "%n"):  # %Ln: the number in the locale's digits
            problems.append(f"%n is missing from {form!r}")
        if re.findall(r"</?\w+", form) != re.findall(r"</?\w+", source):
            problems.append(f"markup differs in {form!r}")
    return problems


@pytest.mark.parametrize("language", sorted(tools.LANGUAGES))
def test_every_string_in_the_sources_is_translated(tmp_path: Path, language: str) -> None:
    fresh = tmp_path / f"fresh_{language}.ts"
    tools.lupdate(fresh, language, *tools.LANGUAGES[language])
    committed = messages(I18N / f"hipocampo_{language}.ts")
    found = messages(fresh)
    assert len(found) > (400 if language == "es" else 3)  # lupdate did read the sources
    problems = []
    for key, (message, where) in sorted(found.items(), key=lambda item: item[1][1]):
        context, source, _ = key
        if not context:
            problems.append(f"{where}: {source!r} is translated outside a class, with no context, so it is never "
                            "looked up: use self.tr(), SomeClass.tr() or QCoreApplication.translate('Context', …)")
            continue
        entry = committed.get(key)
        forms = translations(entry[0]) if entry is not None else None
        if forms is None:
            problems.append(f"{where}: [{context}] {source!r} has no finished translation in hipocampo_{language}.ts")
            continue
        problems += [f"{where}: [{context}] {source!r}: {p}" for p in
                     problems_of(source, message.get("numerus") == "yes", forms)]
    assert not problems, "\n".join(problems) + (
        "\n\nRun `python packaging/update_translations.py`, translate the new strings in "
        f"resources/i18n/hipocampo_{language}.ts (drop type=\"unfinished\"), and run it again.")


def test_translation_calls_take_literal_text() -> None:
    """lupdate reads the text and the context at the call: an f-string, a variable, a helper or
    ``self.other.tr()`` hides them (the string is never translated)."""
    problems = []
    for path in sorted((ROOT / "desktop").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = ast.unparse(func)
            if called in TRANSLATE:
                texts = node.args[:2]
            elif called == "tr" or called.endswith(".tr"):
                texts = node.args[:1]
                owner = called.removesuffix("tr").removesuffix(".")
                if owner != "self" and not re.fullmatch(r"[A-Z]\w*", owner):
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: lupdate files {called}() under the "
                                    f"context {owner!r}, which no class is called: use self.tr() or SomeClass.tr()")
            else:
                continue  # painter.translate(x, y), str.translate(table)…
            for text in texts:
                if not (isinstance(text, ast.Constant) and isinstance(text.value, str)):
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)[:100]}")
    assert not problems, "Translation calls lupdate cannot read (pass literal text, format after: " \
        "tr('… {name}').format(name=…)):\n" + "\n".join(problems)


@pytest.mark.parametrize("language", sorted(tools.LANGUAGES))
def test_the_shipped_qm_is_the_ts_compiled(tmp_path: Path, language: str) -> None:
    ts = I18N / f"hipocampo_{language}.ts"
    compiled = tmp_path / f"hipocampo_{language}.qm"
    tools.lrelease(ts, compiled)
    assert (I18N / f"hipocampo_{language}.qm").read_bytes() == compiled.read_bytes(), \
        f"hipocampo_{language}.qm is stale: run `python packaging/update_translations.py --compile-only`"


@pytest.fixture
def spanish(qapp: QApplication) -> Iterator[list[QTranslator]]:
    """Hipocampo's and Qt's Spanish translators, removed afterwards so other tests stay English."""
    installed = install_translations(qapp, QLocale("es_ES"))
    try:
        yield installed
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def accelerators(texts: list[str]) -> list[str]:
    return [m.group(1).lower() for text in texts if (m := re.search(r"&([^&\s])", text.replace("&&", "")))]


def english_only_sources() -> set[str]:
    """Source texts whose Spanish differs (a leftover one on screen means a lookup missed)."""
    return {key[1] for key, (message, _) in messages(I18N / "hipocampo_es.ts").items()
            if (forms := translations(message)) and key[1] not in forms}


def shown_texts(window: QWidget) -> set[str]:
    """Every label, title, tooltip, placeholder, item, tab and header text in a window."""
    texts: set[str] = set()
    for widget in [window, *window.findChildren(QWidget)]:
        for getter in ("text", "windowTitle", "toolTip", "placeholderText", "title"):
            value = getattr(widget, getter, None)
            if callable(value):
                try:
                    texts.add(value())
                except TypeError:
                    pass
        if isinstance(widget, QComboBox):
            texts.update(widget.itemText(i) for i in range(widget.count()))
        if isinstance(widget, QTabBar):
            texts.update(widget.tabText(i) for i in range(widget.count()))
        if isinstance(widget, QHeaderView) and widget.model() is not None:
            texts.update(str(widget.model().headerData(i, widget.orientation())) for i in range(widget.count()))
    for action in window.findChildren(QAction):
        texts.update((action.text(), action.toolTip()))
    return {text for text in texts if isinstance(text, str) and text}


def test_the_main_window_speaks_spanish(qtbot, spanish: list[QTranslator], tmp_path: Path) -> None:
    assert len(spanish) == 2  # Hipocampo's own and Qt's (qtbase_es)
    from desktop.main_window import MainWindow
    from desktop.workers import ChangeFeed, Core

    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"))
    core = Core(memory)
    feed = ChangeFeed(memory)
    window = MainWindow()
    qtbot.addWidget(window)
    try:
        menus = [action.text() for action in window.menuBar().actions()]
        assert menus == ["&Archivo", "&Editar", "&Ver", "Ay&uda"]
        assert len(set(accelerators(menus))) == len(menus)
        for action in window.menuBar().actions():
            menu = action.menu()
            assert isinstance(menu, QMenu)
            texts = [a.text() for a in menu.actions() if not a.isSeparator()]
            keys = accelerators(texts)
            assert len(keys) == len(set(keys)), f"{action.text()}: accelerators clash in {texts}"
        file_menu = window.menuBar().actions()[0].menu()
        assert isinstance(file_menu, QMenu)
        assert "&Importar…" in [a.text() for a in file_menu.actions()]

        window.attach(core, feed, None)
        assert {name: dock.windowTitle() for name, dock in window.docks.items()} == {
            "search": "Búsqueda", "editor": "Entidad", "insights": "Hallazgos", "activity": "Actividad"}
        box = window.panes["search"].findChild(QLineEdit)
        assert box is not None and box.placeholderText() == "Busca en tu memoria…"
        qtbot.waitUntil(lambda: window.count_label.text() == "0 entidades")
        english = english_only_sources()
        leaks = sorted(text for text in shown_texts(window) if text in english)
        assert not leaks, f"shown in English under a Spanish locale (is the tr() context right?): {leaks}"
    finally:
        window.detach()
        core.shutdown()
        memory.close()


def test_without_the_translators_the_app_is_english_again(qtbot, qapp: QApplication) -> None:
    from desktop.main_window import MainWindow

    for translator in install_translations(qapp, QLocale("es_ES")):
        qapp.removeTranslator(translator)
    window = MainWindow()
    qtbot.addWidget(window)
    assert [action.text() for action in window.menuBar().actions()] == ["&File", "&Edit", "&View", "&Help"]
    assert {"&File", "&Quit", "Opening your memory…"} <= shown_texts(window) & english_only_sources()


def test_a_language_without_a_translation_gets_english_plurals(qapp: QApplication) -> None:
    installed = install_translations(qapp, QLocale("de_DE"))
    try:
        assert any(t.filePath().endswith("hipocampo_en.qm") for t in installed)
        saved = "saved {name} (%n changes)"
        assert QCoreApplication.translate("ActivityModel", saved, "", 1) == "saved {name} (1 change)"
        assert QCoreApplication.translate("ActivityModel", saved, "", 3) == "saved {name} (3 changes)"
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def test_the_dialogs_speak_spanish(qtbot, spanish: list[QTranslator], tmp_path: Path) -> None:
    from desktop.dialogs.crash import CrashDialog
    from desktop.dialogs.export_dialog import ExportDialog
    from desktop.dialogs.first_run import FirstRunDialog
    from desktop.dialogs.import_dialog import ImportDialog
    from desktop.dialogs.settings_dialog import SettingsDialog
    from desktop.workers import Core

    settings = Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")
    notes = tmp_path / "notes.md"
    notes.write_text("# Lucía\nJoined the data team.\n", encoding="utf-8")
    memory = Memory(settings)
    core = Core(memory)
    english = english_only_sources()
    try:
        importer = ImportDialog(core, [notes])
        qtbot.addWidget(importer)
        qtbot.waitUntil(lambda: importer.plan is not None or importer.error is not None)
        crash = CrashDialog(tmp_path / "crash.log")
        crash.add("KeyError: 'name'", "Traceback …")
        dialogs = [FirstRunDialog(settings, endpoint={"url": "http://127.0.0.1:51234/mcp", "port": 51234}),
                   SettingsDialog(settings), ExportDialog(core), importer, crash]
        for dialog in dialogs:
            qtbot.addWidget(dialog)
            leaks = sorted(text for text in shown_texts(dialog) if text in english)
            assert not leaks, f"{type(dialog).__name__} shows English under a Spanish locale: {leaks}"
        assert dialogs[2].windowTitle() == "Exportar la memoria"
        assert "Importar" in shown_texts(importer)
    finally:
        core.shutdown()
        memory.close()


def test_insights_speak_spanish_and_are_not_ideas(qtbot, spanish: list[QTranslator], tmp_path: Path) -> None:  # noqa: ANN001
    """Issue 22: insight titles and explanations stayed English (core/reflect writes them), and
    "Insights" was "Ideas", which a user's own ``idea`` type also is."""
    from desktop.insights.model import load_insights
    from desktop.insights.pane import InsightsPane
    from desktop.insights.words import insight_summary, insight_title
    from desktop.workers import Core
    from scripts.demo_memory import generate

    db = generate(tmp_path / "demo.db", 300)
    with Memory(Settings(db=db, embeddings="none", actor="gui")) as memory:
        pending = load_insights(memory).pending
        patterns = {i["pattern"] for i in pending}
        assert len(patterns) >= 3  # the demo finds several kinds
        english_words = ("is used by", "connects", "Consider", "shares the concept", "have fewer than", "Shared ",
                         "Concept cluster", "Under-connected", "may apply", "linked to the active")
        for insight in pending:
            title, summary = insight_title(insight), insight_summary(insight)
            assert title != insight["title"] and summary != insight["summary"], insight["pattern"]
            assert not [w for w in english_words if w in title + summary], (title, summary)
            named = [e["name"] for e in insight["evidence"]["entities"]][:2]
            assert all(name in summary for name in named), (named, summary)
        core = Core(memory)
        pane = InsightsPane(core)
        qtbot.addWidget(pane)
        pane.show()
        try:
            qtbot.waitUntil(lambda: pane.pending_model.rowCount() == len(pending), timeout=20_000)
            pane.pending_view.setCurrentIndex(pane.pending_model.index(0, 0))
            qtbot.waitUntil(lambda: pane.title_label.text() == insight_title(pending[0]), timeout=20_000)
            assert pane.explanation_label.text() == insight_summary(pending[0])
            assert "idea" not in pane.summary_label.text().lower()
        finally:
            core.shutdown()


def test_every_kind_of_insight_has_a_spanish_name(spanish: list[QTranslator]) -> None:
    """Reflect's patterns, hygiene's kinds and supersession's: each named in Spanish in the review
    pane, none left as its English fallback."""
    from core.hygiene.tidy import KINDS
    from core.reflect.model import ALL_PATTERNS
    from desktop.insights.model import pattern_label

    kinds = {*ALL_PATTERNS, *KINDS}
    assert {"superseded_facts", "contradicting_facts", "duplicate_entities"} <= kinds
    untranslated = [k for k in sorted(kinds) if pattern_label(k) == k.replace("_", " ").capitalize()]
    assert not untranslated
