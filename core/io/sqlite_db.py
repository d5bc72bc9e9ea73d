"""Importing another memory database file: MCP Memory v2's ``memory.db``, or another Hipocampo
file (to merge two memories). The source is only read (``core.storage.sqlite.foreign``)."""

from __future__ import annotations

from pathlib import Path

from core.io.report import ImportReport, Progress, no_progress
from core.io.writer import BatchWriter
from core.memory import Memory
from core.storage.sqlite.foreign import ForeignGraph


def import_database(
    memory: Memory, path: Path, *, actor: str = "import", progress: Progress = no_progress
) -> ImportReport:
    """Copy every entity, observation and relation of the database at ``path`` into ``memory``,
    in one transaction. Progress counts rows (entities + relations), not bytes."""
    with ForeignGraph(path) as source, memory.transaction():
        report = ImportReport(source=str(path), format=source.kind)
        writer = BatchWriter(memory, report, actor)
        entities, relations = source.counts()
        total, done = entities + relations, 0
        for batch in source.entity_batches():
            for row in batch:
                writer.entity(
                    f"entity {row['name']!r}",
                    {
                        "name": row["name"],
                        "entityType": row["entityType"],
                        "observations": row["observations"],
                    },
                    props=row["props"],
                    archived=row["archived"],
                )
            writer.flush_entities()
            done += len(batch)
            progress(done, total)
        for batch in source.relation_batches():
            for row in batch:
                writer.relation(
                    f"relation {row['from']!r} -{row['relationType']}-> {row['to']!r}",
                    {
                        "from": row["from"],
                        "to": row["to"],
                        "relationType": row["relationType"],
                    },
                    props=row["props"],
                )
            writer.finish()
            done += len(batch)
            progress(done, total)
        writer.finish()
        progress(total, total)
    return report
