"""Every observation a fact of its own on a Cypher server: a ``:Fact {id, eid, text, ft, emb, q, qv}``
node beside its entity, found by the server's full-text index (``ft``: the folded text, stemmed as
SQLite's porter table is) and by its int8 vector (``q``, searched in the process: ``cypher.fact_vectors``).

The entity node keeps its observation list (what the official tools read, byte for byte); the
facts follow it. Every write that stores an entity row ends in ``sync`` (``CypherGraphStore.put_rows``,
``Work``'s commit), which compares the row's observations with its facts as the write sees them
and queues the difference: a new text is a new fact (due for a vector: ``emb`` is empty), a text
gone takes its fact and vector with it. So one rule holds on every write path; a deleted entity's
facts go with ``drop``. A graph written before facts existed is brought in step at open
(``migrate``: a page of entities per write, resumable from its cursor).

What the rest of search does with facts — the ranking, the freshness rule, the no-good-match gate — is
``core.search.hybrid``'s, the same for every backend.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from core.model import Node, ScoredNode
from core.search import bm25
from core.search.folding import content_words, fold
from core.storage.cypher import fact_vectors
from core.storage.cypher import rows as R
from core.storage.cypher.memo import ReadMemo

if TYPE_CHECKING:  # numpy loads with the first vector
    import numpy as np

log = logging.getLogger(__name__)

COUNTER = "fact"
MIGRATED_KEY = "facts_index"        # "1" once every entity's facts exist
CURSOR_KEY = "facts_migrated_to"    # the last entity id the migration has done
MIGRATE_PAGE = 500
OWN_KEY = "own_words_index"         # "1" once every entity has the ``:Own`` label and ``ft_own``
OWN_CURSOR_KEY = "own_words_to"     # the last entity id ``migrate_own`` has done
OWN_PAGE = 2000
WORDS_KEPT = 10_000  # words whose count of facts a process keeps while no fact is written or deleted
# Of a word in very many facts, the newest this many are ranked (as SQLite's RANK_AT_MOST); a
# fact's length in words is estimated from its folded text.
RANK_AT_MOST = 2000
CHARS_PER_WORD = 6
# A query whose every word is in a tenth of the facts or more (in a memory where that is at least
# VERY_COMMON_AT_LEAST facts) is not ranked by its words: each word's IDF is at most ln 10 and the
# same for every fact holding it, so ranking them orders tens of thousands of facts by length
# alone, and FalkorDB's full-text procedure materialises every one of them before the newest
# RANK_AT_MOST are kept (65 ms of the server's time for a word in 100k of 500k facts,
# bench/RESULTS.md session 5). The facts' vectors and the entities' own words still answer such a
# query. (With one word less common among them, the facts holding all are ranked, as before.)
# Smaller memories never reach the floor.
VERY_COMMON_SHARE, VERY_COMMON_AT_LEAST = 10, 5_000


def very_common(total: int) -> int:
    """How many facts of ``total`` make a word too common to rank by words."""
    return max(VERY_COMMON_AT_LEAST, total // VERY_COMMON_SHARE)


_STATE = "_fact_state"  # on a write: entity id → {text: fact id}, as this write has left them


# -- the dialects' syntax (kept here: a dialect without these has no fact index) --------------------

class _Falkor:
    schema = [
        "CREATE INDEX FOR (f:Fact) ON (f.id)",
        "CREATE INDEX FOR (f:Fact) ON (f.eid)",
        "CREATE INDEX FOR (f:Fact) ON (f.qv)",  # what a process has not read yet (cypher.fact_vectors)
        # Stemmed (English), no stopwords: as SQLite's fact_fts (porter over folded text).
        "CALL db.idx.fulltext.createNodeIndex({label: 'Fact', stopwords: [], language: 'english'}, 'ft')",
    ]
    @staticmethod
    def fulltext(query: str) -> str:
        return f"CALL db.idx.fulltext.queryNodes('Fact', {query}) YIELD node, score WITH node, score"

    @staticmethod
    def distance(stored: str, param: str) -> str:
        """Cosine distance computed by the server (a vector read back is 384 floats of text)."""
        return f"vec.cosineDistance({stored}, vecf32({param}))"

    @staticmethod
    def words(words: list[str]) -> str:
        return " | ".join("".join(ch if ch.isalnum() else "\\" + ch for ch in w) for w in words)

    @classmethod
    def all_words(cls, words: list[str]) -> str:
        """The query for facts holding every one of ``words``."""
        return " ".join(cls.words([w]) for w in words)

    @classmethod
    def names(cls, words: list[str]) -> str:
        """The entity index's query for these words in the name only."""
        return f"@ft_name:({cls.words(words)})"



