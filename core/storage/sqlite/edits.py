"""Editing one entity: rename, retype, edit an observation, end a relation, one editor Save
all-or-nothing, and undo of any change_log row.

Every function runs inside the caller's transaction (the store holds its lock and an ``atomic``
block) and writes change_log rows in the shapes ``history.query_at_date`` reads:

- ``rename_entity``      entity=new name, before ``{"name": old}``, after ``{"name": new}``
- ``set_entity_type``    before/after ``{"entityType": …}``
- ``replace_observation`` before ``{"observation": old, "created_at": …}``, after ``{"observation": new}``
- ``end_relation`` / ``reopen_relation``  entity=from, before/after ``{"from", "to", "relationType",
  "created_at", "ended_at"}`` (only ``ended_at`` differs)
- ``unarchive_entity``   no payload (the inverse of ``archive_entity``)
- ``save_entity``        a group: after ``{"rows": [ids]}``, the rows one editor Save wrote
- ``undo``               after ``{"undo_of": id, "op": …, "rows": [ids]}``: the rows that undid it

An undo is the inverse operation written like any other change (so history and
``query_at_date`` need nothing special) followed by one ``undo`` row that says what it undid.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from core.errors import Conflict, NotFound
from core.model import ObservationDeletion, ObservationInput, Relation
from core.storage.changes import GROUP_OPS, RELATION_OPS, SCAN_LIMIT, UNDOABLE, is_candidate, touches, undone_ids
from core.storage.sqlite import embedding_state, history, indexing, reads
from core.storage.sqlite.connection import Connection

if TYPE_CHECKING:
    from core.storage.sqlite.database import Database
    from core.storage.sqlite.store import SqliteGraphStore



# -- small helpers ---------------------------------------------------------------------------

def _entity(conn: Connection, name: str) -> tuple[int, str]:
    """(id, entity_type) of ``name``, or NotFound."""
    row = conn.execute("SELECT id, entity_type FROM entities WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise NotFound(f"Entity {name!r} does not exist. Nothing was changed.")
    return row[0], row[1]


def _neighbour_ids(conn: Connection, eid: int) -> list[int]:
    return [r[0] for r in conn.execute(
        "SELECT to_entity FROM relations WHERE from_entity = ? UNION SELECT from_entity FROM relations "
        "WHERE to_entity = ?", (eid, eid))]


def _touch(conn: Connection, eid: int, now: str, *, neighbours: bool = False) -> None:
    """The entity's text changed: move updated_at, rewrite its index rows, mark vectors stale."""
    conn.execute("UPDATE entities SET updated_at = ? WHERE id = ?", (now, eid))
    indexing.reindex(conn, [eid])
    # Neighbours' embedding texts name this entity in their "Rel:" lines.
    embedding_state.invalidate(conn, [eid, *(_neighbour_ids(conn, eid) if neighbours else [])])


def _relation_row(conn: Connection, src: str, dst: str, rtype: str) -> tuple[int, int, int, str, str | None] | None:
    """(relation id, from id, to id, created_at, ended_at) or None."""
    return conn.execute(
        "SELECT r.id, r.from_entity, r.to_entity, r.created_at, r.ended_at FROM relations r "
        "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
        "WHERE f.name = ? AND t.name = ? AND r.relation_type = ?", (src, dst, rtype)).fetchone()


def _describe(src: str, dst: str, rtype: str) -> str:
    return f"{src!r} -{rtype}-> {dst!r}"


# -- the single edits ------------------------------------------------------------------------

def rename_entity(conn: Connection, old: str, new: str, actor: str, now: str) -> bool:
    """Rename ``old`` to ``new``; relations, observations and history stay with it."""
    eid, _ = _entity(conn, old)
    if old == new:
        return False
    if conn.execute("SELECT 1 FROM entities WHERE name = ?", (new,)).fetchone():
        raise Conflict(f"An entity called {new!r} already exists; choose another name. Nothing was changed.")
    conn.execute("UPDATE entities SET name = ? WHERE id = ?", (new, eid))
    _touch(conn, eid, now, neighbours=True)
    history.write(conn, [(now, actor, "rename_entity", new, history.dumps({"name": old}),
                          history.dumps({"name": new}))])
    return True


