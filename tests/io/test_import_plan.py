"""Import preview (changes nothing, numbers exact) and the cancellable multi-file import."""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path

import sqlean

from core.io import preview_import, run_import
from core.memory import Memory
from tests.io.test_sqlite_db import make_v2


def fingerprint(memory: Memory) -> tuple[str, int, dict[str, int]]:
    """Every row of every ordinary table, read through a second connection, plus the change_log head.

    A full-text index's own pages are left out: an import rolled back by its id (imports land in
    chunks) leaves the same index entries in differently packed pages; what those entries find is
    compared instead, through what a few words find."""
    conn = sqlean.connect(str(memory.settings.db))
    try:
        fts = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%fts5%'")]
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name")
            if not any(r[0].startswith(f"{v}_") for v in fts)]
        digest = hashlib.sha256()
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}" ORDER BY 1'):
                digest.update(repr((table, row)).encode())
        for word in ("entity", "fact", "thing", "ada", "lovelace", "generic", "person"):
            found = conn.execute("SELECT rowid FROM entity_fts WHERE entity_fts MATCH ? ORDER BY rowid", (word,))
            digest.update(repr(("fts", word, found.fetchall())).encode())
    finally:
        conn.close()
    counts = memory.health_check().get("counts", {})
    return digest.hexdigest(), memory.latest_change_id(), counts


def write_jsonl(path: Path, lines: list[object]) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    return path


def seed(memory: Memory) -> None:
    memory.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["born 1815"]},
                            {"name": "Babbage", "entityType": "Person", "observations": ["engineer"]}])


def official_with_a_broken_line(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "memory.jsonl", [
        {"type": "entity", "name": "Ada", "entityType": "Person", "observations": ["born 1815", "wrote notes"]},
        {"type": "entity", "name": "Babbage", "entityType": "Person", "observations": ["engineer"]},
        "{this is not json",
        {"type": "entity", "name": "Engine", "entityType": "Machine", "observations": ["never built"]},
        {"type": "relation", "from": "Ada", "to": "Engine", "relationType": "programmed"},
        {"type": "relation", "from": "Ada", "relationType": "met"},  # no "to": unreadable
        {"type": "mystery"},
    ])


def test_preview_counts_exactly_and_changes_nothing(mem: Memory, tmp_path: Path) -> None:
    seed(mem)
    source = official_with_a_broken_line(tmp_path)
    before = fingerprint(mem)

    plan = preview_import(mem, [source])

    assert fingerprint(mem) == before
    assert not plan.applied and not plan.cancelled
    (file,) = plan.files
    assert file.format == "jsonl" and file.failure is None
    assert (file.entities_new, file.entities_merged, file.relations_new, file.skipped) == (1, 1, 1, 1)
    assert file.new_names == ["Engine"] and file.merged_names == ["Ada"]
    assert (plan.entities_new, plan.entities_merged, plan.relations_new) == (1, 1, 1)
    wheres = {(p.file, p.where) for p in file.problems}
    assert wheres == {("memory.jsonl", "line 3"), ("memory.jsonl", "line 6"), ("memory.jsonl", "line 7")}
    assert any("not valid JSON" in p.reason for p in file.problems)
    assert plan.errors == 3

    summary = run_import(mem, [source])

    assert summary.applied and not summary.cancelled
    assert (summary.entities_new, summary.entities_merged, summary.relations_new, summary.errors) == (1, 1, 1, 3)
    assert mem.open_nodes(["Engine"]).entities[0].observations == ["never built"]
    assert mem.open_nodes(["Ada"]).entities[0].observations == ["born 1815", "wrote notes"]
    assert fingerprint(mem) != before


def test_preview_after_import_has_nothing_new(mem: Memory, tmp_path: Path) -> None:
    source = official_with_a_broken_line(tmp_path)
    run_import(mem, [source])
    plan = preview_import(mem, [source])
    assert plan.changes == 0 and plan.skipped == 4 and plan.errors == 3


