"""memory.jsonl: the official server's file, imported line by line and exported exactly."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from core.errors import InvalidInput
from core.io import export_graph, import_path
from core.io.official import export_official, import_official
from core.memory import Memory
from tests.io.conftest import sample_graph

LINES = [
    {"type": "entity", "name": "Ada", "entityType": "Person", "observations": ["a", "b"]},
    {"type": "entity", "name": "Babbage", "entityType": "Person", "observations": []},
    {"type": "relation", "from": "Ada", "to": "Babbage", "relationType": "knows"},
]


def write_lines(path: Path, lines: list[object]) -> Path:
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines), encoding="utf-8")
    return path


def test_import_reads_entities_and_relations(mem: Memory, tmp_path: Path) -> None:
    report = import_official(mem, write_lines(tmp_path / "memory.jsonl", LINES))
    assert (report.entities_imported, report.relations_imported, report.errors, report.skipped) == (
        2,
        1,
        0,
        0,
    )
    assert mem.read_graph().dump() == {
        "entities": [{k: v for k, v in line.items() if k != "type"} for line in LINES[:2]],
        "relations": [{"from": "Ada", "to": "Babbage", "relationType": "knows"}],
    }


def test_relations_may_come_before_their_entities(mem: Memory, tmp_path: Path) -> None:
    report = import_official(mem, write_lines(tmp_path / "m.jsonl", [LINES[2], LINES[0], LINES[1]]))
    assert (report.relations_imported, report.errors) == (1, 0)


def test_reimport_is_idempotent(mem: Memory, tmp_path: Path) -> None:
    path = write_lines(tmp_path / "m.jsonl", LINES)
    import_official(mem, path)
    before = mem.read_graph().dump()
    again = import_official(mem, path)
    assert (again.entities_imported, again.relations_imported, again.skipped) == (0, 0, 3)
    assert mem.read_graph().dump() == before


def test_corrupt_lines_are_skipped_and_named(mem: Memory, tmp_path: Path) -> None:
    path = write_lines(
        tmp_path / "m.jsonl",
        [
            LINES[0],
            '{"type":"entity","name":"Broken"',  # 2: not JSON
            '["a list"]',  # 3: not an object
            {"type": "entity", "name": "", "entityType": "X"},  # 4: empty name
            {"type": "entity", "entityType": "X"},  # 5: no name
            {"type": "thing", "name": "?"},  # 6: unknown type
            {"type": "relation", "from": "Ada", "to": "Nobody", "relationType": "x"},  # 7: kept (placeholder)
            LINES[1],
            "",
            "   ",
            LINES[2],
        ],
    )
    path.write_bytes(path.read_bytes() + b"\n\xff\xfe not utf-8\n")  # 12: bad bytes
    report = import_official(mem, path)
    assert (report.entities_imported, report.relations_imported, report.errors) == (2, 2, 6)
    lines = {int(d.split(":")[0].removeprefix("line ")): d for d in report.error_details}
    assert sorted(lines) == [2, 3, 4, 5, 6, 12]
    assert "not valid JSON" in lines[2] and "not an object" not in lines[2] and "list" in lines[3]
    assert "empty" in lines[4] and "name" in lines[5] and "'thing'" in lines[6]
    assert mem.get_node("Nobody").label == "Unknown"


def test_a_bom_and_the_older_memory_json_name_are_fine(mem: Memory, tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(LINES[0]).encode() + b"\n")
    assert import_path(mem, path).entities_imported == 1


def test_a_failure_midway_leaves_nothing_behind(
    mem: Memory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_lines(tmp_path / "m.jsonl", LINES)
    real = mem.create_relations

    def broken(*args: object, **kwargs: object) -> object:
        raise OSError("disk went away")

    monkeypatch.setattr(mem, "create_relations", broken)
    with pytest.raises(OSError):
        import_official(mem, path)
    monkeypatch.setattr(mem, "create_relations", real)
    assert mem.read_graph().entities == []


def test_progress_reaches_the_total(mem: Memory, tmp_path: Path) -> None:
    path = write_lines(tmp_path / "m.jsonl", [{**LINES[0], "name": f"e{i}"} for i in range(2000)])
    calls: list[tuple[int, int]] = []
    import_official(mem, path, progress=lambda done, total: calls.append((done, total)))
    size = path.stat().st_size
    assert calls[-1] == (size, size) and all(t == size for _, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls) and len(calls) >= 3


def test_a_missing_file_is_a_clear_error(mem: Memory, tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="Cannot read"):
        import_official(mem, tmp_path / "nope.jsonl")


def test_export_writes_official_lines_entities_first(mem: Memory) -> None:
    mem.create_entities([{"name": "B", "entityType": "T", "observations": ["ü"]}, {"name": "A"}])
    mem.create_relations([{"from": "B", "to": "A", "relationType": "r"}])
    out = io.StringIO()
    assert export_official(mem, out) == {"entities": 2, "relations": 1}
    assert out.getvalue() == (
        '{"type":"entity","name":"B","entityType":"T","observations":["ü"]}\n'
        '{"type":"entity","name":"A","entityType":"Generic","observations":[]}\n'
        '{"type":"relation","from":"B","to":"A","relationType":"r"}\n'
    )


def test_round_trip_gives_the_same_graph(
    mem: Memory, open_memory: Callable[[str], Memory], tmp_path: Path
) -> None:
    sample_graph(mem)
    for i in range(2500):  # more than one export page
        mem.create_entities([{"name": f"bulk {i}", "observations": [f"fact {i}"]}])
    mem.create_relations(
        [{"from": f"bulk {i}", "to": "Ada Lovelace", "relationType": "cites"} for i in range(2500)]
    )
    out = tmp_path / "export.jsonl"
    export_graph(mem, "jsonl", out)
    copy = open_memory("copy")
    report = import_path(copy, out)
    assert report.errors == 0
    assert copy.read_graph().dump() == mem.read_graph().dump()
    assert copy.get_node("Canción") is None  # archived (soft-deleted) entities are not exported here
