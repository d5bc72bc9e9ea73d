"""Which dropped files and folders the app can import (drag and drop onto the main window)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData

#: official memory.jsonl / memory.json, Engrama NDJSON, MCP Memory v2 (or Hipocampo) databases, notes
IMPORTABLE_SUFFIXES: frozenset[str] = frozenset(
    {".jsonl", ".json", ".ndjson", ".db", ".sqlite", ".sqlite3", ".md", ".markdown", ".txt"}
)


def is_importable(path: Path) -> bool:
    """True for an existing folder (of notes) or a file with one of the importable suffixes."""
    try:
        if path.is_dir():
            return True
        return path.is_file() and path.suffix.lower() in IMPORTABLE_SUFFIXES
    except OSError:  # e.g. a path the user may not read
        return False


def importable_paths(mime_data: QMimeData) -> list[Path]:
    """The local files and folders in a drop that the app can import, in order, each once."""
    if not mime_data.hasUrls():
        return []
    seen: dict[Path, None] = {}
    for url in mime_data.urls():
        if not url.isLocalFile():
            continue
        path = Path(url.toLocalFile())
        if path not in seen and is_importable(path):
            seen[path] = None
    return list(seen)
