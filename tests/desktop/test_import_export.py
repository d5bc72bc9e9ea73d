"""Drag and drop → import preview → import (or cancel) → summary; and export to every format. Real SQLite."""

from __future__ import annotations

import hashlib
import json
import stat
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlean
from PySide6.QtCore import QMimeData, Qt, QUrl

from core.io import EXPORT_FORMATS
from core.memory import Memory
from core.settings import Settings
from desktop.dialogs.export_dialog import ExportDialog, format_choices
from desktop.dialogs.import_dialog import ImportDialog
from desktop.drop import importable_paths
from desktop.workers import Core


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as m:
        m.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["born 1815"]}])
        yield m


def fingerprint(memory: Memory) -> tuple[str, int]:
    """Every row of every ordinary table (read through a second connection), what the full-text
    indexes answer, and the change_log head. The FTS5 indexes' own segment tables are left out:
    an import rolled back chunk by chunk leaves the same index content in other segments."""
    conn = sqlean.connect(str(memory.settings.db))
    try:
        fts = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'")]
        shadows = {f"{name}_{part}" for name in fts for part in ("data", "idx", "docsize", "config", "content")}
        digest = hashlib.sha256()
        for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                     "AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name").fetchall():
            if table in shadows:
                continue
            for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
                digest.update(repr((table, row)).encode())
    finally:
        conn.close()
    for query in ("Engine", "Entity", "entity 1", "Analytical"):
        digest.update(repr(memory.search_nodes(query).model_dump()).encode())
        digest.update(repr([h.node.name for h in memory.fulltext_search(query, limit=50)]).encode())
    return digest.hexdigest(), memory.latest_change_id()


def jsonl(path: Path, records: list[object]) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in records) + "\n", encoding="utf-8")
    return path


def sources(tmp_path: Path) -> tuple[Path, Path]:
    official = jsonl(tmp_path / "memory.jsonl", [
        {"type": "entity", "name": "Ada", "entityType": "Person", "observations": ["wrote the first program"]},
        {"type": "entity", "name": "Engine", "entityType": "Machine", "observations": ["never built"]},
        '{"type": "entity", "name": ',
        {"type": "relation", "from": "Ada", "to": "Engine", "relationType": "programmed"},
    ])
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "Loom.md").write_text("---\ntype: Machine\n---\n\nPunched cards.\n\n## Relations\n\n"
                                   "- inspired → [[Engine]]\n", encoding="utf-8")
    (notes / "Idea.txt").write_text("Cards as programs.\n", encoding="utf-8")
    return official, notes


def drop_of(*paths: Path | str) -> QMimeData:
    mime = QMimeData()
    mime.setUrls([QUrl(p) if isinstance(p, str) else QUrl.fromLocalFile(str(p)) for p in paths])
    return mime


def open_dialog(qtbot, core: Core, paths: list[Path]) -> ImportDialog:  # noqa: ANN001
    dialog = ImportDialog(core, paths)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: dialog.state in ("previewed", "failed"), timeout=30000)
    return dialog


def test_importable_paths_keeps_files_and_folders_it_can_read(tmp_path: Path) -> None:
    official, notes = sources(tmp_path)
    (tmp_path / "photo.png").write_bytes(b"\x89PNG")
    db = tmp_path / "other.db"
    db.write_bytes(b"")
    mime = drop_of(official, tmp_path / "photo.png", notes, "https://example.org/memory.jsonl",
                   tmp_path / "gone.jsonl", official, db)
    assert importable_paths(mime) == [official, notes, db]
    assert importable_paths(QMimeData()) == []