class _Neo4j:
    schema = [
        "CREATE INDEX hipocampo_fact_id IF NOT EXISTS FOR (f:Fact) ON (f.id)",
        "CREATE INDEX hipocampo_fact_eid IF NOT EXISTS FOR (f:Fact) ON (f.eid)",
        "CREATE INDEX hipocampo_fact_qv IF NOT EXISTS FOR (f:Fact) ON (f.qv)",
        "CREATE FULLTEXT INDEX hipocampo_fact_text IF NOT EXISTS FOR (f:Fact) ON EACH [f.ft] "
        "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}",
    ]
    @staticmethod
    def fulltext(query: str) -> str:
        return (f"CALL db.index.fulltext.queryNodes('hipocampo_fact_text', {query}) YIELD node, score "
                "WITH node, score")

    @staticmethod
    def distance(stored: str, param: str) -> str:  # Neo4j's similarity is (1 + cos) / 2
        return f"2.0 - 2.0 * vector.similarity.cosine({stored}, {param})"

    @staticmethod
    def words(words: list[str]) -> str:
        special = set('+-&|!(){}[]^"~*?:\\/')
        return " OR ".join("".join("\\" + ch if ch in special else ch for ch in w) for w in words)

    @classmethod
    def all_words(cls, words: list[str]) -> str:
        return " AND ".join(cls.words([w]) for w in words)

    @classmethod
    def names(cls, words: list[str]) -> str:
        return " OR ".join(f"ft_name:({w})" for w in cls.words(words).split(" OR "))


def syntax(dialect: Any) -> Any:
    return _Neo4j if dialect.name == "neo4j" else _Falkor


def _run_schema(dialect: Any, statements: Sequence[str]) -> None:
    from redis.exceptions import ResponseError

    for statement in statements:
        try:
            dialect.graph.query(statement)
        except ResponseError as exc:
            if "already indexed" not in str(exc) and "already exists" not in str(exc):
                raise


def ensure_schema(dialect: Any) -> None:
    """The fact indexes (idempotent)."""
    if dialect.name == "neo4j":
        for statement in _Neo4j.schema:
            dialect.driver.run(statement)  # DDL outside a transaction (core/storage/cypher/bolt.py)
        return
    _run_schema(dialect, _Falkor.schema)


# -- keeping facts in step with the entity rows (inside the caller's write) -------------------------

def _state(tx: Any) -> dict[int, dict[str, int]]:
    state = getattr(tx, _STATE, None)
    if state is None:
        state = {}
        setattr(tx, _STATE, state)
    return state


def sync(tx: Any, rows: Sequence[dict[str, Any]], *, created: bool = False) -> None:
    """Queue the fact changes that make each row's facts its observations (``created``: rows new
    in this write, which have none yet). A write's reads do not see its queued writes, so what it
    has done is kept on the write itself."""
    if not rows:
        return
    state = _state(tx)
    unknown = [r["id"] for r in rows if r["id"] not in state and not created]
    for eid in unknown:
        state[eid] = {}
    if unknown:
        for eid, fid, text in tx.read("UNWIND $ids AS i MATCH (f:Fact {eid: i}) RETURN i, f.id, f.text",
                                      {"ids": unknown}):
            state[eid][text] = fid
    gone: list[int] = []
    new: list[dict[str, Any]] = []
    for row in rows:
        have = state.setdefault(row["id"], {})
        wanted = dict.fromkeys(row["obs"])
        for text in [t for t in have if t not in wanted]:
            gone.append(have.pop(text))
        added = [t for t in wanted if t not in have]
        for fid, text in zip(tx.next_ids(COUNTER, len(added)), added, strict=True):
            have[text] = fid
            new.append({"id": fid, "eid": row["id"], "text": text, "ft": fold(text)})
    if gone:
        tx.write("UNWIND $ids AS i MATCH (f:Fact {id: i}) DELETE f", {"ids": gone})
        fact_vectors.gone(tx)
    if new:
        tx.write("UNWIND $rows AS r CREATE (f:Fact) SET f = r", {"rows": new})


