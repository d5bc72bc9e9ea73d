"""macOS "open file" events (``QFileOpenEvent``, what Finder and the Dock send the running app):
the whole app in-process receives them as Qt delivers them, and answers as it answers a second
launch with files: the window comes up, the import dialog previews them, then imports."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import QCoreApplication, QUrl
from PySide6.QtGui import QFileOpenEvent
from PySide6.QtWidgets import QApplication

from core.memory import Memory
from core.settings import Settings
from desktop.app import HipocampoApp
from desktop.dialogs.import_dialog import ImportDialog
from desktop.file_open import FileOpenHandler, handle_file_open_events
from tests.desktop.conftest import until


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp: QApplication) -> Iterator[tuple[HipocampoApp,
                                                                                                 FileOpenHandler]]:
    """The app over a memory holding Ada, with the handler on the QApplication as main() installs it."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    with Memory(Settings(db=tmp_path / "memory.db", embeddings="none")) as memory:
        memory.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["Writes notes"]}])
    settings = Settings(db=tmp_path / "memory.db", embeddings="none", actor="gui", close_to_tray=False)
    hipocampo = HipocampoApp(settings, hub_file=tmp_path / "endpoint.json", start_hub=False, first_run=False)
    handler = handle_file_open_events(qapp, hipocampo.on_instance_request)
    yield hipocampo, handler
    qapp.removeEventFilter(handler)
    handler.deleteLater()


def official_file(path: Path, *names: str) -> Path:
    path.write_text("".join(json.dumps({"type": "entity", "name": n, "entityType": "Thing", "observations": [n]})
                            + "\n" for n in names), encoding="utf-8")
    return path


def open_in_finder(*paths: Path | QUrl) -> None:
    """What macOS does for each file: an event posted to the application."""
    for path in paths:
        event = QFileOpenEvent(path) if isinstance(path, QUrl) else QFileOpenEvent(str(path))
        QCoreApplication.postEvent(QCoreApplication.instance(), event)


def dialogs(hipocampo: HipocampoApp) -> list[ImportDialog]:
    return [d for d in hipocampo.dialogs if isinstance(d, ImportDialog)]


def test_files_opened_in_finder_are_previewed_then_imported(loop: qasync.QEventLoop, tmp_path: Path,
                                                            app: tuple[HipocampoApp, FileOpenHandler]) -> None:
    hipocampo, _ = app
    kafka = official_file(tmp_path / "work.jsonl", "Kafka", "Ada")
    notes = tmp_path / "notes.md"
    notes.write_text("# Loom\n\nWoven by [[Ada]].\n", encoding="utf-8")

    async def scenario() -> None:
        hipocampo.start()
        await until(lambda: hipocampo.core is not None)
        hipocampo.window.hide()  # the app is in the tray or behind other windows
        open_in_finder(QUrl("https://example.org/memory.jsonl"))  # not a local file: nothing to import
        open_in_finder(kafka, notes)  # two files selected in Finder: two events, one request
        await until(lambda: dialogs(hipocampo) and dialogs(hipocampo)[0].state in ("previewed", "failed"))
        (dialog,) = dialogs(hipocampo)
        assert hipocampo.window.isVisible()
        assert [Path(p) for p in dialog.paths] == [kafka.resolve(), notes.resolve()]
        assert dialog.state == "previewed" and dialog.plan is not None
        assert (dialog.plan.entities_new, dialog.plan.entities_merged) == (2, 1)
        assert dialog.tree.topLevelItem(0).text(0) == "work.jsonl"
        with Memory(Settings(db=tmp_path / "memory.db", embeddings="none")) as memory:
            assert memory.open_nodes(["Kafka"]).entities == []  # a preview, nothing written yet

        imported: list[object] = []
        dialog.imported.connect(imported.append)
        dialog.import_button.click()
        await until(lambda: imported)
        assert hipocampo.memory is not None
        assert {e.name for e in hipocampo.memory.open_nodes(["Kafka", "Loom"]).entities} == {"Kafka", "Loom"}
        hipocampo.quit(force=True)
        await until(lambda: hipocampo.memory is None)

    loop.run_until_complete(scenario())


def test_a_file_that_launched_the_app_waits_for_the_memory(loop: qasync.QEventLoop, tmp_path: Path,
                                                           app: tuple[HipocampoApp, FileOpenHandler]) -> None:
    """A double-click on a file starts the app on macOS and sends the event at once, before the
    memory is open: the preview comes when it is."""
    hipocampo, _ = app
    kafka = official_file(tmp_path / "memory.jsonl", "Kafka")

    async def scenario() -> None:
        open_in_finder(kafka)
        hipocampo.start()
        await until(lambda: dialogs(hipocampo) and dialogs(hipocampo)[0].state == "previewed")
        (dialog,) = dialogs(hipocampo)
        assert dialog.plan is not None and dialog.plan.entities_new == 1
        hipocampo.quit(force=True)
        await until(lambda: hipocampo.memory is None)

    loop.run_until_complete(scenario())
