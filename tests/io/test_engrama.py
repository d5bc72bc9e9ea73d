"""Engrama NDJSON: Engrama's own dump layout both ways, with properties, labels and archive state."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from core.errors import InvalidInput
from core.io import detect_format, export_graph, import_path
from core.io.engrama import import_engrama
from core.memory import Memory
from tests.io.conftest import sample_graph


def nodes_of(memory: Memory) -> list[tuple[str, str, dict, list[str], bool]]:
    return [
        (n.name, n.label, n.props, n.observations, n.archived_at is not None)
        for n in memory.list_nodes(include_archived=True)
    ]


def test_round_trip_keeps_graph_labels_properties_and_archive(
    mem: Memory, open_memory: Callable[[str], Memory], tmp_path: Path
) -> None:
    sample_graph(mem)
    out = tmp_path / "dump.ndjson"
    counts = export_graph(mem, "ndjson", out)
    assert counts == {"nodes": 4, "relations": 3}
    copy = open_memory("copy")
    report = import_path(copy, out)
    assert report.errors == 0 and report.entities_imported == 4 and report.relations_imported == 3
    assert nodes_of(copy) == nodes_of(mem)
    assert copy.read_graph().dump() == mem.read_graph().dump()
    relations = [(r.dump(), props) for r, props in mem.export_relations()]
    assert (
        {"from": "Ada Lovelace", "to": "Canción", "relationType": "INSPIRED_BY"},
        {"weight": 2},
    ) in relations
    assert [(r.dump(), props) for r, props in copy.export_relations()] == relations
    again = import_path(copy, out)
    assert (again.entities_imported, again.entities_merged, again.relations_imported) == (0, 0, 0)
    assert nodes_of(copy) == nodes_of(mem)


def test_export_uses_engramas_layout(mem: Memory, tmp_path: Path) -> None:
    sample_graph(mem)
    out = tmp_path / "dump.ndjson"
    export_graph(mem, "ndjson", out)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["engrama_export"] == 1 and lines[0]["embedding_dimensions"] == 0
    decision = next(x for x in lines if x.get("label") == "Decision")
    assert (decision["key_field"], decision["key_value"]) == ("title", "Use punched cards")
    assert decision["properties"]["title"] == "Use punched cards"
    assert decision["properties"]["confidence"] == 0.9 and "created_at" in decision["properties"]
    song = next(x for x in lines if x.get("key_value") == "Canción")
    assert "archived_at" in song["properties"]
    relation = next(x for x in lines if x.get("rel_type") == "SOLVED_BY")
    assert relation == {
        "type": "relation",
        "from_label": "Technology",
        "from_key": "name",
        "from_value": "Analytical Engine",
        "rel_type": "SOLVED_BY",
        "to_label": "Decision",
        "to_key": "title",
        "to_value": "Use punched cards",
        "properties": {},
    }


def test_imports_a_dump_engrama_wrote(mem: Memory, tmp_path: Path) -> None:
    path = tmp_path / "engrama.ndjson"
    records = [
        {
            "engrama_export": 1,
            "version": "0.18.1",
            "exported_at": "2026-05-01T00:00:00+00:00",
            "source_backend": "sqlite",
            "embedding_model": "nomic",
            "embedding_dimensions": 3,
        },
        {
            "type": "node",
            "label": "Project",
            "key_field": "name",
            "key_value": "engrama",
            "properties": {
                "name": "engrama",
                "summary": "memory",
                "status": "active",
                "created_at": "2026-01-01T00:00:00",
                "updated_at": "2026-02-01T00:00:00",
            },
        },
        {
            "type": "node",
            "label": "Problem",
            "key_field": "title",
            "key_value": "Slow import",
            "properties": {"title": "Slow import", "status": "open"},
        },
        {
            "type": "relation",
            "from_label": "Project",
            "from_key": "name",
            "from_value": "engrama",
            "rel_type": "HAS",
            "to_label": "Problem",
            "to_key": "title",
            "to_value": "Slow import",
        },
        {
            "type": "vector",
            "label": "Project",
            "key_field": "name",
            "key_value": "engrama",
            "vector": [0, 1, 0],
        },
    ]
    path.write_text("\n".join(json.dumps(r) for r in records), encoding="utf-8")
    assert detect_format(path) == "ndjson"
    report = import_path(mem, path)
    assert (report.entities_imported, report.relations_imported, report.skipped, report.errors) == (
        2,
        1,
        1,
        0,
    )
    assert mem.get_node("engrama").props == {"summary": "memory", "status": "active"}
    assert mem.get_node("Slow import").label == "Problem"
    assert [r.dump() for r in mem.read_graph().relations] == [
        {"from": "engrama", "to": "Slow import", "relationType": "HAS"}
    ]


def test_hand_written_lenient_forms(mem: Memory, tmp_path: Path) -> None:
    path = tmp_path / "notes.ndjson"
    path.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"type": "node", "label": "Person", "name": "Ada", "summary": "flat properties"},
                {"type": "node", "label": "Decision", "title": "Go", "props": {"why": "fast"}},
                {"type": "edge", "from": "Ada", "to": "Go", "relationType": "MADE"},
                {
                    "type": "relation",
                    "from_name": "Go",
                    "to_name": "Ada",
                    "rel_type": "BY",
                    "props": {"w": 1},
                },
                {"type": "node", "label": "Person", "properties": "not an object", "name": "X"},
                {"type": "relation", "from": "Ada", "to": "Nobody", "rel_type": "KNOWS"},
            ]
        ),
        encoding="utf-8",
    )
    report = import_engrama(mem, path)
    # the relation to a missing end is kept, as the official server keeps it (a placeholder "Nobody")
    assert (report.entities_imported, report.relations_imported, report.errors) == (2, 3, 1)
    assert mem.get_node("Ada").props == {"summary": "flat properties"}
    assert mem.get_node("Go").props == {"why": "fast"}
    assert mem.get_node("Nobody").props == {"placeholder": True}
    assert [d.split(":")[0] for d in report.error_details] == ["line 5"]


def test_a_newer_format_is_refused_before_anything_is_written(mem: Memory, tmp_path: Path) -> None:
    path = tmp_path / "future.ndjson"
    path.write_text(
        json.dumps({"type": "node", "label": "Person", "name": "Early"})
        + "\n"
        + json.dumps({"engrama_export": 2})
        + "\n",
        encoding="utf-8",
    )
    with pytest.raises(InvalidInput, match="format 2"):
        import_engrama(mem, path)
    assert mem.get_node("Early") is None
