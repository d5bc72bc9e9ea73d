"""Which dropped files and folders the app can import (drag and drop onto the main window)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QMimeData

#: official memory.jsonl / memory.json, Engrama NDJSON, MCP Memory v2 (or Hipocampo) databases, notes
IMPORTABLE_SUFFIXES: frozenset[str] = frozenset(
    {".jsonl", ".json", ".ndjson", ".db", ".sqlite", ".sqlite3", ".md", ".markdown", ".txt"}
)
NOTE_LIKE: frozenset[str] = frozenset({".md", ".markdown", ".txt"})


def is_importable(path: Path) -> bool:
    """True for an existing folder (of notes) or a file with one of the importable suffixes."""
    try:
        if path.is_dir():
            return True
        return path.is_file() and path.suffix.lower() in IMPORTABLE_SUFFIXES
    except OSError:  # e.g. a path the user may not read
        return False


def _by_content(path: Path) -> bool:
    """True for a memory file that says so in its first bytes (not a note, not just its suffix)."""
    from core.errors import InvalidInput
    from core.io import detect_format  # the core loads after the window is painted

    try:
        kind = detect_format(path)
    except (InvalidInput, OSError):
        return False
    if kind == "sqlite":
        return True
    with path.open("rb") as fh:  # detect_format also accepts a .json by its suffix alone
        head = fh.read(4096)
    return b'"type"' in head or b"engrama" in head or b"rel_type" in head


def expand_folder(folder: Path) -> list[Path]:
    """What a dropped folder holds for an import: the memory files at its top (a ``memory.jsonl``,
    an Engrama dump, a database), then the folder itself when it has notes. A folder with neither
    stays as it is, so the preview can say there is nothing to import."""
    from core.io.markdown import note_files

    try:
        files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")
                       and p.suffix.lower() in IMPORTABLE_SUFFIXES - NOTE_LIKE and _by_content(p))
        notes = note_files(folder)
    except OSError:
        return [folder]
    found = [*files, *([folder] if notes else [])]
    return found or [folder]


def importable_paths(mime_data: QMimeData) -> list[Path]:
    """The local files and folders in a drop that the app can import, in order, each once (a folder
    stands for its memory files and its notes: see ``expand_folder``)."""
    if not mime_data.hasUrls():
        return []
    seen: dict[Path, None] = {}
    for url in mime_data.urls():
        if not url.isLocalFile():
            continue
        path = Path(url.toLocalFile())
        if not is_importable(path):
            continue
        for found in expand_folder(path) if path.is_dir() else [path]:
            seen.setdefault(found, None)
    return list(seen)
