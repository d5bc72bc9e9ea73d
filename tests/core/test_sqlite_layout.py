"""The SQLite backend's shape (read from the source): its stores share one ``Database`` handle
instead of reaching into each other's privates, and its modules import one another without a
circle, so each concern can be read and changed on its own."""

from __future__ import annotations

import ast
from pathlib import Path

SQLITE = Path(__file__).resolve().parents[2] / "core" / "storage" / "sqlite"
PACKAGE = "core.storage.sqlite"
SHARED = {"_lock", "_conn", "_clock"}


def _modules(root: Path) -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8"), filename=str(p)) for p in root.glob("*.py")}


def foreign_privates(tree: ast.Module) -> list[str]:
    """``x._lock`` / ``x._conn`` / ``x._clock`` where ``x`` is not ``self``."""
    return [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in SHARED
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]


def package_imports(tree: ast.Module, names: set[str]) -> set[str]:
    """The package's modules ``tree`` imports when it runs (lazy imports inside functions count;
    ``if TYPE_CHECKING:`` blocks do not)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            skip.update(id(n) for n in ast.walk(node))
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip or not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        if node.module == PACKAGE:
            found.update(a.name for a in node.names if a.name in names)
        elif node.module.startswith(PACKAGE + "."):
            found.add(node.module.removeprefix(PACKAGE + ".").split(".")[0])
    return found


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle in ``graph`` (module → modules it imports), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_no_sqlite_module_reaches_into_anothers_connection_lock_or_clock() -> None:
    offenders = {name: hits for name, tree in _modules(SQLITE).items() if (hits := foreign_privates(tree))}
    assert not offenders, offenders


def test_the_sqlite_modules_import_one_another_without_a_circle() -> None:
    trees = _modules(SQLITE)
    graph = {name: package_imports(tree, set(trees)) - {name} for name, tree in trees.items()}
    assert graph["insights"] >= {"database", "detection"}  # the check sees real imports
    assert cycle(graph) is None, cycle(graph)


def test_the_checks_see_what_they_look_for() -> None:
    reaching = ast.parse("def f(store):\n    with store._lock:\n        return self._conn, store._clock()\n")
    assert foreign_privates(reaching) == ["line 2: store._lock", "line 3: store._clock"]
    lazy = ast.parse(
        "from typing import TYPE_CHECKING\nfrom core.storage.sqlite import reads\n"
        "if TYPE_CHECKING:\n    from core.storage.sqlite.store import S\n"
        "def f():\n    from core.storage.sqlite.insights import I\n")
    assert package_imports(lazy, {"reads", "store", "insights"}) == {"reads", "insights"}
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
