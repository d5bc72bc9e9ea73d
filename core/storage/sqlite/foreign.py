"""Reading another memory database, to import it: MCP Memory v2's ``memory.db`` or another
Hipocampo file (``ForeignGraph``), or Engrama's (``engrama_db``, over the same ``ReadOnlyFile``).
Never writes: no PRAGMAs that touch the file, and ``query_only`` on.

Rows come out in the shapes ``core.memory.Memory`` takes, in creation order, a batch at a time, so
a large file is never held in memory whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

from core.errors import InvalidInput
from core.storage.sqlite.connection import Connection, DatabaseError, connect

BATCH = 1000


def columns(conn: Connection, table: str) -> set[str]:
    """The column names of ``table`` (empty when there is no such table)."""
    return {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}


def json_object(raw: Any) -> dict[str, Any]:
    """A props column as a dict; anything that is not a JSON object reads as ``{}``."""
    try:
        value = json.loads(raw) if isinstance(raw, str) else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


class ReadOnlyFile:
    """An SQLite file opened to be read only: refused (``InvalidInput``) if it is no file or no
    SQLite database; a subclass checks it holds the tables it reads."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise InvalidInput(f"{path} does not exist or is not a file.")
        self.path = path
        self._conn = connect(path, apply_pragmas=False)
        try:
            self._conn.execute("PRAGMA query_only = ON")
            self.tables = {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except DatabaseError as exc:
            self._conn.close()
            raise InvalidInput(f"{path} is not an SQLite database ({exc}).") from exc

    def refuse(self, message: str) -> InvalidInput:
        """Close the file; the error to raise, saying what it is not."""
        self._conn.close()
        return InvalidInput(f"{self.path} is an SQLite database but {message}")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def pages(self, query: str) -> Iterator[list[Any]]:
        """The rows of ``query`` a batch at a time: its first column is the id it orders by, and
        its two parameters the last id read and the batch size."""
        last = 0
        while rows := self._conn.execute(query, (last, BATCH)).fetchall():
            last = rows[-1][0]
            yield rows


class ForeignGraph(ReadOnlyFile):
    """A read-only view of an MCP Memory v2 or Hipocampo database file."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        entity_columns = columns(self._conn, "entities")
        if not {"entities", "observations", "relations"} <= self.tables or not {"id", "name", "entity_type"} <= (
                entity_columns):
            raise self.refuse(f"not one MCP Memory v2 or Hipocampo wrote "
                              f"(tables: {', '.join(sorted(self.tables)[:8]) or 'none'}).")
        self.has_props = "props" in entity_columns
        self.kind = "hipocampo" if self.has_props else "mcp-memory-v2"
        rel_columns = columns(self._conn, "relations")
        self._rel_props = "props" in rel_columns
        self._rel_ended = "ended_at" in rel_columns
        self._archived = "archived_at" in entity_columns

    def counts(self) -> tuple[int, int]:
        """(entities, relations) in the file, for progress."""
        entities = self._conn.execute("SELECT count(*) FROM entities").fetchone()[0]
        relations = self._conn.execute("SELECT count(*) FROM relations").fetchone()[0]
        return int(entities), int(relations)

    def entity_batches(self) -> Iterator[list[dict[str, Any]]]:
        """Entities as ``{name, entityType, observations, props, archived}``, oldest first."""
        props = "props" if self.has_props else "'{}'"
        archived = "archived_at" if self._archived else "NULL"
        for rows in self.pages(f"SELECT id, name, entity_type, {props}, {archived} FROM entities WHERE id > ? "
                               "ORDER BY id LIMIT ?"):
            observations: dict[int, list[str]] = {r[0]: [] for r in rows}
            for entity_id, content in self._conn.execute(
                "SELECT entity_id, content FROM observations WHERE entity_id IN "
                "(SELECT value FROM json_each(?)) ORDER BY id", (json.dumps([r[0] for r in rows]),)):
                observations[entity_id].append(content)
            yield [{"name": name, "entityType": etype, "observations": observations[eid],
                    "props": json_object(raw_props), "archived": archived_at is not None}
                   for eid, name, etype, raw_props, archived_at in rows]

    def relation_batches(self) -> Iterator[list[dict[str, Any]]]:
        """Current relations as ``{from, to, relationType, props}``, oldest first."""
        props = "r.props" if self._rel_props else "'{}'"
        current = " AND r.ended_at IS NULL" if self._rel_ended else ""
        for rows in self.pages(f"SELECT r.id, f.name, t.name, r.relation_type, {props} FROM relations r "
                               "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
                               f"WHERE r.id > ?{current} ORDER BY r.id LIMIT ?"):
            yield [{"from": src, "to": dst, "relationType": rtype, "props": json_object(raw)}
                   for _, src, dst, rtype, raw in rows]