def set_entity_type(conn: Connection, name: str, entity_type: str, actor: str, now: str) -> bool:
    """Change the entity's type (Engrama's label)."""
    eid, old = _entity(conn, name)
    if old == entity_type:
        return False
    conn.execute("UPDATE entities SET entity_type = ? WHERE id = ?", (entity_type, eid))
    _touch(conn, eid, now)
    history.write(conn, [(now, actor, "set_entity_type", name, history.dumps({"entityType": old}),
                          history.dumps({"entityType": entity_type}))])
    return True


def replace_observation(conn: Connection, name: str, old: str, new: str, actor: str, now: str) -> bool:
    """Edit one observation in place (it keeps its place in the list and its created_at)."""
    eid, _ = _entity(conn, name)
    row = conn.execute("SELECT id, created_at FROM observations WHERE entity_id = ? AND content = ?",
                       (eid, old)).fetchone()
    if row is None:
        raise NotFound(f"Entity {name!r} has no observation {_short(old)!r}. Nothing was changed.")
    if old == new:
        return False
    if conn.execute("SELECT 1 FROM observations WHERE entity_id = ? AND content = ?", (eid, new)).fetchone():
        raise Conflict(f"Entity {name!r} already has the observation {_short(new)!r}; delete the "
                       "duplicate instead. Nothing was changed.")
    conn.execute("UPDATE observations SET content = ? WHERE id = ?", (new, row[0]))
    _touch(conn, eid, now)
    history.write(conn, [(now, actor, "replace_observation", name,
                          history.dumps({"observation": old, "created_at": row[1]}),
                          history.dumps({"observation": new}))])
    return True


def _short(text: str, at_most: int = 60) -> str:
    return text if len(text) <= at_most else text[: at_most - 1] + "…"


def set_relation_end(
    conn: Connection, src: str, dst: str, rtype: str, ended_at: str | None, actor: str, now: str
) -> bool:
    """End a current relation at ``ended_at`` (op end_relation), or make an ended one current
    again with ``ended_at=None`` (op reopen_relation). The end may be earlier than when the
    relation was recorded: a fact can be written down after it stopped being true."""
    row = _relation_row(conn, src, dst, rtype)
    if row is None:
        raise NotFound(f"There is no relation {_describe(src, dst, rtype)}. Nothing was changed.")
    rid, from_id, to_id, created, old_end = row
    if ended_at is not None and old_end is not None:
        raise Conflict(f"The relation {_describe(src, dst, rtype)} already ended on {old_end}. Nothing was changed.")
    if ended_at is None and old_end is None:
        return False
    conn.execute("UPDATE relations SET ended_at = ? WHERE id = ?", (ended_at, rid))
    embedding_state.invalidate(conn, [from_id, to_id])  # only current relations are in the text
    snap = {"from": src, "to": dst, "relationType": rtype, "created_at": created}
    history.write(conn, [(now, actor, "end_relation" if ended_at is not None else "reopen_relation", src,
                          history.dumps({**snap, "ended_at": old_end}),
                          history.dumps({**snap, "ended_at": ended_at}))])
    return True


# -- reads for the editor --------------------------------------------------------------------

def relations_of(conn: Connection, eid: int) -> list[dict[str, Any]]:
    """Every relation touching the entity, ended ones included, oldest first."""
    rows = conn.execute(
        "SELECT r.id, f.name, t.name, r.relation_type, r.props, r.created_at, r.ended_at FROM relations r "
        "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
        "WHERE r.from_entity = ? OR r.to_entity = ? ORDER BY r.id", (eid, eid)).fetchall()
    return [{"from": s, "to": d, "relationType": t, "props": json.loads(p), "created_at": c, "ended_at": e}
            for _, s, d, t, p, c, e in rows]


def relation_type_counts(conn: Connection) -> dict[str, int]:
    """How many relations of each type there are, most used first."""
    return dict(conn.execute(
        "SELECT relation_type, count(*) FROM relations GROUP BY relation_type ORDER BY 2 DESC, 1"))


