"""CypherGraphStore: the knowledge graph on a Cypher graph server.

Every write reads what it needs, then sends all its changes (entity nodes, relations, change_log
nodes) in one atomic batch through the dialect; a reader never sees an entity without its search
copies or a change without its history. Inputs arrive validated (``core.memory`` does that).
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from core import errors
from core import graph_writes as official
from core.errors import ConfigError
from core.graph_rules import GraphRules, walk
from core.model import (
    AddedObservations,
    Entity,
    EntityInput,
    Neighbour,
    Node,
    NodeWithNeighbours,
    ObservationDeletion,
    ObservationInput,
    Relation,
    ScoredNode,
)
from core.overview import OverviewRules
from core.search.folding import content_words, fold
from core.storage.cypher import facts
from core.storage.cypher import overview as cypher_overview
from core.storage.cypher import rows as R
from core.storage.cypher.edits import EditsMixin
from core.storage.cypher.facts import FactTextMixin
from core.storage.cypher.history import HistoryMixin
from core.storage.cypher.hygiene import CypherHygiene, alias_words, fold_aliases
from core.storage.cypher.insights import archive_records
from core.storage.cypher.memo import ReadMemo
from core.storage.cypher.pins import PinsMixin
from core.storage.cypher.work import LogRow, Work
from core.storage.cypher.writes import CypherWrites

if TYPE_CHECKING:
    from core.reflect.lifecycle import InsightLifecycle

Clock = Callable[[], datetime]
log = logging.getLogger(__name__)

_T = TypeVar("_T")


class CypherGraphStore(GraphRules, OverviewRules, EditsMixin, HistoryMixin, PinsMixin, FactTextMixin):
    """GraphStore over a Cypher server. Thread-safe: writes of one process go one at a time; writes
    of several processes are serialised by the dialect's optimistic commit."""

    db: Any  # the dialect (``falkordb.FalkorDialect`` or ``neo4j.Neo4jDialect``): more than ``seams.Dialect``

    def __init__(self, dialect: Any, *, clock: Clock = R.utc_now, read_only: bool = False) -> None:
        self.db = dialect
        self.backend = dialect.name
        self.path = f"{dialect.url} graph {dialect.graph_name}"
        #: what "now" is for this store (tests pass a fixed one); ``now()`` is its text
        self.clock = clock
        self._lock = threading.RLock()
        self.read_only = read_only
        self._in_transaction = 0
        self.memo = ReadMemo(dialect)  # a search's reads of the entities, reused while nothing is written
        self._upgrade: threading.Thread | None = None
        self._upgrade_stop = threading.Event()
        #: the background upgrade's progress: what ("facts", "own_words") → (entities done, of total)
        self.upgrade_progress: dict[str, tuple[int, int]] = {}
        if not read_only:
            dialect.ensure_schema()
            facts.ensure_schema(dialect)
            fold_aliases(self)  # a graph whose aliases were written before their folds were kept
            alias_words(self)  # … or before they were part of its own words and embedding text
            archive_records(self)  # approved hygiene proposals of older writes: records, not knowledge
            self._start_upgrade()

    # -- lifecycle ---------------------------------------------------------------------------

    def _start_upgrade(self) -> None:
        """An older graph is brought in step in the background (``facts.upgrade``: its facts' own
        nodes, the ``:Own`` index; page by page, resumable), so opening it does not wait: until
        each mark is set the queries that do not need it answer (``FactTextMixin._own_index``),
        and every write keeps what it writes in step meanwhile."""
        if not facts.upgrades_due(self):
            return

        def run() -> None:
            try:
                facts.upgrade(self, lambda what, done, total: self.upgrade_progress.__setitem__(what, (done, total)),
                              self._upgrade_stop.is_set)
            except Exception:  # e.g. the server went away: the next open resumes from the cursor
                log.warning("The graph's upgrade stopped; it resumes when the memory is opened again",
                            exc_info=True)

        self._upgrade = threading.Thread(target=run, name="hipocampo-graph-upgrade", daemon=True)
        self._upgrade.start()

    def wait_upgrade(self, timeout: float | None = None) -> bool:
        """Wait for the background upgrade of an older graph (``_start_upgrade``); whether it is over."""
        if self._upgrade is not None:
            self._upgrade.join(timeout)
        return self._upgrade is None or not self._upgrade.is_alive()

    def close(self) -> None:
        self._upgrade_stop.set()  # the page under way is finished; the rest waits for the next open
        self.wait_upgrade()
        self.db.close()

    def now(self) -> str:
        return R.format_ts(self.clock())

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Group several calls into one all-or-nothing unit (e.g. one imported file)."""
        with self._lock:
            if self._in_transaction:
                self._in_transaction += 1
                try:
                    yield
                finally:
                    self._in_transaction -= 1
                return
            self._in_transaction = 1
            try:
                with self.db.snapshot():
                    yield
            finally:
                self._in_transaction = 0

    def unsupported(self, what: str) -> ConfigError:
        return ConfigError(f"{what} is not available on the {self.backend} backend yet; use the sqlite backend "
                           "for it (hipocampo migrate --to sqlite).")

    # -- writing and the rows; the public ones are the API of its helper modules (insights, hygiene,
    # facts, vectors, transfer): they read through ``db`` and write only through these, so every write
    # is locked, refused when read-only, keeps the facts in sync and logs its changes one way.

    def write(self, fn: Callable[[Any], _T]) -> _T:
        """Run ``fn(tx)`` as one atomic write of this process (refused when read-only); returns its result."""
        if self.read_only:
            raise ConfigError("This memory is open read-only (HIPOCAMPO_READ_ONLY); nothing was changed.")
        with self._lock:
            return cast(_T, self.db.write(fn))  # the dialect's write returns what ``fn`` returned

    def rows_by_name(self, reader: Any, names: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The entity rows (``rows.row_of``) of ``names`` that exist, by name, read through ``reader``."""
        if not names:
            return {}
        found = reader.read(f"UNWIND $names AS n MATCH (e:Entity {{name: n}}) RETURN {R.ENTITY}",
                            {"names": list(dict.fromkeys(names))})
        return {r[0]["name"]: R.row_of(r[0]) for r in found}

    def rows_by_id(self, reader: Any, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """The entity rows (``rows.row_of``) of ``ids`` that exist, by id, read through ``reader`` (a tx or ``db``)."""
        if not ids:
            return {}
        found = reader.read(f"UNWIND $ids AS i MATCH (e:Entity {{id: i}}) RETURN {R.ENTITY}",
                            {"ids": [int(i) for i in dict.fromkeys(ids)]})
        return {r[0]["id"]: R.row_of(r[0]) for r in found}

    def _rows_in_order(self, reader: Any, ids: Sequence[int]) -> list[dict[str, Any]]:
        found = self.rows_by_id(reader, ids)
        return [found[i] for i in ids if i in found]

    @staticmethod
    def put_rows(tx: Any, rows: Sequence[dict[str, Any]], *, create: bool = False) -> None:
        """Queue entity ``rows`` in ``tx`` (new nodes if ``create``, else over their ids) with their facts."""
        if not rows:
            return
        verb = f"CREATE (e:{R.LABELS}) SET e = r" if create else "MATCH (e:Entity {id: r.id}) SET e += r"
        tx.write(f"UNWIND $rows AS r {verb}", {"rows": [R.stored(r) for r in rows]})
        facts.sync(tx, rows, created=create)  # every observation a fact of its own

    @staticmethod
    def mark_stale(tx: Any, ids: Sequence[int]) -> None:
        """The embedding text of ``ids`` changed (a relation came or went): re-embed them."""
        if ids:
            tx.write("UNWIND $ids AS i MATCH (e:Entity {id: i}) SET e.emb_model = null",
                     {"ids": list(dict.fromkeys(ids))})

    @staticmethod
    def log_changes(tx: Any, log: Sequence[LogRow]) -> None:
        """Queue change_log rows (at, actor, op, entity, before, after as JSON text) in ``tx``, new ids each."""
        if not log:
            return
        ids = tx.next_ids("change", len(log))
        tx.write("UNWIND $rows AS r CREATE (c:Change) SET c = r", {"rows": [
            {"id": i, "at": at, "actor": actor, "op": op, "entity": ent, "before": b, "after": a}
            for i, (at, actor, op, ent, b, a) in zip(ids, log, strict=True)]})

    # -- the official memory server's operations ---------------------------------------------

    def _official(self, actor: str, rule: Callable[[CypherWrites], _T]) -> _T:
        """``rule`` (``core.graph_writes``) on one ``CypherWrites``, sent as one atomic write."""
        now = self.now()
        return self.write(lambda tx: rule(CypherWrites(self, Work(tx, actor, now))))

    def create_entities(
        self, entities: Sequence[EntityInput], actor: str
    ) -> tuple[list[Entity], list[AddedObservations]]:
        """Create new entities; merge observations into existing ones. Returns (created, merged)."""
        return self._official(actor, lambda w: official.create_entities(w, entities))

    def add_observations(self, items: Sequence[ObservationInput], actor: str) -> list[AddedObservations]:
        """Add observations to existing entities; unknown entity → NotFound, nothing changed."""
        return self._official(actor, lambda w: official.add_observations(w, items))

    def relation_snaps(self, reader: Any, ids: Sequence[int]) -> dict[int, list[dict[str, Any]]]:
        """Every relation touching each of ``ids`` (ended ones too), as change_log keeps them."""
        snaps: dict[int, list[dict[str, Any]]] = {i: [] for i in ids}
        found = [*reader.read(
            "UNWIND $ids AS i MATCH (a:Entity {id: i})-[r:REL]->(b:Entity) "
            "RETURN i, a.name, b.name, r.type, r.props, r.created_at, r.ended_at, r.id", {"ids": list(ids)}),
            *reader.read(
            "UNWIND $ids AS i MATCH (a:Entity)-[r:REL]->(b:Entity {id: i}) WITH i, a, r, b WHERE a.id <> i "
            "RETURN i, a.name, b.name, r.type, r.props, r.created_at, r.ended_at, r.id", {"ids": list(ids)})]
        for anchor, src, dst, rtype, props, created, ended, _ in sorted(found, key=lambda r: r[-1]):
            snaps[anchor].append(official.relation_snapshot(src, dst, rtype, json.loads(props or "{}"), created, ended))
        return snaps

    def delete_entities(self, names: Sequence[str], actor: str) -> int:
        """Delete entities with their observations, relations and vectors. Unknown names are ignored."""
        return self._official(actor, lambda w: official.delete_entities(w, names))

    def delete_observations(self, items: Sequence[ObservationDeletion], actor: str) -> int:
        """Remove the given observations; unknown entities or texts are ignored. Returns count."""
        return self._official(actor, lambda w: official.delete_observations(w, items))

    def create_relations(
        self, relations: Sequence[Relation], actor: str, *, placeholders: bool = True
    ) -> list[Relation]:
        """Create relations; returns only the new ones (a missing end: ``core.graph_writes.create_relations``)."""
        return self._official(actor, lambda w: official.create_relations(w, relations, placeholders=placeholders))

    def delete_relations(self, relations: Sequence[Relation], actor: str) -> int:
        """Delete the given relations; ones that do not exist are ignored. Returns count."""
        return self._official(actor, lambda w: official.delete_relations(w, relations))

    # -- reading the graph -------------------------------------------------------------------

    def _totals(self) -> tuple[int, int]:
        """(live entities, current relations between them), counted again only after a write (by anyone)."""
        version = self.db.version()
        cached = getattr(self, "_totals_cache", None)
        if cached is not None and cached[0] == version:
            return cast(tuple[int, int], cached[1])
        totals = self._count_totals()
        self._totals_cache = (version, totals)
        return totals

    def _count_totals(self) -> tuple[int, int]:
        entities = self.db.read("MATCH (e:Entity) WHERE e.archived_at IS NULL RETURN count(e)")[0][0]
        relations = self.db.read(
            "MATCH (a:Entity)-[r:REL]->(b:Entity) WHERE r.ended_at IS NULL AND a.archived_at IS NULL "
            "AND b.archived_at IS NULL RETURN count(r)")[0][0]
        return int(entities), int(relations)

    def _live_ids(self, limit: int | None, offset: int) -> list[int]:
        page = " SKIP $skip" + (" LIMIT $limit" if limit is not None else "")
        return [r[0] for r in self.db.read(
            f"MATCH (e:Entity) WHERE e.archived_at IS NULL RETURN e.id ORDER BY e.id{page}",
            {"skip": offset, "limit": limit})]

    def _relations_of(self, ids: Sequence[int], *, out_only: bool = False, live_to: bool = False,
                      among: bool = False) -> list[dict[str, str]]:
        """Current relations leaving (and unless ``out_only`` entering) ``ids``, in creation order; each
        direction one index lookup per id. ``live_to``: the other end is not archived; ``among``: both
        ends are in ``ids``."""
        if not ids:
            return []
        extra = (" AND b.archived_at IS NULL" if live_to else "") + (" AND b.id IN $ids" if among else "")
        # The filter on b comes after WITH: in the MATCH it makes FalkorDB scan every entity for b.
        found = self.db.read(
            "UNWIND $ids AS i MATCH (a:Entity {id: i})-[r:REL]->(b:Entity) WITH a, r, b WHERE r.ended_at IS NULL"
            f"{extra} RETURN r.id, a.name, b.name, r.type", {"ids": list(ids)})
        if not out_only and not among:
            found += self.db.read(
                "UNWIND $ids AS i MATCH (a:Entity)-[r:REL]->(b:Entity {id: i}) WHERE r.ended_at IS NULL "
                "RETURN r.id, a.name, b.name, r.type", {"ids": list(ids)})
        unique = {r[0]: r for r in found}
        return [{"from": a, "to": b, "relationType": t} for _, a, b, t in sorted(unique.values())]

    def _relation_dicts(self, where: str, params: dict[str, Any]) -> list[dict[str, str]]:
        return [{"from": a, "to": b, "relationType": t} for a, b, t in self.db.read(
            f"MATCH (a:Entity)-[r:REL]->(b:Entity) WHERE r.ended_at IS NULL AND {where} "
            "RETURN a.name, b.name, r.type ORDER BY r.id", params)]

    def read_graph_dump(self, *, limit: int | None = None, offset: int = 0, names_only: bool = False) -> dict[str, Any]:
        """``read_graph(...).dump()``."""
        whole = limit is None and offset == 0 and not names_only
        if whole:
            rows = self.db.read("MATCH (e:Entity) WHERE e.archived_at IS NULL RETURN e.name, e.type, e.obs "
                                "ORDER BY e.id")
            return {"entities": [{"name": n, "entityType": t, "observations": list(o or [])} for n, t, o in rows],
                    "relations": self._relation_dicts("a.archived_at IS NULL AND b.archived_at IS NULL", {})}
        total_e, total_r = self._totals()
        if names_only:  # two properties, not every entity's whole row
            page = " SKIP $skip" + (" LIMIT $limit" if limit is not None else "")
            names = self.db.read("MATCH (e:Entity) WHERE e.archived_at IS NULL RETURN e.name, e.type "
                                 f"ORDER BY e.id{page}", {"skip": offset, "limit": limit})
            return {"entities": [{"name": n, "entityType": t} for n, t in names], "relations": [],
                    "total_entities": total_e, "total_relations": total_r}
        ids = self._live_ids(limit, offset)
        rows = self._rows_in_order(self.db, ids)
        return {"entities": [{"name": r["name"], "entityType": r["type"], "observations": r["obs"]} for r in rows],
                "relations": self._relations_of(ids, out_only=True, live_to=True),
                "total_entities": total_e, "total_relations": total_r}

    def _relations_page(self, after: int, size: int) -> list[tuple[int, str, str, str, dict[str, Any]]]:
        return [(i, f, t, rt, json.loads(p or "{}")) for i, f, t, rt, p in self.db.read(
            "MATCH (a:Entity)-[r:REL]->(b:Entity) WHERE r.id > $last AND r.ended_at IS NULL "
            "RETURN r.id, a.name, b.name, r.type, r.props ORDER BY r.id LIMIT $page", {"last": after, "page": size})]

    def search_nodes_dump(self, query: str, *, limit: int | None = None,
                          include_archived: bool = False) -> dict[str, Any]:
        """``search_nodes(...).dump()``."""
        archived = "" if include_archived else " AND e.archived_at IS NULL"
        page = " LIMIT $limit" if limit is not None else ""
        ids = [r[0] for r in self.db.read(
            f"MATCH (e:Entity) WHERE any(f IN e.folded WHERE f CONTAINS $needle){archived} "
            f"RETURN e.id ORDER BY e.id{page}", {"needle": fold(query), "limit": limit})]
        rows = self._rows_in_order(self.db, ids)
        return {"entities": [{"name": r["name"], "entityType": r["type"], "observations": r["obs"]} for r in rows],
                "relations": self._relations_of(ids)}

    def open_nodes_dump(self, names: Sequence[str]) -> dict[str, Any]:
        """The named entities (unknown names ignored) and the relations touching them, as plain dicts."""
        found = self.rows_by_name(self.db, names)
        rows = [found[n] for n in dict.fromkeys(names) if n in found]
        return {"entities": [{"name": r["name"], "entityType": r["type"], "observations": r["obs"]} for r in rows],
                "relations": self._relations_of([r["id"] for r in rows])}

    # -- Engrama's GraphStore contract -------------------------------------------------------

    def merge_node(self, label: str, name: str, props: dict[str, Any], actor: str) -> Node:
        """Create the node or merge ``props`` into it (``core.graph_writes.merge_node``)."""
        return self._official(actor, lambda w: official.merge_node(w, label, name, props))

    def get_node(self, name: str) -> Node | None:
        """The node called ``name``, archived or not; ``None`` if there is none."""
        row = self.rows_by_name(self.db, [name]).get(name)
        return R.node(row) if row else None

    def archive_node(self, name: str, actor: str) -> bool:
        """Mark the node archived (kept and readable, left out of searches). Idempotent."""
        return self._official(actor, lambda w: official.archive_node(w, name))

    def list_nodes(self, *, label: str | None = None, include_archived: bool = False,
                   limit: int | None = None, offset: int = 0) -> list[Node]:
        where = ["true"]
        if label is not None:
            where.append("e.type = $label")
        if not include_archived:
            where.append("e.archived_at IS NULL")
        page = " SKIP $skip" + (" LIMIT $limit" if limit is not None else "")
        ids = [r[0] for r in self.db.read(
            f"MATCH (e:Entity) WHERE {' AND '.join(where)} RETURN e.id ORDER BY e.id{page}",
            {"label": label, "skip": offset, "limit": limit})]
        return [R.node(r) for r in self._rows_in_order(self.db, ids)]

    def get_neighbours(self, name: str, hops: int = 1, *, rel_types: Sequence[str] | None = None) -> list[Neighbour]:
        """Nodes within ``hops`` (1–3) relations of ``name``, either direction, nearest first."""
        errors.check_hops(hops)
        start = self.rows_by_name(self.db, [name]).get(name)
        if start is None:
            raise errors.no_entity(name)
        types = list(rel_types) if rel_types else None
        found = walk(start["id"], hops, lambda ids: self.db.read(
            "UNWIND $ids AS i MATCH (a:Entity {id: i})-[r:REL]-(b:Entity) WHERE r.ended_at IS NULL "
            "AND ($types IS NULL OR r.type IN $types) RETURN i, b.id, r.type ORDER BY i, r.id",
            {"ids": ids, "types": types}))
        rows = self.rows_by_id(self.db, [i for i, _, _ in found])
        return [Neighbour(node=R.node(rows[i]), distance=d, path=p) for i, d, p in found]

    def get_node_with_neighbours(self, name: str, hops: int = 1) -> NodeWithNeighbours:
        """A node, its neighbours within ``hops``, and the relations among all of them."""
        node = self.get_node(name)
        if node is None:
            raise errors.no_entity(name)
        neighbours = self.get_neighbours(name, hops)
        ids = [node.id, *(n.node.id for n in neighbours)]
        rels = self._relations_of(ids, among=True)
        return NodeWithNeighbours(node=node, neighbours=neighbours,
                                  relations=[R.relation(r["from"], r["to"], r["relationType"]) for r in rels])

    def lookup_node_label(self, name: str) -> str | None:
        found = self.db.read("MATCH (e:Entity {name: $n}) RETURN e.type", {"n": name})
        return found[0][0] if found else None

    def fulltext_search(self, query: str, *, limit: int = 10, label: str | None = None,
                        include_archived: bool = False, own_fields: bool = False) -> list[ScoredNode]:
        """Whole-word search ranked by the server's full-text score (name weighted highest).
        ``own_fields``: the name only (its facts have their own index, ``fact_search``)."""
        words = content_words(query)[:16]
        if not words:
            return []
        if own_fields:
            return self._own_words(words, limit, label, include_archived, name=query.strip())
        where = ["true"]
        if not include_archived:
            where.append("node.archived_at IS NULL")
        if label is not None:
            where.append("node.type = $label")
        found = self.db.read(
            f"{self.db.FULLTEXT_CALL} WHERE {' AND '.join(where)} RETURN node.id, score "
            "ORDER BY score DESC, node.id LIMIT $limit",
            {"q": self.db.fulltext_query(words), "label": label, "limit": limit})
        rows = self.rows_by_id(self.db, [i for i, _ in found])
        return [ScoredNode(node=R.node(rows[i]), score=float(s)) for i, s in found if i in rows]

    def count_labels(self, *, include_archived: bool = True) -> dict[str, int]:
        live = "" if include_archived else " WHERE e.archived_at IS NULL"
        return {t: int(n) for t, n in self.db.read(
            f"MATCH (e:Entity){live} RETURN e.type, count(e) AS n ORDER BY n DESC, e.type")}

    @contextlib.contextmanager
    def _overview_source(self) -> Iterator[tuple[cypher_overview.Source, int]]:
        """The overview's reads (no lock: the server serves each query whole) and the graph's version."""
        yield cypher_overview.Source(self.db, self._relations_among, self._totals), self.db.version()

    def _relations_among(self, ids: Sequence[int]) -> list[dict[str, Any]]:
        return self._relations_of(ids, among=True)

    def health_check(self, *, deep: bool = False) -> dict[str, Any]:
        """Counts and the server's reach: what ``hipocampo status`` shows."""
        counts = {
            "entities": self.db.read("MATCH (e:Entity) RETURN count(e)")[0][0],
            "observations": self.db.read("MATCH (e:Entity) RETURN coalesce(sum(size(e.obs)), 0)")[0][0],
            "relations": self.db.read("MATCH ()-[r:REL]->() RETURN count(r)")[0][0],
            "insights": self.db.read("MATCH (e:Entity) WHERE e.ins_status IS NOT NULL RETURN count(e)")[0][0],
        }
        return {"ok": True, "backend": self.backend, "path": self.path, "quick_check": "not run",
                "server_version": self.db.server_version(),
                "counts": {k: int(v) for k, v in counts.items()},
                "archived": int(self.db.read("MATCH (e:Entity) WHERE e.archived_at IS NOT NULL RETURN count(e)")[0][0]),
                "upgrading": self.upgrading()}

    def upgrading(self) -> dict[str, tuple[int, int]]:
        """The background upgrade of an older graph while it runs: what → (entities done, of total)."""
        return {} if self.wait_upgrade(0) else dict(self.upgrade_progress)

    def get_metadata(self, key: str) -> str | None:
        """A value kept beside the graph (small bookkeeping), or None."""
        found = self.db.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": key})
        return None if not found else str(found[0][0])

    def set_metadata(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key``."""
        self.write(lambda tx: tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": key, "v": value}))

    # -- limbic signals ----------------------------------------------------------------------

    def limbic_stats(self, ids: Sequence[int]) -> dict[str, Any]:
        """Access counts and last access, degree, and co-occurrence counts among ``ids``."""
        ids = [int(i) for i in ids]
        access: dict[int, tuple[int, str]] = {}
        degree = dict.fromkeys(ids, 0)
        reads: list[tuple[str, dict[str, Any] | None]] = [
            ("UNWIND $ids AS i MATCH (e:Entity {id: i}) OPTIONAL MATCH (e)-[r:REL]-() WHERE r.ended_at IS NULL "
             "RETURN i, e.access_count, e.last_access, count(r)", {"ids": ids}),
            ("MATCH (a:Entity)-[c:COOC]->(b:Entity) WHERE a.id IN $ids AND b.id IN $ids RETURN a.id, b.id, c.count",
             {"ids": ids})]
        many = getattr(self.db, "read_many", None)  # both in one round trip where the dialect can
        stats, pairs = many(reads) if many is not None else [self.db.read(q, p) for q, p in reads]
        for eid, count, last, deg in stats:
            degree[eid] = int(deg)
            if count:
                access[eid] = (int(count), last)
        cooc = {(a, b): int(n) for a, b, n in pairs}
        return {"access": access, "degree": degree, "cooc": cooc}

    def record_access(self, ids: Sequence[int]) -> None:
        """Note that ``ids`` were recalled together now (one short write)."""
        ordered = sorted({int(i) for i in ids})
        if not ordered or self.read_only:
            return
        now = self.now()

        def write(tx: Any) -> None:
            tx.write("UNWIND $ids AS i MATCH (e:Entity {id: i}) "
                     "SET e.access_count = coalesce(e.access_count, 0) + 1, e.last_access = $now",
                     {"ids": ordered, "now": now})
            pairs = [[a, b] for k, a in enumerate(ordered) for b in ordered[k + 1:]]
            if pairs:
                tx.write("UNWIND $pairs AS p MATCH (a:Entity {id: p[0]}), (b:Entity {id: p[1]}) "
                         "MERGE (a)-[c:COOC]->(b) SET c.count = coalesce(c.count, 0) + 1, c.last = $now",
                         {"pairs": pairs, "now": now})

        with self._lock:
            self.db.write(write)
            # Access counts and co-occurrences are no part of what a search keeps of the entities
            self.memo.carry(getattr(self.db, "last_version", None))

    def ids_for(self, names: Sequence[str]) -> dict[str, int]:
        wanted = list(dict.fromkeys(names))
        kept = self.memo.ids_of(wanted)  # read earlier in this search, nothing written since
        if kept is not None:
            return {n: i for n, i in kept.items() if i is not None}
        if not wanted:
            return {}
        found, version = self.memo.read("UNWIND $names AS n MATCH (e:Entity {name: n}) "
                                        "RETURN e {.id, .name, .type, .props, .created_at, .updated_at, .archived_at}, "
                                        "size(e.obs)", {"names": wanted})
        rows = {r[0]["id"]: R.row_of(r[0]) for r in found}
        by_name: dict[str, int | None] = dict.fromkeys(wanted)
        by_name.update({row["name"]: i for i, row in rows.items()})
        self.memo.put(version, heads=dict(rows), counts={r[0]["id"]: int(r[1]) for r in found}, names=by_name)
        return {n: i for n, i in by_name.items() if i is not None}

    def nodes_by_id(self, ids: Sequence[int]) -> list[Node]:
        return [R.node(r) for r in self._rows_in_order(self.db, ids)]

    def fact_lists(self, min_facts: int = 2) -> list[tuple[int, str, dict[str, Any], list[str]]]:
        """Every live entity with at least ``min_facts`` observations: (id, type, props, facts oldest first)."""
        rows = self.db.read("MATCH (e:Entity) WHERE e.archived_at IS NULL AND size(e.obs) >= $n "
                            "RETURN e.id, e.type, e.props, e.obs ORDER BY e.id", {"n": int(min_facts)})
        return [(i, t, json.loads(p or "{}"), list(o or [])) for i, t, p, o in rows]

    # -- what this backend does not do yet ---------------------------------------------------

    def insight_store(self) -> InsightLifecycle:
        """The insight lifecycle (``core.reflect.lifecycle``) over this graph (``cypher.insights``)."""
        from core.storage.cypher.insights import insight_store

        return insight_store(self)

    def hygiene_store(self) -> CypherHygiene:
        """Hygiene's reads and its merge write (``core.hygiene.store``) over this graph."""
        return CypherHygiene(self)

    def backup(self, dest: Path | None = None) -> Path:
        raise ConfigError(f"A file backup is not available on the {self.backend} backend: back the server up with "
                          "its own tools (FalkorDB: redis-cli BGSAVE writes its dump file), or copy the memory to a "
                          "file with `hipocampo migrate --to sqlite`.")