def drop(tx: Any, entity_ids: Sequence[int]) -> None:
    """Queue the removal of the facts (and their vectors) of deleted entities."""
    ids = [int(i) for i in dict.fromkeys(entity_ids)]
    if not ids:
        return
    state = _state(tx)
    for eid in ids:
        state[eid] = {}
    tx.write("UNWIND $ids AS i MATCH (f:Fact {eid: i}) DELETE f", {"ids": ids})
    fact_vectors.gone(tx)


def _by_pages(store: Any, cursor_key: str, done_key: str, what: str,
              do: Callable[[Any, int], tuple[int, int]], progress: Any, stop: Callable[[], bool] | None) -> int:
    """Run ``do(tx, after)`` (one page of the entities after id ``after``: how many it did, and the
    last id) until it finds none, a page per write, resumable: the cursor is kept under
    ``cursor_key`` with each page, and ``done_key`` is set to "1" at the end. Returns how many
    entities it did; ``stop()`` true between two pages ends it there (the next run resumes)."""
    total = int(store.db.read("MATCH (e:Entity) RETURN count(e)")[0][0])
    done = 0
    while stop is None or not stop():
        def page(tx: Any) -> int:
            found = tx.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": cursor_key})
            after = int(found[0][0]) if found else 0
            n, last = do(tx, after)
            tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v",
                     {"k": cursor_key if n else done_key, "v": str(last) if n else "1"})
            return int(n)

        n = store.write(page)
        if not n:
            return done
        done += n
        log.info("%s: %d of %d entities", what, done, total)
        if progress is not None:
            progress(done, total)
    return done


def migrate(store: Any, progress: Any = None, stop: Callable[[], bool] | None = None) -> int:
    """Give every entity of a graph written before facts existed its facts, a page per write,
    resumable (the cursor is kept with each page). Returns how many entities it did."""
    if store.get_metadata(MIGRATED_KEY) == "1":
        return 0

    def facts_of(tx: Any, after: int) -> tuple[int, int]:
        rows = [R.row_of(r[0]) for r in tx.read(
            f"MATCH (e:Entity) WHERE e.id > $a RETURN {R.ENTITY} ORDER BY e.id LIMIT $n",
            {"a": after, "n": MIGRATE_PAGE})]
        sync(tx, rows)
        return len(rows), int(rows[-1]["id"]) if rows else after

    return _by_pages(store, CURSOR_KEY, MIGRATED_KEY, "Indexing facts", facts_of, progress, stop)


def migrate_own(store: Any, progress: Any = None, stop: Callable[[], bool] | None = None) -> int:
    """Give every entity of a graph written before the ``:Own`` index its label and ``ft_own``
    (``rows.own_text``), a page per write, resumable (the cursor is kept with each page); new and
    rewritten entities get them from every write (``rows.stored``, ``rows.LABELS``). Returns how
    many entities it did. FalkorDB only (Neo4j searches entities' own words as before)."""
    if store.db.name != "falkordb" or store.get_metadata(OWN_KEY) == "1":
        return 0

    def own_of(tx: Any, after: int) -> tuple[int, int]:
        rows = tx.read("MATCH (e:Entity) WHERE e.id > $a RETURN e.id, e.type, e.props ORDER BY e.id LIMIT $n",
                       {"a": after, "n": OWN_PAGE})
        if rows:
            tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e:Own, e.ft_own = r.o",
                     {"rows": [{"id": i, "o": R.own_text(t, R.loads(p) or {})} for i, t, p in rows]})
        return len(rows), int(rows[-1][0]) if rows else after

    return _by_pages(store, OWN_CURSOR_KEY, OWN_KEY, "Indexing entities' own words", own_of, progress, stop)