def _rows(conn: Connection, where: str, args: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {"id": i, "at": at, "actor": actor, "op": op, "entity": ent,
         "before": json.loads(b) if b else None, "after": json.loads(a) if a else None}
        for i, at, actor, op, ent, b, a in conn.execute(
            f"SELECT id, at, actor, op, entity, before, after FROM change_log WHERE {where}", args)
    ]


def entity_history(conn: Connection, name: str, limit: int) -> list[dict[str, Any]]:
    """change_log rows about the entity now called ``name``, newest first: its own rows under
    every name it has had (renames followed back), and relation rows from other entities to it."""
    spans: list[tuple[str, int, int]] = []  # (name, first id, last id) it was known by
    current, upper = name, 1 << 62
    for _ in range(100):  # a rename chain longer than this is not worth following
        rename = conn.execute(
            "SELECT id, before FROM change_log WHERE entity = ? AND op = 'rename_entity' AND id <= ? "
            "ORDER BY id DESC LIMIT 1", (current, upper)).fetchone()
        # A later entity may reuse an old name: the span starts where this one was renamed to it.
        if rename is None:
            spans.append((current, 0, upper))
            break
        spans.append((current, rename[0], upper))
        current, upper = json.loads(rename[1])["name"], rename[0] - 1
    names = [s[0] for s in spans]

    def mine(row: dict[str, Any]) -> bool:
        return any(lo <= row["id"] <= hi and touches(row, n) for n, lo, hi in spans)

    marks = ",".join("?" * len(names))
    own = _rows(conn, f"entity IN ({marks}) ORDER BY id DESC LIMIT ?", [*names, limit * 2])
    # No index reaches into the JSON: a plain substring test on the quoted name skips nearly every
    # row before JSON is parsed (`mine` below checks the rows it lets through exactly).
    quoted = [json.dumps(n, ensure_ascii=False) for n in names]
    found = " OR ".join(["instr(coalesce(after, before), ?) > 0"] * len(quoted))
    incoming = _rows(
        conn,
        f"({found}) AND op IN ({','.join('?' * len(RELATION_OPS))}) AND entity NOT IN ({marks}) "
        "ORDER BY id DESC LIMIT ?",
        [*quoted, *RELATION_OPS, *names, limit * 4])
    rows = {r["id"]: r for r in [*own, *incoming] if mine(r)}
    return [rows[i] for i in sorted(rows, reverse=True)[:limit]]


def last_deletion(conn: Connection, name: str) -> dict[str, Any] | None:
    """The newest delete_entity row for ``name`` if no entity has that name now, else None."""
    if conn.execute("SELECT 1 FROM entities WHERE name = ?", (name,)).fetchone():
        return None
    found = _rows(conn, "entity = ? AND op = 'delete_entity' ORDER BY id DESC LIMIT 1", [name])
    return found[0] if found else None


# -- one editor Save -------------------------------------------------------------------------

def check_unchanged(conn: Connection, name: str, since_id: int) -> None:
    """Conflict naming who changed entity ``name`` after change_log id ``since_id``."""
    later = [r for r in _rows(conn, "id > ? ORDER BY id", [since_id]) if touches(r, name)]
    if later:
        who = ", ".join(dict.fromkeys(f"{r['actor']} ({describe(r)})" for r in later[-5:]))
        raise Conflict(f"Entity {name!r} was changed since you opened it, by {who}. Reload it or merge "
                       "your edits onto the new state; nothing was saved.")


