"""core/ is the engine: it never imports Qt or the desktop app (read from the source, not runtime)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

CORE = Path(__file__).resolve().parents[1] / "core"
FORBIDDEN = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "qasync", "desktop")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def test_core_never_imports_qt_or_desktop() -> None:
    offenders = {
        f"{path.relative_to(CORE.parent)}: {module}"
        for path in CORE.rglob("*.py")
        for module in imported_modules(path)
        if module.split(".")[0] in FORBIDDEN
    }
    assert not offenders, offenders


def test_the_check_sees_imports(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text("import PySide6.QtWidgets\nfrom desktop.app import main\n")
    assert imported_modules(probe) == {"PySide6.QtWidgets", "desktop.app"}


def test_sql_stays_in_the_storage_layer() -> None:
    """Widgets and tools call core.Memory; only core/storage speaks SQL."""
    offenders = []
    for path in CORE.rglob("*.py"):
        rel = path.relative_to(CORE)
        if rel.parts[0] == "storage":
            continue
        text = path.read_text(encoding="utf-8")
        if ".execute(" in text or "sqlean" in text:
            offenders.append(str(rel))
    assert not offenders, offenders


DESKTOP = CORE.parent / "desktop"
#: desktop is grouped by feature: each of these packages holds one pane (or the dialogs) whole
FEATURES = ("activity", "dialogs", "editor", "graph", "insights", "search")
#: what any feature may use besides itself and core: shared helpers and the app's plumbing
COMMON = ("desktop.shared", "desktop.workers", "desktop.resources", "desktop.theme", "desktop.autostart")


def desktop_modules(path: Path) -> set[str]:
    """The desktop modules ``path`` imports (``from desktop import autostart`` counts as desktop.autostart)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "desktop":
                found.update(f"desktop.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
    return {module for module in found if module.split(".")[0] == "desktop"}


def desktop_imports() -> dict[str, set[str]]:
    """Each desktop source file (relative to desktop/) → the desktop modules it imports."""
    return {path.relative_to(DESKTOP).as_posix(): desktop_modules(path) for path in DESKTOP.rglob("*.py")}


def test_desktop_features_never_import_each_other() -> None:
    """A pane's view, model and delegates live in its own package; what two panes share lives in
    desktop/shared, so no feature reaches into another one's files (and none back up into the window)."""
    offenders = []
    for rel, modules in desktop_imports().items():
        package = rel.split("/")[0]
        if package not in FEATURES:
            continue
        for module in modules:
            own = module == f"desktop.{package}" or module.startswith(f"desktop.{package}.")
            if not own and not module.startswith(COMMON):
                offenders.append(f"desktop/{rel}: {module}")
    assert not offenders, offenders


def test_desktop_shared_helpers_belong_to_no_feature() -> None:
    offenders = [f"desktop/{rel}: {module}" for rel, modules in desktop_imports().items()
                 if rel.startswith("shared/") for module in modules if not module.startswith("desktop.shared")]
    assert not offenders, offenders


# -- import circles and private reaches, anywhere in core/ and desktop/ -------------------------------

ROOT = CORE.parent
PACKAGES = ("core", "desktop")


@functools.cache
def parsed(path: Path) -> ast.Module:
    """``path``'s syntax tree, read once per run (three checks walk every file)."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def every_import(path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports: at the top, inside functions and under ``TYPE_CHECKING``
    alike (a circle hidden in a function or a type hint is still a circle to a reader)."""
    name = module_of(path)
    found: set[str] = set()
    for node in ast.walk(parsed(path)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's own package
                base = name.split(".")[: len(name.split(".")) - node.level + (path.name == "__init__.py")]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            subs = [f"{module}.{alias.name}" for alias in node.names]
            targets = [s for s in subs if s in known] + ([module] if any(s not in known for s in subs) else [])
        for target in targets:
            while target and target not in known:  # a name inside a module: that module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    paths = [p for package in PACKAGES for p in (ROOT / package).rglob("*.py")]
    known = {module_of(p) for p in paths}
    return {module_of(p): every_import(p, known) for p in paths}


def circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """Every group of modules that import one another round in a circle (Tarjan's strongly connected
    components of more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.add(frozenset(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


# The circles left, each with why (none today); remove an entry when its circle is gone (the test says so).
KNOWN_CIRCLES: dict[frozenset[str], str] = {}


def test_no_import_circles_but_the_known_ones() -> None:
    found = circles(import_graph())
    assert not found - set(KNOWN_CIRCLES), f"new import circles: {[sorted(c) for c in found - set(KNOWN_CIRCLES)]}"
    assert not set(KNOWN_CIRCLES) - found, f"gone, take them off KNOWN_CIRCLES: {set(KNOWN_CIRCLES) - found}"


#: names with a leading underscore that are public API by convention (namedtuple's, os._exit)
PUBLIC_BY_CONVENTION = {"_replace", "_asdict", "_fields", "_make", "_exit"}


def private_reaches(path: Path) -> set[str]:
    """``x._name`` where ``x`` is not ``self``/``cls``/``super()`` and this module defines no ``_name``
    of its own (as a function, class, variable or attribute it sets): a reach into another module's
    privates. Returned as "path: expression" (no line numbers, so the list survives edits)."""
    tree = parsed(path)
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
    rel = path.relative_to(ROOT).as_posix()
    found = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            continue
        if isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super":
            continue
        if node.attr not in own and node.attr not in PUBLIC_BY_CONVENTION:
            found.add(f"{rel}: {ast.unparse(node)}")
    return found


# The reaches left, each with why; remove an entry when it is gone (the test says so).
KNOWN_REACHES = {
    "core/server/fast/front_build.py: server._lowlevel_server":
        "the MCP SDK's MCPServer keeps its low-level server private; the fast path's builder drives it in memory",
    "core/server/transports/app.py: server._lowlevel_server":
        "the SDK's MCPServer has no public way to add subscribe/listen handlers to its low-level server",
    "core/storage/cypher/falkordb.py: self.graph._build_params_header":
        "the falkordb client has no public way to write the parameter header of a query sent in a MULTI",
    "desktop/launcher.py: argparse._SubParsersAction": "argparse has no public way to list a parser's subcommands",
    "desktop/launcher.py: cli.build_parser()._actions": "argparse has no public way to list a parser's subcommands",
}


def test_no_reaches_into_other_modules_privates_but_the_known_ones() -> None:
    found = {hit for package in PACKAGES for path in (ROOT / package).rglob("*.py") for hit in private_reaches(path)}
    assert not found - set(KNOWN_REACHES), f"new reaches into privates: {sorted(found - set(KNOWN_REACHES))}"
    assert not set(KNOWN_REACHES) - found, f"gone, take them off KNOWN_REACHES: {sorted(set(KNOWN_REACHES) - found)}"


def test_the_circle_and_reach_checks_see_what_they_look_for(tmp_path: Path) -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == {frozenset({"a", "b", "c"})}
    assert circles({"a": {"b"}, "b": set()}) == set()
    probe = ROOT / "core" / "_layering_probe.py"  # inside the tree, so its path reads as the others do
    probe.write_text("import os\nclass A:\n    def f(self, store):\n        self._mine = store._theirs\n"
                     "        return self._x, os._exit, A._mine, super()._y\n")
    try:
        assert private_reaches(probe) == {"core/_layering_probe.py: store._theirs"}
    finally:
        probe.unlink()
    probe = ROOT / "core" / "_layering_import_probe.py"
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from core.memory import Memory\n"
                     "def f():\n    from core.storage import factory\n    from . import errors\n")
    try:  # type-hint imports count, so do ones inside functions, and relative ones
        known = {"core.memory", "core.storage", "core.storage.factory", "core.errors"}
        assert every_import(probe, known) == {"core.memory", "core.storage.factory", "core.errors"}
    finally:
        probe.unlink()


#: mixins of a store that still reach it untyped, each with why; remove an entry when it is gone
KNOWN_UNTYPED_MIXINS = {
    "core/storage/cypher/facts.py": "FactTextMixin: on the FalkorDB-latency branch while this was written",
}


def test_a_stores_mixins_reach_it_through_a_typed_seam() -> None:
    """A mixin of a storage backend uses its store through a Protocol (``cypher/seams.py``'s ``Graph``
    as the methods' ``self`` type), never through ``self.x  # type: ignore[attr-defined]``: a reach mypy
    cannot check is a private reach in all but name (issue 26.5)."""
    found = {path.relative_to(ROOT).as_posix() for path in (CORE / "storage").rglob("*.py")
             if any("self." in line and "ignore[attr-defined]" in line
                    for line in path.read_text(encoding="utf-8").splitlines())}
    new = sorted(found - set(KNOWN_UNTYPED_MIXINS))
    assert not new, f"untyped reaches into the store: {new}"
    assert not set(KNOWN_UNTYPED_MIXINS) - found, f"gone, take them off: {sorted(set(KNOWN_UNTYPED_MIXINS) - found)}"