def upgrades_due(store: Any) -> bool:
    """Whether ``migrate`` or ``migrate_own`` has anything to do on this graph (one read)."""
    marks = {k: v for k, v in store.db.read("MATCH (m:Meta) WHERE m.key IN $keys RETURN m.key, m.value",
                                            {"keys": [MIGRATED_KEY, OWN_KEY]})}
    return marks.get(MIGRATED_KEY) != "1" or (store.db.name == "falkordb" and marks.get(OWN_KEY) != "1")


def upgrade(store: Any, progress: Callable[[str, int, int], None] | None = None,
            stop: Callable[[], bool] | None = None) -> None:
    """Both upgrades of an older graph, in order (``progress(what, done, total)`` after each page;
    ``stop()`` true ends them between two pages, to be resumed by the next call)."""
    for what, step in (("facts", migrate), ("own_words", migrate_own)):
        if stop is not None and stop():
            return
        step(store, None if progress is None else (lambda done, total, w=what: progress(w, done, total)), stop)


# -- reading facts (CypherGraphStore's FactText) ------------------------------------------------------

class FactTextMixin:
    """``core.protocols.FactText`` for ``CypherGraphStore`` (it provides ``db`` and ``memo``)."""

    db: Any
    memo: ReadMemo

    def fact_search(self, query: str, *, limit: int = 50, label: str | None = None,
                    include_archived: bool = False) -> list[tuple[int, int, float]]:
        """Facts holding any of the query's content words, best BM25 first: (fact id, entity id,
        score). The server's index finds each word's facts (stemmed); ``core.search.bm25`` chooses
        the words worth ranking (as SQLite's search does: the rare ones, or all the common ones
        together) and ranks their facts (the server's own score barely tells a rare word from a
        common one); a query whose every word is in a tenth of a large memory's facts is not
        ranked (``very_common``). Operators are literal."""
        words = content_words(query)[:16]
        if not words:
            return []
        lookup = syntax(self.db)
        counts, cap, total = self._word_counts(words)
        counts = {w: min(n, cap) for w, n in counts.items()}  # (a count kept from a deeper one)
        chosen, together = bm25.ranked_words(counts, cap)
        if together and very_common(total) > cap:  # every word common: are they all too common to rank?
            deep = self._word_counts(chosen, very=True)[0]
            if all(deep[w] >= very_common(total) for w in chosen):
                chosen = []
        if not chosen:
            return []
        # With a type to match, each word's facts are those of entities of that type; without one,
        # whose entity is gone or archived is checked for the best facts alone (one lookup for a
        # few dozen, not for every fact a common word is in).
        where = ["true"]
        if label is not None:
            where.append("e.type = $label")
            if not include_archived:
                where.append("e.archived_at IS NULL")
        owner = f"MATCH (e:Entity {{id: node.eid}}) WHERE {' AND '.join(where)} " if label is not None else ""
        # Ranked by the server, as ``bm25.score`` ranks (each word counted once a fact, a fact's
        # length in words estimated from its folded text, the average over the facts found), so
        # only the best few come back: reading back thousands of hits was most of a search's time.
        # A common word's count stopped at ``cap``: its IDF is taken as of ``cap`` facts (an upper
        # bound; words held together score alike in every fact).
        total = max(total, *counts.values())
        queries = ([{"q": lookup.all_words(chosen), "idf": sum(bm25.idf(counts[w], total) for w in chosen)}]
                   if together else [{"q": lookup.words([w]), "idf": bm25.idf(counts[w], total)} for w in chosen])
        live = "true" if label is not None else "e IS NOT NULL" + ("" if include_archived else
                                                                   " AND e.archived_at IS NULL")
        if len(queries) == 1:  # one query (one word, or all held together): no sub-query per word,
            # which costs FalkorDB several times the same search (3.7 against 5.7 ms of its time for
            # a word in 1.3k facts, at best), and no ordering of a rare word's facts (all are ranked)
            newest = "" if not together and counts[chosen[0]] <= RANK_AT_MOST else \
                "WITH node ORDER BY node.id DESC LIMIT $cap "
            source = f"{lookup.fulltext('$q')} {owner}{newest}WITH node, $idf AS weight "
        else:
            source = (f"UNWIND $words AS w CALL {{ WITH w {lookup.fulltext('w.q')} {owner}"
                      "RETURN node ORDER BY node.id DESC LIMIT $cap } WITH node, sum(w.idf) AS weight ")
        statement = (
            f"{source}WITH node, weight, CASE WHEN size(node.ft) < {CHARS_PER_WORD} THEN 1 "
            f"ELSE size(node.ft) / {CHARS_PER_WORD} END AS words "
            "WITH collect([node, weight, words]) AS hits, avg(words) AS average UNWIND hits AS h "
            "WITH h[0] AS node, h[1] * ($k1 + 1.0) / (1.0 + $k1 * (1.0 - $b + $b * h[2] / average)) AS score "
            "ORDER BY score DESC, node.id LIMIT $top "
            f"OPTIONAL MATCH (e:Entity {{id: node.eid}}) RETURN node.id, node.eid, score, {live}")
        # Whose entity is gone or archived is checked for the best facts alone: should too few of
        # them be live, the next best are asked for.
        top = max(limit * 2, 20)
        while True:
            found = self.db.read(statement, {"words": queries, "q": queries[0]["q"], "idf": queries[0]["idf"],
                                             "label": label, "cap": RANK_AT_MOST, "k1": bm25.K1, "b": bm25.B,
                                             "top": top})
            kept = [(int(f), int(e), float(s)) for f, e, s, ok in found if ok]
            if len(kept) >= limit or len(found) < top:
                return kept[:limit]
            top *= 4

    def _word_counts(self, words: list[str], very: bool = False) -> tuple[dict[str, int], int, int]:
        """Each word's count of facts, stopping at the common cap (a common word's count costs what
        its first ``cap`` facts cost, not its 500k) — or, with ``very``, at ``very_common`` (dearer:
        asked only when every word is common) — with the cap and the number of facts ever written
        (near enough to those there are, which sets both).

        One round trip: a UNION of the fact and ``fact_gone`` counters and the counts (not
        ``UNWIND … CALL {}``: there FalkorDB 4.16 stops every word after the first that reaches
        the LIMIT). The counts are kept in this process for as long as both counters stay as
        they were (no fact written or deleted since: the counts cannot have moved; a rolled back
        transaction moves ``fact_gone`` too, ``FalkorDialect.snapshot``), so a word asked again
        is not counted again; when a counter moved, every word is counted afresh."""
        lookup = syntax(self.db)
        state_query = ("OPTIONAL MATCH (c:Counter {name: $c}) RETURN -1 AS i, coalesce(c.value, 0) AS n UNION ALL "
                       "OPTIONAL MATCH (g:Counter {name: $g}) RETURN -2 AS i, coalesce(g.value, 0) AS n")
        state_params = {"c": COUNTER, "g": fact_vectors.GONE}

        def limit(total: int) -> int:
            return very_common(total) if very else bm25.common_cap(total)

        def ask(todo: list[str], upto: int) -> tuple[tuple[int, int], dict[str, tuple[int, int]]]:
            found = self.db.read(" UNION ALL ".join([state_query, *(
                f"{lookup.fulltext(f'$q{i}')} LIMIT $cap RETURN {i} AS i, count(node) AS n"
                for i in range(len(todo)))]),
                {**state_params, "cap": upto, **{f"q{i}": lookup.words([w]) for i, w in enumerate(todo)}})
            by = {int(i): int(n) for i, n in found}
            return (by[-1], by[-2]), {w: (by.get(k, 0), upto) for k, w in enumerate(todo)}

        # known: word → (its count, the limit it was counted up to): exact below that limit
        kept: tuple[tuple[int, int] | None, dict[str, tuple[int, int]]] = getattr(self, "_counted", (None, {}))
        seen, known = kept
        if seen is None:  # the first search: the cap is not known yet
            first = {int(i): int(n) for i, n in self.db.read(state_query, state_params)}
            seen = (first[-1], first[-2])
        upto = limit(seen[0])
        todo = [w for w in dict.fromkeys(words)
                if w not in known or known[w][1] < upto and known[w][0] >= known[w][1]]
        state, got = ask(todo, upto)
        while state != seen:  # facts written or deleted since: nothing kept holds
            known = {}
            seen, upto = state, limit(state[0])
            todo = list(dict.fromkeys(words))
            state, got = ask(todo, upto)
        known = {**(known if len(known) < WORDS_KEPT else {}), **got}
        self._counted = (state, known)
        return {w: known[w][0] for w in words}, bm25.common_cap(state[0]), state[0]

    def common_words(self, words: Sequence[str], share: float, at_least: int, at_most: int) -> set[str]:
        """Those of ``words`` (folded) that more than ``share`` of all facts and at least ``at_least``
        facts hold, or ``at_most`` (each counted only
        up to that many; the facts ever written stand for those there are, as ``_word_counts``)."""
        todo = list(dict.fromkeys(words))
        if not todo:
            return set()
        lookup = syntax(self.db)
        written = self.db.read("OPTIONAL MATCH (c:Counter {name: $c}) RETURN coalesce(c.value, 0)", {"c": COUNTER})
        bound = min(at_most, max(at_least, int(share * int(written[0][0] if written else 0)) + 1))
        found = self.db.read(" UNION ALL ".join(
            f"{lookup.fulltext(f'$q{i}')} LIMIT $bound RETURN {i} AS i, count(node) AS n" for i in range(len(todo))),
            {"bound": bound, **{f"q{i}": lookup.words([w]) for i, w in enumerate(todo)}})
        return {todo[int(i)] for i, n in found if int(n) >= bound}

    def _own_words(self, words: list[str], limit: int, label: str | None,
                   include_archived: bool, name: str = "") -> list[ScoredNode]:
        """Entities whose own fields (name, type, text properties such as a summary) hold any of
        ``words``, best first, as SQLite's ``own_fields`` (their facts: ``fact_search``). On
        FalkorDB the ``:Own`` index holds just those fields (name weighted highest), and the hits
        come back with their heads in the same round trip; elsewhere (or on a graph not yet
        brought in step, ``migrate_own``) the entity index holds the name and a body of type,
        facts and summary: the server finds the candidates and their heads are read after.
        ``name``: the entity of exactly that name is looked up in the same round trip and kept
        (``cypher.memo``: search asks for the entity named as the query next)."""
        where = ["true"]
        if not include_archived:
            where.append("node.archived_at IS NULL")
        if label is not None:
            where.append("node.type = $label")
        params = {"q": syntax(self.db).words(words), "label": label, "limit": int(limit) * 4}
        if self._own_index():
            head = "{.id, .name, .type, .props, .created_at, .updated_at, .archived_at}"
            hits, version = self.memo.read(
                f"{self.db.OWN_CALL} WHERE {' AND '.join(where)} "
                f"RETURN node {head} AS node, score, size(node.obs) AS n ORDER BY score DESC, node.id LIMIT $limit"
                + (f" UNION ALL MATCH (e:Entity {{name: $name}}) RETURN e {head} AS node, null AS score, "
                   "size(e.obs) AS n" if name else ""), {**params, "name": name})
            named = [r for r in hits if r[1] is None]
            hits = [r for r in hits if r[1] is not None]
            self.memo.put(version, heads={r[0]["id"]: R.row_of(r[0]) for r in named},
                          counts={r[0]["id"]: int(r[2]) for r in named},
                          names={name: named[0][0]["id"] if named else None} if name else {})
            rows = {r[0]["id"]: R.row_of(r[0]) for r in hits}
            self.memo.put(version, heads=dict(rows), counts={r[0]["id"]: int(r[2]) for r in hits},
                          names={row["name"]: i for i, row in rows.items()})
            heads = {i: R.node(row) for i, row in rows.items()}
            found = [[r[0]["id"], r[1]] for r in hits]
        else:
            found = self.db.read(
                f"{self.db.FULLTEXT_CALL} WHERE {' AND '.join(where)} RETURN node.id, score "
                "ORDER BY score DESC, node.id LIMIT $limit", params)
            heads = {n.id: n for n in self.entity_heads([i for i, _ in found])}
        wanted = set(words)

        def own(node: Node) -> bool:
            fields = [node.name, node.label, *(v for v in (node.props or {}).values() if isinstance(v, str))]
            return bool(wanted & set(content_words(" ".join(fields))))

        return [ScoredNode(node=heads[i], score=float(s)) for i, s in found if i in heads and own(heads[i])][:limit]

    def _own_index(self) -> bool:
        """Whether this graph's ``:Own`` index holds every entity (``migrate_own`` done); once it
        does it always will (every write keeps it), so that is remembered."""
        if getattr(self, "_own_ready", False):
            return True
        ready = bool(self.db.name == "falkordb" and self.get_metadata(OWN_KEY) == "1")  # type: ignore[attr-defined]
        self._own_ready = ready
        return ready

    def facts_of(self, entity_ids: list[int]) -> dict[int, list[tuple[int, str]]]:
        """Each entity's facts (fact id, text), in their order."""
        out: dict[int, list[tuple[int, str]]] = {int(e): [] for e in entity_ids}
        for eid, fid, text in self.db.read("UNWIND $ids AS i MATCH (f:Fact {eid: i}) RETURN i, f.id, f.text "
                                           "ORDER BY f.id", {"ids": list(out)}):
            out[int(eid)].append((int(fid), text))
        return out

    def fact_counts(self, entity_ids: list[int]) -> dict[int, int]:
        """How many facts each entity has."""
        out = dict.fromkeys((int(e) for e in entity_ids), 0)
        kept = self.memo.counts_of(list(out))  # read with the heads, nothing written since
        if kept is not None:
            return {**out, **kept}
        out.update({int(e): int(n) for e, n in self.db.read(
            "UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN i, size(e.obs)", {"ids": list(out)})})
        return out

    def first_facts(self, entity_ids: list[int], n: int) -> dict[int, list[str]]:
        """Each entity's first ``n`` observations."""
        out: dict[int, list[str]] = {int(e): [] for e in entity_ids}
        for eid, obs in self.db.read("UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN i, e.obs[0..$n]",
                                     {"ids": list(out), "n": int(n)}):
            out[int(eid)] = list(obs or [])
        return out

    def entity_heads(self, ids: Sequence[int]) -> list[Node]:
        """Nodes for ``ids`` without their observations (a long entity's facts are not read)."""
        if not ids:
            return []
        wanted = [int(i) for i in dict.fromkeys(ids)]
        kept = self.memo.heads_of(wanted)  # read earlier in this search, nothing written since
        if kept is not None:
            return [R.node(row) for i in ids if (row := kept[int(i)]) is not None]
        found, version = self.memo.read(
            "UNWIND $ids AS i MATCH (e:Entity {id: i}) "
            "RETURN e {.id, .name, .type, .props, .created_at, .updated_at, .archived_at}, size(e.obs)",
            {"ids": wanted})
        rows: dict[int, dict[str, Any] | None] = dict.fromkeys(wanted)
        rows.update({r[0]["id"]: R.row_of(r[0]) for r in found})
        self.memo.put(version, heads=rows, counts={r[0]["id"]: int(r[1]) for r in found},
                      names={row["name"]: i for i, row in rows.items() if row is not None})
        return [R.node(row) for i in ids if (row := rows[int(i)]) is not None]


def vector_distances(dialect: Any, label: str, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
    """Cosine distance from ``vector`` to the stored vectors of ``ids`` on ``label`` nodes, computed
    by the server."""
    import numpy as np

    query = [float(x) for x in np.asarray(vector, dtype=np.float32).reshape(-1)]
    return {int(i): float(d) for i, d in dialect.read(
        f"UNWIND $ids AS i MATCH (v:{label} {{id: i}}) RETURN i, {syntax(dialect).distance('v.embedding', '$v')}",
        {"ids": [int(i) for i in ids], "v": query})}
