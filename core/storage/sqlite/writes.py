"""Writing the SQLite graph: the official server's creates and deletes, Engrama's merges and
archive, and restoring a deleted entity.

Every write is one short transaction that also updates the full-text indexes (``touched.py``) and
change_log (``history.py``), so a reader never sees an entity without its index rows or a change
without its history. Inputs arrive validated (``core.memory`` does that); this layer enforces
existence and uniqueness. Editing one entity in place (rename, retype, Save, undo) is ``edits.py``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.graph_rules import (
    PLACEHOLDER_KEY,
    PLACEHOLDER_TYPE,
    by_name,
    contents_by_name,
    missing_ends,
    unique_relations,
)
from core.model import (
    AddedObservations,
    Entity,
    EntityInput,
    Node,
    ObservationDeletion,
    ObservationInput,
    Relation,
)
from core.storage.sqlite import fact_vectors, history, reads
from core.storage.sqlite import touched as touch
from core.storage.sqlite.database import Database
from core.storage.sqlite.reads import IDS
from core.storage.sqlite.vector_cache import VectorCache


class GraphWrites:
    """The writes of ``SqliteGraphStore`` (which provides ``db`` and the ``vector_cache`` that
    deletions drop vectors from)."""

    db: Database
    vector_cache: VectorCache

    def create_entities(
        self, entities: Sequence[EntityInput], actor: str
    ) -> tuple[list[Entity], list[AddedObservations]]:
        """Create new entities; merge observations into existing ones. Returns (created, merged)."""
        batch = by_name(entities)
        now = self.db.now()
        with self.db.write() as conn:
            existing = reads.ids_by_name(conn, list(batch))
            created: list[Entity] = []
            new_ids: list[int] = []
            obs_rows: list[tuple[int, str, str]] = []
            log: list[history.LogRow] = []
            filled = self._fill_placeholders(conn, existing, batch, actor, now)
            created.extend(filled)
            for name, (etype, obs) in batch.items():
                if name in existing:
                    continue
                eid = reads.inserted(conn.execute(
                    "INSERT INTO entities(name, entity_type, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    (name, etype, now, now),
                ))
                unique_obs = list(dict.fromkeys(obs))
                obs_rows.extend((eid, o, now) for o in unique_obs)
                new_ids.append(eid)
                created.append(Entity(name=name, entityType=etype, observations=unique_obs))
                # Creations log no payload: the rows carry their own created_at and contents.
                log.append((now, actor, "create_entity", name, None, None))
            conn.executemany(
                "INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)", obs_rows
            )
            touch.created(conn, new_ids)
            history.write(conn, log)
            merged = self._add_observations_locked(
                conn, [(existing[n], n, batch[n][1]) for n in batch if n in existing], actor, now
            )
        filled_names = {e.name for e in filled}
        return created, [m for m in merged if m.entityName not in filled_names]

    def _fill_placeholders(
        self, conn: Any, existing: dict[str, int], batch: dict[str, tuple[str, list[str]]], actor: str, now: str
    ) -> list[Entity]:
        """Existing placeholders among ``batch`` take the created type; they count as created."""
        if not existing:
            return []
        stubs = [(name, eid) for name, eid in conn.execute(
            f"SELECT name, id FROM entities WHERE id IN ({IDS}) AND json_extract(props, '$.{PLACEHOLDER_KEY}')",
            (json.dumps(list(existing.values())),))]
        filled: list[Entity] = []
        for name, eid in stubs:
            etype, obs = batch[name]
            old_type, old_props = conn.execute(
                "SELECT entity_type, props FROM entities WHERE id = ?", (eid,)).fetchone()
            conn.execute(
                f"UPDATE entities SET entity_type = ?, props = json_remove(props, '$.{PLACEHOLDER_KEY}'), "
                "updated_at = ? WHERE id = ?", (etype, now, eid))
            history.write(conn, [(now, actor, "update_entity", name,
                                  history.dumps({"entityType": old_type, "props": json.loads(old_props)}),
                                  history.dumps({"entityType": etype, "props": {}}))])
            touch.changed(conn, [eid])
            have = reads.observations_of(conn, [eid])[eid]
            filled.append(Entity(name=name, entityType=etype, observations=list(dict.fromkeys([*have, *obs]))))
        return filled

    def add_observations(self, items: Sequence[ObservationInput], actor: str) -> list[AddedObservations]:
        """Add observations to existing entities; unknown entity → NotFound, nothing changed."""
        now = self.db.now()
        with self.db.write() as conn:
            ids = reads.ids_by_name(conn, [i.entityName for i in items])
            merged = contents_by_name(items, ids)
            return self._add_observations_locked(conn, [(ids[n], n, obs) for n, obs in merged.items()], actor, now)

    def _add_observations_locked(
        self, conn: Any, targets: list[tuple[int, str, list[str]]], actor: str, now: str
    ) -> list[AddedObservations]:
        if not targets:
            return []
        results: list[AddedObservations] = []
        rows: list[tuple[int, str, str]] = []
        log: list[history.LogRow] = []
        touched: list[int] = []
        for eid, name, obs in targets:
            # Only the texts being added are looked up (the unique index): no work per existing fact
            known = {r[0] for r in conn.execute(
                "SELECT content FROM observations WHERE entity_id = ? AND content IN (SELECT value FROM json_each(?))",
                (eid, json.dumps(list(dict.fromkeys(obs)), ensure_ascii=False)))}
            added = [o for o in dict.fromkeys(obs) if o not in known]
            results.append(AddedObservations(entityName=name, addedObservations=added))
            if added:
                rows.extend((eid, o, now) for o in added)
                touched.append(eid)
                log.append((now, actor, "add_observations", name, None, history.dumps(added)))
        if rows:
            conn.executemany(
                "INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)", rows
            )
            conn.execute(
                f"UPDATE entities SET updated_at = ? WHERE id IN ({IDS})", (now, json.dumps(touched))
            )
            per_entity: dict[int, int] = {}
            for eid, _, _ in rows:
                per_entity[eid] = per_entity.get(eid, 0) + 1
            touch.facts_changed(conn, touched, per_entity)
            history.write(conn, log)
        return results

    def delete_entities(self, names: Sequence[str], actor: str) -> int:
        """Delete entities with their observations, relations, vectors and index rows.

        Unknown names are ignored, as the official server does. Returns how many were deleted.
        """
        now = self.db.now()
        with self.db.write() as conn:
            ids = reads.ids_by_name(conn, names)
            if not ids:
                return 0
            id_list = list(ids.values())
            snaps = history.entity_snapshots(conn, id_list)
            touch.deleting(conn, id_list, self.vector_cache)
            for chunk in reads.id_chunks(id_list):
                conn.execute(f"DELETE FROM entities WHERE id IN ({IDS})", (chunk,))
            touch.deleted(conn)
            history.write(conn, [
                (now, actor, "delete_entity", s["name"], history.dumps(s), None) for s in snaps.values()
            ])
            return len(id_list)

    def delete_observations(self, items: Sequence[ObservationDeletion], actor: str) -> int:
        """Remove the given observations; unknown entities or texts are ignored. Returns count."""
        now = self.db.now()
        with self.db.write() as conn:
            ids = reads.ids_by_name(conn, [i.entityName for i in items])
            removed = 0
            touched: list[int] = []
            log: list[history.LogRow] = []
            for item in items:
                eid = ids.get(item.entityName)
                if eid is None or not item.observations:
                    continue
                wanted = json.dumps(list(dict.fromkeys(item.observations)))
                gone = conn.execute(
                    "DELETE FROM observations WHERE entity_id = ? AND content IN "
                    "(SELECT value FROM json_each(?)) RETURNING content, created_at",
                    (eid, wanted),
                ).fetchall()
                if gone:
                    removed += len(gone)
                    touched.append(eid)
                    log.append((now, actor, "delete_observations", item.entityName,
                                history.dumps({"observations": [list(g) for g in gone]}), None))
            if touched:
                conn.execute(
                    f"UPDATE entities SET updated_at = ? WHERE id IN ({IDS})", (now, json.dumps(touched))
                )
                touch.facts_changed(conn, touched)
                history.write(conn, log)
            return removed

    def create_relations(
        self, relations: Sequence[Relation], actor: str, *, placeholders: bool = True
    ) -> list[Relation]:
        """Create relations; returns only the new ones. An end that does not exist yet becomes a
        placeholder entity (type ``Unknown``) that a later create_entities fills in, as the official
        server keeps relations whose ends are missing; ``placeholders=False`` refuses it (NotFound)."""
        now = self.db.now()
        with self.db.write() as conn:
            ids = reads.ids_by_name(conn, [n for r in relations for n in (r.from_, r.to)])
            created: list[Relation] = []
            log: list[history.LogRow] = []
            missing = missing_ends(relations, ids, placeholders=placeholders)
            for name in missing:
                ids[name] = reads.inserted(conn.execute(
                    "INSERT INTO entities(name, entity_type, props, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (name, PLACEHOLDER_TYPE, json.dumps({PLACEHOLDER_KEY: True}), now, now)))
                log.append((now, actor, "create_entity", name, None,
                            history.dumps({"entityType": PLACEHOLDER_TYPE, "props": {PLACEHOLDER_KEY: True}})))
            touch.created(conn, [ids[n] for n in missing])
            ends: list[int] = []
            for r in unique_relations(relations):
                cur = conn.execute(
                    "INSERT INTO relations(from_entity, to_entity, relation_type, created_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (ids[r.from_], ids[r.to], r.relationType, now),
                )
                if cur.rowcount:
                    created.append(r)
                    ends += [ids[r.from_], ids[r.to]]
                    log.append((now, actor, "create_relation", r.from_, None,
                                history.dumps([r.to, r.relationType])))
            touch.relinked(conn, ends)  # once for the batch
            history.write(conn, log)
            return created

    def delete_relations(self, relations: Sequence[Relation], actor: str) -> int:
        """Delete the given relations; ones that do not exist are ignored. Returns count."""
        now = self.db.now()
        with self.db.write() as conn:
            ids = reads.ids_by_name(conn, [n for r in relations for n in (r.from_, r.to)])
            log: list[history.LogRow] = []
            for r in unique_relations(relations):
                if r.from_ not in ids or r.to not in ids:
                    continue
                gone = conn.execute(
                    "DELETE FROM relations WHERE from_entity = ? AND to_entity = ? AND relation_type = ? "
                    "RETURNING props, created_at, ended_at",
                    (ids[r.from_], ids[r.to], r.relationType),
                ).fetchone()
                if gone:
                    touch.relinked(conn, [ids[r.from_], ids[r.to]])
                    snap = {**r.dump(), "props": json.loads(gone[0]), "created_at": gone[1],
                            "ended_at": gone[2]}
                    log.append((now, actor, "delete_relation", r.from_, history.dumps(snap), None))
            history.write(conn, log)
            return len(log)

    def merge_node(self, label: str, name: str, props: dict[str, Any], actor: str) -> Node:
        """Create the node or merge ``props`` into it (JSON merge patch: ``None`` removes a key).

        ``created_at`` is kept, ``updated_at`` moves only when something changed.
        """
        now = self.db.now()
        patch = json.dumps(props, ensure_ascii=False)
        with self.db.write() as conn:
            row = conn.execute(
                "SELECT id, entity_type, props FROM entities WHERE name = ?", (name,)
            ).fetchone()
            if row is None:
                eid = reads.inserted(conn.execute(
                    "INSERT INTO entities(name, entity_type, props, created_at, updated_at) "
                    "VALUES (?, ?, json_patch('{}', ?), ?, ?)",
                    (name, label, patch, now, now),
                ))
                touch.created(conn, [eid])
                history.write(conn, [(now, actor, "create_entity", name, None,
                                      history.dumps({"entityType": label, "props": props}))])
            else:
                eid, old_label, old_props = row
                new_props = conn.execute("SELECT json_patch(?, ?)", (old_props, patch)).fetchone()[0]
                if new_props != old_props or old_label != label:
                    conn.execute(
                        "UPDATE entities SET entity_type = ?, props = ?, updated_at = ? WHERE id = ?",
                        (label, new_props, now, eid),
                    )
                    if old_label != label:  # its facts are embedded after its type
                        fact_vectors.due_of(conn, [eid])
                    touch.changed(conn, [eid])
                    history.write(conn, [(
                        now, actor, "update_entity", name,
                        history.dumps({"entityType": old_label, "props": json.loads(old_props)}),
                        history.dumps({"entityType": label, "props": json.loads(new_props)}),
                    )])
            return reads.nodes(conn, [eid])[0]

    def archive_node(self, name: str, actor: str) -> bool:
        """Mark the node archived (kept and readable, left out of searches). Idempotent."""
        now = self.db.now()
        with self.db.write() as conn:
            row = conn.execute("SELECT archived_at FROM entities WHERE name = ?", (name,)).fetchone()
            if row is None:
                return False
            if row[0] is None:
                conn.execute("UPDATE entities SET archived_at = ?, updated_at = ? WHERE name = ?",
                             (now, now, name))
                history.write(conn, [(now, actor, "archive_entity", name, None, None)])
            return True

    def merge_relation(
        self, from_name: str, rel_type: str, to_name: str, props: dict[str, Any] | None, actor: str
    ) -> tuple[Relation, bool]:
        """Create the relation if missing (props merged if present). Returns (relation, created)."""
        rel = Relation(**{"from": from_name, "to": to_name, "relationType": rel_type})
        with self.db.write() as conn:
            created = bool(self.create_relations([rel], actor, placeholders=False))
            if props:
                conn.execute(
                    "UPDATE relations SET props = json_patch(props, ?) WHERE from_entity = "
                    "(SELECT id FROM entities WHERE name = ?) AND to_entity = "
                    "(SELECT id FROM entities WHERE name = ?) AND relation_type = ?",
                    (json.dumps(props, ensure_ascii=False), from_name, to_name, rel_type),
                )
            return rel, created
