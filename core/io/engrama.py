"""Engrama's NDJSON dump (``engrama export`` / ``engrama import``), read and written; and
Engrama's own SQLite database (``~/.engrama/engrama.db``), read directly (:func:`import_engrama_db`).

One JSON object per line. The first line is an envelope; then nodes, then relations::

    {"engrama_export": 1, "version": "…", "exported_at": "…", "source_backend": "sqlite", …}
    {"type": "node", "label": "Person", "key_field": "name", "key_value": "Ada",
     "properties": {"name": "Ada", "summary": "…", "created_at": "…", "updated_at": "…"},
     "observations": ["…"]}
    {"type": "relation", "from_label": "Person", "from_key": "name", "from_value": "Ada",
     "rel_type": "WORKED_WITH", "to_label": "Person", "to_key": "name", "to_value": "Babbage",
     "properties": {}}

This is Engrama's own layout (engrama/migrate.py), so its dumps import here and Hipocampo's import
into Engrama. ``observations`` is Hipocampo's addition (Engrama ignores unknown keys). Titles key
Experiment, Vulnerability, Decision, Problem, Exercise, Photo and Insight nodes; names key the rest.

Import is lenient about the record shape, for hand-written files: ``"edge"`` for ``"relation"``;
``name``/``title`` instead of ``key_value``; ``from``/``to`` or ``from_name``/``to_name`` instead of
``from_value``/``to_value``; ``relationType`` for ``rel_type``; ``props`` for ``properties``; or the
properties written flat on the node. The envelope is optional. Engrama's ``vector`` records are
skipped (Hipocampo computes its own embeddings).

Timestamps are exported for reading; an import cannot set them (the graph records when *it*
learned something) and does not store them as properties.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from core import __version__
from core.errors import InvalidInput
from core.io.lines import json_lines
from core.io.report import ImportReport, Progress, no_progress
from core.io.writer import BatchWriter
from core.memory import Memory

FORMAT_VERSION = 1
TITLE_KEYED_LABELS = frozenset(
    {"Experiment", "Vulnerability", "Decision", "Problem", "Exercise", "Photo", "Insight"}
)
# Keys of a node record that are not properties when the properties are written flat.
_NODE_KEYS = {
    "type",
    "label",
    "key_field",
    "key_value",
    "name",
    "title",
    "properties",
    "props",
    "observations",
}
_TIMESTAMPS = ("created_at", "updated_at", "archived_at")
PAGE = 2000


def key_field(label: str) -> str:
    """``title`` for Engrama's title-keyed labels, ``name`` for every other label."""
    return "title" if label in TITLE_KEYED_LABELS else "name"


# -- import -----------------------------------------------------------------------------------


def import_engrama(
    memory: Memory, path: Path, *, actor: str = "import", progress: Progress = no_progress
) -> ImportReport:
    """Import an Engrama NDJSON dump: one transaction, bad records skipped and counted."""
    report = ImportReport(source=str(path), format="ndjson")
    writer = BatchWriter(memory, report, actor)
    with memory.transaction():
        for number, obj in json_lines(path, report, progress, max_line=memory.settings.max_request_bytes):
            where = f"line {number}"
            if "engrama_export" in obj:
                _check_envelope(obj, path)
                continue
            kind = obj.get("type")
            if kind == "node":
                _queue_node(writer, where, obj)
            elif kind in ("relation", "edge"):
                _queue_relation(writer, where, obj)
            elif kind == "vector":
                report.skipped += 1
            else:
                report.error(where, f"unknown record type {kind!r} (expected 'node' or 'relation')")
        writer.finish()
    return report


def import_engrama_db(
    memory: Memory, path: Path, *, actor: str = "import", progress: Progress = no_progress
) -> ImportReport:
    """Import Engrama's SQLite database: its nodes and edges as entities and relations, each
    Insight with its review status and confidence. One transaction; the file is only read."""
    from core.storage.sqlite.engrama_db import EngramaDatabase

    with EngramaDatabase(path) as source, memory.transaction():
        report = ImportReport(source=str(path), format="engrama-db")
        writer = BatchWriter(memory, report, actor)
        counts = source.counts()
        total, done = counts["nodes"] + counts["edges"], 0
        insights: list[dict[str, Any]] = []
        for batch in source.node_batches():
            for row in batch:
                where = f"node {row['label']}:{row['key_value']!r}"
                record = {"label": row["label"], "key_value": row["key_value"], "properties": row["props"]}
                insight = row["insight"]
                if insight is not None or row["label"] == "Insight":
                    insight = insight or {"status": row["props"].get("status"), "confidence":
                                          row["props"].get("confidence")}
                    summary = row["props"].get("summary") or row["props"].get("body")
                    record["observations"] = [summary] if isinstance(summary, str) and summary else []
                    # A proposal nobody approved stays out of searches, as reflect's own do.
                    if insight["status"] not in ("approved", "synced"):
                        record["properties"] = {**row["props"], "archived_at": "imported"}
                    insights.append({"title": row["key_value"], "status": insight["status"],
                                     "confidence": insight["confidence"],
                                     "pattern": row["props"].get("pattern")})
                elif row["archived"] or row["status"] == "archived":
                    record["properties"] = {**row["props"], "archived_at": "imported"}
                _queue_node(writer, where, record)
            writer.flush_entities()
            done += len(batch)
            progress(done, total)
        for batch in source.edge_batches():
            for row in batch:
                where = f"edge {row['from']!r} -{row['rel_type']}-> {row['to']!r}"
                _queue_relation(writer, where, {"from_value": row["from"], "to_value": row["to"],
                                                "rel_type": row["rel_type"], "properties": row["props"]})
            writer.finish()
            done += len(batch)
            progress(done, total)
        writer.finish()
        memory.adopt_insights(insights, actor=actor)
        progress(total, total)
    return report


