"""Import and export: the official memory.jsonl, Engrama NDJSON, MCP Memory v2 (and Hipocampo)
database files, Markdown/text notes; GraphML on the way out.

Every import streams its source, reports progress as ``progress(done, total)``, skips and counts
bad records (with where they were), lands whole or not at all, and is idempotent.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Literal, TextIO

from core.errors import InvalidInput
from core.io.engrama import export_engrama, import_engrama, import_engrama_db
from core.io.graphml import export_graphml
from core.io.markdown import NOTE_SUFFIXES, export_notes, import_notes
from core.io.official import export_official, import_official
from core.io.plan import FilePlan, ImportPlan, ImportSummary, Problem, preview_import, run_import
from core.io.report import ImportRefused, ImportReport, Progress, no_progress
from core.io.sqlite_db import import_database
from core.memory import Memory
from core.storage.files import private_dir, private_file

ImportFormat = Literal["jsonl", "ndjson", "sqlite", "engrama-db", "markdown"]
ExportFormat = Literal["jsonl", "ndjson", "graphml", "markdown"]
EXPORT_FORMATS: tuple[str, ...] = ("jsonl", "ndjson", "graphml", "markdown")
_SQLITE_MAGIC = b"SQLite format 3\x00"

__all__ = [
    "EXPORT_FORMATS",
    "FilePlan",
    "ImportPlan",
    "ImportSummary",
    "Problem",
    "ImportRefused",
    "ImportReport",
    "Progress",
    "detect_format",
    "export_engrama",
    "export_graph",
    "export_graphml",
    "export_notes",
    "export_official",
    "import_database",
    "import_engrama",
    "import_engrama_db",
    "import_notes",
    "import_official",
    "import_path",
    "no_progress",
    "preview_import",
    "run_import",
]


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


def export_graph(memory: Memory, format: ExportFormat, out: TextIO | Path) -> dict[str, int]:
    """Export the whole graph. ``markdown`` writes a folder (``out`` is its path); the others
    write one text stream (an open file, stdout, or a path to create)."""
    if format == "markdown":
        if not isinstance(out, Path):
            raise InvalidInput("The markdown export writes one file per entity: give a folder with --out.")
        private_dir(out)  # a new folder is the owner's only, as the memory itself
        return export_notes(memory, out)
    writer = {"jsonl": export_official, "ndjson": export_engrama, "graphml": export_graphml}.get(format)
    if writer is None:
        raise InvalidInput(f"Unknown export format {format!r}; choose one of {', '.join(EXPORT_FORMATS)}.")
    if isinstance(out, Path):
        private_file(out)  # readable by its owner only, as the memory it copies
        with out.open("w", encoding="utf-8", newline="\n") as fh:
            return writer(memory, fh)
    return writer(memory, out)