def test_drop_preview_import_summary(qtbot, memory: Memory, core: Core, tmp_path: Path) -> None:  # noqa: ANN001
    official, notes = sources(tmp_path)
    paths = importable_paths(drop_of(official, notes))
    before = fingerprint(memory)

    dialog = open_dialog(qtbot, core, paths)

    assert fingerprint(memory) == before  # the preview wrote nothing
    assert dialog.state == "previewed" and dialog.import_button.isEnabled()
    plan = dialog.plan
    assert plan is not None
    assert (plan.entities_new, plan.entities_merged, plan.relations_new, plan.errors) == (3, 1, 2, 1)
    first, second = (dialog.tree.topLevelItem(i) for i in range(2))
    assert [first.text(c) for c in range(6)] == ["memory.jsonl", "Official memory file (JSONL)", "1", "1", "1", "1"]
    assert [second.text(c) for c in range(6)] == ["notes/", "Markdown / text notes", "2", "0", "1", "0"]
    children = [first.child(i).text(0) for i in range(first.childCount())]
    assert children[0] == "Adds to: Ada" and children[1].startswith("line 3: not valid JSON")
    assert "3 new entities" in dialog.sentence.text() and "cannot be read" in dialog.sentence.text()

    with qtbot.waitSignal(dialog.imported, timeout=30000) as landed:
        qtbot.mouseClick(dialog.import_button, Qt.MouseButton.LeftButton)
    summary = landed.args[0]
    assert summary.applied and (summary.entities_new, summary.entities_merged) == (3, 1)
    assert dialog.heading.text() == "Import finished" and dialog.close_button.isVisible()
    assert "Added 3 new entities and 2 new relations" in dialog.sentence.text()
    assert dialog.backup is not None and str(dialog.backup) in dialog.sentence.text()  # made first, as the CLI does
    with Memory(Settings(db=dialog.backup, embeddings="none")) as before_import:
        assert [(e.name, e.observations) for e in before_import.read_graph().entities] == [("Ada", ["born 1815"])]
    graph = memory.open_nodes(["Engine", "Loom", "Idea", "Ada"])
    assert {e.name for e in graph.entities} == {"Engine", "Loom", "Idea", "Ada"}
    assert {(r.from_, r.relationType, r.to) for r in graph.relations} == {
        ("Ada", "programmed", "Engine"), ("Loom", "inspired", "Engine")}


def test_a_folder_of_notes_alone(qtbot, memory: Memory, core: Core, tmp_path: Path) -> None:  # noqa: ANN001
    _, notes = sources(tmp_path)
    (notes / "Engine.md").write_text("The Analytical Engine.\n", encoding="utf-8")
    dialog = open_dialog(qtbot, core, importable_paths(drop_of(notes)))
    assert dialog.plan is not None and dialog.plan.entities_new == 3 and dialog.plan.relations_new == 1
    with qtbot.waitSignal(dialog.imported, timeout=30000):
        dialog.import_button.click()
    assert memory.open_nodes(["Engine"]).entities[0].observations == ["The Analytical Engine."]


def test_cancel_mid_import_leaves_the_memory_as_it_was(qtbot, memory: Memory, core: Core,  # noqa: ANN001
                                                       tmp_path: Path) -> None:
    big = jsonl(tmp_path / "big.jsonl", [
        {"type": "entity", "name": f"Entity {i}", "entityType": "Thing", "observations": [f"fact {i}"]}
        for i in range(10000)])
    before = fingerprint(memory)
    dialog = open_dialog(qtbot, core, [big])
    assert dialog.plan is not None and dialog.plan.entities_new == 10000
    moves: list[int] = []

    def on_bar_moved(value: int) -> None:  # the bar moved: part of the file is written; the user cancels
        moves.append(value)
        if value > 0 and dialog.state == "importing":
            qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)

    dialog.progress.valueChanged.connect(on_bar_moved)
    dialog.import_button.click()
    assert dialog.state == "importing" and dialog.cancel_button.text() == "Cancel import"
    qtbot.waitUntil(lambda: dialog.state == "done", timeout=60000)

    assert dialog.summary is not None and dialog.summary.cancelled
    assert 0 < [m for m in moves if m > 0][0] < 1000  # cancelled part-way through the file
    assert dialog.heading.text() == "Import cancelled"
    assert "exactly as it was" in dialog.sentence.text()
    assert fingerprint(memory) == before
    assert memory.open_nodes(["Entity 1"]).entities == []


