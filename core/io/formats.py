"""Which importer reads a file (``detect_format``) and importing one whole (``import_path``): apart
from the package's ``__init__`` so that the import plan (plan.py) can use them without a circle."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Literal

from core.errors import InvalidInput
from core.io.engrama import import_engrama, import_engrama_db
from core.io.markdown import NOTE_SUFFIXES, import_notes
from core.io.official import import_official
from core.io.report import ImportRefused, ImportReport, Progress, no_progress
from core.io.sqlite_db import import_database
from core.memory import Memory

ImportFormat = Literal["jsonl", "ndjson", "sqlite", "engrama-db", "markdown"]
_SQLITE_MAGIC = b"SQLite format 3\x00"


def detect_format(path: Path) -> ImportFormat:
    """Which importer reads ``path``: by folder/suffix, then by the file's first bytes and lines."""
    if path.is_dir() or path.suffix.lower() in NOTE_SUFFIXES:
        return "markdown"
    if not path.is_file():
        raise InvalidInput(f"{path} does not exist.")
    with path.open("rb") as fh:
        if fh.read(16) == _SQLITE_MAGIC:
            from core.storage.sqlite.engrama_db import is_engrama_database

            return "engrama-db" if is_engrama_database(path) else "sqlite"
        fh.seek(0)
        for raw in itertools.islice(fh, 50):  # the first lines tell the format apart
            try:
                obj = json.loads(raw)
            except (ValueError, RecursionError):  # a line nested past what can be read is a bad line
                continue
            if isinstance(obj, dict):
                if "engrama_export" in obj or obj.get("type") in ("node", "edge") or "rel_type" in obj:
                    return "ndjson"
                if obj.get("type") in ("entity", "relation"):
                    return "jsonl"
    if path.suffix.lower() == ".ndjson":
        return "ndjson"
    if path.suffix.lower() in (".jsonl", ".json"):
        return "jsonl"
    raise InvalidInput(
        f"Cannot tell what kind of file {path} is. Hipocampo imports memory.jsonl / memory.json "
        "(official memory server), Engrama .ndjson dumps and engrama.db databases, MCP Memory v2 .db "
        "files and Markdown/text "
        "notes (a file or a folder)."
    )


def import_path(
    memory: Memory,
    path: Path,
    *,
    format: ImportFormat | None = None,
    actor: str = "import",
    progress: Progress = no_progress,
    skip_bad_lines: bool = False,
) -> ImportReport:
    """Import ``path`` (a file, or a folder of notes) into ``memory`` as one unit: any unreadable
    record refuses the whole file (``ImportRefused`` lists them) unless ``skip_bad_lines``."""
    kind = format or detect_format(path)
    importer = {
        "jsonl": import_official,
        "ndjson": import_engrama,
        "sqlite": import_database,
        "engrama-db": import_engrama_db,
        "markdown": import_notes,
    }[kind]
    with memory.importing(str(path), actor=actor):  # short chunks; rolled back whole if it raises
        report = importer(memory, path, actor=actor, progress=progress)
        if report.errors and not skip_bad_lines:
            raise ImportRefused(report)  # rolls the whole file back
    return report
