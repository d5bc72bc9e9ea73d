"""core/ is the engine: it never imports Qt or the desktop app (read from the source, not runtime)."""

from __future__ import annotations

import ast
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
