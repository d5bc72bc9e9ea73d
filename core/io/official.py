"""The official memory server's file: ``memory.jsonl`` (and the older ``memory.json``, same lines).

One JSON object per line::

    {"type":"entity","name":"Ada","entityType":"Person","observations":["…"]}
    {"type":"relation","from":"Ada","to":"Babbage","relationType":"worked with"}

Export writes exactly those lines (entities first, as the official server does), so the file can be
handed back to the official server. It holds the current graph as ``read_graph`` shows it: archived
(soft-deleted) entities, which that format cannot mark, are left out; Engrama NDJSON keeps them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from core.io.lines import json_lines
from core.io.report import ImportReport, Progress, no_progress
from core.io.writer import BatchWriter
from core.memory import Memory

PAGE = 2000  # entities per read while exporting: bounded memory on any graph size


def import_official(
    memory: Memory, path: Path, *, actor: str = "import", progress: Progress = no_progress
) -> ImportReport:
    """Import ``path`` into ``memory``: all of it in one transaction, corrupt lines skipped and
    counted. Re-running it imports nothing new."""
    report = ImportReport(source=str(path), format="jsonl")
    writer = BatchWriter(memory, report, actor)
    with memory.transaction():
        for number, obj in json_lines(path, report, progress, max_line=memory.settings.max_request_bytes):
            where = f"line {number}"
            kind = obj.get("type")
            if kind == "entity":
                writer.entity(
                    where,
                    {
                        "name": obj.get("name"),
                        "entityType": obj.get("entityType", "Generic"),
                        "observations": obj.get("observations", []),
                    },
                )
            elif kind == "relation":
                writer.relation(
                    where,
                    {
                        "from": obj.get("from"),
                        "to": obj.get("to"),
                        "relationType": obj.get("relationType"),
                    },
                )
            else:
                report.error(where, f"unknown record type {kind!r} (expected 'entity' or 'relation')")
        writer.finish()
    return report


def export_official(memory: Memory, out: TextIO) -> dict[str, int]:
    """Write the whole graph to ``out`` as official JSONL. Returns the counts written."""
    relations: list[dict[str, Any]] = []
    entities = 0
    offset = 0
    while True:
        page = memory.read_graph(limit=PAGE, offset=offset)
        for e in page.entities:
            out.write(
                _line(
                    {
                        "type": "entity",
                        "name": e.name,
                        "entityType": e.entityType,
                        "observations": getattr(e, "observations", []),
                    }
                )
            )
        relations.extend({"type": "relation", **r.dump()} for r in page.relations)
        entities += len(page.entities)
        offset += PAGE
        if offset >= (page.total_entities or 0):
            break
    for r in relations:
        out.write(_line(r))
    return {"entities": entities, "relations": len(relations)}


def _line(obj: dict[str, Any]) -> str:
    # JSON.stringify's compact form: no spaces after separators, non-ASCII kept as is.
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
