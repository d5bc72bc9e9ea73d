"""change_log rows come back as one typed ``Change`` on every backend, and one function says
each in words (the desktop translates the same reading)."""

from __future__ import annotations

from collections.abc import Mapping

from core.change_words import describe, words
from core.memory import Memory
from core.model import Change


def _edit(mem: Memory) -> None:
    mem.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["a", "b"]},
                         {"name": "Bob", "entityType": "Person"}])
    mem.create_relations([{"from": "Ada", "to": "Bob", "relationType": "KNOWS"}])
    mem.add_observations([{"entityName": "Ada", "contents": ["c"]}])
    mem.delete_observations([{"entityName": "Ada", "observations": ["a", "b"]}])
    mem.end_relation("Ada", "Bob", "KNOWS")
    mem.rename_entity("Ada", "Ada L.")
    undo = mem.undo_change()  # the rename
    mem.undo_change(undo.id)  # the undo: a redo
    mem.delete_entities(["Bob"])


def test_every_read_of_the_log_gives_typed_changes(mem: Memory) -> None:
    _edit(mem)
    reads = [mem.history(limit=50), mem.changes_since(0), mem.activity(limit=50), mem.entity_history("Ada L.")]
    for rows in reads:
        assert rows and all(isinstance(r, Change) for r in rows)
    undo = mem.history(limit=2)[1]
    assert undo.op == "undo" and undo.undo_of is not None and undo.members
    assert not isinstance(undo, Mapping)  # read by attribute only: no untyped-dict layer left
    assert undo.as_dict() == {"id": undo.id, "at": undo.at, "actor": undo.actor, "op": "undo",
                              "entity": undo.entity, "before": undo.before, "after": undo.after}


def test_one_reading_in_words(mem: Memory) -> None:
    _edit(mem)
    rows = mem.history(limit=50)
    known = {r.id: r for r in rows}
    said = [describe(r) for r in reversed(rows)]
    assert said == [
        "create entity Ada", "create entity Bob", "related Ada -KNOWS-> Bob", "added 1 observation(s) to Ada",
        "deleted 2 observation(s) of Ada", "ended Ada -KNOWS-> Bob", "renamed Ada to Ada L.",
        "renamed Ada L. to Ada", f"undid change #{rows[-7].id} (rename entity Ada)",
        "renamed Ada to Ada L.", f"undid change #{rows[-9].id} (undo Ada L.)", "delete entity Bob",
    ]
    redo = next(r for r in rows if r.op == "undo" and known[r.undo_of].op == "undo")
    reading = words(redo, known)
    assert reading.key == "redid" and reading.inner is not None and reading.inner.key == "renamed"
    assert reading.inner.names == {"old": "Ada", "new": "Ada L."}
    deleted = words(rows[0])
    assert (deleted.key, deleted.names, deleted.count) == ("deleted", {"name": "Bob"}, 0)
