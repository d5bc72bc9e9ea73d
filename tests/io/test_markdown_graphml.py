"""Markdown/text notes (one file, one entity) both ways; GraphML out; format detection."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from core.errors import InvalidInput
from core.io import ImportRefused, detect_format, export_graph, import_path
from core.io.markdown import parse_note
from core.memory import Memory
from tests.io.conftest import sample_graph

NOTE = """---
title: Kerberoasting lab
type: Exercise
tags: [active-directory, lab]
difficulty: 3
source: "conversation"
steps:
  - request TGS tickets
  - crack offline
---

# Kerberoasting lab

Students request TGS tickets for SPNs.

Cracking happens offline with Hashcat:
RC4 is much faster to crack than AES.

## Relations

- TEACHES → [[Kerberos]]
- USES -> [[Hashcat]]
"""


def test_parse_note_reads_front_matter_paragraphs_and_relations() -> None:
    entity, props, relations = parse_note(NOTE, "ignored-stem")
    assert entity == {
        "name": "Kerberoasting lab",
        "entityType": "Exercise",
        "observations": [
            "Students request TGS tickets for SPNs.",
            "Cracking happens offline with Hashcat:\nRC4 is much faster to crack than AES.",
        ],
    }
    assert props == {
        "tags": ["active-directory", "lab"],
        "difficulty": 3,
        "source": "conversation",
        "steps": ["request TGS tickets", "crack offline"],
    }
    assert relations == [
        {"from": "Kerberoasting lab", "to": "Kerberos", "relationType": "TEACHES"},
        {"from": "Kerberoasting lab", "to": "Hashcat", "relationType": "USES"},
    ]


def test_plain_text_takes_its_name_from_the_file() -> None:
    entity, props, relations = parse_note("First fact.\r\n\r\nSecond fact.\n", "groceries")
    assert entity == {
        "name": "groceries",
        "entityType": "Note",
        "observations": ["First fact.", "Second fact."],
    }
    assert props == {} and relations == []


def test_a_folder_imports_as_one_unit_with_links_between_notes(mem: Memory, tmp_path: Path) -> None:
    notes = tmp_path / "vault"
    (notes / "sub").mkdir(parents=True)
    (notes / ".obsidian").mkdir()
    (notes / "lab.md").write_text(NOTE, encoding="utf-8")
    (notes / "sub" / "Kerberos.md").write_text(
        "---\ntype: Concept\n---\nA ticket protocol.\n", encoding="utf-8"
    )
    (notes / "sub" / "Hashcat.txt").write_text("A password cracker.", encoding="utf-8")
    (notes / ".obsidian" / "workspace.md").write_text("ignored", encoding="utf-8")
    (notes / "broken.md").write_bytes(b"\xff\xfe\x00bad")
    assert detect_format(notes) == "markdown"
    with pytest.raises(ImportRefused, match="broken.md: cannot read it") as refused:
        import_path(mem, notes)  # one unreadable note: the folder is one unit, nothing lands
    assert refused.value.report.errors == 1 and mem.read_graph().entities == []
    report = import_path(mem, notes, skip_bad_lines=True)
    assert (report.entities_imported, report.relations_imported, report.errors) == (3, 2, 1)
    assert report.error_details[0].startswith("broken.md:")
    assert mem.get_node("Kerberos").label == "Concept"
    assert mem.get_node("Kerberoasting lab").props["difficulty"] == 3
    assert import_path(mem, notes, skip_bad_lines=True).entities_imported == 0  # idempotent


def test_markdown_round_trip(mem: Memory, open_memory: Callable[[str], Memory], tmp_path: Path) -> None:
    sample_graph(mem)
    mem.create_entities(
        [
            {"name": "42", "entityType": "true", "observations": ["multi\nline", "a: b"]},
            {"name": "a/b: c?", "observations": ["slashes in the name"]},
            {"name": "A/B: C?", "observations": ["same file name, other case"]},
        ]
    )
    folder = tmp_path / "export"
    assert export_graph(mem, "markdown", folder)["files"] == 7
    copy = open_memory("copy")
    report = import_path(copy, folder)
    assert report.errors == 0
    original = mem.read_graph().dump()
    imported = copy.read_graph().dump()
    key = lambda e: e["name"]  # noqa: E731 (files are read in name order, not creation order)
    assert sorted(imported["entities"], key=key) == sorted(original["entities"], key=key)
    rel_key = lambda r: (r["from"], r["to"], r["relationType"])  # noqa: E731
    assert sorted(imported["relations"], key=rel_key) == sorted(original["relations"], key=rel_key)
    assert copy.get_node("Use punched cards").props == mem.get_node("Use punched cards").props
    assert copy.get_node("Canción").archived_at is not None  # archived stays archived


def test_markdown_round_trip_keeps_facts_that_look_like_markdown(
        mem: Memory, open_memory: Callable[[str], Memory], tmp_path: Path) -> None:
    """A fact that itself starts with a bullet, a number, a heading or a backslash comes back as
    it was: one observation, its marker kept (a note's own bullets still become one fact each)."""
    facts = ["- buy milk", "* starred", "+ plus", "1. first", "2) second", "# not a heading", "## Relations",
             "\\- already escaped", "\\plain backslash", "- a\n- b (one fact on two lines)", "plain"]
    mem.create_entities([{"name": "Lists", "entityType": "note", "observations": facts}])
    mem.create_entities([{"name": "Target", "entityType": "note"}])
    mem.create_relations([{"from": "Lists", "to": "Target", "relationType": "links"}])
    folder = tmp_path / "export"
    export_graph(mem, "markdown", folder)
    copy = open_memory("copy")
    assert import_path(copy, folder).errors == 0
    assert copy.get_node("Lists").observations == facts
    assert [(r.from_, r.to, r.relationType) for r in copy.read_graph().relations] == [("Lists", "Target", "links")]
    entity, _, _ = parse_note("- one\n- two\n\n\\- three", "n")  # a hand-written note
    assert entity["observations"] == ["one", "two", "- three"]


def test_markdown_export_needs_a_folder(mem: Memory) -> None:
    import io

    with pytest.raises(InvalidInput, match="folder"):
        export_graph(mem, "markdown", io.StringIO())


def test_graphml_export_is_valid_and_complete(mem: Memory, tmp_path: Path) -> None:
    sample_graph(mem)
    mem.create_entities([{"name": "ctrl\x01char <&>", "observations": ["a\x02b"]}])
    out = tmp_path / "graph.graphml"
    assert export_graph(mem, "graphml", out) == {"nodes": 5, "edges": 3}
    ns = {"g": "http://graphml.graphdrawing.org/xmlns"}
    root = ET.parse(out).getroot()
    nodes = root.findall(".//g:node", ns)
    names = {n.find("g:data[@key='n_name']", ns).text for n in nodes}
    assert "Ada Lovelace" in names and "ctrlchar <&>" in names
    edges = root.findall(".//g:edge", ns)
    assert {e.find("g:data[@key='e_relationType']", ns).text for e in edges} == {
        "wrote programs for",
        "SOLVED_BY",
        "INSPIRED_BY",
    }


def test_unknown_files_are_refused_with_the_list_of_formats(tmp_path: Path) -> None:
    odd = tmp_path / "data.bin"
    odd.write_bytes(b"\x00\x01\x02")
    with pytest.raises(InvalidInput, match="memory.jsonl"):
        detect_format(odd)
    with pytest.raises(InvalidInput, match="does not exist"):
        detect_format(tmp_path / "missing.jsonl")
    official = tmp_path / "x.json"
    official.write_text('{"type":"entity","name":"a","entityType":"b","observations":[]}\n')
    assert detect_format(official) == "jsonl"
