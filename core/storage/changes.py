"""What every backend's change_log means, whatever stores it: which rows an undo can take back,
which rows group others, and whether a row concerns an entity. One home for these rules, so undo
and the editor's history read the same on SQLite and on a graph server."""

from __future__ import annotations

from typing import Any

RELATION_OPS = ("create_relation", "delete_relation", "end_relation", "reopen_relation")
# A Save, a merge and an undo each write one row listing the rows they wrote: they are undone whole.
GROUP_OPS = ("save_entity", "merge_entities", "undo")
UNDOABLE = frozenset({
    "create_entity", "delete_entity", "restore_entity", "add_observations", "delete_observations",
    "create_relation", "delete_relation", "update_entity", "archive_entity", "unarchive_entity",
    "rename_entity", "set_entity_type", "replace_observation", "end_relation", "reopen_relation",
    "save_entity", "merge_entities", "undo",
})
SCAN_LIMIT = 5000  # how far back the default undo looks for something undoable


def touches(row: dict[str, Any], name: str) -> bool:
    """Whether a change_log row (``{"op", "entity", "before", "after"}``, JSON decoded) concerns entity ``name``."""
    if row.get("entity") == name:
        return True
    for side in (row.get("before"), row.get("after")):
        if row.get("op") == "create_relation" and isinstance(side, list) and side and side[0] == name:
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


def is_candidate(row: dict[str, Any], covered: set[int], undone: set[int], entity: str | None,
                 by: str | None) -> bool:
    """Whether the default undo may take back ``row``: undoable, not inside a group, not undone
    already, and (when asked) about ``entity`` and made by ``by``."""
    if row["op"] == "undo" or row["op"] not in UNDOABLE or row["id"] in covered or row["id"] in undone:
        return False
    if by is not None and row["actor"] != by:
        return False
    return entity is None or touches(row, entity)


def describe_relation(src: str, dst: str, rtype: str) -> str:
    return f"{src!r} -{rtype}-> {dst!r}"


def short(text: str, at_most: int = 60) -> str:
    return text if len(text) <= at_most else text[: at_most - 1] + "…"
