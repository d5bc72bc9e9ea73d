"""One composite write on a Cypher server (an editor Save, an undo): many steps, one commit.

A dialect write sends its changes together at the end, so its reads never see its own earlier
steps. ``Work`` keeps what the steps change (entity rows, relations, change_log rows) and answers
later steps from that, then turns it all into one batch: the whole Save or undo commits, or
nothing does, and a concurrent writer makes it start again from what is there now.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from core import graph_writes
from core.history.changes import needs_group
from core.storage.cypher import facts
from core.storage.cypher import rows as R

RelKey = tuple[int, int, str]  # from id, to id, type
LogRow = tuple[str, str, str, str | None, str | None, str | None]  # at, actor, op, entity, before, after
REL = "r.id, r.props, r.created_at, r.ended_at"


class Work:
    """The state one composite write has seen and made. Rows are ``rows.row_of`` dicts; relations are
    ``{"id", "props", "created_at", "ended_at"}`` (``id`` None until created)."""

    def __init__(self, tx: Any, actor: str, now: str) -> None:
        self.tx, self.actor, self.now = tx, actor, now
        self.rows: dict[int, dict[str, Any]] = {}  # entities read or made, by id
        self.names: dict[str, int | None] = {}  # name → id as this write sees it (None: no such entity)
        self.created: set[int] = set()
        self.changed: set[int] = set()
        self.deleted: set[int] = set()
        self.rels: dict[RelKey, dict[str, Any] | None] = {}  # None: deleted by this write
        self.stored_rels: dict[RelKey, int] = {}  # the server's relation id for keys read from it
        self.rels_changed: set[RelKey] = set()
        self.rels_read_for: set[int] = set()
        self.stale: set[int] = set()
        self.log: list[LogRow] = []

    # -- entities ---------------------------------------------------------------------------------

    def find(self, name: str) -> dict[str, Any] | None:
        """The entity called ``name`` now, as this write left it."""
        if name not in self.names:
            found = self.tx.read(f"MATCH (e:Entity {{name: $n}}) RETURN {R.ENTITY}", {"n": name})
            row = R.row_of(found[0][0]) if found else None
            # A row already held under another name was renamed by this write: its stored name is stale.
            if row is None or row["id"] in self.rows:
                self.names[name] = None
            else:
                self.rows[row["id"]] = row
                self.names[name] = row["id"]
        eid = self.names[name]
        return None if eid is None else self.rows[eid]

    def find_all(self, names: Sequence[str]) -> None:
        """Read the entities called ``names`` in one round trip; ``find`` answers them from then on."""
        wanted = [n for n in dict.fromkeys(names) if n not in self.names]
        if not wanted:
            return
        for found in self.tx.read(f"UNWIND $names AS n MATCH (e:Entity {{name: n}}) RETURN {R.ENTITY}",
                                  {"names": wanted}):
            row = R.row_of(found[0])
            if row["id"] not in self.rows:  # held under another name: renamed by this write (as in ``find``)
                self.rows[row["id"]] = row
                self.names[row["name"]] = row["id"]
        for name in wanted:
            self.names.setdefault(name, None)

    def rows_named(self, name: str) -> dict[str, Any]:
        """``find(name)`` for a name known to exist now."""
        row = self.find(name)
        assert row is not None, name
        return row

    def by_id(self, eid: int) -> dict[str, Any] | None:
        if eid not in self.rows and eid not in self.deleted:
            found = self.tx.read(f"MATCH (e:Entity {{id: $i}}) RETURN {R.ENTITY}", {"i": eid})
            if not found:
                return None
            row = R.row_of(found[0][0])
            self.rows[eid] = row
            self.names.setdefault(row["name"], eid)
        return self.rows.get(eid)

    def touch(self, row: dict[str, Any]) -> None:
        """``row`` was changed: it is written back (search copies refreshed, vector stale)."""
        row["updated_at"] = self.now
        self.changed.add(row["id"])

    def create(self, name: str, etype: str, *, props: dict[str, Any] | None = None,
               observations: list[tuple[str, str]] = (), created_at: str | None = None,  # type: ignore[assignment]  # () read only
               archived_at: str | None = None) -> dict[str, Any]:
        eid = self.tx.next_ids("entity", 1)[0]
        row = {"id": eid, "name": name, "type": etype, "props": dict(props or {}),
               "obs": [o for o, _ in observations], "obs_at": [t for _, t in observations],
               "created_at": created_at or self.now, "updated_at": self.now, "archived_at": archived_at}
        self.rows[eid] = row
        self.names[name] = eid
        self.created.add(eid)
        return row

    def rename(self, row: dict[str, Any], new: str) -> None:
        self.names[row["name"]] = None
        row["name"] = new
        self.names[new] = row["id"]
        self.touch(row)
        self.stale.update(self._neighbours(row["id"]))  # their embedding texts name it

    def delete(self, row: dict[str, Any]) -> dict[str, Any]:
        """Delete the entity with its relations; returns what change_log keeps of it."""
        eid = row["id"]
        rels = []
        for key, rel in self.relations_of(eid):
            rels.append({"from": self.rows[key[0]]["name"], "to": self.rows[key[1]]["name"], "relationType": key[2],
                         "props": rel["props"], "created_at": rel["created_at"], "ended_at": rel["ended_at"],
                         "_order": rel["id"] if rel["id"] is not None else 1 << 62})
            self.rels[key] = None
            self.stale.update(k for k in key[:2] if k != eid)
        rels.sort(key=lambda r: r.pop("_order"))
        snap = R.snapshot(row, rels)
        self.names[row["name"]] = None
        self.deleted.add(eid)
        return snap

    # -- relations --------------------------------------------------------------------------------

    def relation(self, src: dict[str, Any], dst: dict[str, Any], rtype: str) -> dict[str, Any] | None:
        key = (src["id"], dst["id"], rtype)
        known = self.created | self.rels_read_for  # every relation of these is in self.rels already
        if key not in self.rels and not known & {src["id"], dst["id"]}:
            found = self.tx.read(f"MATCH (a:Entity {{id: $a}})-[r:REL]->(b:Entity {{id: $b}}) WHERE r.type = $t "
                                 f"RETURN {REL}", {"a": key[0], "b": key[1], "t": rtype})
            self._keep(key, found[0] if found else None)
        return self.rels.get(key)

    def relations_between(self, pairs: Sequence[tuple[dict[str, Any], dict[str, Any], str]]) -> None:
        """Read the relations (from row, to row, type) in one round trip; ``relation`` answers them
        from then on (None: there is none)."""
        known = self.created | self.rels_read_for
        keys = [key for a, b, t in pairs
                if (key := (a["id"], b["id"], t)) not in self.rels and not known & set(key[:2])]
        if not keys:
            return
        found = {(a, b, t): rel for a, b, t, *rel in self.tx.read(
            f"UNWIND $keys AS k MATCH (a:Entity {{id: k[0]}})-[r:REL]->(b:Entity {{id: k[1]}}) WHERE r.type = k[2] "
            f"RETURN k[0], k[1], k[2], {REL}", {"keys": [list(k) for k in dict.fromkeys(keys)]})}
        for key in keys:
            if key in found:
                self._keep(key, found[key])
            else:
                self.rels.setdefault(key, None)  # none stored: not read again

    def _keep(self, key: RelKey, found: list[Any] | None) -> None:
        if key in self.rels or found is None:
            return
        rid, props, created, ended = found
        self.rels[key] = {"id": rid, "props": json.loads(props or "{}"), "created_at": created, "ended_at": ended}
        self.stored_rels[key] = rid

    def relations_of(self, eid: int) -> list[tuple[RelKey, dict[str, Any]]]:
        """Every relation touching ``eid`` (ended ones too), oldest first; the other ends are loaded."""
        if eid not in self.rels_read_for and eid not in self.created:
            for a, b, t, *rel in [
                *self.tx.read(f"MATCH (a:Entity {{id: $i}})-[r:REL]->(b:Entity) RETURN a.id, b.id, r.type, {REL}",
                              {"i": eid}),
                *self.tx.read(f"MATCH (a:Entity)-[r:REL]->(b:Entity {{id: $i}}) RETURN a.id, b.id, r.type, {REL}",
                              {"i": eid})]:
                if self.by_id(a if b == eid else b) is not None:
                    self._keep((a, b, t), rel)
            self.rels_read_for.add(eid)
        found = [(k, r) for k, r in self.rels.items() if r is not None and eid in k[:2]]
        return sorted(found, key=lambda kr: kr[1]["id"] if kr[1]["id"] is not None else 1 << 62)

    def _neighbours(self, eid: int) -> set[int]:
        return {k[0] if k[1] == eid else k[1] for k, _ in self.relations_of(eid)}

    def add_relation(self, src: dict[str, Any], dst: dict[str, Any], rtype: str, *,
                     props: dict[str, Any] | None = None, ended_at: str | None = None,
                     created_at: str | None = None) -> None:
        key = (src["id"], dst["id"], rtype)
        self.rels[key] = {"id": self.tx.next_ids("relation", 1)[0], "props": dict(props or {}),
                          "created_at": created_at or self.now, "ended_at": ended_at}
        self.rels_changed.add(key)
        self.stale.update(key[:2])

    def delete_relation(self, src: dict[str, Any], dst: dict[str, Any], rtype: str) -> None:
        key = (src["id"], dst["id"], rtype)
        self.rels[key] = None
        self.rels_changed.add(key)
        self.stale.update(key[:2])

    def set_relation(self, src: dict[str, Any], dst: dict[str, Any], rtype: str, **values: Any) -> None:
        key = (src["id"], dst["id"], rtype)
        rel = self.rels[key]
        assert rel is not None
        rel.update(values)
        self.rels_changed.add(key)
        self.stale.update(key[:2])

    # -- change_log ------------------------------------------------------------------------------

    def record(self, op: str, entity: str | None, before: Any = None, after: Any = None) -> None:
        self.log.append((self.now, self.actor, op, entity, R.dumps(before), R.dumps(after)))

    def commit(self, group: str | None = None, entity: str | None = None,
               extra: dict[str, Any] | None = None) -> int | None:
        """Queue every change, then the change_log rows and, for ``group``, the row that lists them
        (a Save of one change needs none; an undo always has one). Returns the id of the last
        change_log row written, or None when nothing was written."""
        grouped = group is not None and needs_group(group, len(self.log))
        if not self.log and not grouped:
            return None
        ids = self.tx.next_ids("change", len(self.log) + (1 if grouped else 0))
        self._queue()
        rows = ids[:len(self.log)]
        if rows:
            self._write_log(rows)
        if grouped and group is not None:  # (grouped implies a group)
            self._write_log(ids[-1:], [(self.now, self.actor, group, entity, None,
                                        R.dumps({**(extra or {}), "rows": rows}))])
        return cast(int, ids[-1])

    def _write_log(self, ids: list[int], log: list[LogRow] | None = None) -> None:
        self.tx.write("UNWIND $rows AS r CREATE (c:Change) SET c = r", {"rows": [
            {"id": i, "at": at, "actor": actor, "op": op, "entity": ent, "before": b, "after": a}
            for i, (at, actor, op, ent, b, a) in zip(ids, log if log is not None else self.log, strict=True)]})

    def _queue(self) -> None:
        tx = self.tx
        new = [self.rows[i] for i in sorted(self.created - self.deleted)]
        if new:
            tx.write(f"UNWIND $rows AS r CREATE (e:{R.LABELS}) SET e = r", {"rows": [R.stored(r) for r in new]})
            facts.sync(tx, new, created=True)
        changed = [self.rows[i] for i in sorted(self.changed - self.created - self.deleted)]
        if changed:
            tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e += r",
                     {"rows": [R.stored(r) for r in changed]})
            facts.sync(tx, changed)
        drop: list[dict[str, Any]] = []
        update: list[dict[str, Any]] = []
        create: list[dict[str, Any]] = []
        for key in self.rels_changed:
            rel, old = self.rels[key], self.stored_rels.get(key)
            if old is not None and (rel is None or rel["id"] != old):
                drop.append({"a": key[0], "id": old})
            if rel is None or key[0] in self.deleted or key[1] in self.deleted:
                continue
            payload = {"a": key[0], "b": key[1], "type": key[2], "id": rel["id"], "props": R.dumps(rel["props"]),
                       "created": rel["created_at"], "ended": rel["ended_at"]}
            (update if rel["id"] == old else create).append(payload)
        if drop:
            # Reached from its start node: ()-[r:REL {id: i}]->() would read every relation of the graph.
            tx.write("UNWIND $rels AS p MATCH (:Entity {id: p.a})-[r:REL]->() WHERE r.id = p.id DELETE r",
                     {"rels": drop})
        if update:
            tx.write("UNWIND $rels AS p MATCH (:Entity {id: p.a})-[r:REL]->() WHERE r.id = p.id "
                     "SET r.props = p.props, r.ended_at = p.ended", {"rels": update})
        if create:
            tx.write("UNWIND $rels AS p MATCH (a:Entity {id: p.a}), (b:Entity {id: p.b}) "
                     "CREATE (a)-[:REL {id: p.id, type: p.type, props: p.props, created_at: p.created, "
                     "ended_at: p.ended}]->(b)", {"rels": sorted(create, key=lambda p: p["id"])})
        gone = sorted(self.deleted - self.created)
        if gone:
            tx.write("UNWIND $ids AS i MATCH (e:Entity {id: i}) DETACH DELETE e", {"ids": gone})
            tx.write("UNWIND $ids AS i MATCH (v:Vec {id: i}) DELETE v", {"ids": gone})
            facts.drop(tx, gone)
        stale = sorted(self.stale - self.deleted - self.created - self.changed)
        if stale:
            tx.write("UNWIND $ids AS i MATCH (e:Entity {id: i}) SET e.emb_model = null", {"ids": stale})


# -- the steps a batch write and an edit session share ------------------------------------------

def add_observations(w: Work, row: dict[str, Any], contents: Sequence[str]) -> list[str]:
    """Give ``row`` those of ``contents`` it has not (one change_log row); returns them."""
    known = set(row["obs"])
    added = [o for o in dict.fromkeys(contents) if o not in known]
    if added:
        row["obs"] = [*row["obs"], *added]
        row["obs_at"] = [*row["obs_at"], *([w.now] * len(added))]
        w.touch(row)
        w.record("add_observations", row["name"], None, added)
    return added


def take_observations(w: Work, row: dict[str, Any], contents: Sequence[str]) -> list[list[str]]:
    """Take ``contents`` off ``row`` (not logged); returns those that went as [content, created_at]."""
    wanted = set(contents)
    pairs = list(zip(row["obs"], row["obs_at"], strict=True))
    gone = [[o, t] for o, t in pairs if o in wanted]
    if gone:
        keep = [(o, t) for o, t in pairs if o not in wanted]
        row["obs"], row["obs_at"] = [o for o, _ in keep], [t for _, t in keep]
        w.touch(row)
    return gone


def delete_observations(w: Work, row: dict[str, Any], contents: Sequence[str]) -> int:
    """Take ``contents`` off ``row`` (one change_log row, with their times); returns how many went."""
    gone = take_observations(w, row, contents)
    if gone:
        w.record("delete_observations", row["name"], {"observations": gone})
    return len(gone)


def create_relation(w: Work, src: str, dst: str, rtype: str) -> bool:
    """Relate two existing entities unless they are already; True if it was created."""
    a, b = w.find(src), w.find(dst)
    assert a is not None and b is not None  # callers check the ends exist
    if w.relation(a, b, rtype) is not None:
        return False
    w.add_relation(a, b, rtype)
    graph_writes.log_created_relation(w.record, src, dst, rtype)
    return True

