"""Getting out what can be read from a damaged file.

Each table is read by rowid ranges straight from its own b-tree (no secondary index, which may be
the damaged part); a range that fails is split in halves until single rows, and the rows that
still fail are counted as lost. What comes out is the official JSON shape, for an export.
"""

from __future__ import annotations

from typing import Any

from core.storage.sqlite.connection import Connection, DatabaseError

_STEP = 2000
_FALLBACK_MAX = 1 << 24  # the largest rowid tried when even max(rowid) cannot be read


def _max_rowid(conn: Connection, table: str) -> int:
    try:
        return int(conn.execute(f"SELECT coalesce(max(rowid), 0) FROM {table}").fetchone()[0])
    except DatabaseError:
        return _FALLBACK_MAX


def _rows(conn: Connection, table: str, columns: str, lost: list[int]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []

    def read(lo: int, hi: int) -> None:
        try:
            out.extend(conn.execute(
                f"SELECT {columns} FROM {table} WHERE rowid BETWEEN ? AND ? ORDER BY rowid", (lo, hi)))
        except DatabaseError:
            if lo == hi:
                lost[0] += 1
                return
            mid = (lo + hi) // 2
            read(lo, mid)
            read(mid + 1, hi)

    top = _max_rowid(conn, table)
    for start in range(1, top + 1, _STEP):
        read(start, min(top, start + _STEP - 1))
    return out


def salvage(conn: Connection) -> dict[str, Any]:
    """Every readable live entity (with its readable observations) and relation between them,
    as ``{"entities": [...], "relations": [...], "unreadable": n}`` in the official shape."""
    lost = [0]
    entities: dict[int, dict[str, Any]] = {}
    for eid, name, etype, archived in _rows(conn, "entities", "id, name, entity_type, archived_at", lost):
        if archived is None and isinstance(name, str):
            entities[eid] = {"name": name, "entityType": etype, "observations": []}
    for eid, content in _rows(conn, "observations", "entity_id, content", lost):
        if eid in entities and isinstance(content, str):
            entities[eid]["observations"].append(content)
    relations = [
        {"from": entities[a]["name"], "to": entities[b]["name"], "relationType": rtype}
        for a, b, rtype, ended in _rows(conn, "relations", "from_entity, to_entity, relation_type, ended_at", lost)
        if a in entities and b in entities and ended is None
    ]
    return {"entities": list(entities.values()), "relations": relations, "unreadable": lost[0]}


__all__ = ["salvage"]
