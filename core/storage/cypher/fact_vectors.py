"""Facts' vectors on a Cypher server: int8 on the fact node, searched in this process.

A fact's vector is kept as SQLite keeps it (``core.search.fact_matrix.quantize``: the unit vector
scaled to ±127, one byte a dimension), as base64 text in the ``:Fact`` node's ``q`` (512
characters for 384 dimensions: the server keeps a string as it is, where a ``vecf32`` costs four
bytes a dimension plus its HNSW graph and a list of integers sixteen bytes an element), with
``qv``, the number its write took from the ``fact_vec`` counter. Each process searches them in a
``FactMatrix`` of its own (SQLite's: int8 cosine, a binary pre-filter and exact re-rank when many)
and catches it up before each search with one round trip reading the counters:

- ``fact_vec`` moved: the facts with a higher ``qv`` are read (a range index on ``qv``); its own
  writes go into the matrix as they commit when nobody else stored in between;
- ``fact_vec`` went back (a failed transaction's copy put back, the graph dropped) or the
  ``fact_vectors_generation`` mark changed (vectors of another size): the matrix is loaded again;
- ``fact_gone`` (bumped by every write that deletes facts: ``facts.sync``, ``facts.drop``) moved
  since the load: each search's ids are checked against the server, those gone are forgotten.

A graph whose facts' vectors are float32 ``:FVec`` nodes in the server's vector index (the layout
before) is converted when opened for writing (``migrate``: a page per write, resumable: a page's
``:FVec`` nodes go in the write that stores their codes), then the ``:FVec`` indexes are dropped.
(Opened read-only before that, such a graph's facts are found by their words and their entity's
vector only.)

A graph whose facts were embedded of their bare text (before ``core.embeddings.context``) has every
fact made due once when opened for writing (``in_context``, as SQLite's migration 007): a span of
fact ids per write, resumable from its cursor, then the ``fact_vectors_context`` mark. The codes
stay, so the old vectors answer until the embedder replaces them.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from core.embeddings.context import still_current
from core.errors import InvalidInput
from core.search.fact_matrix import FactMatrix, quantize

if TYPE_CHECKING:  # numpy loads with the first vector
    import numpy as np

    from core.storage.cypher.memo import ReadMemo

log = logging.getLogger(__name__)

COUNTER = "fact"            # facts' ids (``cypher.facts``)
VERSION = "fact_vec"        # one number per write that stores fact vectors
GONE = "fact_gone"          # one number per write that deletes facts
GENERATION_KEY = "fact_vectors_generation"
LAYOUT_KEY = "fact_vectors_layout"  # "int8" once no fact vector is a :FVec node
CONTEXT_KEY = "fact_vectors_context"  # "1" once no fact vector is of its bare text (``in_context``)
CONTEXT_CURSOR_KEY = "fact_context_to"  # the last fact id ``in_context`` has made due
CONTEXT_PAGE = 5000         # fact ids a write of ``in_context`` spans
LOAD_PAGE = 20_000          # fact ids a page of a full load spans
MIGRATE_PAGE = 500

_STATE = ("OPTIONAL MATCH (v:Counter {name: $v}) OPTIONAL MATCH (g:Counter {name: $g}) "
          "OPTIONAL MATCH (m:Meta {key: $k}) OPTIONAL MATCH (c:Counter {name: $c}) "
          "RETURN v.value, g.value, m.value, c.value")


def encode(rows: np.ndarray) -> list[str]:
    return [base64.b64encode(row.tobytes()).decode("ascii") for row in rows]


def decode(texts: Sequence[str], dims: int) -> tuple[list[int], np.ndarray]:
    """(positions of the texts that are ``dims`` bytes, their int8 rows)."""
    import numpy as np

    raw = [base64.b64decode(t) if isinstance(t, str) else b"" for t in texts]
    keep = [k for k, b in enumerate(raw) if len(b) == dims]
    return keep, np.frombuffer(b"".join(raw[k] for k in keep), dtype=np.int8).reshape(len(keep), dims)


def newest_due(memo: ReadMemo, label: str, counter: str, model: str, model_id: str, newest: int) -> list[int]:
    """Ids among the ``newest`` of ``label`` whose ``model`` property is not ``model_id``, in one
    round trip (none while nothing was written since the last time: ``memo``). The bound is taken
    from the counter with ``WITH`` first: compared with another node's property inside the match
    the server scans every node (at 500k facts 300 ms a search), while a bound carried over from
    the ``WITH`` ranges over the id index (0.2 ms)."""
    var = model.split(".")[0]
    return [int(r[0]) for r in memo.rows(
        ("due", label, model_id, int(newest)),
        f"MATCH (c:Counter {{name: $c}}) WITH c.value - $n AS since MATCH ({var}:{label}) "
        f"WHERE {var}.id > since AND ({model} IS NULL OR {model} <> $m) RETURN {var}.id ORDER BY {var}.id",
        {"c": counter, "n": int(newest), "m": model_id})]


def gone(tx: Any) -> None:
    """Queue the mark that facts were deleted in this write (``cypher.facts`` calls it)."""
    if GONE not in tx.counters:
        tx.next_ids(GONE, 1)


def due_of(tx: Any, entity_ids: Sequence[int]) -> None:
    """Queue making every fact of ``entity_ids`` due (its context, the entity's name or type,
    changed): ``emb`` cleared, the vector ``q`` kept answering until replaced."""
    tx.write("UNWIND $ids AS i MATCH (f:Fact {eid: i}) SET f.emb = null",
             {"ids": [int(i) for i in dict.fromkeys(entity_ids)]})


# -- the layout before: :FVec nodes ---------------------------------------------------------------

def migrate(store: Any, progress: Any = None) -> int:
    """Turn every float32 ``:FVec`` vector into its fact's int8 ``q``, a page per write (resumable:
    what is converted is gone), then drop the old indexes. Returns how many it converted."""
    graph = store._graph
    if graph.get_metadata(LAYOUT_KEY) == "int8":
        return 0
    total = int(store._db.read("MATCH (v:FVec) RETURN count(v)")[0][0])
    done = 0
    while total:
        def page(tx: Any) -> int:
            import numpy as np

            found = tx.read("MATCH (v:FVec) RETURN v.id, v.embedding LIMIT $n", {"n": MIGRATE_PAGE})
            if not found:
                return 0
            ids = [int(r[0]) for r in found]
            vectors = [r[1] for r in found]
            good = [k for k, v in enumerate(vectors) if v is not None and len(v) == store.dimensions]
            if good:
                codes = encode(quantize(np.asarray([vectors[k] for k in good], dtype=np.float32)))
                (version,) = tx.next_ids(VERSION, 1)
                tx.write("UNWIND $rows AS r MATCH (f:Fact {id: r.id}) SET f.q = r.q, f.qv = $qv",
                         {"rows": [{"id": ids[k], "q": q} for k, q in zip(good, codes, strict=True)], "qv": version})
            tx.write("UNWIND $ids AS i MATCH (v:FVec {id: i}) DELETE v", {"ids": ids})
            return len(found)

        n = graph.write(page)
        if not n:
            break
        done += n
        log.info("Compacting facts' vectors: %d of %d", done, total)
        if progress is not None:
            progress(done, total)
    _drop_old_indexes(store._db)
    graph.set_metadata(LAYOUT_KEY, "int8")
    return done


def in_context(store: Any, progress: Any = None) -> int:
    """Make every fact with a vector of its bare text due once (``emb`` cleared, ``q`` kept), a
    span of ``CONTEXT_PAGE`` fact ids per write, resumable (the cursor is kept with each span).
    Returns how many facts it made due."""
    graph = store._graph
    if graph.get_metadata(CONTEXT_KEY) == "1":
        return 0
    found = store._db.read("MATCH (c:Counter {name: $c}) RETURN c.value", {"c": COUNTER})
    last = int(found[0][0]) if found else 0  # facts written after this are embedded in context
    done = 0
    while True:
        def page(tx: Any) -> tuple[int, int] | None:
            cursor = tx.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": CONTEXT_CURSOR_KEY})
            after = int(cursor[0][0]) if cursor else 0
            if after >= last:
                tx.write("MERGE (m:Meta {key: $k}) SET m.value = '1'", {"k": CONTEXT_KEY})
                return None
            upto = min(after + CONTEXT_PAGE, last)
            span = {"a": after, "b": upto}
            n = int(tx.read("MATCH (f:Fact) WHERE f.id > $a AND f.id <= $b AND f.emb IS NOT NULL "
                            "RETURN count(f)", span)[0][0])
            tx.write("MATCH (f:Fact) WHERE f.id > $a AND f.id <= $b AND f.emb IS NOT NULL SET f.emb = null", span)
            tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": CONTEXT_CURSOR_KEY, "v": str(upto)})
            return n, upto

        step = graph.write(page)
        if step is None:
            return done
        done += step[0]
        log.info("Facts due to be embedded in context: up to fact %d of %d", step[1], last)
        if progress is not None:
            progress(step[1], last)


def _drop_old_indexes(dialect: Any) -> None:
    if dialect.name == "neo4j":
        for name in ("hipocampo_fact_vectors", "hipocampo_fvec_id", "hipocampo_fvec_eid"):
            dialect.driver.run(f"DROP INDEX {name} IF EXISTS")
        return
    from redis.exceptions import ResponseError

    for statement in ("DROP VECTOR INDEX FOR (v:FVec) ON (v.embedding)", "DROP INDEX FOR (v:FVec) ON (v.id)",
                      "DROP INDEX FOR (v:FVec) ON (v.eid)"):
        with contextlib.suppress(ResponseError):  # not there (a graph made after the change)
            dialect.graph.query(statement)


# -- CypherVectorStore's FactVectors ---------------------------------------------------------------

class FactVectorsMixin:
    """``core.protocols.FactVectors`` for ``CypherVectorStore`` (it provides ``_graph``, ``_db``,
    ``dimensions`` and calls ``_open_facts``)."""

    _graph: Any
    _db: Any
    dimensions: int

    def _open_facts(self) -> None:
        self.facts = FactMatrix()
        self._facts_lock = threading.Lock()
        self._facts_seen: tuple[int, int, str | None] | None = None  # (fact_vec, fact_gone, generation)
        self._facts_gone_at_load = 0
        if not self._graph.read_only:
            migrate(self)
            in_context(self)  # a graph whose facts' vectors are of their bare text

    def pending_facts(self, model_id: str, limit: int) -> dict[int, str]:
        """Up to ``limit`` facts (fact id → text) lacking a vector from ``model_id``, oldest first."""
        return {int(i): t for i, t in self._db.read(
            "MATCH (f:Fact) WHERE f.emb IS NULL OR f.emb <> $m RETURN f.id, f.text ORDER BY f.id LIMIT $n",
            {"m": model_id, "n": int(limit)})}

    def newest_pending_facts(self, model_id: str, newest: int) -> list[int]:
        """The due facts among the ``newest`` facts (what was just written)."""
        return newest_due(self._graph.memo, "Fact", COUNTER, "f.emb", model_id, newest)

    def fact_texts(self, ids: Sequence[int]) -> dict[int, str]:
        return {fid: text for fid, (_, text) in self.fact_owners(ids).items()}

    def fact_owners(self, ids: Sequence[int]) -> dict[int, tuple[int, str]]:
        """fact id → (entity id, text), for the facts that still exist."""
        return {int(f): (int(e), t) for f, e, t in self._db.read(
            "UNWIND $ids AS i MATCH (f:Fact {id: i}) RETURN f.id, f.eid, f.text", {"ids": [int(i) for i in ids]})}

    def store_facts(self, model_id: str, embedded: dict[int, tuple[str, np.ndarray]]) -> int:
        """Store fact vectors (id → (hash of the text in context, vector)) of facts that still
        exist with that text in context (``core.embeddings.context``)."""
        import numpy as np

        if not embedded:
            return 0

        def write(tx: Any) -> tuple[int, list[int], np.ndarray | None]:
            current = {int(f): (t, n, e) for f, t, n, e in tx.read(  # the text in context, read in this write
                "UNWIND $ids AS i MATCH (f:Fact {id: i}) OPTIONAL MATCH (e:Entity {id: f.eid}) "
                "RETURN f.id, f.text, e.name, e.type", {"ids": list(embedded)})}
            ids = [fid for fid, (h, _) in embedded.items() if fid in current and still_current(h, *current[fid])]
            if not ids:
                return 0, [], None
            rows = quantize(np.stack([np.asarray(embedded[fid][1], dtype=np.float32) for fid in ids]))
            (version,) = tx.next_ids(VERSION, 1)
            tx.write("UNWIND $rows AS r MATCH (f:Fact {id: r.id}) SET f.q = r.q, f.qv = $qv, f.emb = $m",
                     {"rows": [{"id": i, "q": q} for i, q in zip(ids, encode(rows), strict=True)],
                      "qv": version, "m": model_id})
            return version, ids, rows

        version, ids, rows = self._graph.write(write)
        if ids:
            with self._facts_lock:  # ours the only write since the matrix's: no need to read it back
                seen = self._facts_seen
                if seen is not None and seen[0] == version - 1 and self.facts.dims == rows.shape[1]:
                    self.facts.put(ids, rows)
                    self._facts_seen = (version, seen[1], seen[2])
        return len(ids)

    def fact_progress(self, model_id: str) -> tuple[int, int]:
        """(facts with a vector from ``model_id``, all facts)."""
        done, total = self._db.read("MATCH (f:Fact) RETURN sum(CASE WHEN f.emb = $m THEN 1 ELSE 0 END), count(f)",
                                    {"m": model_id})[0]
        return int(done or 0), int(total)

    def search_facts(self, vector: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The ``k`` nearest facts (fact id, cosine distance), nearest first."""
        import numpy as np

        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape != (self.dimensions,):
            raise InvalidInput(f"expected a vector of {self.dimensions} floats, got {query.shape}")
        if k <= 0:
            return []
        with self._facts_lock:
            check = self._sync_facts()
            for _ in range(3):
                found = self.facts.search(query, k)
                if not check or not found:
                    return found
                live = {int(r[0]) for r in self._db.read("UNWIND $ids AS i MATCH (f:Fact {id: i}) RETURN f.id",
                                                         {"ids": [i for i, _ in found]})}
                dead = [i for i, _ in found if i not in live]
                if not dead:
                    return found
                self.facts.forget(dead)
            return [(i, d) for i, d in found if i in live]

    def fact_distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        """Cosine distance from ``vector`` to the stored vectors of the facts ``ids``."""
        with self._facts_lock:
            self._sync_facts()
            return self.facts.distances(vector, [int(i) for i in ids])

    def _sync_facts(self) -> bool:
        """Catch the matrix up with the server; True if facts were deleted since it was loaded
        (a search then checks its ids)."""
        found = self._graph.memo.rows("fact_state", _STATE,  # no query while nothing was written
                                      {"v": VERSION, "g": GONE, "k": GENERATION_KEY, "c": COUNTER})
        version, gone_at, generation, last_id = (found[0] if found else [None] * 4)
        state = (int(version or 0), int(gone_at or 0), generation)
        seen = self._facts_seen
        if seen is not None and state == seen and self.facts.dims == self.dimensions:
            return state[1] != self._facts_gone_at_load
        if seen is None or state[0] < seen[0] or state[2] != seen[2] or self.facts.dims != self.dimensions:
            self._load_facts(int(last_id or 0))
            self._facts_gone_at_load = state[1]
        elif state[0] != seen[0]:
            rows = self._db.read("MATCH (f:Fact) WHERE f.qv > $v RETURN f.id, f.q", {"v": seen[0]})
            self._put_facts(rows)
        self._facts_seen = state
        return state[1] != self._facts_gone_at_load

    def _load_facts(self, last_id: int) -> None:
        self.facts.reset(self.dimensions)
        for start in range(0, last_id, LOAD_PAGE):
            self._put_facts(self._db.read(
                "MATCH (f:Fact) WHERE f.id > $a AND f.id <= $b AND f.q IS NOT NULL RETURN f.id, f.q",
                {"a": start, "b": start + LOAD_PAGE}))

    def _put_facts(self, rows: list[list[Any]]) -> None:
        keep, block = decode([r[1] for r in rows], self.dimensions)
        self.facts.put([int(rows[k][0]) for k in keep], block)

    def _forget_facts(self, tx: Any) -> None:
        tx.write("MATCH (f:Fact) SET f.emb = null")

    def _drop_fact_vectors(self, tx: Any) -> None:
        """Every fact's vector gone (another size of vector): every process loads again."""
        import uuid

        tx.write("MATCH (f:Fact) SET f.emb = null, f.q = null, f.qv = null")
        tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": GENERATION_KEY, "v": uuid.uuid4().hex})
