"""What an official memory server user brings: nothing it stored is refused, dropped or rewritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.io import ImportRefused, import_path
from core.memory import Memory
from core.settings import Settings


def write_jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_big_observations_and_missing_ends_are_imported_whole(mem: Memory, tmp_path: Path) -> None:
    big = "x" * 100_000
    path = write_jsonl(tmp_path / "memory.jsonl", [
        {"type": "entity", "name": "Notes", "entityType": "document", "observations": [big, "short"]},
        {"type": "relation", "from": "Notes", "to": "Later", "relationType": "mentions"},
        {"type": "relation", "from": "Earlier", "to": "Notes", "relationType": "cites"},
        {"type": "entity", "name": "Later", "entityType": "person", "observations": ["came after"]},
    ])
    report = import_path(mem, path)
    assert (report.entities_imported, report.relations_imported, report.errors) == (2, 2, 0)
    graph = mem.read_graph().dump()
    notes = next(e for e in graph["entities"] if e["name"] == "Notes")
    assert notes["observations"] == [big, "short"]
    assert {(r["from"], r["to"]) for r in graph["relations"]} == {("Notes", "Later"), ("Earlier", "Notes")}
    assert mem.get_node("Later").label == "person"  # the file's entity, not a placeholder
    assert mem.get_node("Earlier").props == {"placeholder": True}


def test_a_file_bigger_than_one_request_is_written_in_parts(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "memory.jsonl", [
        {"type": "entity", "name": f"E{i}", "entityType": "t", "observations": ["y" * 900]} for i in range(20)])
    with Memory(Settings(db=tmp_path / "small.db", embeddings="none", max_request_bytes=4096)) as small:
        report = import_path(small, path)
        assert (report.entities_imported, report.errors) == (20, 0)


def test_a_file_with_bad_lines_is_one_unit_unless_asked(mem: Memory, tmp_path: Path) -> None:
    path = tmp_path / "memory.jsonl"
    path.write_text(
        '{"type":"entity","name":"Ada","entityType":"person","observations":["wrote"]}\n'
        "not json\n"
        '{"type":"entity","name":"","entityType":"x"}\n'
        '{"type":"entity","name":"Bob","entityType":"person","observations":[]}\n',
        encoding="utf-8")
    with pytest.raises(ImportRefused) as refused:
        import_path(mem, path)
    message = str(refused.value)
    assert "line 2: not valid JSON" in message and "line 3:" in message and "nothing was imported" in message
    assert mem.read_graph().entities == [] and mem.history() == []
    report = import_path(mem, path, skip_bad_lines=True)
    assert (report.entities_imported, report.errors) == (2, 2)


def test_an_import_never_rewrites_the_case_of_a_type(mem: Memory, tmp_path: Path) -> None:
    mem.create_entities([{"name": "Redis", "entityType": "technology", "observations": ["a cache"]}])
    path = write_jsonl(tmp_path / "dump.ndjson", [
        {"engrama_export": 1},
        {"type": "node", "label": "Technology", "name": "Redis", "properties": {"version": "7"},
         "observations": ["in-memory"]},
    ])
    report = import_path(mem, path)
    node = mem.get_node("Redis")
    assert node.label == "technology" and node.props == {"version": "7"}
    assert node.observations == ["a cache", "in-memory"]
    assert report.entities_merged == 1
    assert report.merge_details == ["line 2: 'Redis' was already there; new facts were added to it"]


def test_a_markdown_note_is_named_by_its_first_title(mem: Memory, tmp_path: Path) -> None:
    (tmp_path / "2024-05-01 meeting.md").write_text(
        "# Planning meeting\n\nWe chose Postgres.\n\n## Notes\n\nBudget approved.\n", encoding="utf-8")
    (tmp_path / "untitled.md").write_text("Just a line.\n", encoding="utf-8")
    import_path(mem, tmp_path)
    assert sorted(e.name for e in mem.read_graph().entities) == ["Planning meeting", "untitled"]
    assert mem.get_node("Planning meeting").observations == ["We chose Postgres.", "Budget approved."]


@pytest.mark.parametrize("where", ["first line", "a middle line"])
def test_a_line_nested_too_deeply_is_a_bad_line_like_any_other(mem: Memory, tmp_path: Path, where: str) -> None:
    nested = '{"type":"entity","name":"Deep","entityType":"x","observations":' + "[" * 5000 + "]" * 5000 + "}\n"
    ada = '{"type":"entity","name":"Ada","entityType":"person","observations":["wrote"]}\n'
    path = tmp_path / "memory.jsonl"
    path.write_text(nested + ada if where == "first line" else ada + nested + ada.replace("Ada", "Bob"),
                    encoding="utf-8")
    number = 1 if where == "first line" else 2
    with pytest.raises(ImportRefused) as refused:
        import_path(mem, path)
    assert f"line {number}: not valid JSON (nested too deeply" in str(refused.value)
    assert mem.read_graph().entities == []
    report = import_path(mem, path, skip_bad_lines=True)
    assert report.errors == 1 and "Deep" not in {e.name for e in mem.read_graph().entities}
    assert report.entities_imported == (1 if where == "first line" else 2)
