"""What every backend's change_log means, whatever stores it: which rows an undo can take back,
which rows group others, and whether a row concerns an entity. One home for these rules, so undo
and the editor's history read the same on SQLite and on a graph server."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from core.model import GROUP_OPS, RELATION_OPS, Change  # noqa: F401 - defined with Change, read from here too

UNDOABLE = frozenset({
    "create_entity", "delete_entity", "restore_entity", "add_observations", "delete_observations",
    "create_relation", "delete_relation", "update_entity", "archive_entity", "unarchive_entity",
    "rename_entity", "set_entity_type", "replace_observation", "end_relation", "reopen_relation", "update_relation",
    "save_entity", "merge_entities", "approve_insight", "undo",
})
SCAN_LIMIT = 5000  # how far back the default undo looks for something undoable


def needs_group(group: str, rows: int) -> bool:
    """Whether a write of ``rows`` change_log rows ends with a ``group`` row listing them: an undo
    always does, a Save of one change needs none."""
    return group == "undo" or rows > 1


def touches(row: Change, name: str) -> bool:
    """Whether change ``row`` concerns entity ``name``."""
    if row.entity == name:
        return True
    for side in (row.before, row.after):
        if row.op == "create_relation" and isinstance(side, list) and side and side[0] == name:
            return True
        if isinstance(side, dict) and name in (side.get("from"), side.get("to"), side.get("name")):
            return True
    return False


def undone_ids(groups: list[tuple[str, dict[str, Any]]]) -> tuple[set[int], set[int]]:
    """From ``(op, after)`` of save_entity and undo rows: (ids inside a group, ids already undone)."""
    covered: set[int] = set()
    undone: set[int] = set()
    for op, after in groups:
        covered.update(after.get("rows", []))
        if op == "undo":
            undone.add(after["undo_of"])
    return covered, undone


def is_candidate(row: Change, covered: set[int], undone: set[int], entity: str | None,
                 by: str | None) -> bool:
    """Whether the default undo may take back ``row``: undoable, not inside a group, not undone
    already, and (when asked) about ``entity`` and made by ``by``."""
    if row.op == "undo" or row.op not in UNDOABLE or row.id in covered or row.id in undone:
        return False
    if by is not None and row.actor != by:
        return False
    return entity is None or touches(row, entity)


def describe_relation(src: str, dst: str, rtype: str) -> str:
    return f"{src!r} -{rtype}-> {dst!r}"


def short(text: str, at_most: int = 60) -> str:
    return text if len(text) <= at_most else text[: at_most - 1] + "…"


def touched_names(rows: Sequence[Change]) -> set[str]:
    """Every entity name a batch of change_log rows concerns (both ends of a relation, a rename's two
    names): the names ``touches`` would say yes to."""
    names: set[str] = set()
    for row in rows:
        if isinstance(row.entity, str):
            names.add(row.entity)
        for side in (row.before, row.after):
            if row.op == "create_relation" and isinstance(side, list) and side and isinstance(side[0], str):
                names.add(side[0])
            if isinstance(side, dict):
                names.update(v for v in (side.get("from"), side.get("to"), side.get("name")) if isinstance(v, str))
    return names
class HistoryReads(Protocol):
    """The change_log reads one entity's history needs."""

    def last_rename(self, name: str, at_most: int) -> tuple[int, str] | None:
        """(id, old name) of the newest rename to ``name`` with id ≤ ``at_most``, or None."""
        ...

    def about(self, names: list[str], limit: int) -> list[Change]:
        """Rows whose entity is one of ``names``, and relation rows of others that may name them
        (a superset: ``entity_history`` keeps the rows that truly concern the entity)."""
        ...


def entity_history(reads: HistoryReads, name: str, limit: int) -> list[Change]:
    """change_log rows about the entity now called ``name``, newest first: its own rows under every
    name it has had (renames followed back), and relation rows from other entities to it."""
    spans: list[tuple[str, int, int]] = []  # (name, first id, last id) it was known by
    current, upper = name, 1 << 62
    for _ in range(100):  # a rename chain longer than this is not worth following
        rename = reads.last_rename(current, upper)
        # A later entity may reuse an old name: the span starts where this one was renamed to it.
        if rename is None:
            spans.append((current, 0, upper))
            break
        spans.append((current, rename[0], upper))
        current, upper = rename[1], rename[0] - 1
    rows = {r.id: r for r in reads.about([n for n, _, _ in spans], limit)
            if any(lo <= r.id <= hi and touches(r, n) for n, lo, hi in spans)}
    return [rows[i] for i in sorted(rows, reverse=True)[:limit]]
