"""One editor Save and the undo of any change_log row on a Cypher server, each one atomic write
(``work.Work``). The rules, refusals and change_log rows are SQLite's (``core.storage.sqlite.edits``):
history, time travel and the desktop read them alike on both backends."""

from __future__ import annotations

from typing import Any

from core.errors import Conflict, NotFound
from core.storage import changes as C
from core.storage.cypher import rows as R
from core.storage.cypher.history import CHANGE, change_dicts
from core.storage.cypher.work import Work

Row = dict[str, Any]


# -- the single steps, as one Save or one undo makes them ---------------------------------------

def _entity(w: Work, name: str) -> Row:
    row = w.find(name)
    if row is None:
        raise NotFound(f"Entity {name!r} does not exist. Nothing was changed.")
    return row


def _set_type(w: Work, row: Row, etype: str) -> None:
    if row["type"] != etype:
        w.record("set_entity_type", row["name"], {"entityType": row["type"]}, {"entityType": etype})
        row["type"] = etype
        w.touch(row)


def _rename(w: Work, row: Row, new: str) -> None:
    old = row["name"]
    if old == new:
        return
    if w.find(new) is not None:
        raise Conflict(f"An entity called {new!r} already exists; choose another name. Nothing was changed.")
    w.rename(row, new)
    w.record("rename_entity", new, {"name": old}, {"name": new})


def _replace_observation(w: Work, row: Row, old: str, new: str) -> None:
    name = row["name"]
    if old not in row["obs"]:
        raise NotFound(f"Entity {name!r} has no observation {C.short(old)!r}. Nothing was changed.")
    if old == new:
        return
    if new in row["obs"]:
        raise Conflict(f"Entity {name!r} already has the observation {C.short(new)!r}; delete the "
                       "duplicate instead. Nothing was changed.")
    k = row["obs"].index(old)
    row["obs"] = [*row["obs"][:k], new, *row["obs"][k + 1:]]
    w.touch(row)
    w.record("replace_observation", name, {"observation": old, "created_at": row["obs_at"][k]}, {"observation": new})


def _add_observations(w: Work, row: Row, contents: list[str]) -> None:
    added = [o for o in dict.fromkeys(contents) if o not in set(row["obs"])]
    if added:
        row["obs"] = [*row["obs"], *added]
        row["obs_at"] = [*row["obs_at"], *([w.now] * len(added))]
        w.touch(row)
        w.record("add_observations", row["name"], None, added)


def _delete_observations(w: Work, row: Row, contents: list[str]) -> None:
    wanted = set(contents)
    gone = [[o, t] for o, t in zip(row["obs"], row["obs_at"], strict=True) if o in wanted]
    if gone:
        keep = [(o, t) for o, t in zip(row["obs"], row["obs_at"], strict=True) if o not in wanted]
        row["obs"], row["obs_at"] = [o for o, _ in keep], [t for _, t in keep]
        w.touch(row)
        w.record("delete_observations", row["name"], {"observations": gone})


def _ends(w: Work, src: str, dst: str) -> tuple[Row, Row] | None:
    a, b = w.find(src), w.find(dst)
    return None if a is None or b is None else (a, b)


def _relation(w: Work, src: str, dst: str, rtype: str) -> tuple[Row, Row, Row] | None:
    """(from row, to row, relation) or None."""
    ends = _ends(w, src, dst)
    rel = None if ends is None else w.relation(ends[0], ends[1], rtype)
    return None if ends is None or rel is None else (ends[0], ends[1], rel)


def _delete_relation(w: Work, src: str, dst: str, rtype: str) -> bool:
    found = _relation(w, src, dst, rtype)
    if found is None:
        return False
    a, b, rel = found
    w.delete_relation(a, b, rtype)
    w.record("delete_relation", src, {"from": src, "to": dst, "relationType": rtype, "props": rel["props"],
                                      "created_at": rel["created_at"], "ended_at": rel["ended_at"]})
    return True


def create_relation(w: Work, src: str, dst: str, rtype: str) -> bool:
    """Relate two existing entities unless they are already; True if it was created."""
    ends = _ends(w, src, dst)
    assert ends is not None  # callers check the ends exist
    if w.relation(ends[0], ends[1], rtype) is not None:
        return False
    w.add_relation(ends[0], ends[1], rtype)
    w.record("create_relation", src, None, [dst, rtype])
    return True


