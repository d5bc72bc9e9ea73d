"""Editing one entity, one editor Save and the undo of any change, once for every backend.

The rules, refusals and change_log rows live here; a backend supplies an ``EditSession``: what
one write transaction sees (an entity, a relation, a change) and the single writes, each of
which records its own change_log row in the shapes ``core.history.changes`` documents:

- ``rename_entity``      entity=new name, before ``{"name": old}``, after ``{"name": new}``
- ``set_entity_type``    before/after ``{"entityType": …}``
- ``replace_observation`` before ``{"observation": old, "created_at": …}``, after ``{"observation": new}``
- ``end_relation`` / ``reopen_relation``  entity=from, before/after ``{"from", "to", "relationType",
  "created_at", "ended_at"}`` (only ``ended_at`` differs)
- ``unarchive_entity``   no payload (the inverse of ``archive_entity``)
- ``save_entity``        a group: after ``{"rows": [ids]}``, the rows one editor Save wrote
- ``decide_insight``     entity=title, before/after an ``InsightState`` (``as_dict``): undone only
  inside a group (a merge or ``approve_insight``: the approval and what it did, undone whole)
- ``undo``               after ``{"undo_of": id, "op": …, "rows": [ids]}``: the rows that undid it

An undo is the inverse operation written like any other change (so history and
``query_at_date`` need nothing special) followed by one ``undo`` row that says what it undid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from core import errors
from core.change_words import describe
from core.errors import Conflict, NotFound
from core.graph_rules import merge_patch
from core.history.changes import SCAN_LIMIT, UNDOABLE, is_candidate, touches, undone_ids
from core.history.changes import describe_relation as _rel_words
from core.history.changes import short as _short
from core.model import GROUP_OPS, Change, EntityPlan, Relation

Row = Change
PAGE = 200  # change_log rows read at a time while looking for the change to undo


@dataclass
class EntityState:
    """An entity as the current write sees it."""

    name: str
    type: str
    props: dict[str, Any] = field(default_factory=dict)
    observations: list[str] = field(default_factory=list)
    archived: bool = False


@dataclass(frozen=True)
class RelationState:
    created_at: str
    ended_at: str | None
    props: dict[str, Any]


@dataclass(frozen=True)
class InsightState:
    """An insight's review state as a decision sets it (``stale`` and ``base_confidence`` are read,
    never written by a decision)."""

    status: str
    archived: bool
    decided_at: str | None
    decided_by: str | None
    confirmed_at: str | None
    confidence: float
    stale: bool = False
    base_confidence: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        """What a ``decide_insight`` row keeps (enough to set it back)."""
        return {"status": self.status, "archived": self.archived, "decided_at": self.decided_at,
                "decided_by": self.decided_by, "confirmed_at": self.confirmed_at, "confidence": self.confidence}

    @classmethod
    def of(cls, saved: dict[str, Any]) -> InsightState:
        return cls(saved["status"], bool(saved["archived"]), saved.get("decided_at"), saved.get("decided_by"),
                   saved.get("confirmed_at"), float(saved.get("confidence") or 0.0))


class ChangeReads(Protocol):
    """The change_log reads that finding the change to undo needs."""

    def latest_change_id(self) -> int: ...
    def groups_after(self, floor: int) -> list[tuple[str, dict[str, Any]]]:
        """``(op, after)`` of every save_entity and undo row with id > ``floor``."""
        ...
    def page(self, top: int, bottom: int) -> list[Row]:
        """Rows with ``bottom < id <= top``, newest first."""
        ...


class EditSession(ChangeReads, Protocol):
    """One write transaction of a backend, as the editing rules use it. Each write records its
    own change_log row; ``finish`` writes the row that groups them."""

    now: str

    def entity(self, name: str) -> EntityState | None: ...
    def relation(self, src: str, dst: str, rtype: str) -> RelationState | None: ...
    def change(self, change_id: int) -> Row | None: ...
    def changes_after(self, change_id: int, op: str | None = None) -> list[Row]:
        """Rows with id > ``change_id`` (only ``op`` ones when given), oldest first."""
        ...

    def create_entity(self, name: str, entity_type: str) -> None: ...
    def delete_entity(self, name: str) -> None: ...
    def restore_entity(self, name: str) -> None: ...
    def add_observations(self, name: str, contents: list[str]) -> None: ...
    def delete_observations(self, name: str, contents: list[str]) -> None: ...
    def replace_observation(self, name: str, old: str, new: str) -> None: ...
    def set_entity_type(self, name: str, entity_type: str) -> None: ...
    def rename_entity(self, old: str, new: str) -> None: ...
    def facts_due(self, name: str) -> None:
        """Make the entity's facts due for embedding again: a fact is embedded after its entity's
        name and type (``core.embeddings.text.fact_text``), so a rename or a new type changes what
        it says. Their vectors answer until replaced; not logged."""
        ...
    def update_entity(self, name: str, before: dict[str, Any], after: dict[str, Any]) -> None:
        """Set type and props to ``after`` (``{"entityType", "props"}``), logged as update_entity."""
        ...
    def set_archived(self, name: str, archived: bool) -> None:
        """Archive (op archive_entity) or un-archive (op unarchive_entity) the entity."""
        ...
    def create_relations(self, relations: Sequence[Relation]) -> None: ...
    def delete_relations(self, relations: Sequence[Relation]) -> None: ...
    def set_relation_end(self, src: str, dst: str, rtype: str, ended_at: str | None) -> None: ...
    def set_relation_state(self, src: str, dst: str, rtype: str, props: dict[str, Any],
                           ended_at: str | None) -> None:
        """Props and end of an existing relation, not logged (an undone deletion's old state)."""
        ...
    def set_relation_props(self, src: str, dst: str, rtype: str, props: dict[str, Any]) -> None:
        """The props of an existing relation, logged as update_relation."""
        ...
    def insight(self, title: str) -> InsightState | None:
        """The review state of the insight ``title`` (None: no such insight)."""
        ...
    def set_insight(self, title: str, state: InsightState, note: dict[str, Any] | None = None) -> None:
        """Set the insight's review state (and archive it or not), logged as ``decide_insight``:
        before = the state it had, after = ``state`` plus ``note``."""
        ...
    def last_entity(self) -> str | None:
        """The entity of the last change_log row this write recorded (None: none yet)."""
        ...
    def finish(self, group: str | None, entity: str | None = None,
               extra: dict[str, Any] | None = None) -> int | None:
        """End the write: for ``group``, one row listing the rows written (a Save of one change
        needs none; an undo always has one). Returns the id of the last row, None if none."""
        ...


# -- the single edits ----------------------------------------------------------------------------

def _entity(s: EditSession, name: str) -> EntityState:
    found = s.entity(name)
    if found is None:
        raise NotFound(f"Entity {name!r} does not exist. Nothing was changed.")
    return found


def rename_entity(s: EditSession, old: str, new: str) -> bool:
    """Rename ``old`` to ``new``; relations, observations and history stay with it."""
    _entity(s, old)
    if old == new:
        return False
    if s.entity(new) is not None:
        raise Conflict(f"An entity called {new!r} already exists; choose another name. Nothing was changed.")
    s.rename_entity(old, new)
    s.facts_due(new)
    return True


def set_entity_type(s: EditSession, name: str, entity_type: str) -> bool:
    """Change the entity's type (Engrama's label)."""
    if _entity(s, name).type == entity_type:
        return False
    s.set_entity_type(name, entity_type)
    s.facts_due(name)
    return True


def replace_observation(s: EditSession, name: str, old: str, new: str) -> bool:
    """Edit one observation in place (it keeps its place in the list and its created_at)."""
    have = _entity(s, name).observations
    if old not in have:
        raise NotFound(f"Entity {name!r} has no observation {_short(old)!r}. Nothing was changed.")
    if old == new:
        return False
    if new in have:
        raise Conflict(f"Entity {name!r} already has the observation {_short(new)!r}; delete the "
                       "duplicate instead. Nothing was changed.")
    s.replace_observation(name, old, new)
    return True


def set_relation_end(s: EditSession, src: str, dst: str, rtype: str, ended_at: str | None) -> bool:
    """End a current relation at ``ended_at`` (op end_relation), or make an ended one current
    again with ``ended_at=None`` (op reopen_relation). The end may be earlier than when the
    relation was recorded: a fact can be written down after it stopped being true."""
    rel = s.relation(src, dst, rtype)
    if rel is None:
        raise NotFound(f"There is no relation {_rel_words(src, dst, rtype)}. Nothing was changed.")
    if ended_at is not None and rel.ended_at is not None:
        raise Conflict(f"The relation {_rel_words(src, dst, rtype)} already ended on {rel.ended_at}. "
                       "Nothing was changed.")
    if ended_at is None and rel.ended_at is None:
        return False
    s.set_relation_end(src, dst, rtype, ended_at)
    return True


def merge_relation(s: EditSession, src: str, rtype: str, dst: str, props: dict[str, Any] | None) -> bool:
    """Engrama's merge_relation: relate two existing entities unless they are already (a missing end
    → NotFound), and merge ``props`` into the relation's (JSON merge patch). A change to an existing
    relation's props is logged (update_relation); a new relation's are part of its creation. True if
    it was created."""
    for name in (src, dst):
        if s.entity(name) is None:
            raise errors.no_relation_end(name, src, rtype, dst)
    created = s.relation(src, dst, rtype) is None
    if created:
        s.create_relations([_relation(src, dst, rtype)])
    rel = s.relation(src, dst, rtype)
    assert rel is not None  # there, or just created
    merged = merge_patch(rel.props, props or {})
    if merged != rel.props:
        if created:
            s.set_relation_state(src, dst, rtype, merged, rel.ended_at)
        else:
            s.set_relation_props(src, dst, rtype, merged)
    return created


# -- one editor Save -----------------------------------------------------------------------------

def check_unchanged(s: EditSession, name: str, since_id: int) -> None:
    """Conflict naming who changed entity ``name`` after change_log id ``since_id``."""
    later = [r for r in s.changes_after(since_id) if touches(r, name)]
    if later:
        who = ", ".join(dict.fromkeys(f"{r.actor} ({describe(r)})" for r in later[-5:]))
        raise Conflict(f"Entity {name!r} was changed since you opened it, by {who}. Reload it or merge "
                       "your edits onto the new state; nothing was saved.")


def _unique(relations: Sequence[Relation]) -> list[Relation]:
    seen: dict[tuple[str, str, str], Relation] = {}
    for r in relations:
        seen.setdefault((r.from_, r.to, r.relationType), r)
    return list(seen.values())


def save_entity(s: EditSession, name: str, plan: EntityPlan, expected_version: int | None) -> int | None:
    """Apply one editor Save (see ``Memory.save_entity``); returns the id of its last change_log
    row, or None when there was nothing to change."""
    if expected_version is not None:
        check_unchanged(s, name, expected_version)
    if plan["create"]:
        if s.entity(name) is not None:
            raise Conflict(f"An entity called {name!r} already exists; open it instead. Nothing was saved.")
        s.create_entity(name, plan["entity_type"] or "Generic")
    elif plan["entity_type"] is not None:
        set_entity_type(s, name, plan["entity_type"])
    have = set(_entity(s, name).observations)
    gone = [o for o in plan["delete_observations"] if o not in have]
    if gone:
        raise NotFound(f"Entity {name!r} has no observation {_short(gone[0])!r} to delete. Nothing was saved.")
    if plan["delete_observations"]:
        s.delete_observations(name, plan["delete_observations"])
    for old, new in plan["edit_observations"]:
        replace_observation(s, name, old, new)
    added = [o for o in dict.fromkeys(plan["add_observations"]) if o not in set(_entity(s, name).observations)]
    if added:
        s.add_observations(name, added)
    for rel in plan["delete_relations"]:
        if s.relation(rel.from_, rel.to, rel.relationType) is None:
            raise NotFound(f"There is no relation {_rel_words(rel.from_, rel.to, rel.relationType)} to remove. "
                           "Nothing was saved.")
    if plan["delete_relations"]:
        s.delete_relations(_unique(plan["delete_relations"]))
    for rel, ended_at in plan["end_relations"]:
        set_relation_end(s, rel.from_, rel.to, rel.relationType, ended_at or s.now)
    for rel in plan["add_relations"]:
        for end in (rel.from_, rel.to):
            if s.entity(end) is None:  # an editor relates what exists: no placeholder from a typo
                raise NotFound(f"There is no entity called {end!r} (in "
                               f"{_rel_words(rel.from_, rel.to, rel.relationType)}); create it first. "
                               "Nothing was saved.")
    new_rels = [r for r in _unique(plan["add_relations"]) if s.relation(r.from_, r.to, r.relationType) is None]
    if new_rels:
        s.create_relations(new_rels)
    if plan["new_name"] is not None:
        rename_entity(s, name, plan["new_name"])
    return s.finish("save_entity", plan["new_name"] or name)


# -- undo ----------------------------------------------------------------------------------------

def undoable(reads: ChangeReads, entity: str | None, by: str | None) -> Row | None:
    """The newest change that undo would take back: not already undone, not part of a group
    (a Save or an undo: the group is undone whole), optionally about ``entity`` or by ``by``."""
    latest = reads.latest_change_id()
    floor = max(0, latest - SCAN_LIMIT)
    covered, undone = undone_ids(reads.groups_after(floor))
    top = latest
    while top > floor:
        # A window of ids, not ORDER BY … LIMIT over the whole range: a server would sort it all.
        bottom = max(floor, top - PAGE)
        for row in reads.page(top, bottom):
            if is_candidate(row, covered, undone, entity, by):
                return row
        top = bottom
    return None


def undo(s: EditSession, row: Row) -> int:
    """Take back change ``row``; returns the id of the ``undo`` row that records it."""
    if row.op not in UNDOABLE:
        raise Conflict(f"Change #{row.id} ({row.op}) cannot be undone. Nothing was changed.")
    undone_by = [u for u in s.changes_after(row.id, "undo") if u.undo_of == row.id]
    if undone_by:
        raise Conflict(f"Change #{row.id} was already undone (change #{undone_by[-1].id}). "
                       "Nothing was changed.")
    undo_one(s, row)
    undo_id = s.finish("undo", s.last_entity() or row.entity, {"undo_of": row.id, "op": row.op})
    assert undo_id is not None  # an undo always writes its row
    return undo_id


def _gone(name: str) -> Conflict:
    return Conflict(f"Entity {name!r} no longer exists (it was renamed or deleted since); this change "
                    "cannot be undone. Nothing was changed.")


def _live(s: EditSession, name: str) -> EntityState:
    found = s.entity(name)
    if found is None:
        raise _gone(name)
    return found


def undo_one(s: EditSession, row: Row) -> None:  # noqa: C901 - one branch per kind of change
    """Write the inverse of ``row``, or refuse with what changed since."""
    op, name, before, after = row.op, row.entity or "", row.before, row.after
    if op in GROUP_OPS:  # a Save or an undo (its undo is a redo): take back its rows, newest first
        for rid in reversed(row.members):
            found = s.change(rid)
            if found:
                undo_one(s, found)
    elif op in ("create_entity", "restore_entity"):
        _live(s, name)
        s.delete_entity(name)
    elif op == "delete_entity":
        if s.entity(name) is not None:
            raise Conflict(f"An entity called {name!r} exists again; the deletion cannot be undone. "
                           "Nothing was changed.")
        later = [c for c in s.changes_after(row.id, "delete_entity") if c.entity == name]
        if later:
            raise Conflict(f"{name!r} was deleted again later (change #{later[0].id}); undo that one instead. "
                           "Nothing was changed.")
        s.restore_entity(name)
    elif op == "add_observations":
        present = [o for o in after if o in set(_live(s, name).observations)]
        if not present:
            raise Conflict(f"The observations change #{row.id} added to {name!r} are gone already. "
                           "Nothing was changed.")
        s.delete_observations(name, present)
    elif op == "delete_observations":
        have = set(_live(s, name).observations)
        missing = [c for c, _ in before["observations"] if c not in have]
        if not missing:
            raise Conflict(f"The observations change #{row.id} deleted from {name!r} are back already. "
                           "Nothing was changed.")
        s.add_observations(name, missing)
    elif op == "create_relation":
        dst, rtype = after
        if s.relation(name, dst, rtype) is None:
            raise Conflict(f"The relation {_rel_words(name, dst, rtype)} is gone already. Nothing was changed.")
        s.delete_relations([_relation(name, dst, rtype)])
    elif op == "delete_relation":
        _undo_relation_delete(s, before)
    elif op in ("end_relation", "reopen_relation"):
        src, dst, rtype = after["from"], after["to"], after["relationType"]
        rel = s.relation(src, dst, rtype)
        if rel is None or rel.ended_at != after["ended_at"]:
            raise Conflict(f"The relation {_rel_words(src, dst, rtype)} was changed or removed since. "
                           "Nothing was changed.")
        s.set_relation_end(src, dst, rtype, None if op == "end_relation" else before["ended_at"])
    elif op == "update_relation":
        src, dst, rtype = after["from"], after["to"], after["relationType"]
        rel = s.relation(src, dst, rtype)
        if rel is None or rel.props != after["props"]:
            raise Conflict(f"The relation {_rel_words(src, dst, rtype)} was changed or removed since. "
                           "Nothing was changed.")
        s.set_relation_props(src, dst, rtype, before["props"])
    elif op == "rename_entity":
        _live(s, after["name"])
        if s.entity(before["name"]) is not None:
            raise Conflict(f"Another entity is called {before['name']!r} now; the rename cannot be undone. "
                           "Nothing was changed.")
        s.rename_entity(after["name"], before["name"])
        s.facts_due(before["name"])
    elif op == "set_entity_type":
        current = _live(s, name).type
        if current != after["entityType"]:
            raise Conflict(f"The type of {name!r} was changed again since (it is {current!r} now). "
                           "Nothing was changed.")
        s.set_entity_type(name, before["entityType"])
        s.facts_due(name)
    elif op == "replace_observation":
        if after["observation"] not in _live(s, name).observations:
            raise Conflict(f"The edited observation of {name!r} was changed or deleted since. Nothing was changed.")
        s.replace_observation(name, after["observation"], before["observation"])
    elif op == "update_entity":
        target = _live(s, name)
        if target.type != after["entityType"] or target.props != after["props"]:
            raise Conflict(f"{name!r} was changed again since change #{row.id}. Nothing was changed.")
        s.update_entity(name, after, before)
        if before.get("entityType") != after.get("entityType"):
            s.facts_due(name)
    elif op in ("archive_entity", "unarchive_entity"):
        _live(s, name)
        s.set_archived(name, op == "unarchive_entity")
    elif op == "decide_insight":
        _undo_decision(s, row)


def _undo_decision(s: EditSession, row: Row) -> None:
    """An insight back to the state it had before a decision made inside a group (a merge, an
    approval and what it did): approved → pending again, so it shows in review as before."""
    name, before, after = row.entity or "", row.before, row.after
    if not isinstance(before, dict) or "archived" not in before or not isinstance(after, dict):
        raise Conflict(f"Change #{row.id} (an insight decision) cannot be undone on its own; reopen the insight "
                       "instead. Nothing was changed.")
    now = s.insight(name)
    if now is None:
        raise Conflict(f"The insight {name!r} no longer exists; this change cannot be undone. Nothing was changed.")
    if now.status != after.get("status"):
        raise Conflict(f"The insight {name!r} was decided again since (it is {now.status} now); this change "
                       "cannot be undone. Nothing was changed.")
    s.set_insight(name, InsightState.of(before))


def _relation(src: str, dst: str, rtype: str) -> Relation:
    return Relation(**{"from": src, "to": dst, "relationType": rtype})


def _undo_relation_delete(s: EditSession, snap: dict[str, Any]) -> None:
    src, dst, rtype = snap["from"], snap["to"], snap["relationType"]
    for end in (src, dst):
        _live(s, end)
    if s.relation(src, dst, rtype) is not None:
        raise Conflict(f"The relation {_rel_words(src, dst, rtype)} exists again. Nothing was changed.")
    # Re-created now (not at its old created_at), so query_at_date shows the gap while it was gone.
    s.create_relations([_relation(src, dst, rtype)])
    s.set_relation_state(src, dst, rtype, dict(snap.get("props") or {}), snap.get("ended_at"))
