"""What the editor reads, each a function ``fn(memory, …)`` run off the GUI thread by ``Core``."""

from __future__ import annotations

from typing import Any

from core.errors import NotFound
from core.hygiene import supersede, supersede_relations
from core.memory import Memory
from core.model import Change


def load_choices(memory: Memory) -> dict[str, Any]:
    """What type and relation-type fields complete from: the types in use (most used first),
    then the schema profile's."""
    profile = memory.schema_profile()
    return {"types": list(memory.count_labels()), "profile_types": list(profile.labels),
            "relation_types": list(memory.relation_type_counts()), "profile_relations": list(profile.relations)}


def load_for_editor(memory: Memory, name: str) -> dict[str, Any]:
    """Everything the editor shows for ``name`` in one read (or why it cannot be shown)."""
    out: dict[str, Any] = {"name": name, **load_choices(memory)}
    try:
        out["entity"] = memory.entity_for_edit(name)
    except NotFound:
        out["entity"] = None
        out["deletion"] = memory.last_deletion(name)
        return out
    name = out["entity"]["node"].name  # a name merged into this entity opened it: read it by its own
    out["superseded"] = supersede.marks(out["entity"]["node"].props)  # shown struck through
    out["superseded_relations"] = supersede_relations.marks(out["entity"]["node"].props)  # struck through too
    out["last_recall"] = memory.last_recall(name)
    out["history"] = memory.entity_history(name, limit=200)
    out["undoable"] = memory.undoable_change(entity=name)
    out["redoable"] = redoable(out["history"])
    return out


def redoable(history: list[Change]) -> Change | None:
    """The undo that Redo would take back (``undo_change`` of an ``undo`` row redoes its change): the
    newest undo of this entity's history not redone yet, as long as nothing else changed it since."""
    from desktop.shared.history_view import grouped

    by_id = {r.id: r for r in history}
    redone: set[int] = set()
    for row in grouped(history):  # newest first, a Save or an undo as one row
        if row.undo_of is None:
            return None  # a new change since the undos: there is nothing to redo
        target = by_id.get(row.undo_of)
        if target is not None and target.op == "undo":
            redone.add(target.id)  # a redo: the undo it took back is not redoable again
            continue
        if row.id not in redone:
            return row
    return None