def _set_relation_end(w: Work, src: str, dst: str, rtype: str, ended_at: str | None) -> None:
    found = _relation(w, src, dst, rtype)
    if found is None:
        raise NotFound(f"There is no relation {C.describe_relation(src, dst, rtype)}. Nothing was changed.")
    a, b, rel = found
    old_end = rel["ended_at"]
    if ended_at is not None and old_end is not None:
        raise Conflict(f"The relation {C.describe_relation(src, dst, rtype)} already ended on {old_end}. "
                       "Nothing was changed.")
    if ended_at is None and old_end is None:
        return
    w.set_relation(a, b, rtype, ended_at=ended_at)
    snap = {"from": src, "to": dst, "relationType": rtype, "created_at": rel["created_at"]}
    w.record("end_relation" if ended_at is not None else "reopen_relation", src, {**snap, "ended_at": old_end},
             {**snap, "ended_at": ended_at})


def _delete_entity(w: Work, row: Row) -> None:
    w.record("delete_entity", row["name"], w.delete(row))


def _restore_entity(w: Work, name: str) -> None:
    """As ``CypherGraphStore.restore_entity``: back from its latest deletion snapshot."""
    if w.find(name) is not None:
        raise Conflict(f"Entity {name!r} exists; only a deleted entity can be restored.")
    found = w.tx.read("MATCH (c:Change {entity: $n}) WHERE c.op = 'delete_entity' RETURN c.before, c.at "
                      "ORDER BY c.id DESC LIMIT 1", {"n": name})
    if not found:
        raise NotFound(f"No deletion of {name!r} is recorded; nothing to restore.")
    snap, deleted_at = R.loads(found[0][0]), found[0][1]
    w.create(name, snap["entityType"], props=snap["props"],
                   observations=[(o, t) for o, t in snap["observations"]], created_at=snap["created_at"],
                   archived_at=snap["archived_at"])
    restored = 0
    for rel in snap["relations"]:
        ends = _ends(w, rel["from"], rel["to"])
        if ends is not None and w.relation(ends[0], ends[1], rel["relationType"]) is None:
            w.add_relation(ends[0], ends[1], rel["relationType"], props=rel["props"], ended_at=rel["ended_at"],
                           created_at=rel["created_at"])
            restored += 1
    w.record("restore_entity", name, {"deleted_at": deleted_at}, {"relations": restored})


# -- one editor Save -----------------------------------------------------------------------------

def _changes_after(tx: Any, since: int) -> list[Row]:
    return change_dicts(tx.read(f"MATCH (c:Change) WHERE c.id > $s RETURN {CHANGE} ORDER BY c.id", {"s": since}))


def save_entity(w: Work, name: str, plan: dict[str, Any], expected_version: int | None) -> int | None:
    """Apply one editor Save (see ``Memory.save_entity``) to ``w``; returns the id of its last change_log
    row, or None when there was nothing to change."""
    if expected_version is not None:
        later = [r for r in _changes_after(w.tx, expected_version) if C.touches(r, name)]
        if later:
            from core.storage.sqlite.edits import describe  # the one English phrasing of a change

            who = ", ".join(dict.fromkeys(f"{r['actor']} ({describe(r)})" for r in later[-5:]))
            raise Conflict(f"Entity {name!r} was changed since you opened it, by {who}. Reload it or merge "
                           "your edits onto the new state; nothing was saved.")
    if plan["create"]:
        if w.find(name) is not None:
            raise Conflict(f"An entity called {name!r} already exists; open it instead. Nothing was saved.")
        row = w.create(name, plan["entity_type"] or "Generic")
        w.record("create_entity", name)
    else:
        row = _entity(w, name)
        if plan["entity_type"] is not None:
            _set_type(w, row, plan["entity_type"])
    gone = [o for o in plan["delete_observations"] if o not in set(row["obs"])]
    if gone:
        raise NotFound(f"Entity {name!r} has no observation {C.short(gone[0])!r} to delete. Nothing was saved.")
    _delete_observations(w, row, plan["delete_observations"])
    for old, new in plan["edit_observations"]:
        _replace_observation(w, row, old, new)
    _add_observations(w, row, plan["add_observations"])
    for rel in plan["delete_relations"]:
        if _relation(w, rel.from_, rel.to, rel.relationType) is None:
            raise NotFound(f"There is no relation {C.describe_relation(rel.from_, rel.to, rel.relationType)} to "
                           "remove. Nothing was saved.")
    for rel in R.unique_relations(plan["delete_relations"]):
        _delete_relation(w, rel.from_, rel.to, rel.relationType)
    for rel, ended_at in plan["end_relations"]:
        _set_relation_end(w, rel.from_, rel.to, rel.relationType, ended_at or w.now)
    for rel in plan["add_relations"]:
        for end in (rel.from_, rel.to):
            if w.find(end) is None:  # an editor relates what exists: no placeholder from a typo
                raise NotFound(f"There is no entity called {end!r} (in "
                               f"{C.describe_relation(rel.from_, rel.to, rel.relationType)}); create it first. "
                               "Nothing was saved.")
    for rel in R.unique_relations(plan["add_relations"]):
        create_relation(w, rel.from_, rel.to, rel.relationType)
    if plan["new_name"] is not None:
        _rename(w, row, plan["new_name"])
    return w.commit("save_entity", row["name"])


