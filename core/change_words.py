"""A change in words, once: ``words`` reads a ``Change`` (whatever its operation's payload looks
like) and says which sentence it is and what fills it; ``describe`` puts that in plain English for
the MCP tools, the command line and conflict messages. The desktop translates the same ``Words``
into its own sentences (``Words.key`` is its translation key) and never decodes a payload itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from core.model import RELATION_OPS, Change

_INSIGHT_DECISIONS = {"approved": "insight_approved", "dismissed": "insight_dismissed", "synced": "insight_synced"}


@dataclass(frozen=True)
class Words:
    """One sentence about a change: ``key`` says which, ``names`` are the entity names in it,
    ``values`` its other parts (types, a quoted text, counts), ``count`` the number its plural
    form follows; ``inner`` is the change an undo took back, ``parts`` the changes a Save made."""

    key: str
    op: str
    names: dict[str, str] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    count: int | None = None
    inner: Words | None = None
    parts: tuple[Words, ...] = ()


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def words(change: Change, known: Mapping[int, Change] | None = None) -> Words:  # noqa: C901 - one case per op
    """What ``change`` did; ``known`` (other changes by id) lets an undo or a Save name what it stands for."""
    op, name, before, after = change.op, change.entity or "", change.before, change.after
    known = known or {}
    this: dict[str, str] = {"name": name}

    def w(key: str, names: dict[str, str] | None = None, count: int | None = None, **values: Any) -> Words:
        return Words(key, op, this if names is None else names, values, count)

    if op == "create_entity":
        kind = _dict(after).get("entityType")
        return w("created_typed", type=kind) if kind else w("created")
    if op in ("add_observations", "delete_observations"):
        texts = ([str(o) for o in after] if isinstance(after, list) else [] if op == "add_observations"
                 else [str(o[0]) for o in _dict(before).get("observations", [])])
        verb = "added" if op == "add_observations" else "removed"
        return w(f"{verb}_one", count=1, text=texts[0]) if len(texts) == 1 else w(f"{verb}_many", count=len(texts))
    if op == "replace_observation":
        return w("edited_observation", text=str(_dict(after).get("observation", "")))
    if op == "delete_entity":
        snap = _dict(before)
        return w("deleted", count=len(snap.get("observations", [])), type=str(snap.get("entityType", "?")))
    if (rel := change.relation()) is not None or op in RELATION_OPS:
        src, dst, kind = rel or (name or "?", "?", "?")
        return w(op, {"src": src, "dst": dst}, type=kind)
    if op in ("update_entity", "set_entity_type"):
        old, new = _dict(before).get("entityType"), _dict(after).get("entityType")
        if op == "set_entity_type" or (old and new and old != new):
            return w("retyped" if op == "set_entity_type" else "updated_retyped", old=old, new=new)
        return w("updated")
    if op == "rename_entity":
        return w("renamed", {"old": str(_dict(before).get("name", "?")), "new": name})
    if op == "merge_entities":
        merged = [str(m) for m in _dict(after).get("merged", [])]
        return w("merged", count=len(merged), merged=merged)
    if op == "save_entity":
        rows = change.members
        return Words("saved", op, this, {}, len(rows), parts=tuple(words(known[i], known) for i in rows if i in known))
    if op == "undo":
        undo_of = change.undo_of
        original = known.get(undo_of) if undo_of is not None else None
        about = {"undo_of": undo_of if undo_of is not None else "?",
                 "undone_op": str(_dict(after).get("op", "")).replace("_", " ")}
        first = known.get(original.undo_of) if original is not None and original.undo_of is not None else None
        if original is not None and original.op == "undo" and first is not None:  # undoing an undo redoes
            return Words("redid", op, this, about, inner=words(first, known))
        if original is not None:
            return Words("undid", op, this, about, inner=words(original, known))
        return Words("undid_unknown", op, this, about)
    if op == "approve_insight":  # the approval and what it did, one change: said as the approval
        return w("insight_approved")
    if op == "decide_insight":
        return w(_INSIGHT_DECISIONS.get(_dict(after).get("status") or "", "insight_reviewed"))
    if op == "mark_insight_stale":
        return w("insight_stale" if _dict(after).get("stale") else "insight_holds")
    if op == "reflect":
        info = _dict(after)
        return w("reflected", created=int(info.get("created", 0)), refreshed=int(info.get("refreshed", 0)))
    if op == "decay_confidence":
        return w("faded", count=int(_dict(after).get("changed", 0)))
    if op in ("archive_entity", "unarchive_entity", "restore_entity", "create_insight"):
        return w(op)
    return w("other")


def _english(wd: Words) -> str:
    n, v = wd.names, wd.values
    name = n.get("name", "")
    if wd.op == "undo" and v.get("undo_of", "?") != "?":
        return f"undid change #{v['undo_of']} ({v['undone_op']} {name})"
    plain = {
        "added_one": f"added 1 observation(s) to {name}", "added_many": f"added {wd.count} observation(s) to {name}",
        "removed_one": f"deleted 1 observation(s) of {name}",
        "removed_many": f"deleted {wd.count} observation(s) of {name}",
        "edited_observation": f"edited an observation of {name}",
        "renamed": f"renamed {n.get('old')} to {n.get('new')}",
        "retyped": f"set the type of {name} to {v.get('new')}",
        "merged": f"merged {', '.join(v.get('merged', []))} into {name}",
    }
    if wd.key in plain:
        return plain[wd.key]
    if wd.op == "create_relation":
        return f"related {n['src']} -{v['type']}-> {n['dst']}"
    if wd.op in ("delete_relation", "end_relation", "reopen_relation", "update_relation") and n.get("dst", "?") != "?":
        verb = {"delete_relation": "removed", "end_relation": "ended", "reopen_relation": "reopened",
                "update_relation": "changed the props of"}[wd.op]
        return f"{verb} {n['src']} -{v['type']}-> {n['dst']}"
    entity = n.get("name", n.get("src", ""))
    return f"{wd.op.replace('_', ' ')} {entity or ''}".strip()


def describe(change: Change, known: Mapping[int, Change] | None = None) -> str:
    """A short English phrase for ``change`` ("renamed Ada to Ada L.", "delete entity Bob")."""
    return _english(words(change, known))
