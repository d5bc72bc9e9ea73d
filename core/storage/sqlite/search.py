"""Searching the SQLite graph by text: ``search_nodes`` (the official server's substring match,
over the trigram indexes ``entity_substr`` / ``fact_substr`` and the folded texts) and
``fulltext_search`` / ``fact_search`` (whole words ranked by BM25 over ``entity_fts`` / ``fact_fts``).
Both fold case, accents and Unicode forms, and take every character of the query literally."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from core.model import Node, ScoredNode
from core.search import bm25
from core.search.folding import content_words, fold, fts_phrase
from core.storage.sqlite import indexing, reads
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database
from core.storage.sqlite.reads import IDS

RANK_AT_MOST = 2000


class GraphSearch:
    """Text search for ``SqliteGraphStore`` (which provides ``db`` and ``totals``)."""

    db: Database
    totals: reads.Totals

    # -- substrings (search_nodes) ---------------------------------------------------------------

    def search_nodes_dump(
        self, query: str, *, limit: int | None = None, include_archived: bool = False
    ) -> dict[str, Any]:
        """``search_nodes(...).dump()``, built without models (a broad word matches thousands)."""
        ids = self._substring_ids(fold(query), limit, include_archived)
        with self.db.locked() as conn:
            return reads.answer_for_ids(conn, ids, self.db.beside)

    def _substring_ids(self, needle: str, limit: int | None, include_archived: bool) -> list[int]:
        archived = "" if include_archived else " AND e.archived_at IS NULL"
        if indexing.SEPARATOR in needle:  # could span two stored fields: confirm field by field
            return self._substring_ids_by_field(needle, limit, archived)
        # Entities whose name or type holds the needle, and those with a fact that does: instr()
        # over the stored folded text confirms each candidate exactly, in C.
        args: dict[str, Any] = {"needle": needle, "limit": -1 if limit is None else limit}
        if len(needle) >= 3:
            # The trigram indexes (detail=none) yield the rows holding trigrams that cover the
            # needle; instr() removes their false positives.
            args["match"] = " AND ".join(fts_phrase(g) for g in self._covering_trigrams(needle))
            own = ("SELECT f.entity_id AS id FROM entity_substr s JOIN entity_folded f ON f.entity_id = s.rowid "
                   "WHERE entity_substr MATCH :match AND instr(f.text, :needle) > 0")
            facts = ("SELECT o.entity_id AS id FROM fact_substr s "
                     "JOIN fact_folded f ON f.observation_id = s.rowid JOIN observations o ON o.id = s.rowid "
                     "WHERE fact_substr MATCH :match AND instr(f.text, :needle) > 0")
        else:  # too short for trigrams: scan (1–2 characters match nearly everything anyway)
            own = "SELECT entity_id AS id FROM entity_folded WHERE instr(text, :needle) > 0"
            facts = ("SELECT o.entity_id AS id FROM fact_folded f "
                     "JOIN observations o ON o.id = f.observation_id WHERE instr(f.text, :needle) > 0")
        sql = (f"SELECT e.id FROM entities e WHERE e.id IN ({own} UNION {facts}){archived} "
               "ORDER BY e.id LIMIT :limit")
        with self.db.locked() as conn:
            return [r[0] for r in conn.execute(sql, args)]

    def _substring_ids_by_field(self, needle: str, limit: int | None, archived: str) -> list[int]:
        """The slow, exact path for a needle holding the field separator: fold field by field."""
        hits: list[int] = []
        with self.db.locked() as conn:
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

    # -- whole words, ranked (FTS5 entity_fts, BM25) -------------------------------------------

    def fulltext_search(
        self, query: str, *, limit: int = 10, label: str | None = None, include_archived: bool = False,
        own_fields: bool = False,
    ) -> list[ScoredNode]:
        """Whole-word search ranked by BM25 over the entity's own fields (name weighted highest) and
        its facts; operators are literal. ``own_fields``: only name, type and properties."""
        if not own_fields:  # the entity's own words, or its facts' (an entity scores by its best)
            best: dict[int, float] = {}
            for hit in self.fulltext_search(query, limit=limit, label=label, include_archived=include_archived,
                                            own_fields=True):
                best[hit.node.id] = hit.score
            for _, eid, score in self.fact_search(query, limit=4 * limit, label=label,
                                                  include_archived=include_archived):
                best[eid] = max(best.get(eid, 0.0), score)
            ranked = sorted(best, key=lambda i: (-best[i], i))[:limit]
            with self.db.locked() as conn:
                nodes = {n.id: n for n in reads.nodes(conn, ranked)}
            return [ScoredNode(node=nodes[i], score=best[i]) for i in ranked if i in nodes]
        with self.db.locked() as conn:
            match = self._words_match(conn, query, "entity_fts")
        if match is None:
            return []
        with self.db.locked() as conn:
            where, args = _ranked_words(conn, "entity_fts", match, label=label, include_archived=include_archived,
                                        limit=limit)
            rows = conn.execute(
                "SELECT f.rowid, bm25(entity_fts, 10.0, 2.0, 1.0, 1.0) AS rank FROM entity_fts f "
                f"JOIN entities e ON e.id = f.rowid WHERE entity_fts MATCH ?{where} "
                "AND f.rowid >= ? ORDER BY rank LIMIT ?",
                args,
            ).fetchall()
            nodes = {n.id: n for n in reads.nodes(conn, [r[0] for r in rows])}
            # bm25() is lower-is-better and negative; report a positive score, higher is better.
            return [ScoredNode(node=nodes[i], score=-rank) for i, rank in rows if i in nodes]

    def fact_search(
        self, query: str, *, limit: int = 50, label: str | None = None, include_archived: bool = False
    ) -> list[tuple[int, int, float]]:
        """Facts (observations) holding any of the query's content words, best BM25 first:
        (observation id, entity id, score, higher is better). Operators are literal."""
        with self.db.locked() as conn:
            match = self._words_match(conn, query, "fact_fts")
            if match is None:
                return []
            where, args = _ranked_words(conn, "fact_fts", match, label=label, include_archived=include_archived,
                                        limit=limit)
            rows = conn.execute(
                "SELECT f.rowid, o.entity_id, bm25(fact_fts) AS rank FROM fact_fts f "
                "JOIN observations o ON o.id = f.rowid JOIN entities e ON e.id = o.entity_id "
                f"WHERE fact_fts MATCH ?{where} AND f.rowid >= ? ORDER BY rank LIMIT ?",
                args,
            ).fetchall()
            return [(oid, eid, -rank) for oid, eid, rank in rows]

    def entity_heads(self, ids: Sequence[int]) -> list[Node]:
        """Nodes for ``ids`` without their observations (a long entity's facts are not read)."""
        with self.db.locked() as conn:
            return reads.nodes(conn, ids, with_observations=False)

    def first_facts(self, entity_ids: list[int], n: int) -> dict[int, list[str]]:
        """Each entity's first ``n`` observations."""
        out: dict[int, list[str]] = {eid: [] for eid in entity_ids}
        with self.db.locked() as conn:
            for eid in entity_ids:
                out[eid] = [r[0] for r in conn.execute(
                    "SELECT content FROM observations WHERE entity_id = ? ORDER BY id LIMIT ?", (eid, n))]
        return out

    def facts_of(self, entity_ids: list[int]) -> dict[int, list[tuple[int, str]]]:
        """Each entity's facts (observation id, text), in their order."""
        out: dict[int, list[tuple[int, str]]] = {eid: [] for eid in entity_ids}
        with self.db.locked() as conn:
            for chunk in reads.id_chunks(entity_ids):
                for oid, eid, content in conn.execute(
                        f"SELECT id, entity_id, content FROM observations WHERE entity_id IN ({IDS}) ORDER BY id",
                        (chunk,)):
                    out[eid].append((oid, content))
        return out

    def fact_counts(self, entity_ids: list[int]) -> dict[int, int]:
        """How many facts each entity has."""
        out = dict.fromkeys(entity_ids, 0)
        with self.db.locked() as conn:
            for chunk in reads.id_chunks(entity_ids):
                out.update(conn.execute(
                    f"SELECT entity_id, count(*) FROM observations WHERE entity_id IN ({IDS}) GROUP BY entity_id",
                    (chunk,)).fetchall())
        return out

    def common_words(self, words: Sequence[str], share: float, at_least: int, at_most: int) -> set[str]:
        """Those of ``words`` (folded) that more than ``share`` of all facts and at least ``at_least``
        facts hold, or ``at_most`` (each counted only up to that many)."""
        with self.db.locked() as conn:
            total = conn.execute("SELECT coalesce(max(id), 0) FROM observations").fetchone()[0]
            bound = min(at_most, max(at_least, int(share * total) + 1))
            return {w for w in dict.fromkeys(words) if conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM fact_fts WHERE fact_fts MATCH ? LIMIT ?)",
                (fts_phrase(w), bound)).fetchone()[0] >= bound}

    def _words_match(self, conn: Connection, query: str, table: str) -> str | None:
        """The FTS5 query for ``query``: any of its content words — leaving out words so common
        that ranking them would cost far more than they tell (the rest must then all match).

        BM25 scores every document holding a query word; one that is in most of 100k entities
        costs ~100 ms and ranks nothing. A capped count says cheaply which words those are.
        """
        words = content_words(query)[:16]
        if not words:
            return None
        size = self.totals(conn)[0] if table == "entity_fts" else conn.execute(
            "SELECT coalesce(max(id), 0) FROM observations").fetchone()[0]
        cap = bm25.common_cap(size)
        counts = {fts_phrase(word): conn.execute(
            f"SELECT count(*) FROM (SELECT 1 FROM {table} WHERE {table} MATCH ? LIMIT ?)",
            (fts_phrase(word), cap),
        ).fetchone()[0] for word in words}
        chosen, together = bm25.ranked_words(counts, cap)
        return (" AND " if together else " OR ").join(chosen) or None


def _ranked_words(conn: Connection, table: str, match: str, *, label: str | None, include_archived: bool,
                  limit: int) -> tuple[str, list[Any]]:
    """The filter on ``e`` (the entities joined) and its arguments for a BM25 query over ``table``:
    ``MATCH ?{where} AND f.rowid >= ? ... LIMIT ?``.

    BM25 costs microseconds per matching document, and a vague query over a large graph can match
    most of it: only the newest RANK_AT_MOST matches are ranked (a rowid bound, which FTS5 applies
    while it reads, not after)."""
    where = "" if include_archived else " AND e.archived_at IS NULL"
    args: list[Any] = [match]
    if label is not None:
        where += " AND e.entity_type = ?"
        args.append(label)
    floor = conn.execute(
        f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?",
        (match, RANK_AT_MOST - 1),
    ).fetchone()
    return where, [*args, floor[0] if floor else 0, limit]