def test_every_format_and_a_folder_in_one_plan(mem: Memory, tmp_path: Path) -> None:
    seed(mem)
    official = write_jsonl(tmp_path / "a.jsonl", [
        {"type": "entity", "name": "Engine", "entityType": "Machine", "observations": ["gears"]}])
    engrama = write_jsonl(tmp_path / "b.ndjson", [
        {"engrama_export": 1},
        {"type": "node", "label": "Technology", "key_value": "SQLite", "properties": {"summary": "db"}},
        {"type": "node", "label": "Machine", "key_value": "Engine", "properties": {}, "observations": ["steam"]},
        {"type": "relation", "from_value": "Engine", "rel_type": "USES", "to_value": "SQLite", "properties": {}},
    ])
    v2 = make_v2(tmp_path / "v2.db")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "Ada.md").write_text("---\ntype: Person\n---\n\nLoved poetry.\n\n## Relations\n\n"
                                  "- friend of → [[Babbage]]\n", encoding="utf-8")
    (notes / "Idea.txt").write_text("A plain text note.\n", encoding="utf-8")
    (tmp_path / "picture.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    before = fingerprint(mem)
    paths = [official, engrama, v2, notes, tmp_path / "picture.png"]

    plan = preview_import(mem, paths)

    assert fingerprint(mem) == before
    formats = [f.format for f in plan.files]
    assert formats == ["jsonl", "ndjson", "sqlite", "markdown", None]
    assert plan.files[4].failure and "Cannot tell what kind of file" in plan.files[4].failure
    assert plan.files[1].merged_names == ["Engine"]  # created by a.jsonl a moment before
    assert plan.files[2].entities_new == 3 and plan.files[2].relations_new == 2
    assert plan.files[3].new_names == ["Idea"] and plan.files[3].merged_names == ["Ada"]
    # Engine is new once in all, though the second file adds to it.
    assert "Engine" in plan.new_names and "Engine" not in plan.merged_names
    assert plan.entities_new == 1 + 1 + 3 + 1 and plan.merged_names == ["Ada"]

    summary = run_import(mem, paths)

    assert (summary.entities_new, summary.entities_merged, summary.relations_new) == (
        plan.entities_new, plan.entities_merged, plan.relations_new)
    graph = mem.open_nodes(["Engine", "Idea", "Sesión 12"])
    assert {e.name for e in graph.entities} == {"Engine", "Idea", "Sesión 12"}


def test_cancel_mid_import_leaves_the_memory_as_it_was(mem: Memory, tmp_path: Path) -> None:
    seed(mem)
    big = write_jsonl(tmp_path / "big.jsonl", [
        {"type": "entity", "name": f"Entity {i}", "entityType": "Thing", "observations": [f"fact {i}"]}
        for i in range(5000)])
    before = fingerprint(mem)
    cancel = threading.Event()
    seen: list[int] = []

    def progress(done: int, total: int, text: str) -> None:
        seen.append(done)
        if done > 0:  # part of the file has been written inside the transaction
            cancel.set()

    summary = run_import(mem, [big], progress=progress, cancel=cancel)

    assert summary.cancelled and not summary.applied and summary.changes == 0
    assert 0 < max(seen) < 1000
    assert fingerprint(mem) == before
    assert mem.open_nodes(["Entity 1"]).entities == []


def test_cancel_after_the_last_record_still_undoes_everything(mem: Memory, tmp_path: Path) -> None:
    source = official_with_a_broken_line(tmp_path)
    before = fingerprint(mem)
    cancel = threading.Event()

    def progress(done: int, total: int, text: str) -> None:
        if done == total:
            cancel.set()

    summary = run_import(mem, [source], progress=progress, cancel=cancel)
    assert summary.cancelled and fingerprint(mem) == before


def test_the_memory_itself_is_refused(mem: Memory, tmp_path: Path) -> None:
    seed(mem)
    plan = preview_import(mem, [Path(mem.settings.db)])
    assert plan.files[0].failure and "own database" in plan.files[0].failure
    assert plan.changes == 0


def test_a_missing_file_is_a_failure_not_a_crash(mem: Memory, tmp_path: Path) -> None:
    plan = preview_import(mem, [tmp_path / "gone.jsonl"])
    assert plan.files[0].failure and "does not exist" in plan.files[0].failure
