"""What a backend can do as a file (``core.protocols.FileStore``) is declared, not probed: SQLite
backs up, salvages and imports as a unit; a graph server says what to do instead, and its data
stays as it was."""

from __future__ import annotations

import pytest

from core.errors import ConfigError
from core.memory import Memory
from core.protocols import FileStore, GraphStore

ADA = {"name": "Ada", "entityType": "Person", "observations": ["wrote the first program"]}


def test_file_abilities_follow_the_backend(mem: Memory, backend: str) -> None:
    mem.create_entities([ADA])
    before = mem.read_graph().dump()
    assert isinstance(mem.graph, GraphStore)
    assert isinstance(mem.graph, FileStore) is (backend == "sqlite")
    assert mem.damage() is None
    if backend == "sqlite":
        assert [e["name"] for e in mem.salvage()["entities"]] == ["Ada"]
    else:
        with pytest.raises(ConfigError, match="cannot salvage"):
            mem.salvage()
        with pytest.raises(ConfigError, match="backup is not available"):
            mem.backup()
        assert mem.auto_backup("import") is None
    assert mem.read_graph().dump() == before


def test_a_failed_import_leaves_nothing_behind(mem: Memory) -> None:
    mem.create_entities([ADA])
    before = mem.read_graph().dump()
    with pytest.raises(RuntimeError, match="refused"), mem.importing("notes.jsonl"):
        mem.create_entities([{"name": "Bob", "entityType": "Person", "observations": ["imported"]}])
        raise RuntimeError("refused half-way")
    assert mem.read_graph().dump() == before


def test_the_fast_dumps_are_the_models_dumped(mem: Memory) -> None:
    mem.create_entities([ADA, {"name": "Bob", "entityType": "Person", "observations": []}])
    mem.create_relations([{"from": "Ada", "to": "Bob", "relationType": "KNOWS"}])
    assert mem.open_nodes_dump(["Bob", "Nobody", "Ada"]) == mem.open_nodes(["Bob", "Nobody", "Ada"]).dump()
    assert mem.search_nodes_dump("ada") == mem.search_nodes("ada").dump()
    assert mem.read_graph_dump() == mem.read_graph().dump()
    assert [(r.dump(), props) for r, props in mem.export_relations()] == [
        ({"from": "Ada", "to": "Bob", "relationType": "KNOWS"}, {})]


def test_reflect_and_review_run_on_every_backend(mem: Memory) -> None:
    mem.create_entities([ADA])
    result = mem.reflect()
    assert set(result) >= {"created", "insights"}
    assert mem.insight_counts()["pending"] == result["created"]
