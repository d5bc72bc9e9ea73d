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
