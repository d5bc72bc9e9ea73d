"""SqliteGraphStore: the knowledge graph in one SQLite file.

Every write is one short transaction that also updates the full-text indexes and change_log, so
a reader never sees an entity without its index rows or a change without its history. Inputs
arrive validated (``core.memory`` does that); this layer enforces existence and uniqueness.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.errors import Conflict, InvalidInput, NotFound, StorageError
from core.model import (
    AddedObservations,
    Entity,
    EntityInput,
    GraphOverview,
    KnowledgeGraph,
    Neighbour,
    Node,
    NodeWithNeighbours,
    ObservationDeletion,
    ObservationInput,
    Relation,
    ScoredNode,
)
from core.search.folding import content_words, fold, fts_phrase
from core.storage.sqlite import activity as activity_log
from core.storage.sqlite import backups, edits, embedding_state, history, imports, indexing, overview, reads
from core.storage.sqlite import touched as touch
from core.storage.sqlite.connection import DatabaseError, atomic, forget
from core.storage.sqlite.integrity import IntegrityGate, damaged_message
from core.storage.sqlite.reads import IDS
from core.storage.sqlite.schema import SCHEMA_VERSION, open_database, open_database_read_only
from core.storage.sqlite.vector_cache import VectorCache

Clock = Callable[[], datetime]
log = logging.getLogger(__name__)
MAX_HOPS = 3
RANK_AT_MOST = 2000


# A relation end that does not exist yet: an entity of this type, marked in its properties.
PLACEHOLDER_TYPE = "Unknown"
PLACEHOLDER_KEY = "placeholder"


def _unique(relations: Sequence[Relation]) -> list[Relation]:
    """``relations`` without repeats (same from, to and type), first occurrence kept."""
    seen: dict[tuple[str, str, str], Relation] = {}
    for r in relations:
        seen.setdefault(r.key(), r)
    return list(seen.values())


def utc_now() -> datetime:
    return datetime.now(UTC)


def format_ts(moment: datetime) -> str:
    """ISO-8601 UTC with milliseconds: sorts correctly as text."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class SqliteGraphStore:
    """The default GraphStore. Thread-safe: one connection, one lock, short transactions."""

    backend = "sqlite"

    def __init__(self, path: Path | str, *, clock: Clock = utc_now, read_only: bool = False,
                 backup_keep: int = backups.KEEP) -> None:
        self.path = str(path)
        self._clock = clock
        self._lock = threading.RLock()
        self.read_only = read_only
        self.backup_keep = 0 if read_only else backup_keep
        self._conn = (open_database_read_only(self.path) if read_only
                      else open_database(self.path, backup_keep=backup_keep))
        self._totals_cache: tuple[tuple[int, int], tuple[int, int]] | None = None
        self.vector_cache = VectorCache()  # searched by SqliteVecStore; kept here for deletions
        # quick_check on a thread of its own; writes wait for it, and are refused if it finds damage
        self.integrity: IntegrityGate | None = None if self.path == ":memory:" else IntegrityGate(
            self._conn, self.path, self._lock, after_healthy=self._daily_backup, read_only=read_only)
        if not read_only and self.path != ":memory:":
            imports.recover(self)  # an import whose process died mid-way is rolled back

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        if self.integrity is not None:  # outside the lock: the daily backup after the check takes it
            self.integrity.close()
            self.integrity.join(30)
        with self._lock:
            forget(self._conn)
            self._conn.close()

    def salvage(self) -> dict[str, Any]:
        """What can still be read from a damaged file, in the official JSON shape (see salvage.py)."""
        from core.storage.sqlite.salvage import salvage

        with self._lock:
            return salvage(self._conn)

    @property
    def damage(self) -> str | None:
        """What the integrity check found wrong with the file (None: healthy, or not checked yet)."""
        return self.integrity.damage if self.integrity is not None else None

    def refuse_if_damaged(self) -> None:
        """Wait for the integrity check; raise ``StorageError`` (naming the newest backup) if the
        file is damaged."""
        if self.integrity is not None:
            self.integrity.wait()
            if self.integrity.message is not None:
                raise StorageError(self.integrity.message)

    def _daily_backup(self) -> None:
        if self.backup_keep > 0 and backups.daily_backup_due(Path(self.path)) and self._has_entities():
            made = backups.make_backup(Path(self.path), "daily", keep=self.backup_keep)
            log.info("Daily backup of %s: %s", self.path, made)

    def _has_entities(self) -> bool:
        with self._lock:
            return self._conn.execute("SELECT EXISTS (SELECT 1 FROM entities)").fetchone()[0] == 1

    def auto_backup(self, reason: str) -> Path | None:
        """A backup before a risky step (an import), kept with the automatic ones; None when the
        memory is empty or automatic backups are off. A damaged file is refused instead."""
        self.refuse_if_damaged()
        if self.backup_keep <= 0 or self.path == ":memory:" or not self._has_entities():
            return None
        return backups.make_backup(Path(self.path), reason, keep=self.backup_keep)

    def now(self) -> str:
        return format_ts(self._clock())

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Group several calls into one all-or-nothing transaction (e.g. one imported file).

        Other threads wait for it to finish; calls inside it join it as savepoints. Inside
        ``importing()`` it groups nothing: the import's writes land in short transactions and the
        import as a whole is undone by its id instead (see imports.py).
        """
        if getattr(history.current_import, "id", None) is not None:
            with self._lock:
                chunked = not self._conn.in_transaction  # not inside a preview's real transaction
            if chunked:
                yield
                return
        with self._lock, atomic(self._conn):
            yield

    @contextlib.contextmanager
    def importing(self, source: str, actor: str) -> Iterator[str | None]:
        """One import as a unit without one long transaction: its writes are short transactions
        tagged with an id, and if anything inside raises (a refused file, a cancel, a crash found
        at the next open) everything it wrote is rolled back by that id. Yields the id (None when
        already inside a transaction, which then keeps its all-or-nothing meaning)."""
        current = getattr(history.current_import, "id", None)
        if current is not None:
            yield current  # a file of a larger import: the outer unit decides
            return
        with self._lock:
            in_transaction = self._conn.in_transaction
        if in_transaction:  # e.g. a preview that will roll everything back anyway
            with self.transaction():
                yield None
            return
        with self._lock:  # every use of the connection holds the lock (the integrity gate counts on it)
            import_id = imports.begin(self._conn, source, self.now())
        history.current_import.id = import_id
        try:
            yield import_id
        except BaseException:
            history.current_import.id = None
            imports.rollback(self, import_id, actor)
            raise
        finally:
            history.current_import.id = None
        with self._lock:
            imports.finish(self._conn, import_id)

    def backup(self, dest: Path | None = None) -> Path:
        """Write a consistent copy of the database to ``dest`` (default: a new file in the
        backups folder) while it stays in use."""
        return backups.make_backup(Path(self.path), "manual", keep=max(self.backup_keep, 1), dest=dest,
                                   read_only=self.read_only)

    # -- the official memory server's operations ---------------------------------------------

    def create_entities(
        self, entities: Sequence[EntityInput], actor: str
    ) -> tuple[list[Entity], list[AddedObservations]]:
        """Create new entities; merge observations into existing ones. Returns (created, merged)."""
        batch: dict[str, tuple[str, list[str]]] = {}
        for e in entities:  # one name twice in a batch: the first's type, both's observations
            etype, obs = batch.setdefault(e.name, (e.entityType, []))
            obs.extend(e.observations)
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
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
                eid = conn.execute(
                    "INSERT INTO entities(name, entity_type, created_at, updated_at) VALUES (?, ?, ?, ?)",
                    (name, etype, now, now),
                ).lastrowid
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
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
            ids = reads.ids_by_name(conn, [i.entityName for i in items])
            missing = [i.entityName for i in items if i.entityName not in ids]
            if missing:
                raise NotFound(
                    f"Entity {missing[0]!r} does not exist; create it with create_entities first. "
                    "No observations were added."
                )
            merged: dict[str, list[str]] = {}
            for i in items:
                merged.setdefault(i.entityName, []).extend(i.contents)
            return self._add_observations_locked(
                conn, [(ids[n], n, obs) for n, obs in merged.items()], actor, now
            )

    def _add_observations_locked(
        self, conn: Any, targets: list[tuple[int, str, list[str]]], actor: str, now: str
    ) -> list[AddedObservations]:
        if not targets:
            return []
        have = reads.observations_of(conn, [t[0] for t in targets])
        results: list[AddedObservations] = []
        rows: list[tuple[int, str, str]] = []
        log: list[history.LogRow] = []
        touched: list[int] = []
        for eid, name, obs in targets:
            known = set(have[eid])
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
            touch.changed(conn, touched)
            history.write(conn, log)
        return results

    def delete_entities(self, names: Sequence[str], actor: str) -> int:
        """Delete entities with their observations, relations, vectors and index rows.

        Unknown names are ignored, as the official server does. Returns how many were deleted.
        """
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
            ids = reads.ids_by_name(conn, names)
            if not ids:
                return 0
            id_list = list(ids.values())
            snaps = history.entity_snapshots(conn, id_list)
            touch.deleting(conn, id_list, self.vector_cache)
            for chunk in reads.id_chunks(id_list):
                conn.execute(f"DELETE FROM entities WHERE id IN ({IDS})", (chunk,))
            history.write(conn, [
                (now, actor, "delete_entity", s["name"], history.dumps(s), None) for s in snaps.values()
            ])
            return len(id_list)

    def delete_observations(self, items: Sequence[ObservationDeletion], actor: str) -> int:
        """Remove the given observations; unknown entities or texts are ignored. Returns count."""
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
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
                touch.changed(conn, touched)
                history.write(conn, log)
            return removed

    def create_relations(
        self, relations: Sequence[Relation], actor: str, *, placeholders: bool = True
    ) -> list[Relation]:
        """Create relations; returns only the new ones. An end that does not exist yet becomes a
        placeholder entity (type ``Unknown``) that a later create_entities fills in, as the official
        server keeps relations whose ends are missing; ``placeholders=False`` refuses it (NotFound)."""
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
            ids = reads.ids_by_name(conn, [n for r in relations for n in (r.from_, r.to)])
            created: list[Relation] = []
            log: list[history.LogRow] = []
            missing = [n for n in dict.fromkeys(n for r in relations for n in (r.from_, r.to)) if n not in ids]
            if missing and not placeholders:
                r = next(r for r in relations if missing[0] in (r.from_, r.to))
                raise NotFound(
                    f"Entity {missing[0]!r} (in relation {r.from_!r} -{r.relationType}-> {r.to!r}) "
                    "does not exist; create it first. No relations were created."
                )
            for name in missing:
                ids[name] = conn.execute(
                    "INSERT INTO entities(name, entity_type, props, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                    (name, PLACEHOLDER_TYPE, json.dumps({PLACEHOLDER_KEY: True}), now, now)).lastrowid
                log.append((now, actor, "create_entity", name, None,
                            history.dumps({"entityType": PLACEHOLDER_TYPE, "props": {PLACEHOLDER_KEY: True}})))
            touch.created(conn, [ids[n] for n in missing])
            for r in _unique(relations):
                cur = conn.execute(
                    "INSERT INTO relations(from_entity, to_entity, relation_type, created_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (ids[r.from_], ids[r.to], r.relationType, now),
                )
                if cur.rowcount:
                    created.append(r)
                    touch.relinked(conn, [ids[r.from_], ids[r.to]])
                    log.append((now, actor, "create_relation", r.from_, None,
                                history.dumps([r.to, r.relationType])))
            history.write(conn, log)
            return created

    def delete_relations(self, relations: Sequence[Relation], actor: str) -> int:
        """Delete the given relations; ones that do not exist are ignored. Returns count."""
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
            ids = reads.ids_by_name(conn, [n for r in relations for n in (r.from_, r.to)])
            log: list[history.LogRow] = []
            for r in _unique(relations):
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

    def read_graph(
        self, *, limit: int | None = None, offset: int = 0, names_only: bool = False
    ) -> KnowledgeGraph:
        """The whole graph, or one page of it (entities by creation order).

        Archived entities (soft-deleted ones, insights awaiting review) are left out, with the
        relations that touch them; ``open_nodes`` and ``get_node`` still return them by name.
        """
        live = "SELECT id FROM entities WHERE archived_at IS NULL ORDER BY id"
        with self._lock:
            conn = self._conn
            if limit is None and offset == 0 and not names_only:
                whole = reads.whole_graph(conn)
                return KnowledgeGraph(
                    entities=[Entity.model_construct(**e) for e in whole["entities"]],
                    relations=[reads.relation(r["from"], r["to"], r["relationType"]) for r in whole["relations"]],
                )
            ids = [r[0] for r in conn.execute(f"{live} LIMIT ? OFFSET ?", (-1 if limit is None else limit, offset))]
            total_e, total_r = self._totals()
            if names_only:
                return KnowledgeGraph(entities=reads.summaries(conn, ids), relations=[],
                                      total_entities=total_e, total_relations=total_r)
            return KnowledgeGraph(entities=reads.entities(conn, ids),
                                  relations=reads.relations_from(conn, ids),
                                  total_entities=total_e, total_relations=total_r)

    def read_graph_dump(
        self, *, limit: int | None = None, offset: int = 0, names_only: bool = False
    ) -> dict[str, Any]:
        """``read_graph(...).dump()``, built without models when the whole graph is asked for."""
        if limit is None and offset == 0 and not names_only:
            with self._lock:
                return reads.whole_graph(self._conn)
        if names_only:
            with self._lock:
                total_e, total_r = self._totals()
                rows = self._conn.execute(
                    "SELECT name, entity_type FROM entities WHERE archived_at IS NULL ORDER BY id "
                    "LIMIT ? OFFSET ?", (-1 if limit is None else limit, offset)).fetchall()
            return {"entities": [{"name": n, "entityType": t} for n, t in rows], "relations": [],
                    "total_entities": total_e, "total_relations": total_r}
        return self.read_graph(limit=limit, offset=offset, names_only=names_only).dump()

    def iter_relations(self, page: int = 5000) -> Iterator[tuple[Relation, dict[str, Any]]]:
        """Every current relation with its properties, archived ends included, oldest first
        (for exports; read in pages so the lock is never held for long)."""
        last = 0
        while True:
            with self._lock:
                rows = self._conn.execute(
                    "SELECT r.id, f.name, t.name, r.relation_type, r.props FROM relations r "
                    "JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity "
                    "WHERE r.id > ? AND r.ended_at IS NULL ORDER BY r.id LIMIT ?", (last, page)).fetchall()
            if not rows:
                return
            for _, src, dst, rtype, props in rows:
                yield Relation(**{"from": src, "to": dst, "relationType": rtype}), json.loads(props)
            last = rows[-1][0]

    def _totals(self) -> tuple[int, int]:
        """(live entities, current relations between them), cached until any connection writes.

        Counting 200k relations costs milliseconds; paging through a graph asks on every page.
        """
        conn = self._conn
        version = (conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes)
        if self._totals_cache is None or self._totals_cache[0] != version:
            entities = conn.execute("SELECT count(*) FROM entities WHERE archived_at IS NULL").fetchone()[0]
            relations = conn.execute(
                "SELECT count(*) FROM relations r JOIN entities f ON f.id = r.from_entity "
                "JOIN entities t ON t.id = r.to_entity WHERE r.ended_at IS NULL "
                "AND f.archived_at IS NULL AND t.archived_at IS NULL").fetchone()[0]
            self._totals_cache = (version, (entities, relations))
        return self._totals_cache[1]

    def search_nodes(
        self, query: str, *, limit: int | None = None, include_archived: bool = False
    ) -> KnowledgeGraph:
        """Case-, accent- and Unicode-form-insensitive substring search over name, type and
        observations; every character of ``query`` is literal. Relations touching a hit come too."""
        found = self.search_nodes_dump(query, limit=limit, include_archived=include_archived)
        return KnowledgeGraph(
            entities=[Entity.model_construct(**e) for e in found["entities"]],
            relations=[reads.relation(r["from"], r["to"], r["relationType"]) for r in found["relations"]],
        )

    def search_nodes_dump(
        self, query: str, *, limit: int | None = None, include_archived: bool = False
    ) -> dict[str, Any]:
        """``search_nodes(...).dump()``, built without models (a broad word matches thousands)."""
        ids = self._substring_ids(fold(query), limit, include_archived)
        with self._lock:
            return {"entities": reads.entity_dicts(self._conn, ids),
                    "relations": reads.relation_dicts_touching(self._conn, ids)}

    def _substring_ids(self, needle: str, limit: int | None, include_archived: bool) -> list[int]:
        archived = "" if include_archived else " AND e.archived_at IS NULL"
        if indexing.SEPARATOR in needle:  # could span two stored fields: confirm field by field
            return self._substring_ids_by_field(needle, limit, archived)
        # instr() over the stored folded text confirms each candidate exactly, in C.
        confirm = f"instr(f.text, :needle) > 0{archived} ORDER BY f.entity_id LIMIT :limit"
        args = {"needle": needle, "limit": -1 if limit is None else limit}
        with self._lock:
            if len(needle) >= 3:
                # The trigram index (detail=none) yields the entities holding trigrams that cover
                # the needle; instr() removes its false positives.
                args["match"] = " AND ".join(fts_phrase(g) for g in self._covering_trigrams(needle))
                sql = ("SELECT f.entity_id FROM entity_substr s JOIN entity_folded f ON f.entity_id = s.rowid "
                       "JOIN entities e ON e.id = s.rowid WHERE entity_substr MATCH :match AND ")
            else:  # too short for trigrams: scan (1–2 characters match nearly everything anyway)
                sql = "SELECT f.entity_id FROM entity_folded f JOIN entities e ON e.id = f.entity_id WHERE "
            return [r[0] for r in self._conn.execute(sql + confirm, args)]

    def _substring_ids_by_field(self, needle: str, limit: int | None, archived: str) -> list[int]:
        """The slow, exact path for a needle holding the field separator: fold field by field."""
        hits: list[int] = []
        with self._lock:
            conn = self._conn
            candidates = [r[0] for r in conn.execute(f"SELECT e.id FROM entities e WHERE 1{archived} ORDER BY e.id")]
            for start in range(0, len(candidates), 2000):
                chunk = candidates[start : start + 2000]
                texts = {eid: [fold(name), fold(etype)] for eid, name, etype in conn.execute(
                    f"SELECT id, name, entity_type FROM entities WHERE id IN ({IDS})",
                    (json.dumps(chunk),))}
                for eid, obs in reads.observations_of(conn, chunk).items():
                    texts[eid].extend(fold(o) for o in obs)
                for eid in chunk:
                    if any(needle in t for t in texts[eid]):
                        hits.append(eid)
                        if limit is not None and len(hits) >= limit:
                            return hits
        return hits

    @staticmethod
    def _covering_trigrams(needle: str, cap: int = 16) -> list[str]:
        """Non-overlapping trigrams that cover ``needle`` (plus its last one), at most ``cap``.

        Every trigram costs a read of its whole posting list, and overlapping ones add almost no
        filtering, so a covering set is as selective as all of them at a third of the cost.
        """
        starts = list(range(0, len(needle) - 2, 3))
        if starts[-1] != len(needle) - 3:
            starts.append(len(needle) - 3)
        if len(starts) > cap:
            step = len(starts) / cap
            starts = [starts[int(i * step)] for i in range(cap)]
        return list(dict.fromkeys(needle[i : i + 3] for i in starts))

    def open_nodes(self, names: Sequence[str]) -> KnowledgeGraph:
        """The named entities (unknown names ignored) and the relations touching them."""
        with self._lock:
            found = reads.ids_by_name(self._conn, names)
            ids = [found[n] for n in dict.fromkeys(names) if n in found]
            return KnowledgeGraph(entities=reads.entities(self._conn, ids),
                                  relations=reads.relations_touching(self._conn, ids))

    # -- Engrama's GraphStore contract -------------------------------------------------------

    def merge_node(self, label: str, name: str, props: dict[str, Any], actor: str) -> Node:
        """Create the node or merge ``props`` into it (JSON merge patch: ``None`` removes a key).

        ``created_at`` is kept, ``updated_at`` moves only when something changed.
        """
        now = self.now()
        patch = json.dumps(props, ensure_ascii=False)
        with self._lock, atomic(self._conn) as conn:
            row = conn.execute(
                "SELECT id, entity_type, props FROM entities WHERE name = ?", (name,)
            ).fetchone()
            if row is None:
                eid = conn.execute(
                    "INSERT INTO entities(name, entity_type, props, created_at, updated_at) "
                    "VALUES (?, ?, json_patch('{}', ?), ?, ?)",
                    (name, label, patch, now, now),
                ).lastrowid
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
                    touch.changed(conn, [eid])
                    history.write(conn, [(
                        now, actor, "update_entity", name,
                        history.dumps({"entityType": old_label, "props": json.loads(old_props)}),
                        history.dumps({"entityType": label, "props": json.loads(new_props)}),
                    )])
            return reads.nodes(conn, [eid])[0]

    def get_node(self, name: str) -> Node | None:
        """The node called ``name``, archived or not; ``None`` if there is none."""
        with self._lock:
            ids = reads.ids_by_name(self._conn, [name])
            return reads.nodes(self._conn, [ids[name]])[0] if ids else None

    def delete_node(self, name: str, actor: str, *, soft: bool = True) -> bool:
        """Soft delete (archive: still readable) or hard delete. False if there is no such node."""
        if not soft:
            return self.delete_entities([name], actor) == 1
        return self.archive_node(name, actor)

    def archive_node(self, name: str, actor: str) -> bool:
        """Mark the node archived (kept and readable, left out of searches). Idempotent."""
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
            row = conn.execute("SELECT archived_at FROM entities WHERE name = ?", (name,)).fetchone()
            if row is None:
                return False
            if row[0] is None:
                conn.execute("UPDATE entities SET archived_at = ?, updated_at = ? WHERE name = ?",
                             (now, now, name))
                history.write(conn, [(now, actor, "archive_entity", name, None, None)])
            return True

    def list_nodes(
        self, *, label: str | None = None, include_archived: bool = False,
        limit: int | None = None, offset: int = 0,
    ) -> list[Node]:
        where = ["1"]
        args: list[Any] = []
        if label is not None:
            where.append("entity_type = ?")
            args.append(label)
        if not include_archived:
            where.append("archived_at IS NULL")
        args += [-1 if limit is None else limit, offset]
        with self._lock:
            ids = [r[0] for r in self._conn.execute(
                f"SELECT id FROM entities WHERE {' AND '.join(where)} ORDER BY id LIMIT ? OFFSET ?", args)]
            return reads.nodes(self._conn, ids)

    def merge_relation(
        self, from_name: str, rel_type: str, to_name: str, props: dict[str, Any] | None, actor: str
    ) -> tuple[Relation, bool]:
        """Create the relation if missing (props merged if present). Returns (relation, created)."""
        rel = Relation(**{"from": from_name, "to": to_name, "relationType": rel_type})
        with self._lock, atomic(self._conn) as conn:
            created = bool(self.create_relations([rel], actor, placeholders=False))
            if props:
                conn.execute(
                    "UPDATE relations SET props = json_patch(props, ?) WHERE from_entity = "
                    "(SELECT id FROM entities WHERE name = ?) AND to_entity = "
                    "(SELECT id FROM entities WHERE name = ?) AND relation_type = ?",
                    (json.dumps(props, ensure_ascii=False), from_name, to_name, rel_type),
                )
            return rel, created

    def get_neighbours(
        self, name: str, hops: int = 1, *, rel_types: Sequence[str] | None = None
    ) -> list[Neighbour]:
        """Nodes within ``hops`` (1–3) relations of ``name``, either direction, nearest first.

        Each neighbour carries its distance and the relation types along one shortest path.
        """
        if not 1 <= hops <= MAX_HOPS:
            raise InvalidInput(f"hops must be between 1 and {MAX_HOPS}, got {hops}")
        types = json.dumps(list(rel_types)) if rel_types else None
        with self._lock:
            conn = self._conn
            start = reads.ids_by_name(conn, [name]).get(name)
            if start is None:
                raise NotFound(f"Entity {name!r} does not exist.")
            # Two recursive terms (out-edges, in-edges) so each uses its own index; UNION keeps
            # (id, depth) pairs unique, which bounds the walk by nodes × hops, not by paths.
            depth = dict(conn.execute(
                """
                WITH RECURSIVE walk(id, depth) AS (
                    SELECT :start, 0
                    UNION
                    SELECT r.to_entity, w.depth + 1 FROM walk w
                      JOIN relations r ON r.from_entity = w.id
                     WHERE w.depth < :hops AND r.ended_at IS NULL
                       AND (:types IS NULL OR r.relation_type IN (SELECT value FROM json_each(:types)))
                    UNION
                    SELECT r.from_entity, w.depth + 1 FROM walk w
                      JOIN relations r ON r.to_entity = w.id
                     WHERE w.depth < :hops AND r.ended_at IS NULL
                       AND (:types IS NULL OR r.relation_type IN (SELECT value FROM json_each(:types)))
                )
                SELECT id, min(depth) FROM walk GROUP BY id
                """,
                {"start": start, "hops": hops, "types": types},
            ).fetchall())
            paths = self._shortest_paths(start, depth, types)
            order = sorted((d, i) for i, d in depth.items() if i != start)
            by_id = {n.id: n for n in reads.nodes(conn, [i for _, i in order])}
            return [Neighbour(node=by_id[i], distance=d, path=paths.get(i, [])) for d, i in order]

    def _shortest_paths(self, start: int, depth: dict[int, int], types: str | None) -> dict[int, list[str]]:
        """Relation types along one shortest path from ``start`` to each node in ``depth``."""
        edges: dict[int, list[tuple[int, str]]] = {}
        for src, dst, rtype in self._conn.execute(
            f"SELECT from_entity, to_entity, relation_type FROM relations WHERE from_entity IN ({IDS}) "
            f"AND to_entity IN ({IDS}) AND ended_at IS NULL "
            "AND (? IS NULL OR relation_type IN (SELECT value FROM json_each(?)))",
            (json.dumps(list(depth)), json.dumps(list(depth)), types, types),
        ):
            edges.setdefault(src, []).append((dst, rtype))
            edges.setdefault(dst, []).append((src, rtype))
        paths: dict[int, list[str]] = {start: []}
        frontier = [start]
        while frontier:
            nxt = []
            for node in frontier:
                for other, rtype in edges.get(node, []):
                    if other not in paths and depth.get(other) == depth[node] + 1:
                        paths[other] = [*paths[node], rtype]
                        nxt.append(other)
            frontier = nxt
        return paths

    def get_node_with_neighbours(self, name: str, hops: int = 1) -> NodeWithNeighbours:
        """A node, its neighbours within ``hops``, and the relations among all of them."""
        with self._lock:
            node = self.get_node(name)
            if node is None:
                raise NotFound(f"Entity {name!r} does not exist.")
            neighbours = self.get_neighbours(name, hops)
            ids = {node.id, *(n.node.id for n in neighbours)}
            names = {node.name, *(n.node.name for n in neighbours)}
            rels = [r for r in reads.relations_touching(self._conn, list(ids))
                    if r.from_ in names and r.to in names]
            return NodeWithNeighbours(node=node, neighbours=neighbours, relations=rels)

    def lookup_node_label(self, name: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT entity_type FROM entities WHERE name = ?", (name,)).fetchone()
            return row[0] if row else None

    def fulltext_search(
        self, query: str, *, limit: int = 10, label: str | None = None, include_archived: bool = False
    ) -> list[ScoredNode]:
        """Whole-word search ranked by BM25 (name weighted highest); operators are literal."""
        with self._lock:
            match = self._words_match(query)
        if match is None:
            return []
        where = "" if include_archived else " AND e.archived_at IS NULL"
        args: list[Any] = [match]
        if label is not None:
            where += " AND e.entity_type = ?"
            args.append(label)
        with self._lock:
            # BM25 costs microseconds per matching document, and a vague query over a large graph
            # can match most of it: only the newest RANK_AT_MOST matches are ranked (a rowid
            # bound, which FTS5 applies while it reads, not after).
            floor = self._conn.execute(
                "SELECT rowid FROM entity_fts WHERE entity_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
                (match, RANK_AT_MOST - 1),
            ).fetchone()
            args += [floor[0] if floor else 0, limit]
            rows = self._conn.execute(
                "SELECT f.rowid, bm25(entity_fts, 10.0, 2.0, 1.0, 1.0) AS rank FROM entity_fts f "
                f"JOIN entities e ON e.id = f.rowid WHERE entity_fts MATCH ?{where} "
                "AND f.rowid >= ? ORDER BY rank LIMIT ?",
                args,
            ).fetchall()
            nodes = {n.id: n for n in reads.nodes(self._conn, [r[0] for r in rows])}
            # bm25() is lower-is-better and negative; report a positive score, higher is better.
            return [ScoredNode(node=nodes[i], score=-rank) for i, rank in rows if i in nodes]

    def _words_match(self, query: str) -> str | None:
        """The FTS5 query for ``query``: any of its content words — leaving out words so common
        that ranking them would cost far more than they tell (the rest must then all match).

        BM25 scores every document holding a query word; one that is in most of 100k entities
        costs ~100 ms and ranks nothing. A capped count says cheaply which words those are.
        """
        words = content_words(query)[:16]
        if not words:
            return None
        cap = max(500, self._totals()[0] // 50)  # a word in over 2% of memories is "common"
        rare: list[str] = []
        common: list[str] = []
        for word in words:
            found = self._conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM entity_fts WHERE entity_fts MATCH ? LIMIT ?)",
                (fts_phrase(word), cap),
            ).fetchone()[0]
            if found:
                (common if found >= cap else rare).append(fts_phrase(word))
        if rare:
            return " OR ".join(rare)
        return " AND ".join(common) if common else None

    def graph_overview(
        self, *, limit: int = 300, by: str = "degree", per_type: int = 3, entity_type: str | None = None
    ) -> GraphOverview:
        """The top live entities by degree or by access, the relations among them, counts by type."""
        with self._lock:
            return overview.graph_overview(self._conn, limit=limit, by=by, per_type=per_type,
                                           entity_type=entity_type, totals=self._totals())

    def count_labels(self) -> dict[str, int]:
        with self._lock:
            return dict(self._conn.execute(
                "SELECT entity_type, count(*) FROM entities GROUP BY entity_type ORDER BY 2 DESC, 1"))

    def health_check(self, *, deep: bool = False) -> dict[str, Any]:
        """Versions and counts: what ``hipocampo status`` shows. ``deep`` also reads every page
        to check integrity (``PRAGMA quick_check``: ~0.1 s per 10k entities)."""
        with self._lock:
            conn = self._conn
            report: dict[str, Any] = {
                "ok": True, "backend": self.backend, "path": self.path, "quick_check": "not run",
                "schema_version": SCHEMA_VERSION,
                "sqlite_version": conn.execute("SELECT sqlite_version()").fetchone()[0],
                "sqlite_vec_version": conn.execute("SELECT vec_version()").fetchone()[0],
                "counts": {}, "archived": 0,
            }
            try:
                if deep:
                    problems = [r[0] for r in conn.execute("PRAGMA quick_check(20)")]
                    report["quick_check"] = "ok" if problems == ["ok"] else "; ".join(problems)
                    report["ok"] = problems == ["ok"]
                report["counts"] = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                                    for t in ("entities", "observations", "relations", "insights")}
                report["archived"] = conn.execute(
                    "SELECT count(*) FROM entities WHERE archived_at IS NOT NULL").fetchone()[0]
            except DatabaseError as exc:  # a damaged file: say so rather than crash the caller
                report["ok"] = False
                if report["quick_check"] in ("ok", "not run"):
                    report["quick_check"] = f"damaged: {exc}"
        if self.damage is not None:
            report["ok"] = False
            report["quick_check"] = self.damage
            report["damaged"] = self.integrity.message if self.integrity is not None else self.damage
        elif not report["ok"]:
            report["damaged"] = damaged_message(self.path, report["quick_check"])
        newest = backups.newest_backup(Path(self.path)) if self.path != ":memory:" else None
        report["newest_backup"] = str(newest) if newest is not None else None
        return report

    def query_at_date(self, when: datetime | str) -> KnowledgeGraph:
        """The graph as it stood at ``when``: entities, observations and relations as of then."""
        stamp = format_ts(when) if isinstance(when, datetime) else when
        with self._lock:
            return history.query_at_date(self._conn, stamp)

    def restore_entity(self, name: str, actor: str) -> Node:
        """Undo the latest deletion of ``name`` from its change_log snapshot: the entity with its
        type, props, timestamps and observations, and its relations to entities that still exist."""
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
            if conn.execute("SELECT 1 FROM entities WHERE name = ?", (name,)).fetchone():
                raise Conflict(f"Entity {name!r} exists; only a deleted entity can be restored.")
            row = conn.execute(
                "SELECT before, at FROM change_log WHERE entity = ? AND op = 'delete_entity' ORDER BY id DESC LIMIT 1",
                (name,)).fetchone()
            if row is None:
                raise NotFound(f"No deletion of {name!r} is recorded; nothing to restore.")
            snap = json.loads(row[0])
            eid = conn.execute(
                "INSERT INTO entities(name, entity_type, props, created_at, updated_at, archived_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (name, snap["entityType"], json.dumps(snap["props"], ensure_ascii=False),
                 snap["created_at"], now, snap["archived_at"]),
            ).lastrowid
            conn.executemany("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                             [(eid, content, created) for content, created in snap["observations"]])
            ids = reads.ids_by_name(conn, [n for r in snap["relations"] for n in (r["from"], r["to"])])
            restored = 0
            for rel in snap["relations"]:
                if rel["from"] in ids and rel["to"] in ids:
                    restored += conn.execute(
                        "INSERT INTO relations(from_entity, to_entity, relation_type, props, created_at, ended_at) "
                        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                        (ids[rel["from"]], ids[rel["to"]], rel["relationType"],
                         json.dumps(rel["props"], ensure_ascii=False), rel["created_at"], rel["ended_at"]),
                    ).rowcount
            touch.created(conn, [eid])
            touch.relinked(conn, list(ids.values()))
            history.write(conn, [(now, actor, "restore_entity", name, history.dumps({"deleted_at": row[1]}),
                                  history.dumps({"relations": restored}))])
            return reads.nodes(conn, [eid])[0]

    def history(self, name: str | None = None, *, limit: int = 100) -> list[dict[str, Any]]:
        """The latest change_log rows, newest first, for one entity or for all."""
        where, args = ("WHERE entity = ?", [name]) if name is not None else ("", [])
        with self._lock:
            rows = self._conn.execute(
                f"SELECT id, at, actor, op, entity, before, after FROM change_log {where} "
                "ORDER BY id DESC LIMIT ?", [*args, limit]).fetchall()
        return [
            {"id": i, "at": at, "actor": actor, "op": op, "entity": ent,
             "before": json.loads(b) if b else None, "after": json.loads(a) if a else None}
            for i, at, actor, op, ent, b, a in rows
        ]

    def changes_since(self, after_id: int, *, limit: int = 500) -> list[dict[str, Any]]:
        """change_log rows newer than ``after_id``, oldest first."""
        with self._lock:
            return history.changes_since(self._conn, after_id, limit)

    def latest_change_id(self) -> int:
        with self._lock:
            return history.latest_change_id(self._conn)

    def activity(self, *, before_id: int | None = None, actor: str | None = None,
                 since: datetime | str | None = None, until: datetime | str | None = None,
                 limit: int = 200) -> list[dict[str, Any]]:
        """change_log rows newest first, filtered by writer and time span, paged by id."""
        since, until = (format_ts(t) if isinstance(t, datetime) else t for t in (since, until))
        with self._lock:
            return activity_log.activity(self._conn, before_id=before_id, actor=actor, since=since,
                                         until=until, limit=limit)

    def activity_actors(self) -> list[dict[str, Any]]:
        with self._lock:
            return activity_log.actors(self._conn)

    def data_version(self) -> int:
        with self._lock:
            return history.data_version(self._conn)

    def get_metadata(self, key: str) -> str | None:
        """A value kept in db_metadata (small bookkeeping beside the graph), or None."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM db_metadata WHERE key = ?", (key,)).fetchone()
            return None if row is None else str(row[0])

    def set_metadata(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` in db_metadata."""
        with self._lock, atomic(self._conn) as conn:
            conn.execute("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)", (key, value))

    # -- limbic signals ----------------------------------------------------------------------

    def limbic_stats(self, ids: Sequence[int]) -> dict[str, Any]:
        """Access counts and last access, degree, and co-occurrence counts among ``ids``."""
        with self._lock:
            return embedding_state.limbic_stats(self._conn, ids)

    def record_access(self, ids: Sequence[int]) -> None:
        """Note that ``ids`` were recalled together now (one short write)."""
        if ids and self.damage is None:  # a damaged file is searched, never written
            with self._lock:
                embedding_state.record_access(self._conn, ids, self.now())

    def ids_for(self, names: Sequence[str]) -> dict[str, int]:
        with self._lock:
            return reads.ids_by_name(self._conn, names)

    def nodes_by_id(self, ids: Sequence[int]) -> list[Node]:
        with self._lock:
            return reads.nodes(self._conn, ids)

    # -- insights (reflect and the review lifecycle live in insights.py) ----------------------

    def insight_store(self) -> Any:
        """Reflect's and the insight lifecycle's access to this database (same connection and
        lock): a ``core.storage.sqlite.insights.SqliteInsightStore``."""
        from core.storage.sqlite.insights import SqliteInsightStore

        return SqliteInsightStore(self)

    # -- editing one entity (the SQL lives in edits.py) ---------------------------------------

    def rename_entity(self, old: str, new: str, actor: str) -> bool:
        """Rename ``old`` to ``new``, keeping its relations; a taken name → Conflict."""
        with self._lock, atomic(self._conn) as conn:
            return edits.rename_entity(conn, old, new, actor, self.now())

    def set_entity_type(self, name: str, entity_type: str, actor: str) -> bool:
        with self._lock, atomic(self._conn) as conn:
            return edits.set_entity_type(conn, name, entity_type, actor, self.now())

    def replace_observation(self, name: str, old: str, new: str, actor: str) -> bool:
        with self._lock, atomic(self._conn) as conn:
            return edits.replace_observation(conn, name, old, new, actor, self.now())

    def end_relation(self, from_name: str, to_name: str, rel_type: str, ended_at: str | None, actor: str) -> bool:
        """End a current relation at ``ended_at`` (default now); it stays, no longer current."""
        now = self.now()
        with self._lock, atomic(self._conn) as conn:
            return edits.set_relation_end(conn, from_name, to_name, rel_type, ended_at or now, actor, now)

    def save_entity(self, name: str, plan: dict[str, Any], expected_version: int | None, actor: str) -> int | None:
        """One editor Save, all or nothing (see ``edits.save_entity``)."""
        with self._lock, atomic(self._conn) as conn:
            return edits.save_entity(self, conn, name, plan, expected_version, actor, self.now())

    def undo_change(self, change_id: int | None, entity: str | None, by: str | None, actor: str) -> dict[str, Any]:
        """Undo change ``change_id`` (default: the newest undoable one); returns the undo row."""
        with self._lock, atomic(self._conn) as conn:
            if change_id is None:
                row = edits.undoable(conn, entity, by)
                if row is None:
                    raise NotFound("There is no change left to undo. Nothing was changed.")
            else:
                found = history.changes_since(conn, change_id - 1, 1)
                if not found or found[0]["id"] != change_id:
                    raise NotFound(f"There is no change #{change_id}. Nothing was changed.")
                row = found[0]
            undo_id = edits.undo(self, conn, row, actor, self.now())
            return history.changes_since(conn, undo_id - 1, 1)[0]

    def undoable_change(self, entity: str | None, by: str | None) -> dict[str, Any] | None:
        with self._lock:
            return edits.undoable(self._conn, entity, by)

    def entity_for_edit(self, name: str) -> dict[str, Any]:
        """The entity, every relation touching it (ended ones too), and the change_log id it was read at."""
        with self._lock, atomic(self._conn, immediate=False) as conn:
            ids = reads.ids_by_name(conn, [name])
            if not ids:
                raise NotFound(f"Entity {name!r} does not exist.")
            node = reads.nodes(conn, [ids[name]])[0]
            return {"node": node, "relations": edits.relations_of(conn, ids[name]),
                    "version": history.latest_change_id(conn)}

    def entity_history(self, name: str, *, limit: int = 100) -> list[dict[str, Any]]:
        with self._lock:
            return edits.entity_history(self._conn, name, limit)

    def last_deletion(self, name: str) -> dict[str, Any] | None:
        with self._lock:
            return edits.last_deletion(self._conn, name)

    def relation_type_counts(self) -> dict[str, int]:
        with self._lock:
            return edits.relation_type_counts(self._conn)
