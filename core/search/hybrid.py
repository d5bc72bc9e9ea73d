"""Hybrid search: sqlite-vec KNN and FTS5 BM25, fused by reciprocal rank, then limbic scoring.

Each list fetches 3×limit candidates. Relevance — cosine similarity to the query, lifted a little
when full text also ranks them (RRF, k = 60) — picks the ``limit`` results; the bounded limbic
lift (``core.search.limbic``) then re-orders near-equals among them. Entities not embedded yet are still found by full
text. An entity whose name is the query (case, accents and spaces around it aside) comes first,
whatever the model says of its near namesakes. After each search the top results' access counts and
co-occurrences are recorded.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from core.errors import EmbeddingError
from core.model import Node
from core.protocols import EmbeddingProvider, GraphStore, VectorStore
from core.search.folding import fold
from core.search.limbic import limbic_factors

if TYPE_CHECKING:  # numpy loads with the first query vector, not with the server
    import numpy as np

log = logging.getLogger(__name__)

RRF_K = 60
CANDIDATES_PER_LIMIT = 3
# Weight of the (normalised) fused rank next to cosine similarity: a word match lifts a
# semantically close entity, it cannot drag in an unrelated one.
RRF_WEIGHT = 0.02
# Entities found by full text alone (no vector yet, or none configured): seed 000's fallback.
FTS_ONLY_BASE, FTS_ONLY_SPAN = 0.2, 0.6
# Only the top few are bumped: the further down, the likelier a result was not what was wanted.
RECORD_TOP = 3
EMBED_ON_THE_FLY = 8
# Just-written entities the background embedder has not reached yet are embedded with the query
# when there are at most FRESH_AT_MOST among the newest FRESH_WINDOW (what an assistant wrote a
# moment ago and now looks for, in another language); after a bulk import there are more, and
# full text serves until the indexer catches up.
FRESH_WINDOW = 64
FRESH_AT_MOST = 4


@dataclass
class _Candidate:
    id: int
    vector_rank: int | None = None
    text_rank: int | None = None
    distance: float | None = None
    rrf: float = 0.0


def rrf_score(*ranks: int | None) -> float:
    """Reciprocal rank fusion: Σ 1 / (k + rank), ranks from 1."""
    return sum(1.0 / (RRF_K + r) for r in ranks if r is not None)


class HybridSearcher:
    """Runs one search over a graph, its vectors and an embedding provider."""

    def __init__(self, graph: GraphStore, vectors: VectorStore | None, provider: EmbeddingProvider | None,
                 *, clock: Any = None) -> None:
        self.graph = graph
        self.vectors = vectors
        self.provider = provider
        self._clock = clock or (lambda: datetime.now(UTC))

    def query_vector(self, query: str) -> np.ndarray | None:
        """The query's embedding, or None when there is no usable provider (full text only)."""
        if self.provider is None or self.vectors is None or self.provider.dimensions == 0:
            return None
        try:
            return self.provider.embed_query(query)
        except EmbeddingError as exc:
            log.warning("Semantic search falls back to full text: %s", exc)
            return None

    def search(self, query: str, limit: int = 10, *, entity_type: str | None = None,
               include_archived: bool = False, record: bool = True,
               use_text: bool = True, use_vectors: bool = True, use_limbic: bool = True) -> list[dict[str, Any]]:
        """Top ``limit`` entities for ``query``; the ``use_*`` switches exist to measure each part."""
        k = CANDIDATES_PER_LIMIT * limit
        candidates: dict[int, _Candidate] = {}
        names: dict[int, str] = {}  # each candidate's name, to find the one the query names
        qv = self.query_vector(query) if use_vectors else None
        if qv is not None:
            # Filters apply after KNN: ask for more when filtering by type (archived ones are few).
            knn_k = k * 4 if entity_type else k + 10
            rank = 0
            knn = self._with_fresh(qv, self.vectors.search(qv, knn_k))
            wanted = {n.id: n for n in self.graph.nodes_by_id([i for i, _ in knn])}
            for eid, dist in knn:
                node = wanted.get(eid)
                if node is None or (entity_type and node.label != entity_type) or (
                        node.archived_at and not include_archived):
                    continue
                rank += 1
                candidates[eid] = _Candidate(eid, vector_rank=rank, distance=dist)
                names[eid] = node.name
                if rank >= k:
                    break
        if use_text:
            hits = self.graph.fulltext_search(query, limit=k, label=entity_type, include_archived=include_archived)
            for rank, hit in enumerate(hits, start=1):
                candidates.setdefault(hit.node.id, _Candidate(hit.node.id)).text_rank = rank
                names[hit.node.id] = hit.node.name
        named = self._named(query, names, candidates, entity_type, include_archived)
        if not candidates:
            return []
        if qv is not None:  # full-text-only candidates that have a vector get a real distance
            missing = [c.id for c in candidates.values() if c.distance is None]
            for eid, dist in self.vectors.distances(qv, missing).items():
                candidates[eid].distance = dist
            self._embed_unindexed(qv, [c for c in candidates.values() if c.distance is None])
        for c in candidates.values():
            c.rrf = rrf_score(c.vector_rank, c.text_rank)
        best_possible = rrf_score(1, 1)  # first in both lists

        def relevance(c: _Candidate) -> float:
            norm = c.rrf / best_possible
            if c.distance is None:
                return FTS_ONLY_BASE + FTS_ONLY_SPAN * norm
            return max(0.0, 1.0 - c.distance) + RRF_WEIGHT * norm

        # Relevance alone decides which entities make the cut; the limbic lift only re-orders
        # them among themselves, so frequent recall can never push a more relevant memory out.
        chosen = sorted(candidates.values(), key=lambda c: (c.id not in named, -relevance(c), c.id))[:limit]
        ids = [c.id for c in chosen]
        factors = limbic_factors(ids, self.graph.limbic_stats(ids), self._clock()) if use_limbic else {}
        scored = sorted(
            ((relevance(c) + (factors[c.id].lift if use_limbic else 0.0), relevance(c), c) for c in chosen),
            key=lambda t: (t[2].id not in named, -t[0], t[2].id),
        )
        nodes = {n.id: n for n in self.graph.nodes_by_id([c.id for _, _, c in scored])}
        results = [self._result(nodes[c.id], score, rel, c, factors.get(c.id))
                   for score, rel, c in scored if c.id in nodes]
        if record and results:
            # What was returned: an entity deleted meanwhile (by another client) is no recall
            self.graph.record_access([c.id for _, _, c in scored if c.id in nodes][:RECORD_TOP])
        return results

    def _named(self, query: str, names: dict[int, str], candidates: dict[int, _Candidate],
               entity_type: str | None, include_archived: bool) -> set[int]:
        """The candidates whose name is ``query`` (case, accents and spaces around it aside), and the
        entity with exactly that name when neither list brought it (added to ``candidates``)."""
        wanted = query.strip()
        folded = fold(wanted)
        if not folded:
            return set()
        named = {eid for eid, name in names.items() if fold(name.strip()) == folded}
        exact = self.graph.ids_for([wanted]).get(wanted)
        if exact is not None and exact not in candidates:
            node = next(iter(self.graph.nodes_by_id([exact])), None)
            if node is not None and (not entity_type or node.label == entity_type) and (
                    include_archived or not node.archived_at):
                candidates[exact] = _Candidate(exact)
                named.add(exact)
        return named

    def _with_fresh(self, qv: np.ndarray, knn: list[tuple[int, float]]) -> list[tuple[int, float]]:
        """``knn`` with the few newest entities that have no vector yet, at their real distance
        (embedded now; the background indexer stores their vectors later)."""
        due = self.vectors.newest_pending(self.provider.model_id, FRESH_WINDOW)
        if not due or len(due) > FRESH_AT_MOST:
            return knn
        fresh = self._distances_now(qv, due)
        # An edited entity's stored vector is its old text's: the fresh distance replaces it.
        merged = [(eid, dist) for eid, dist in knn if eid not in fresh] + list(fresh.items())
        return sorted(merged, key=lambda pair: pair[1])

    def _embed_unindexed(self, qv: np.ndarray, waiting: list[_Candidate]) -> None:
        """Give the best few not-yet-embedded word matches a real distance by embedding them now
        (the background indexer stores their vectors later); the rest keep the seed's fallback."""
        waiting = sorted(waiting, key=lambda c: c.text_rank or 0)[:EMBED_ON_THE_FLY]
        if not waiting:
            return
        by_id = {c.id: c for c in waiting}
        for eid, distance in self._distances_now(qv, list(by_id)).items():
            by_id[eid].distance = distance

    def _distances_now(self, qv: np.ndarray, ids: list[int]) -> dict[int, float]:
        """The distance to ``qv`` of each of ``ids``, embedded now from its current text (none for
        entities gone meanwhile, or when the model fails: those keep no distance)."""
        texts = self.vectors.texts(ids)
        ids = [i for i in ids if i in texts]
        if not ids:
            return {}
        try:
            vectors = self.provider.embed_documents([texts[i] for i in ids])
        except EmbeddingError as exc:
            log.warning("Could not embed entities for this search: %s", exc)
            return {}
        return {eid: float(1.0 - (vector @ qv)) for eid, vector in zip(ids, vectors, strict=True)}

    @staticmethod
    def _result(node: Node, score: float, relevance: float, c: _Candidate, factors: Any) -> dict[str, Any]:
        return {
            "name": node.name,
            "entityType": node.label,
            "observations": node.observations,
            # Relevance alone: the same search gives the same score, however often it is recalled.
            "score": round(relevance, 4),
            "limbic_score": round(score, 6),
            "scoring": {
                "importance": round(factors.importance, 4) if factors else 0.0,
                "temporal_factor": round(factors.temporal_factor, 4) if factors else 1.0,
                "cooc_boost": round(factors.cooc_boost, 4) if factors else 0.0,
                "limbic_lift": round(factors.lift, 6) if factors else 0.0,
            },
            "distance": None if c.distance is None else round(c.distance, 6),
            "rrf_score": round(c.rrf, 6),
        }