# -- undo ----------------------------------------------------------------------------------------

def undoable(reader: Any, entity: str | None, by: str | None) -> Row | None:
    """The newest change that undo would take back (see ``core.storage.changes.is_candidate``)."""
    found = reader.read("MATCH (c:Counter {name: 'change'}) RETURN c.value")
    latest = int(found[0][0]) if found else 0
    floor = max(0, latest - C.SCAN_LIMIT)
    covered, undone = C.undone_ids([(op, R.loads(after)) for op, after in reader.read(
        "MATCH (c:Change) WHERE c.id > $f AND c.op IN $groups RETURN c.op, c.after",
        {"f": floor, "groups": list(C.GROUP_OPS)})])
    top = latest
    while top > floor:
        # A window of ids, not ORDER BY … LIMIT over the whole range: the server would sort it all.
        bottom = max(floor, top - 200)
        page = change_dicts(reader.read(f"MATCH (c:Change) WHERE c.id <= $top AND c.id > $bottom RETURN {CHANGE} "
                                        "ORDER BY c.id DESC", {"top": top, "bottom": bottom}))
        for row in page:
            if C.is_candidate(row, covered, undone, entity, by):
                return row
        top = bottom
    return None


def change(reader: Any, change_id: int) -> Row | None:
    found = change_dicts(reader.read(f"MATCH (c:Change {{id: $i}}) RETURN {CHANGE}", {"i": change_id}))
    return found[0] if found else None


def undo(w: Work, row: Row) -> int:
    """Take back change ``row`` in ``w``; returns the id of the ``undo`` row that records it."""
    if row["op"] not in C.UNDOABLE:
        raise Conflict(f"Change #{row['id']} ({row['op']}) cannot be undone. Nothing was changed.")
    undone_by = [u for u in change_dicts(w.tx.read(
        f"MATCH (c:Change) WHERE c.id > $i AND c.op = 'undo' RETURN {CHANGE} ORDER BY c.id", {"i": row["id"]}))
        if u["after"]["undo_of"] == row["id"]]
    if undone_by:
        raise Conflict(f"Change #{row['id']} was already undone (change #{undone_by[-1]['id']}). "
                       "Nothing was changed.")
    _undo_one(w, row)
    last = w.log[-1][3] if w.log else None
    undo_id = w.commit("undo", last or row["entity"], {"undo_of": row["id"], "op": row["op"]})
    assert undo_id is not None
    return undo_id


def _gone(name: str) -> Conflict:
    return Conflict(f"Entity {name!r} no longer exists (it was renamed or deleted since); this change "
                    "cannot be undone. Nothing was changed.")


def _live(w: Work, name: str) -> Row:
    row = w.find(name)
    if row is None:
        raise _gone(name)
    return row


