"""``core.Memory`` stays one entry point over typed parts: no probing of the backend, every public
method documented, and every ability the façade relies on declared by both graph stores."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from core import memory as memory_module
from core.memory import Memory
from core.protocols import FileStore, GraphStore
from core.storage.cypher.store import CypherGraphStore
from core.storage.sqlite.store import SqliteGraphStore

CORE = Path(memory_module.__file__).resolve().parent
FACADE = [CORE / "memory.py", *sorted((CORE / "memory_parts").glob("*.py"))]


def test_the_facade_and_its_parts_never_probe_with_getattr() -> None:
    probes = [f"{path.name}:{node.lineno}" for path in FACADE for node in ast.walk(ast.parse(path.read_text("utf-8")))
              if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "hasattr")]
    assert probes == []


def test_every_public_method_has_a_docstring() -> None:
    undocumented = [name for name, member in inspect.getmembers(Memory)
                    if not name.startswith("_") and callable(member) and not (member.__doc__ or "").strip()]
    assert undocumented == []


def test_both_graph_stores_have_every_method_the_protocol_names() -> None:
    wanted = [name for name in dir(GraphStore) if not name.startswith("_") and callable(getattr(GraphStore, name))]
    for store in (SqliteGraphStore, CypherGraphStore):
        assert [name for name in wanted if not callable(getattr(store, name, None))] == [], store.__name__
    file_abilities = [name for name in dir(FileStore) if not name.startswith("_")]
    assert all(callable(getattr(SqliteGraphStore, name, None)) for name in file_abilities)
    assert not any(hasattr(CypherGraphStore, name) for name in file_abilities)