def _check_envelope(envelope: dict[str, Any], path: Path) -> None:
    version = envelope.get("engrama_export")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise InvalidInput(
            f"{path} is an Engrama export of format {version!r}; this Hipocampo reads format "
            f"{FORMAT_VERSION}. Nothing was imported."
        )


def _queue_node(writer: BatchWriter, where: str, obj: dict[str, Any]) -> None:
    label = obj.get("label") or "Generic"
    raw_props = obj.get("properties", obj.get("props"))
    if raw_props is None:
        raw_props = {k: v for k, v in obj.items() if k not in _NODE_KEYS}
    if not isinstance(raw_props, dict):
        writer.report.error(where, "properties must be an object")
        return
    props = dict(raw_props)
    name = (
        obj.get("key_value")
        or obj.get("name")
        or obj.get("title")
        or props.get(key_field(str(label)))
        or props.get("name")
        or props.get("title")
    )
    # The key is the entity's name, and timestamps are the graph's own: neither is a property.
    for key in ("name", "title"):
        if key in props and props[key] == name:
            props.pop(key)
    archived = props.pop("archived_at", None) is not None
    for key in _TIMESTAMPS:
        props.pop(key, None)
    observations = obj.get("observations", [])
    writer.entity(
        where,
        {"name": name, "entityType": label, "observations": observations},
        props=props,
        archived=archived,
    )


def _queue_relation(writer: BatchWriter, where: str, obj: dict[str, Any]) -> None:
    src = obj.get("from_value", obj.get("from_name", obj.get("from")))
    dst = obj.get("to_value", obj.get("to_name", obj.get("to")))
    rel_type = obj.get("rel_type", obj.get("relationType"))
    props = obj.get("properties", obj.get("props")) or {}
    if not isinstance(props, dict):
        writer.report.error(where, "properties must be an object")
        return
    writer.relation(where, {"from": src, "to": dst, "relationType": rel_type}, props=props)


# -- export -----------------------------------------------------------------------------------


def export_engrama(memory: Memory, out: TextIO) -> dict[str, int]:
    """Write the whole graph (archived entities included) as an Engrama NDJSON dump."""
    out.write(
        _line(
            {
                "engrama_export": FORMAT_VERSION,
                "version": __version__,
                "generator": "hipocampo",
                "exported_at": datetime.now(UTC).isoformat(timespec="milliseconds"),
                "source_backend": memory.graph.backend,
                "embedding_model": "",
                "embedding_dimensions": 0,
            }
        )
    )
    labels: dict[str, str] = {}
    nodes = 0
    offset = 0
    while True:
        page = memory.list_nodes(include_archived=True, limit=PAGE, offset=offset)
        for node in page:
            labels[node.name] = node.label
            field = key_field(node.label)
            properties = {
                **node.props,
                field: node.name,
                "created_at": node.created_at,
                "updated_at": node.updated_at,
            }
            if node.archived_at:
                properties["archived_at"] = node.archived_at
            out.write(
                _line(
                    {
                        "type": "node",
                        "label": node.label,
                        "key_field": field,
                        "key_value": node.name,
                        "properties": properties,
                        "observations": node.observations,
                    }
                )
            )
        nodes += len(page)
        offset += PAGE
        if len(page) < PAGE:
            break
    relations = 0
    for rel, props in memory.export_relations():
        out.write(
            _line(
                {
                    "type": "relation",
                    "from_label": labels.get(rel.from_, "Generic"),
                    "from_key": key_field(labels.get(rel.from_, "")),
                    "from_value": rel.from_,
                    "rel_type": rel.relationType,
                    "to_label": labels.get(rel.to, "Generic"),
                    "to_key": key_field(labels.get(rel.to, "")),
                    "to_value": rel.to,
                    "properties": props,
                }
            )
        )
        relations += 1
    return {"nodes": nodes, "relations": relations}


def _line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"
