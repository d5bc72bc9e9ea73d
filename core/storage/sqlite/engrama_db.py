"""Reading Engrama's own SQLite database (``~/.engrama/engrama.db``), to import it.

Engrama's SQLite backend (seed 003) keeps a node per row of ``nodes`` (``label``,
``key_field``/``key_value``, ``props`` as a JSON object, ``status``, ``archived_at``), its
relations in ``edges`` (``from_id``/``rel_type``/``to_id``, ``props``) and the review state of
its Insight nodes in ``insights`` (``confidence``, ``status``, ``source_query``). Never writes:
opened without PRAGMAs that touch the file, ``query_only`` on (``foreign.ReadOnlyFile``). Rows
come out a batch at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from core.storage.sqlite.connection import DatabaseError, connect
from core.storage.sqlite.foreign import ReadOnlyFile, columns, json_object

_NODE_COLUMNS = {"id", "label", "key_field", "key_value", "props"}
_EDGE_COLUMNS = {"from_id", "rel_type", "to_id"}


def is_engrama_database(path: Path) -> bool:
    """True if the SQLite file at ``path`` has Engrama's ``nodes`` and ``edges`` tables."""
    try:
        conn = connect(path, apply_pragmas=False)
    except Exception:  # noqa: BLE001 - not openable: not Engrama's either; the caller says why
        return False
    try:
        conn.execute("PRAGMA query_only = ON")
        return columns(conn, "nodes") >= _NODE_COLUMNS and columns(conn, "edges") >= _EDGE_COLUMNS
    except DatabaseError:
        return False
    finally:
        conn.close()


class EngramaDatabase(ReadOnlyFile):
    """A read-only view of an Engrama SQLite database file."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        nodes, edges = columns(self._conn, "nodes"), columns(self._conn, "edges")
        insights = columns(self._conn, "insights")
        if not (nodes >= _NODE_COLUMNS and edges >= _EDGE_COLUMNS):
            raise self.refuse("not Engrama's (no nodes/edges tables).")
        self._archived = "archived_at" in nodes
        self._status = "status" in nodes
        self._edge_props = "props" in edges
        self._insights = {"node_id", "confidence", "status"} <= insights
        self._source_query = "source_query" in insights

    def counts(self) -> dict[str, int]:
        """``{"nodes", "edges", "insights"}`` in the file."""
        one = self._conn.execute
        return {
            "nodes": int(one("SELECT count(*) FROM nodes").fetchone()[0]),
            "edges": int(one("SELECT count(*) FROM edges").fetchone()[0]),
            "insights": int(one("SELECT count(*) FROM insights").fetchone()[0]) if self._insights else 0,
        }

    def node_batches(self) -> Iterator[list[dict[str, Any]]]:
        """Nodes as ``{label, key_field, key_value, props, status, archived, insight}``, oldest
        first; ``insight`` is ``{confidence, status, source_query}`` for a node with a review row."""
        archived = "n.archived_at" if self._archived else "NULL"
        status = "n.status" if self._status else "NULL"
        if self._insights:
            query = "i.source_query" if self._source_query else "NULL"
            insight = f"i.node_id, i.confidence, i.status, {query}"
            join = "LEFT JOIN insights i ON i.node_id = n.id"
        else:
            insight, join = "NULL, NULL, NULL, NULL", ""
        for rows in self.pages(f"SELECT n.id, n.label, n.key_field, n.key_value, n.props, {status}, {archived}, "
                               f"{insight} FROM nodes n {join} WHERE n.id > ? ORDER BY n.id LIMIT ?"):
            yield [{"label": label, "key_field": field, "key_value": value, "props": json_object(props),
                    "status": node_status, "archived": archived_at is not None,
                    "insight": None if has_insight is None else {
                        "confidence": float(confidence or 0.0), "status": insight_status or "pending",
                        "source_query": source_query}}
                   for (_, label, field, value, props, node_status, archived_at, has_insight, confidence,
                        insight_status, source_query) in rows]

    def edge_batches(self) -> Iterator[list[dict[str, Any]]]:
        """Edges as ``{from, to, rel_type, props}`` (ends by their key values), oldest first."""
        props = "e.props" if self._edge_props else "'{}'"
        for rows in self.pages(f"SELECT e.id, f.key_value, t.key_value, e.rel_type, {props} FROM edges e "
                               "JOIN nodes f ON f.id = e.from_id JOIN nodes t ON t.id = e.to_id "
                               "WHERE e.id > ? ORDER BY e.id LIMIT ?"):
            yield [{"from": src, "to": dst, "rel_type": rel, "props": json_object(raw)}
                   for _, src, dst, rel, raw in rows]
