"""What a backend does not do yet it says so, with a ConfigError naming the backend; it never
silently does nothing. And a server backend that cannot be used is refused clearly at open."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import ConfigError, StorageError
from core.memory import Memory
from core.settings import Settings
from tests.graph_server import free_port

# Methods a backend refuses today; each would otherwise be a contract test of its own. A graph server
# is backed up by its own tools (e.g. FalkorDB's BGSAVE), not to a file.
NOT_YET = {
    "falkordb": [("backup", ())],
    "neo4j": [("backup", ())],
}


def test_unsupported_operations_say_so_and_change_nothing(mem: Memory) -> None:
    calls = NOT_YET.get(mem.graph.backend)
    if not calls:
        pytest.skip(f"the {mem.graph.backend} backend does every operation")
    mem.create_entities([{"name": "A", "observations": ["x"]}, {"name": "B"}])
    mem.create_relations([{"from": "A", "to": "B", "relationType": "r"}])
    before = mem.read_graph().dump()
    for method, args in calls:
        with pytest.raises(ConfigError, match=f"not available on the {mem.graph.backend} backend"):
            getattr(mem, method)(*args)
    assert mem.read_graph().dump() == before


def test_a_bad_graph_url_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="redis://"):
        Memory(Settings(db=tmp_path / "x.db", backend="falkordb", graph_url="http://example.org", embeddings="none"))


def test_an_unreachable_server_is_reported(tmp_path: Path) -> None:
    url = f"redis://127.0.0.1:{free_port()}"
    with pytest.raises(StorageError, match="Cannot reach the FalkorDB server"):
        Memory(Settings(db=tmp_path / "x.db", backend="falkordb", graph_url=url, embeddings="none"))


def test_a_bad_neo4j_url_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="bolt://"):
        Memory(Settings(db=tmp_path / "x.db", backend="neo4j", graph_url="redis://127.0.0.1:6379", embeddings="none"))


def test_an_unreachable_neo4j_server_is_reported(tmp_path: Path) -> None:
    url = f"bolt://127.0.0.1:{free_port()}"
    with pytest.raises(StorageError, match="Cannot reach the Neo4j server"):
        Memory(Settings(db=tmp_path / "x.db", backend="neo4j", graph_url=url, embeddings="none"))
