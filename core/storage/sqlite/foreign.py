"""Reading another memory database, to import it: MCP Memory v2's ``memory.db`` or another
Hipocampo file. Never writes: no PRAGMAs that touch the file, and ``query_only`` on.

Rows come out in the shapes ``core.memory.Memory`` takes, in creation order, a batch at a time, so
a large file is never held in memory whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.errors import InvalidInput
from core.storage.sqlite.connection import DatabaseError, connect

BATCH = 1000


class ForeignGraph:
    """A read-only view of an MCP Memory v2 or Hipocampo database file."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise InvalidInput(f"{path} does not exist or is not a file.")
        self.path = path
        self._conn = connect(path, apply_pragmas=False)
        try:
            self._conn.execute("PRAGMA query_only = ON")
            tables = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            columns = {r[1] for r in self._conn.execute("PRAGMA table_info(entities)")}
        except DatabaseError as exc:
            self._conn.close()
            raise InvalidInput(f"{path} is not an SQLite database ({exc}).") from exc
        if (
            not {"entities", "observations", "relations"} <= tables
            or not {"id", "name", "entity_type"} <= columns
        ):
            self._conn.close()
            raise InvalidInput(
                f"{path} is an SQLite database but not one MCP Memory v2 or Hipocampo wrote "
                f"(tables: {', '.join(sorted(tables)[:8]) or 'none'})."
            )
        self.has_props = "props" in columns
        self.kind = "hipocampo" if self.has_props else "mcp-memory-v2"
        rel_columns = {r[1] for r in self._conn.execute("PRAGMA table_info(relations)")}
        self._rel_props = "props" in rel_columns
        self._rel_ended = "ended_at" in rel_columns
        self._archived = "archived_at" in columns

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> ForeignGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def counts(self) -> tuple[int, int]:
        """(entities, relations) in the file, for progress."""
        entities = self._conn.execute("SELECT count(*) FROM entities").fetchone()[0]
        relations = self._conn.execute("SELECT count(*) FROM relations").fetchone()[0]
        return int(entities), int(relations)

    def entity_batches(self) -> Iterator[list[dict[str, Any]]]:
        """Entities as ``{name, entityType, observations, props, archived}``, oldest first."""
        props = "props" if self.has_props else "'{}'"
        archived = "archived_at" if self._archived else "NULL"
        last = 0
        while True:
            rows = self._conn.execute(
                f"SELECT id, name, entity_type, {props}, {archived} FROM entities WHERE id > ? "
                "ORDER BY id LIMIT ?",
                (last, BATCH),
            ).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            ids = json.dumps([r[0] for r in rows])
            observations: dict[int, list[str]] = {r[0]: [] for r in rows}
            for entity_id, content in self._conn.execute(
                "SELECT entity_id, content FROM observations WHERE entity_id IN "
                "(SELECT value FROM json_each(?)) ORDER BY id",
                (ids,),
            ):
                observations[entity_id].append(content)
            yield [
                {
                    "name": name,
                    "entityType": etype,
                    "observations": observations[eid],
                    "props": _object(raw_props),
                    "archived": archived_at is not None,
                }
                for eid, name, etype, raw_props, archived_at in rows
            ]

    def relation_batches(self) -> Iterator[list[dict[str, Any]]]:
        """Current relations as ``{from, to, relationType, props}``, oldest first."""
        props = "r.props" if self._rel_props else "'{}'"
        current = " AND r.ended_at IS NULL" if self._rel_ended else ""
        last = 0
        while True:
            rows = self._conn.execute(
                f"SELECT r.id, f.name, t.name, r.relation_type, {props} FROM relations r "
                "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
                f"WHERE r.id > ?{current} ORDER BY r.id LIMIT ?",
                (last, BATCH),
            ).fetchall()
            if not rows:
                return
            last = rows[-1][0]
            yield [
                {"from": src, "to": dst, "relationType": rtype, "props": _object(raw)}
                for _, src, dst, rtype, raw in rows
            ]


def _object(raw: Any) -> dict[str, Any]:
    try:
        value = json.loads(raw) if isinstance(raw, str) else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