def _undo_one(w: Work, row: Row) -> None:  # noqa: C901 - one branch per kind of change, as in SQLite's
    op, name, before, after = row["op"], row["entity"], row["before"], row["after"]
    if op in C.GROUP_OPS:  # a Save or an undo (its undo is a redo): take back its rows, newest first
        for rid in reversed(after["rows"]):
            found = change(w.tx, rid)
            if found:
                _undo_one(w, found)
    elif op in ("create_entity", "restore_entity"):
        _delete_entity(w, _live(w, name))
    elif op == "delete_entity":
        if w.find(name) is not None:
            raise Conflict(f"An entity called {name!r} exists again; the deletion cannot be undone. "
                           "Nothing was changed.")
        later = w.tx.read("MATCH (c:Change {entity: $n}) WHERE c.op = 'delete_entity' AND c.id > $i RETURN c.id "
                          "ORDER BY c.id LIMIT 1", {"n": name, "i": row["id"]})
        if later:
            raise Conflict(f"{name!r} was deleted again later (change #{later[0][0]}); undo that one instead. "
                           "Nothing was changed.")
        _restore_entity(w, name)
    elif op == "add_observations":
        target = _live(w, name)
        present = [o for o in after if o in set(target["obs"])]
        if not present:
            raise Conflict(f"The observations change #{row['id']} added to {name!r} are gone already. "
                           "Nothing was changed.")
        _delete_observations(w, target, present)
    elif op == "delete_observations":
        target = _live(w, name)
        missing = [c for c, _ in before["observations"] if c not in set(target["obs"])]
        if not missing:
            raise Conflict(f"The observations change #{row['id']} deleted from {name!r} are back already. "
                           "Nothing was changed.")
        _add_observations(w, target, missing)
    elif op == "create_relation":
        dst, rtype = after
        if not _delete_relation(w, name, dst, rtype):
            raise Conflict(f"The relation {C.describe_relation(name, dst, rtype)} is gone already. "
                           "Nothing was changed.")
    elif op == "delete_relation":
        _undo_relation_delete(w, before)
    elif op in ("end_relation", "reopen_relation"):
        found = _relation(w, after["from"], after["to"], after["relationType"])
        if found is None or found[2]["ended_at"] != after["ended_at"]:
            raise Conflict(f"The relation {C.describe_relation(after['from'], after['to'], after['relationType'])} "
                           "was changed or removed since. Nothing was changed.")
        _set_relation_end(w, after["from"], after["to"], after["relationType"],
                          None if op == "end_relation" else before["ended_at"])
    elif op == "rename_entity":
        target = _live(w, after["name"])
        if w.find(before["name"]) is not None:
            raise Conflict(f"Another entity is called {before['name']!r} now; the rename cannot be undone. "
                           "Nothing was changed.")
        _rename(w, target, before["name"])
    elif op == "set_entity_type":
        target = _live(w, name)
        if target["type"] != after["entityType"]:
            raise Conflict(f"The type of {name!r} was changed again since (it is {target['type']!r} now). "
                           "Nothing was changed.")
        _set_type(w, target, before["entityType"])
    elif op == "replace_observation":
        target = _live(w, name)
        if after["observation"] not in target["obs"]:
            raise Conflict(f"The edited observation of {name!r} was changed or deleted since. Nothing was changed.")
        _replace_observation(w, target, after["observation"], before["observation"])
    elif op == "update_entity":
        target = _live(w, name)
        if target["type"] != after["entityType"] or target["props"] != after["props"]:
            raise Conflict(f"{name!r} was changed again since change #{row['id']}. Nothing was changed.")
        target["type"], target["props"] = before["entityType"], before["props"]
        w.touch(target)
        w.record("update_entity", name, after, before)
    elif op == "archive_entity":
        target = _live(w, name)
        target["archived_at"] = None
        w.touch(target)
        w.record("unarchive_entity", name)
    elif op == "unarchive_entity":
        target = _live(w, name)
        if target["archived_at"] is None:
            target["archived_at"] = w.now
            w.touch(target)
            w.record("archive_entity", name)


def _undo_relation_delete(w: Work, snap: Row) -> None:
    src, dst, rtype = snap["from"], snap["to"], snap["relationType"]
    for end in (src, dst):
        _live(w, end)
    if _relation(w, src, dst, rtype) is not None:
        raise Conflict(f"The relation {C.describe_relation(src, dst, rtype)} exists again. Nothing was changed.")
    # Re-created now (not at its old created_at), so query_at_date shows the gap while it was gone.
    create_relation(w, src, dst, rtype)
    a, b = _ends(w, src, dst)  # type: ignore[misc]
    w.set_relation(a, b, rtype, props=dict(snap.get("props") or {}), ended_at=snap.get("ended_at"))