def save_entity(store: SqliteGraphStore, conn: Connection, name: str, plan: dict[str, Any],
                expected_version: int | None, actor: str, now: str) -> int | None:
    """Apply one editor Save (see ``Memory.save_entity``); returns the id of its last change_log
    row, or None when there was nothing to change."""
    if expected_version is not None:
        check_unchanged(conn, name, expected_version)
    start = history.latest_change_id(conn)
    if plan["create"]:
        if conn.execute("SELECT 1 FROM entities WHERE name = ?", (name,)).fetchone():
            raise Conflict(f"An entity called {name!r} already exists; open it instead. Nothing was saved.")
        eid = conn.execute(
            "INSERT INTO entities(name, entity_type, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (name, plan["entity_type"] or "Generic", now, now)).lastrowid
        indexing.reindex(conn, [eid], fresh=True)
        history.write(conn, [(now, actor, "create_entity", name, None, None)])
    else:
        eid, _ = _entity(conn, name)
        if plan["entity_type"] is not None:
            set_entity_type(conn, name, plan["entity_type"], actor, now)
    have = set(reads.observations_of(conn, [eid])[eid])
    gone = [o for o in plan["delete_observations"] if o not in have]
    if gone:
        raise NotFound(f"Entity {name!r} has no observation {_short(gone[0])!r} to delete. Nothing was saved.")
    if plan["delete_observations"]:
        store.delete_observations([ObservationDeletion(entityName=name, observations=plan["delete_observations"])],
                                  actor)
    for old, new in plan["edit_observations"]:
        replace_observation(conn, name, old, new, actor, now)
    if plan["add_observations"]:
        store.add_observations([ObservationInput(entityName=name, contents=plan["add_observations"])], actor)
    for rel in plan["delete_relations"]:
        if _relation_row(conn, rel.from_, rel.to, rel.relationType) is None:
            raise NotFound(f"There is no relation {_describe(rel.from_, rel.to, rel.relationType)} to remove. "
                           "Nothing was saved.")
    if plan["delete_relations"]:
        store.delete_relations(plan["delete_relations"], actor)
    for rel, ended_at in plan["end_relations"]:
        set_relation_end(conn, rel.from_, rel.to, rel.relationType, ended_at or now, actor, now)
    if plan["add_relations"]:
        ends = reads.ids_by_name(conn, [n for r in plan["add_relations"] for n in (r.from_, r.to)])
        for rel in plan["add_relations"]:
            for end in (rel.from_, rel.to):
                if end not in ends:  # an editor relates what exists: no placeholder from a typo
                    where = _describe(rel.from_, rel.to, rel.relationType)
                    raise NotFound(f"There is no entity called {end!r} (in {where}); create it first. "
                                   "Nothing was saved.")
        store.create_relations(plan["add_relations"], actor)
    if plan["new_name"] is not None:
        rename_entity(conn, name, plan["new_name"], actor, now)
    return _group(conn, start, "save_entity", plan["new_name"] or name, {}, actor, now)


def _group(conn: Connection, start: int, op: str, entity: str, extra: dict[str, Any],
           actor: str, now: str) -> int | None:
    """Write the row that groups the rows written after ``start`` (one Save, one undo)."""
    ids = [r[0] for r in conn.execute("SELECT id FROM change_log WHERE id > ? ORDER BY id", (start,))]
    if not ids and op == "save_entity":
        return None
    if len(ids) == 1 and op == "save_entity":
        return ids[0]  # one change needs no group
    history.write(conn, [(now, actor, op, entity, None, history.dumps({**extra, "rows": ids}))])
    return history.latest_change_id(conn)


# -- undo ------------------------------------------------------------------------------------

def undoable(conn: Connection, entity: str | None, by: str | None) -> dict[str, Any] | None:
    """The newest change that undo would take back: not already undone, not part of a group
    (a Save or an undo: the group is undone whole), optionally about ``entity`` or by ``by``."""
    latest = history.latest_change_id(conn)
    floor = max(0, latest - SCAN_LIMIT)
    covered, undone = undone_ids([(op, json.loads(after)) for op, after in conn.execute(
        "SELECT op, after FROM change_log WHERE id > ? AND op IN (SELECT value FROM json_each(?))",
        (floor, json.dumps(GROUP_OPS)))])
    top = latest
    while top > floor:
        page = _rows(conn, "id <= ? AND id > ? ORDER BY id DESC LIMIT 200", [top, floor])
        if not page:
            break
        for row in page:  # a page with nothing to undo goes on to the next one
            top = row["id"] - 1
            if is_candidate(row, covered, undone, entity, by):
                return row
    return None


def undo(store: SqliteGraphStore, conn: Connection, row: dict[str, Any], actor: str, now: str) -> int:
    """Take back change ``row``; returns the id of the ``undo`` row that records it."""
    if row["op"] not in UNDOABLE:
        raise Conflict(f"Change #{row['id']} ({row['op']}) cannot be undone. Nothing was changed.")
    undone_by = [u for u in _rows(conn, "id > ? AND op = 'undo' ORDER BY id", [row["id"]])
                 if u["after"]["undo_of"] == row["id"]]
    if undone_by:
        raise Conflict(f"Change #{row['id']} was already undone (change #{undone_by[-1]['id']}). "
                       "Nothing was changed.")
    start = history.latest_change_id(conn)
    _undo_one(store, conn, row, actor, now)
    ids = [r[0] for r in conn.execute("SELECT id FROM change_log WHERE id > ? ORDER BY id", (start,))]
    last = conn.execute("SELECT entity FROM change_log WHERE id = ?", (ids[-1],)).fetchone()[0] if ids else None
    group = _group(conn, start, "undo", last or row["entity"], {"undo_of": row["id"], "op": row["op"]},
                   actor, now)
    assert group is not None
    return group


def _gone(name: str) -> Conflict:
    return Conflict(f"Entity {name!r} no longer exists (it was renamed or deleted since); this change "
                    "cannot be undone. Nothing was changed.")


def _live(conn: Connection, name: str) -> int:
    row = conn.execute("SELECT id FROM entities WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise _gone(name)
    return row[0]


def _undo_one(store: SqliteGraphStore, conn: Connection, row: dict[str, Any], actor: str, now: str) -> None:
    op, name, before, after = row["op"], row["entity"], row["before"], row["after"]
    if op in GROUP_OPS:  # a Save or an undo (its undo is a redo): take back its rows, newest first
        for rid in reversed(after["rows"]):
            found = _rows(conn, "id = ?", [rid])
            if found:
                _undo_one(store, conn, found[0], actor, now)
    elif op == "create_entity":
        _live(conn, name)
        store.delete_entities([name], actor)
    elif op == "delete_entity":
        if conn.execute("SELECT 1 FROM entities WHERE name = ?", (name,)).fetchone():
            raise Conflict(f"An entity called {name!r} exists again; the deletion cannot be undone. "
                           "Nothing was changed.")
        later = conn.execute("SELECT id FROM change_log WHERE entity = ? AND op = 'delete_entity' AND id > ?",
                             (name, row["id"])).fetchone()
        if later:
            raise Conflict(f"{name!r} was deleted again later (change #{later[0]}); undo that one instead. "
                           "Nothing was changed.")
        store.restore_entity(name, actor)
    elif op == "restore_entity":
        _live(conn, name)
        store.delete_entities([name], actor)
    elif op == "add_observations":
        eid = _live(conn, name)
        have = set(reads.observations_of(conn, [eid])[eid])
        present = [o for o in after if o in have]
        if not present:
            raise Conflict(f"The observations change #{row['id']} added to {name!r} are gone already. "
                           "Nothing was changed.")
        store.delete_observations([ObservationDeletion(entityName=name, observations=present)], actor)
    elif op == "delete_observations":
        eid = _live(conn, name)
        have = set(reads.observations_of(conn, [eid])[eid])
        missing = [c for c, _ in before["observations"] if c not in have]
        if not missing:
            raise Conflict(f"The observations change #{row['id']} deleted from {name!r} are back already. "
                           "Nothing was changed.")
        store.add_observations([ObservationInput(entityName=name, contents=missing)], actor)
    elif op == "create_relation":
        dst, rtype = after
        if _relation_row(conn, name, dst, rtype) is None:
            raise Conflict(f"The relation {_describe(name, dst, rtype)} is gone already. Nothing was changed.")
        store.delete_relations([_rel(name, dst, rtype)], actor)
    elif op == "delete_relation":
        _undo_relation_delete(store, conn, before, actor)
    elif op in ("end_relation", "reopen_relation"):
        found = _relation_row(conn, after["from"], after["to"], after["relationType"])
        if found is None or found[4] != after["ended_at"]:
            raise Conflict(f"The relation {_describe(after['from'], after['to'], after['relationType'])} was "
                           "changed or removed since. Nothing was changed.")
        if op == "end_relation":
            set_relation_end(conn, after["from"], after["to"], after["relationType"], None, actor, now)
        else:
            set_relation_end(conn, after["from"], after["to"], after["relationType"], before["ended_at"], actor, now)
    elif op == "rename_entity":
        _live(conn, after["name"])
        if conn.execute("SELECT 1 FROM entities WHERE name = ?", (before["name"],)).fetchone():
            raise Conflict(f"Another entity is called {before['name']!r} now; the rename cannot be undone. "
                           "Nothing was changed.")
        rename_entity(conn, after["name"], before["name"], actor, now)
    elif op == "set_entity_type":
        _, current = _entity_or_gone(conn, name)
        if current != after["entityType"]:
            raise Conflict(f"The type of {name!r} was changed again since (it is {current!r} now). "
                           "Nothing was changed.")
        set_entity_type(conn, name, before["entityType"], actor, now)
    elif op == "replace_observation":
        eid = _live(conn, name)
        if after["observation"] not in reads.observations_of(conn, [eid])[eid]:
            raise Conflict(f"The edited observation of {name!r} was changed or deleted since. Nothing was changed.")
        replace_observation(conn, name, after["observation"], before["observation"], actor, now)
    elif op == "update_entity":
        _undo_update(conn, row, actor, now)
    elif op == "archive_entity":
        eid = _live(conn, name)
        conn.execute("UPDATE entities SET archived_at = NULL, updated_at = ? WHERE id = ?", (now, eid))
        history.write(conn, [(now, actor, "unarchive_entity", name, None, None)])
    elif op == "unarchive_entity":
        _live(conn, name)
        store.archive_node(name, actor)


def _entity_or_gone(conn: Connection, name: str) -> tuple[int, str]:
    try:
        return _entity(conn, name)
    except NotFound:
        raise _gone(name) from None


def _rel(src: str, dst: str, rtype: str) -> Relation:
    return Relation(**{"from": src, "to": dst, "relationType": rtype})


def _undo_relation_delete(store: SqliteGraphStore, conn: Connection, snap: dict[str, Any], actor: str) -> None:
    src, dst, rtype = snap["from"], snap["to"], snap["relationType"]
    for end in (src, dst):
        _live(conn, end)
    if _relation_row(conn, src, dst, rtype) is not None:
        raise Conflict(f"The relation {_describe(src, dst, rtype)} exists again. Nothing was changed.")
    # Re-created now (not at its old created_at), so query_at_date shows the gap while it was gone.
    store.create_relations([_rel(src, dst, rtype)], actor)
    conn.execute(
        "UPDATE relations SET props = ?, ended_at = ? WHERE from_entity = (SELECT id FROM entities WHERE name = ?) "
        "AND to_entity = (SELECT id FROM entities WHERE name = ?) AND relation_type = ?",
        (json.dumps(snap.get("props") or {}, ensure_ascii=False), snap.get("ended_at"), src, dst, rtype))


def _undo_update(conn: Connection, row: dict[str, Any], actor: str, now: str) -> None:
    name, before, after = row["entity"], row["before"], row["after"]
    eid = _live(conn, name)
    etype, props = conn.execute("SELECT entity_type, props FROM entities WHERE id = ?", (eid,)).fetchone()
    if etype != after["entityType"] or json.loads(props) != after["props"]:
        raise Conflict(f"{name!r} was changed again since change #{row['id']}. Nothing was changed.")
    conn.execute("UPDATE entities SET entity_type = ?, props = ? WHERE id = ?",
                 (before["entityType"], json.dumps(before["props"], ensure_ascii=False), eid))
    _touch(conn, eid, now)
    history.write(conn, [(now, actor, "update_entity", name, history.dumps(after), history.dumps(before))])


# -- words -----------------------------------------------------------------------------------

def describe(row: dict[str, Any]) -> str:
    """A short English phrase for a change_log row (the desktop translates its own)."""
    op, name, before, after = row["op"], row.get("entity"), row.get("before"), row.get("after")
    if op == "add_observations" and isinstance(after, list):
        return f"added {len(after)} observation(s) to {name}"
    if op == "delete_observations" and isinstance(before, dict):
        return f"deleted {len(before.get('observations', []))} observation(s) of {name}"
    if op == "create_relation" and isinstance(after, list):
        return f"related {name} -{after[1]}-> {after[0]}"
    if op in RELATION_OPS and isinstance(before or after, dict):
        snap = before if op == "delete_relation" else after
        verb = {"delete_relation": "removed", "end_relation": "ended", "reopen_relation": "reopened"}[op]
        return f"{verb} {snap['from']} -{snap['relationType']}-> {snap['to']}"
    if op == "rename_entity":
        return f"renamed {before['name']} to {after['name']}"
    if op == "set_entity_type":
        return f"set the type of {name} to {after['entityType']}"
    if op == "replace_observation":
        return f"edited an observation of {name}"
    return f"{op.replace('_', ' ')} {name or ''}".strip()


class EditsMixin:
    """The single edits and the editor's reads of ``SqliteGraphStore`` (which provides ``db``,
    and the writes a Save or an undo is made of)."""

    db: Database

    def rename_entity(self, old: str, new: str, actor: str) -> bool:
        """Rename ``old`` to ``new``, keeping its relations; a taken name → Conflict."""
        with self.db.write() as conn:
            return rename_entity(conn, old, new, actor, self.db.now())

    def set_entity_type(self, name: str, entity_type: str, actor: str) -> bool:
        with self.db.write() as conn:
            return set_entity_type(conn, name, entity_type, actor, self.db.now())

    def replace_observation(self, name: str, old: str, new: str, actor: str) -> bool:
        with self.db.write() as conn:
            return replace_observation(conn, name, old, new, actor, self.db.now())

    def end_relation(self, from_name: str, to_name: str, rel_type: str, ended_at: str | None, actor: str) -> bool:
        """End a current relation at ``ended_at`` (default now); it stays, no longer current."""
        now = self.db.now()
        with self.db.write() as conn:
            return set_relation_end(conn, from_name, to_name, rel_type, ended_at or now, actor, now)

    def save_entity(self, name: str, plan: dict[str, Any], expected_version: int | None, actor: str) -> int | None:
        """One editor Save, all or nothing (see ``save_entity``)."""
        with self.db.write() as conn:
            return save_entity(self, conn, name, plan, expected_version, actor, self.db.now())

    def undo_change(self, change_id: int | None, entity: str | None, by: str | None, actor: str) -> dict[str, Any]:
        """Undo change ``change_id`` (default: the newest undoable one); returns the undo row."""
        with self.db.write() as conn:
            if change_id is None:
                row = undoable(conn, entity, by)
                if row is None:
                    raise NotFound("There is no change left to undo. Nothing was changed.")
            else:
                found = history.changes_since(conn, change_id - 1, 1)
                if not found or found[0]["id"] != change_id:
                    raise NotFound(f"There is no change #{change_id}. Nothing was changed.")
                row = found[0]
            undo_id = undo(self, conn, row, actor, self.db.now())
            return history.changes_since(conn, undo_id - 1, 1)[0]

    def undoable_change(self, entity: str | None, by: str | None) -> dict[str, Any] | None:
        with self.db.locked() as conn:
            return undoable(conn, entity, by)

    def entity_for_edit(self, name: str) -> dict[str, Any]:
        """The entity, every relation touching it (ended ones too), and the change_log id it was read at."""
        with self.db.snapshot() as conn:
            ids = reads.ids_by_name(conn, [name])
            if not ids:
                raise NotFound(f"Entity {name!r} does not exist.")
            node = reads.nodes(conn, [ids[name]])[0]
            return {"node": node, "relations": relations_of(conn, ids[name]),
                    "version": history.latest_change_id(conn)}

    def entity_history(self, name: str, *, limit: int = 100) -> list[dict[str, Any]]:
        with self.db.locked() as conn:
            return entity_history(conn, name, limit)

    def last_deletion(self, name: str) -> dict[str, Any] | None:
        with self.db.locked() as conn:
            return last_deletion(conn, name)

    def relation_type_counts(self) -> dict[str, int]:
        with self.db.locked() as conn:
            return relation_type_counts(conn)
