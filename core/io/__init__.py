"""Import and export: the official memory.jsonl, Engrama NDJSON, MCP Memory v2 (and Hipocampo)
database files, Markdown/text notes; GraphML on the way out.

Every import streams its source, reports progress as ``progress(done, total)``, skips and counts
bad records (with where they were), lands whole or not at all, and is idempotent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, TextIO

from core.errors import InvalidInput
from core.files import private_dir, private_file
from core.io.engrama import export_engrama, import_engrama, import_engrama_db
from core.io.formats import ImportFormat, detect_format, import_path
from core.io.graphml import export_graphml
from core.io.markdown import export_notes, import_notes
from core.io.official import export_official, import_official
from core.io.plan import FilePlan, ImportPlan, ImportSummary, Problem, preview_import, run_import
from core.io.report import ImportRefused, ImportReport, Progress, no_progress
from core.io.sqlite_db import import_database
from core.memory import Memory

ExportFormat = Literal["jsonl", "ndjson", "graphml", "markdown"]
EXPORT_FORMATS: tuple[str, ...] = ("jsonl", "ndjson", "graphml", "markdown")

__all__ = [
    "EXPORT_FORMATS",
    "FilePlan",
    "ImportPlan",
    "ImportSummary",
    "Problem",
    "ImportFormat",
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