def test_closing_during_the_preview_writes_nothing(qtbot, memory: Memory, core: Core,  # noqa: ANN001
                                                   tmp_path: Path) -> None:
    official, _ = sources(tmp_path)
    before = fingerprint(memory)
    dialog = ImportDialog(core, [official])
    qtbot.addWidget(dialog)
    dialog.reject()
    core.wait_idle()
    assert dialog.state == "closed" and fingerprint(memory) == before


def test_nothing_importable_says_so(qtbot, memory: Memory, core: Core, tmp_path: Path) -> None:  # noqa: ANN001
    odd = tmp_path / "list.json"
    odd.write_text("[1, 2, 3]\n", encoding="utf-8")
    dialog = open_dialog(qtbot, core, [odd])
    assert dialog.heading.text() == "Nothing new to import" and not dialog.import_button.isEnabled()
    item = dialog.tree.topLevelItem(0)
    assert item.text(5) == "1" and "expected a JSON object" in item.child(0).text(0)


# -- export -------------------------------------------------------------------------------------

def test_every_cli_format_is_offered() -> None:
    assert [fmt for fmt, _ in format_choices()] == list(EXPORT_FORMATS)


@pytest.mark.parametrize("fmt", EXPORT_FORMATS)
def test_export_writes_each_format(qtbot, memory: Memory, core: Core, tmp_path: Path, fmt: str) -> None:  # noqa: ANN001
    memory.create_entities([{"name": "Engine", "entityType": "Machine", "observations": ["never built"]}])
    memory.create_relations([{"from": "Ada", "to": "Engine", "relationType": "programmed"}])
    dialog = ExportDialog(core, folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.format_box.setCurrentIndex(dialog.format_box.findData(fmt))
    out = dialog.destination()
    assert out.parent == tmp_path and (out.suffix == "" if fmt == "markdown" else out.suffix == f".{fmt}")
    with qtbot.waitSignal(dialog.exported, timeout=30000):
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert str(out) in dialog.note.text() and "Wrote 2 entities" in dialog.note.text()
    if fmt == "markdown":
        assert sorted(p.name for p in out.iterdir()) == ["Ada.md", "Engine.md"]
        assert "[[Engine]]" in (out / "Ada.md").read_text(encoding="utf-8")
        assert stat.S_IMODE(out.stat().st_mode) == 0o700
        return
    text = out.read_text(encoding="utf-8")
    assert "Wrote 2 entities and 1 relation to" in dialog.note.text()
    if fmt == "graphml":
        root = ET.fromstring(text)
        assert len(root.findall(".//{*}node")) == 2 and len(root.findall(".//{*}edge")) == 1
    else:
        lines = [json.loads(line) for line in text.splitlines()]
        assert any(rec.get("name", rec.get("key_value")) == "Engine" for rec in lines)
    assert not out.with_name(out.name + ".part").exists()
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # as private as the memory it copies


def test_export_failure_is_a_sentence(qtbot, memory: Memory, core: Core, tmp_path: Path) -> None:  # noqa: ANN001
    blocker = tmp_path / "a-file"
    blocker.write_text("x", encoding="utf-8")
    dialog = ExportDialog(core, folder=tmp_path)
    qtbot.addWidget(dialog)
    dialog.set_destination(blocker / "memory.jsonl")  # a file where a folder should be
    crashed: list[str] = []
    core.crashed.connect(lambda summary, _details: crashed.append(summary))
    dialog.export()
    qtbot.waitUntil(lambda: not dialog.running)
    assert dialog.note.text().startswith("The export failed: Cannot write") and crashed == []


def test_a_dropped_folder_with_a_memory_jsonl_imports_the_jsonl(qtbot, memory: Memory, core: Core,  # noqa: ANN001
                                                                tmp_path: Path) -> None:
    """Issue 22: such a folder said "Markdown notes … nothing new" (it was read as a folder of notes)."""
    folder = tmp_path / "old-memory"
    folder.mkdir()
    official = jsonl(folder / "memory.jsonl", [
        {"type": "entity", "name": "Engine", "entityType": "Machine", "observations": ["never built"]}])
    (folder / "package.json").write_text('{"name": "not a memory"}', encoding="utf-8")
    assert importable_paths(drop_of(folder)) == [official]  # no notes in it: the jsonl alone
    (folder / "Loom.md").write_text("Punched cards.\n", encoding="utf-8")
    assert importable_paths(drop_of(folder)) == [official, folder]  # the jsonl, then the notes
    dialog = open_dialog(qtbot, core, importable_paths(drop_of(folder)))
    assert dialog.plan is not None and dialog.plan.entities_new == 2
    assert dialog.tree.topLevelItem(0).text(1) == "Official memory file (JSONL)"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert importable_paths(drop_of(empty)) == [empty]  # the preview says there is nothing in it


def test_a_note_s_bullets_are_observations_and_its_type_joins_the_assistants(qtbot, memory: Memory,  # noqa: ANN001
                                                                            core: Core, tmp_path: Path) -> None:
    """Issue 22: a note's bullets became one observation, and its type "Note" sat beside "note"."""
    memory.create_entities([{"name": "Standup", "entityType": "note", "observations": ["daily at 9"]}],
                           actor="claude-code")
    note = tmp_path / "Retro.md"
    note.write_text("# Retro\n\nWhat we learned in March.\n\n- Deploys on Friday hurt\n- Alerts were too noisy,\n"
                    "  half of them ignored\n* Pairing helped\n1. Keep the demo day\n", encoding="utf-8")
    dialog = open_dialog(qtbot, core, [note])
    with qtbot.waitSignal(dialog.imported, timeout=30000):
        dialog.import_button.click()
    retro = memory.open_nodes(["Retro"]).entities[0]
    assert retro.entityType == "note"
    assert retro.observations == ["What we learned in March.", "Deploys on Friday hurt",
                                  "Alerts were too noisy, half of them ignored", "Pairing helped", "Keep the demo day"]


def test_import_problems_are_sentences_not_codec_or_field_paths(qtbot, memory: Memory, core: Core,  # noqa: ANN001
                                                               tmp_path: Path) -> None:
    """Issue 22: the preview showed "'utf-8' codec can't decode byte 0xe9" and "entities[0].name: …"."""
    official = jsonl(tmp_path / "memory.jsonl", [
        {"type": "entity", "name": "", "entityType": "Person", "observations": ["nameless"]},
        {"type": "entity", "name": "B", "entityType": "", "observations": ["typeless"]},
        {"type": "entity", "name": "x" * 600, "entityType": "Person", "observations": []},
    ])
    latin = tmp_path / "café.md"
    latin.write_bytes("Crème brûlée on Fridays.\n".encode("latin-1"))
    dialog = open_dialog(qtbot, core, [official, latin])
    shown = [dialog.tree.topLevelItem(i).child(j).text(0) for i in range(2)
             for j in range(dialog.tree.topLevelItem(i).childCount())]
    assert "line 1: The name is empty." in shown and "line 2: An entity has no type." in shown
    assert "line 3: The name is 600 characters long; at most 512 are allowed." in shown
    assert any(t.startswith("café.md: It is not UTF-8 text (byte 0xE8 at position 2") for t in shown), shown
    assert not [t for t in shown if "codec" in t or "entities[" in t]
    broken = open_dialog(qtbot, core, [jsonl(tmp_path / "broken.jsonl", ['{"type": "entity", "name": '])])
    said = broken.tree.topLevelItem(0).child(0).text(0)
    assert said.startswith("line 1: not valid JSON: something is wrong at character ") and "Expecting" not in said
