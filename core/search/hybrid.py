"""Hybrid search: rank facts, answer with entities.

Every observation is a fact with its own words (BM25) and its own vector; every entity has a
vector of its own (name, type, summary, first facts, relations) and its own words (name, type,
properties). A fact's vector is of its text after its entity's name and type
(``core.embeddings.text.fact_text``). A fact's two signals make one list by score, not rank: half its
cosine above what the query reaches with unrelated sentences in the fact's language (as a share of
the best fact's; ``core.search.calibration.backgrounds``), half its
full-text score (as a share of the best, times the share of the question's words the best word match
holds), and for a question asking when, a little more for a fact that holds a time — so a strong
match in one signal is not levelled with a weak one that happens to rank the same in the other, and
a word shared by chance is not a strong match (LoCoMo: bench/RESULTS.md,
"Recall: FalkorDB's facts, facts fused by score" and "Recall: facts in context"). That list,
entities by cosine and entities by their own words are fused by reciprocal rank
(k = 60). An entity scores by its best fact plus its own ranks, its vector's rank counting as a list
of its own (it holds the name, summary and first facts together: what a question whose answer is
spread over several facts matches, and what still matches across languages where words cannot),
both its own lists weighed by how much of the entity they hold (all of a short one; of one with
hundreds of facts, its first ``HEAD_FACTS``). Its answer carries its matching facts in rank order
(``per_entity``, default 3; a fact repeating a better one of the same entity gives way to one that
says something else, ``core.search.diversity``) and how many others it has, within ``max_tokens``.
A backend without a fact index (``FactText`` / ``FactVectors``) has empty fact lists and the same rule; SQLite and the
Cypher backends have one.

The score is one relevance in 0–1, and the results are in its order: half the fused rank (1 when
first in every list) and half how well the best fact or the entity matches on its own (its cosine
above what the query reaches with unrelated sentences, ``core.search.calibration``, or the share of
the query's words it holds, cubed), counted in full from ``FULL_MATCH`` on. Where facts are
indexed, a query nothing matches on its own gets an empty answer (``no_good_match``) rather than
the least bad. An approved insight matched only by the names of entities it lists ranks below them
(no match quality of its own). The bounded limbic lift
(``core.search.limbic``) re-orders near-equals only. An entity whose name is the query comes
first, and so does one the query names by an alias (a name merged into it). After each search the
top results' access counts and co-occurrences are recorded.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from core.embeddings.context import in_context
from core.embeddings.text import HEAD_FACTS
from core.errors import EmbeddingError
from core.graph_rules import aliases_of, own_words
from core.model import Node
from core.protocols import EmbeddingProvider, FactText, FactVectors, GraphStore, VectorStore
from core.search import calibration, diversity
from core.search.folding import WORD, content_words, fold, name_key
from core.search.limbic import MAX_LIFT, limbic_factors
from core.search.stopwords import STOPWORDS, language

if TYPE_CHECKING:  # numpy loads with the first query vector, not with the server
    import numpy as np

log = logging.getLogger(__name__)

RRF_K = 60
# Candidates each list brings: facts are many and small, entities few.
FACTS_PER_LIMIT, FACTS_AT_LEAST = 10, 50
ENTITIES_PER_LIMIT = 3
# Weight of an entity's own words and of its own vector against its best fact's lists, and of the
# facts' words against their vectors. The entity's vector counts in full: at half weight a
# multi-part question in another language, whose answer is spread over several facts (no one fact
# matching it well), lost to single-fact near misses (bench/RESULTS.md, "Cross-lingual recall").
# An entity's own words count a quarter: its name and type are in each of its facts' vectors too
# (bench/RESULTS.md, "Recall: facts in context").
ENTITY_WEIGHT = 0.25
ENTITY_VECTOR_WEIGHT = 1.0
TEXT_WEIGHT = 1.0
WORDS_POWER = 1.0
# Cosine similarity (multilingual-e5) unrelated texts reach, when the query's own cannot be measured.
COSINE_FLOOR = 0.80
# Share of the relevance that is the fused rank (the rest is the match quality).
RANK_SHARE = 0.5
# Below this match quality nothing is a good match; from this one on, a match is as good as any
# (the score's quality half saturates): among good matches the fused rank decides, as LoCoMo wants,
# and a weak match still falls below them, as the labelled set wants (bench/RESULTS.md, "Recall:
# facts in context").
GOOD_MATCH = 0.05
FULL_MATCH = 0.7
PER_ENTITY = 3
# Facts' two signals are one list by score: WORDS_SHARE of it their words, the rest their cosine.
WORDS_SHARE = 0.5
# A fact's share of the question's words as a match quality: cubed, so only a fact holding nearly
# all of them is a strong match on words alone (one word of two shared is 0.125).
QUALITY_WORDS_POWER = 3.0
# Cosine distances closer than this are the model's noise: they share a rank.
DISTANCE_TIE = 1e-3
BM25_NEGLIGIBLE = 1e-3
# Only the top few are bumped: the further down, the likelier a result was not what was wanted.
RECORD_TOP = 3
EMBED_ON_THE_FLY = 8
# Just-written facts and entities the background embedder has not reached yet are embedded with
# the query when there are at most FRESH_AT_MOST among the newest FRESH_WINDOW (what an assistant
# wrote a moment ago and now looks for, in another language); after a bulk import there are more,
# and full text serves until the indexer catches up.
FRESH_WINDOW = 64
FRESH_AT_MOST = 8
CHARS_PER_TOKEN = 4
# A question asking when (or what year, month, day) is answered by a fact holding a time: such a fact
# gains this much of its fused score (0–1), enough to come before a fact that matches as well
# without one. LoCoMo 0–4: 36% of the temporal questions' evidence facts hold a time expression, 8%
# of all facts; 0.05 gained temporal R@5 +0.013 in both shapes, 0.10 and 0.15 cost the speaker
# shape's MRR (bench/RESULTS.md, "Recall goals, session 5").
TIME_BONUS = 0.05
# A query word in more than this share of the facts (the person a memory is about, in every other
# fact) says little about which fact answers, and in the query's embedding it pulls toward every fact
# naming it: the query's vector is the mean of its own and that of the query without such words.
# LoCoMo 0–4 in-process: chunk 0.547 / 0.491 -> 0.586 / 0.527, speaker 0.562 / 0.508 -> 0.569 / 0.524,
# the labelled set unchanged (bench/RESULTS.md, "Recall: where the misses are, session 5").
COMMON_WORDS_SHARE = 0.1
# … and in at least this many (in a handful of facts, every word is in a tenth of them).
COMMON_WORDS_AT_LEAST = 10
# … or in this many, whatever their share: counting a word's facts costs what counting that many
# does (FalkorDB 100k facts: 2.5 ms to count 10k of them; 50k, a tenth of 500k, would cost ~12 ms).
COMMON_WORDS_AT_MOST = 10_000
_WHEN = re.compile(r"^\W*(when|cuando)\b|\b(what|which) (year|month|date|day)\b|\bhow long ago\b"
                   r"|\ben que (ano|mes|fecha|dia)\b|\bhace cuanto\b")
_MONTHS = ("january february march april may june july august september october november december "
           "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre")
_DAYS = ("monday tuesday wednesday thursday friday saturday sunday weekend yesterday today tomorrow tonight "
         "lunes martes miercoles jueves viernes sabado domingo ayer hoy")
_TIME = re.compile(r"\b(" + "|".join((_MONTHS + " " + _DAYS).split()) + r")\b|\b(19|20)\d\d\b"
                   r"|\b(last|next|this|past) (week|month|year|summer|winter|spring|fall|weekend)\b|\bago\b"
                   r"|\b(la semana|el mes|el ano) (pasad[oa]|que viene)\b|\bhace \w+ (dias|semanas|meses|anos)\b")
# Types of entities reflect writes about other entities (``core.reflect.lifecycle``: an approved
# insight is an ``Insight`` entity whose fact lists the entities it is about).
DERIVED_TYPES = frozenset({"Insight"})


@dataclass
class _Fact:
    id: int
    entity: int
    text: str = ""
    vector_rank: int | None = None
    text_rank: int | None = None
    distance: float | None = None
    words: float = 0.0  # share of the query's content words the fact holds
    bm25: float | None = None  # the full-text score (higher is better)
    fused: float = 0.0  # its cosine and its words, each against the best of this query's facts
    floor: float | None = None  # the query's background in the fact's language (None: the query's)
    rrf: float = 0.0


@dataclass
class _Entity:
    id: int
    vector_rank: int | None = None
    text_rank: int | None = None
    distance: float | None = None
    words: float = 0.0
    facts: list[_Fact] = field(default_factory=list)
    rrf: float = 0.0
    quality: float = 0.0
    ranked: float = 0.0  # the fused rank as a share of the best possible
    relevance: float = 0.0


def rrf_score(*ranks: int | None) -> float:
    """Reciprocal rank fusion: Σ 1 / (k + rank), ranks from 1."""
    return sum(1.0 / (RRF_K + r) for r in ranks if r is not None)


def _tied_ranks(values: list[float], tolerance: float = 1e-6) -> list[int]:
    """Ranks (from 1) of values sorted best first, equal values sharing a rank ("1, 2, 2, 4"): two
    identical texts are equally good, whichever the index happened to list first."""
    ranks: list[int] = []
    for k, v in enumerate(values):
        ranks.append(ranks[-1] if k and abs(v - values[k - 1]) < tolerance else k + 1)
    return ranks


def _word_share(query_words: list[str], text: str) -> float:
    """The share of the query's content words (function words aside) that ``text`` holds."""
    if not query_words:
        return 0.0
    have = set(content_words(text))
    return sum(1 for w in query_words if w in have) / len(query_words)


class HybridSearcher:
    """Runs one search over a graph, its vectors and an embedding provider."""

    def __init__(self, graph: GraphStore, vectors: VectorStore | None, provider: EmbeddingProvider | None,
                 *, clock: Any = None) -> None:
        self.graph = graph
        self.vectors = vectors
        self.provider = provider
        self._clock = clock or (lambda: datetime.now(UTC))
        # The backend's fact index, where it has one (``FactText`` / ``FactVectors``).
        self._text: FactText | None = graph if isinstance(graph, FactText) else None
        self._fvec: FactVectors | None = vectors if isinstance(vectors, FactVectors) else None
        self._floor = COSINE_FLOOR  # the query's unrelated best similarity (see calibration)
        self._sizes: dict[int, int] = {}  # facts of each candidate, counted once a search
        self._when = False
        # The query's background by language (core.search.calibration.backgrounds) and its own
        # language: a fact in the other language is judged against the background there.
        self._floors: dict[str | None, float] = {}
        self._asked_in: str | None = None

    def _store(self) -> VectorStore:
        """The vector store, there whenever the query has a vector (``query_vector``)."""
        if self.vectors is None:
            raise RuntimeError("no vector store")
        return self.vectors

    def _model(self) -> EmbeddingProvider:
        """The embedding provider, there whenever the query has a vector (``query_vector``)."""
        if self.provider is None:
            raise RuntimeError("no embedding provider")
        return self.provider

    def query_vector(self, query: str) -> np.ndarray | None:
        """The query's embedding, or None when there is no usable provider (full text only)."""
        if self.provider is None or self.vectors is None or self.provider.dimensions == 0:
            return None
        try:
            return self.provider.embed_query(query)
        except EmbeddingError as exc:
            log.warning("Semantic search falls back to full text: %s", exc)
            return None

    def _meaning(self, query: str, words: list[str]) -> np.ndarray | None:
        """The query's vector: where some of its words are in more than ``COMMON_WORDS_SHARE`` of
        the facts and in ``COMMON_WORDS_AT_LEAST`` (a person every other fact names), the mean of its
        embedding and that of the query without them, so those words pull half as hard toward facts
        that merely hold them."""
        qv = self.query_vector(query)
        if qv is None or self._text is None or not words or not COMMON_WORDS_SHARE:
            return qv
        common = self._text.common_words(words, COMMON_WORDS_SHARE, COMMON_WORDS_AT_LEAST,
                                          COMMON_WORDS_AT_MOST)
        rest = " ".join(WORD.sub(lambda m: "" if fold(m.group(0)) in common else m.group(0), query).split())
        if not common or not WORD.search(rest):
            return qv
        other = self.query_vector(rest)
        if other is None:
            return qv
        mean: np.ndarray = qv + other
        mean /= float((mean @ mean) ** 0.5)
        return mean

    def search(self, query: str, limit: int = 10, *, entity_type: str | None = None,
               include_archived: bool = False, record: bool = True, per_entity: int = PER_ENTITY,
               max_tokens: int | None = None, use_text: bool = True, use_vectors: bool = True,
               use_limbic: bool = True) -> list[dict[str, Any]]:
        """Top ``limit`` entities for ``query``, each with its best ``per_entity`` facts, the whole
        answer within ``max_tokens`` (estimated); the ``use_*`` switches exist to measure each part."""
        words = [w for w in content_words(query) if w not in STOPWORDS]
        qv = self._meaning(query, words) if use_vectors else None
        self._floor = COSINE_FLOOR
        self._floors = {}
        self._asked_in = None
        self._sizes = {}
        self._when = bool(TIME_BONUS) and bool(_WHEN.search(fold(query)))
        if qv is not None:
            self._floors = calibration.backgrounds(self._model(), qv)
            self._asked_in = language(WORD.findall(fold(query))) if {"es", "en"} <= self._floors.keys() else None
            self._floor = self._floors.get(None, COSINE_FLOOR)
        facts: dict[int, _Fact] = {}
        entities: dict[int, _Entity] = {}
        kf = max(FACTS_AT_LEAST, FACTS_PER_LIMIT * limit)
        ke = ENTITIES_PER_LIMIT * limit
        if qv is not None and self._fvec is not None:
            knn = self._fvec.search_facts(qv, kf * 2)
            knn = self._fresh_facts(qv, knn)
            for rank, (fid, dist) in zip(_tied_ranks([d for _, d in knn], DISTANCE_TIE), knn, strict=True):
                facts[fid] = _Fact(fid, -1, vector_rank=rank, distance=dist)
        if use_text and self._text is not None:
            found = self._text.fact_search(query, limit=kf, label=entity_type, include_archived=include_archived)
            # A word in most of many facts says nothing (BM25 gives it no weight): no rank for it.
            if len(found) > 10:
                found = [hit for hit in found if hit[2] >= BM25_NEGLIGIBLE]
            for rank, (fid, eid, score) in zip(_tied_ranks([-score for _, _, score in found]), found, strict=True):
                fact = facts.setdefault(fid, _Fact(fid, eid))
                fact.text_rank, fact.bm25 = rank, score
        self._resolve_facts(qv, facts, entity_type, include_archived, kf, words)
        if qv is not None:
            knn = self._fresh_entities(qv, self._store().search(qv, (ke * 4 if entity_type else ke) + 10))
            for eid, dist in knn:
                entities[eid] = _Entity(eid, distance=dist)
        read: dict[int, Node] = {}  # heads already read this search (read once)
        if use_text:
            own = {"own_fields": True} if self._text is not None else {}
            hits = self.graph.fulltext_search(query, limit=ke, label=entity_type,
                                              include_archived=include_archived, **own)
            for rank, hit in zip(_tied_ranks([-h.score for h in hits]), hits, strict=True):
                entities.setdefault(hit.node.id, _Entity(hit.node.id)).text_rank = rank
                if self._text is not None:  # a head is the node without its observations
                    read[hit.node.id] = hit.node.model_copy(update={"observations": []})
        for f in facts.values():
            entities.setdefault(f.entity, _Entity(f.entity)).facts.append(f)
        nodes = {**read, **{n.id: n for n in self._heads([i for i in entities if i not in read])}}
        entities = {eid: e for eid, e in entities.items() if eid in nodes and (
            not entity_type or nodes[eid].label == entity_type) and (include_archived or not nodes[eid].archived_at)}
        named = self._named(query, nodes, entities, entity_type, include_archived)
        if not entities:
            return []
        self._entity_vectors(qv, entities)
        self._score(entities, nodes, words, named)
        self._derived_give_way(entities, nodes, words, named)
        ranked = sorted(entities.values(), key=lambda e: (e.id not in named, -e.relevance, e.id))
        ranked = self._diversify(ranked, limit, per_entity)
        # Nothing that matches well on its own: no answer (nonsense, hostile or empty queries).
        # Otherwise the best ``limit``, weaker ones included: a diluted match is still a match.
        # (Only where facts are indexed: a whole entity's vector is too diluted to tell a weak match
        # from none, so a backend without a fact index answers as before.)
        if self._fvec is not None and not any(e.quality >= GOOD_MATCH or e.id in named for e in ranked):
            return []
        chosen = ranked[:limit]
        ids = [e.id for e in chosen]
        factors = limbic_factors(ids, self.graph.limbic_stats(ids), self._clock()) if use_limbic else {}
        # What is returned is read now: an entity another client deleted meanwhile is no result
        nodes = {n.id: n for n in self._heads(ids)}
        chosen = [e for e in chosen if e.id in nodes]
        lift = {i: (factors[i].lift if use_limbic else 0.0) for i in ids}
        chosen.sort(key=lambda e: (e.id not in named, -(e.relevance + lift[e.id]), e.id))
        results = self._answers(chosen, nodes, factors, per_entity, max_tokens, qv)
        if record and results:
            self.graph.record_access([e.id for e in chosen[: len(results)]][:RECORD_TOP])
        return results

    # -- candidates ------------------------------------------------------------------------------

    def _resolve_facts(self, qv: np.ndarray | None, facts: dict[int, _Fact], entity_type: str | None,
                       include_archived: bool, kf: int, words: list[str]) -> None:
        """Fill each fact's entity and text (dropping facts gone meanwhile), re-rank the vector list
        after the type filter, and give word matches without a vector a real distance."""
        if not facts:
            return
        owners = self._fvec.fact_owners(list(facts)) if self._fvec is not None else self._owners_by_graph(facts)
        for fid in list(facts):
            if fid not in owners:
                del facts[fid]
                continue
            facts[fid].entity, facts[fid].text = owners[fid]
            if self._asked_in is not None:  # a fact in the other language: the background there
                lang = language(WORD.findall(fold(facts[fid].text)))
                if lang is not None and lang != self._asked_in:
                    facts[fid].floor = self._floor + self._floors[lang] - self._floors[self._asked_in]
            facts[fid].words = _word_share(words, facts[fid].text) if facts[fid].text_rank else 0.0
        if qv is None or self._fvec is None:
            return
        missing = [f.id for f in facts.values() if f.distance is None]
        for fid, dist in self._fvec.fact_distances(qv, missing).items():
            facts[fid].distance = dist
        waiting = sorted((f for f in facts.values() if f.distance is None), key=lambda f: f.text_rank or 0)
        if waiting[:EMBED_ON_THE_FLY]:
            now = self._embed_now(qv, in_context({f.id: f.text for f in waiting[:EMBED_ON_THE_FLY]},
                                                 self.vectors, self.graph))
            for fid, dist in now.items():
                facts[fid].distance = dist

    def _owners_by_graph(self, facts: dict[int, _Fact]) -> dict[int, tuple[int, str]]:
        if self._text is None:
            return {}
        by_entity = self._text.facts_of(sorted({f.entity for f in facts.values()}))
        return {fid: (eid, text) for eid, items in by_entity.items() for fid, text in items if fid in facts}

    def _fresh_facts(self, qv: np.ndarray, knn: list[tuple[int, float]]) -> list[tuple[int, float]]:
        """``knn`` with the few newest facts that have no vector yet, at their real distance."""
        if self._fvec is None:
            return knn
        due = self._fvec.newest_pending_facts(self._model().model_id, FRESH_WINDOW)
        if not due or len(due) > FRESH_AT_MOST:
            return knn
        fresh = self._embed_now(qv, in_context(self._fvec.fact_texts(due), self.vectors, self.graph))
        merged = [(i, d) for i, d in knn if i not in fresh] + list(fresh.items())
        return sorted(merged, key=lambda pair: pair[1])

    def _fresh_entities(self, qv: np.ndarray, knn: list[tuple[int, float]]) -> list[tuple[int, float]]:
        """``knn`` with the few newest entities that have no vector yet, at their real distance
        (an edited entity's stored vector is its old text's: the fresh distance replaces it)."""
        due = self._store().newest_pending(self._model().model_id, FRESH_WINDOW)
        if not due or len(due) > FRESH_AT_MOST:
            return knn
        fresh = self._embed_now(qv, self._store().texts(due))
        merged = [(i, d) for i, d in knn if i not in fresh] + list(fresh.items())
        return sorted(merged, key=lambda pair: pair[1])

    def _entity_vectors(self, qv: np.ndarray | None, entities: dict[int, _Entity]) -> None:
        """Candidates found otherwise get their entity vector's distance, and ranks by it."""
        if qv is None:
            return
        missing = [e.id for e in entities.values() if e.distance is None]
        for eid, dist in self._store().distances(qv, missing).items():
            entities[eid].distance = dist
        near = sorted(((e.distance, e) for e in entities.values() if e.distance is not None),
                      key=lambda pair: (pair[0], pair[1].id))
        for rank, (_, e) in zip(_tied_ranks([d for d, _ in near], DISTANCE_TIE), near, strict=True):
            e.vector_rank = rank

    def _embed_now(self, qv: np.ndarray, texts: dict[int, str]) -> dict[int, float]:
        """The distance to ``qv`` of each text, embedded now (the background indexer stores the
        vectors later); none when the model fails."""
        if not texts:
            return {}
        ids = list(texts)
        try:
            vectors = self._model().embed_documents([texts[i] for i in ids])
        except EmbeddingError as exc:
            log.warning("Could not embed for this search: %s", exc)
            return {}
        return {i: float(1.0 - (v @ qv)) for i, v in zip(ids, vectors, strict=True)}

    def _named(self, query: str, nodes: dict[int, Node], entities: dict[int, _Entity],
               entity_type: str | None, include_archived: bool) -> set[int]:
        """The candidates whose name, or one of whose aliases (names merged into it), is ``query``
        (case, accents and separators aside: ``name_key``), and the entity with exactly that name, or
        that alias, when no list brought it (added to the candidates)."""
        wanted = query.strip()
        key = name_key(wanted)
        if not key:
            return set()
        named = {eid for eid in entities if name_key(nodes[eid].name) == key
                 or any(name_key(a) == key for a in aliases_of(nodes[eid].props))}
        exact = self.graph.ids_for([wanted]).get(wanted)
        if exact is None and not named:  # a former name the lists did not bring: the entity it is now
            exact = next(iter(self.graph.ids_for(self._former(key)).values()), None)
        if exact is not None and exact not in entities:
            node = next(iter(self._heads([exact])), None)
            if node is not None and (not entity_type or node.label == entity_type) and (
                    include_archived or not node.archived_at):
                entities[exact] = _Entity(exact)
                nodes[exact] = node
                named.add(exact)
        return named

    def _former(self, key: str) -> list[str]:
        """The live entities one of whose aliases has the name key ``key`` (``name_key``), oldest
        first: one read of the folds the backend keeps of its aliases (``core.hygiene.store``), by
        the key's longest word."""
        found = self.graph.hygiene_store().alias_matches(max(key.split(" "), key=len))
        if not found:
            return []
        heads = {n.name: n for n in self._heads(list(self.graph.ids_for(found).values()))}
        return [n for n in found if n in heads and any(name_key(a) == key for a in aliases_of(heads[n].props))]

    # -- scoring ---------------------------------------------------------------------------------

    def _score(self, entities: dict[int, _Entity], nodes: dict[int, Node], words: list[str],
               named: set[int]) -> None:
        # first in every list
        best_possible = rrf_score(1) * ((1 + TEXT_WEIGHT) + ENTITY_VECTOR_WEIGHT + ENTITY_WEIGHT * TEXT_WEIGHT)
        self._fuse_facts([f for e in entities.values() for f in e.facts])
        # How much of an entity its own lists speak for: its vector and its own words hold its name
        # and first HEAD_FACTS facts, the whole of a short entity and a sliver of one with hundreds
        # (a person's name in the question says little about which of their 300 facts answers it).
        sizes = self._text.fact_counts(list(entities)) if self._text is not None else {}
        self._sizes = sizes  # the answer's counts (read once a search)
        cover = {eid: min(1.0, HEAD_FACTS / max(n, 1)) for eid, n in sizes.items()}
        for e in entities.values():
            e.facts.sort(key=lambda f: (-f.rrf, f.distance if f.distance is not None else 2.0, f.id))
            node = nodes[e.id]
            props = own_words(node.props)  # summary, details …, former names
            e.words = _word_share(words, " ".join([node.name, node.label, *props])) if (
                e.text_rank or e.id in named or self._text is not None) else 0.0
            # Its word match: of its own fields, and of its observations where facts are not indexed
            # apart (a node read whole); weighed by how much of the question it covers, as a fact's.
            matched = _word_share(words, " ".join([node.name, node.label, *props, *node.observations])) if (
                e.text_rank and node.observations) else e.words
            best = e.facts[0] if e.facts else None
            held = cover.get(e.id, 1.0)
            # (An entity of one fact keeps its own vector's share too: counting it once, as its
            # fact's, gained LoCoMo's chunk shape 0.010 R@5 but ranked a one-fact entity below a
            # two-fact one whose facts matched worse — bench/RESULTS.md, "One-fact entities".)
            own = (ENTITY_VECTOR_WEIGHT * held * rrf_score(e.vector_rank)
                   + ENTITY_WEIGHT * held * TEXT_WEIGHT * matched ** WORDS_POWER * rrf_score(e.text_rank))
            e.rrf = (best.rrf if best else 0.0) + own
            quality = [calibration.cosine_quality(f.distance, self._floor if f.floor is None else f.floor)
                       for f in e.facts[:PER_ENTITY]]
            e.quality = max([*quality, *(f.words ** QUALITY_WORDS_POWER for f in e.facts[:PER_ENTITY]),
                             held * calibration.cosine_quality(e.distance, self._floor),
                             e.words,
                             *([1.0] if e.id in named else [])])
            e.ranked = min(1.0, e.rrf / best_possible)
            e.relevance = RANK_SHARE * e.ranked + (1 - RANK_SHARE) * min(1.0, e.quality / FULL_MATCH)

    @staticmethod
    def _derived_give_way(entities: dict[int, _Entity], nodes: dict[int, Node], words: list[str],
                          named: set[int]) -> None:
        """An entity reflect derived from others (an approved insight: "3 nodes have fewer than 2
        connections: Ana García (Person) …") that matches the query only by the names of entities it
        lists is no match of its own: it keeps its fused rank but no match quality, and scores below
        each listed entity the query names (the limbic lift cannot put it back above them)."""
        if not words:
            return
        wanted = set(words)
        for e in entities.values():
            node = nodes[e.id]
            if node.label not in DERIVED_TYPES or e.id in named:
                continue
            text = fold(" ".join([*own_words(node.props), *(f.text for f in e.facts)]))
            listed = [o for o in entities.values() if o.id != e.id and nodes[o.id].label not in DERIVED_TYPES
                      and (name := fold(nodes[o.id].name.strip())) and name in text]
            by_name = [o for o in listed if wanted & set(content_words(nodes[o.id].name))]
            if not by_name or not wanted <= {w for o in listed for w in content_words(nodes[o.id].name)}:
                continue
            e.quality = 0.0
            e.relevance = max(0.0, min(RANK_SHARE * e.ranked, *(o.relevance - 2 * MAX_LIFT for o in by_name)))

    @staticmethod
    def _diversify(ranked: list[_Entity], limit: int, shown: int) -> list[_Entity]:
        """Each of the first ``limit`` results' facts re-ordered so that one repeating a better one counts
        less (``core.search.diversity``): the ``shown`` ones its answer holds say more than one thing."""
        for e in ranked[:limit]:
            if len(e.facts) > 1:
                e.facts = [f for f, _ in diversity.pick(e.facts, lambda f: f.fused, lambda f: diversity.stems(f.text),
                                                        diversity.FACT_DIVERSITY, count=shown)]
        return ranked

    def _fuse_facts(self, facts: list[_Fact]) -> None:
        """One list of facts from their two signals, by score rather than rank: a fact's cosine
        above the query's unrelated similarity as a share of the best fact's, and its full-text
        score as a share of the best, that share scaled by how much of the question the best
        word match holds (``WORDS_SHARE`` of the sum). Fused by score, a strong match in one
        signal is not levelled with a weak one ranked the same in the other; scaled, a word or
        two a long question shares by chance with some fact (across languages: a name, "API")
        does not weigh as a fact that holds the question's words. For a question asking when, a
        fact holding a time gains ``TIME_BONUS``. Facts whose cosines differ by
        the model's noise (``DISTANCE_TIE``) and whose words score the same share a rank."""
        floor = {f.id: self._floor if f.floor is None else f.floor for f in facts}
        span = max(max((1.0 - f.distance - floor[f.id] for f in facts if f.distance is not None), default=0.0), 1e-6)
        top = max((f.bm25 for f in facts if f.bm25 is not None), default=0.0)
        best_words = max((f for f in facts if f.bm25 is not None), key=lambda f: f.bm25 or 0.0, default=None)
        held = best_words.words if best_words is not None else 0.0
        for f in facts:
            near = 0.0 if f.distance is None else min(1.0, max(0.0, (1.0 - f.distance - floor[f.id]) / span))
            words = 0.0 if f.bm25 is None or top <= 0 else held * max(0.0, f.bm25) / top
            f.fused = (1 - WORDS_SHARE) * near + WORDS_SHARE * words
            if self._when and f.fused > 0 and _TIME.search(fold(f.text)):
                f.fused += TIME_BONUS
        ordered = sorted(facts, key=lambda f: -f.fused)
        tie = (1 - WORDS_SHARE) * DISTANCE_TIE / span
        for rank, f in zip(_tied_ranks([-f.fused for f in ordered], tie), ordered, strict=True):
            f.rrf = (1 + TEXT_WEIGHT) * rrf_score(rank) if f.fused > 0 else 0.0

    # -- the answer ------------------------------------------------------------------------------

    def _answers(self, chosen: list[_Entity], nodes: dict[int, Node], factors: dict[int, Any],
                 per_entity: int, max_tokens: int | None, qv: np.ndarray | None) -> list[dict[str, Any]]:
        counts = self._fact_counts([e.id for e in chosen], nodes)
        bare = [e.id for e in chosen if not e.facts]  # found by name or own vector: show its first facts
        firsts = self._text.first_facts(bare, per_entity) if self._text is not None and bare else {
            i: list(nodes[i].observations[:per_entity]) for i in bare}
        results: list[dict[str, Any]] = []
        used = 0
        for e in chosen:
            node = nodes[e.id]
            shown = [f.text for f in e.facts[:per_entity]]
            if not shown and per_entity > 0:
                shown = firsts.get(e.id, [])
            item = {
                "name": node.name,
                "entityType": node.label,
                "observations": shown,
                "other_observations": max(0, counts.get(e.id, len(node.observations)) - len(shown)),
                "score": round(e.relevance, 4),
                **self._explain(e, factors.get(e.id)),
            }
            size = len(json.dumps({k: item[k] for k in ("name", "entityType", "observations", "score")},
                                  ensure_ascii=False)) // CHARS_PER_TOKEN
            if max_tokens is not None and results and used + size > max_tokens:
                break
            if max_tokens is not None and not results and size > max_tokens:  # the best one, trimmed
                while item["observations"] and size > max_tokens:
                    item["observations"] = item["observations"][:-1]
                    item["other_observations"] += 1
                    size = len(json.dumps(item["observations"], ensure_ascii=False)) // CHARS_PER_TOKEN
            used += size
            results.append(item)
        return results

    def _heads(self, ids: list[int]) -> list[Node]:
        """The entities without their observations where the backend can (long ones are costly)."""
        return self._text.entity_heads(ids) if self._text is not None else self.graph.nodes_by_id(ids)

    def _fact_counts(self, ids: list[int], nodes: dict[int, Node]) -> dict[int, int]:
        if self._text is None:
            return {i: len(nodes[i].observations) for i in ids}
        if all(i in self._sizes for i in ids):  # counted by ``_score`` in this search
            return {i: self._sizes[i] for i in ids}
        return self._text.fact_counts(ids)

    @staticmethod
    def _explain(e: _Entity, factors: Any) -> dict[str, Any]:
        best = e.facts[0] if e.facts else None
        distance = min([d for d in (e.distance, best.distance if best else None) if d is not None], default=None)
        return {
            "limbic_score": round(e.relevance + (factors.lift if factors else 0.0), 6),
            "scoring": {
                "importance": round(factors.importance, 4) if factors else 0.0,
                "temporal_factor": round(factors.temporal_factor, 4) if factors else 1.0,
                "cooc_boost": round(factors.cooc_boost, 4) if factors else 0.0,
                "limbic_lift": round(factors.lift, 6) if factors else 0.0,
            },
            "distance": None if distance is None else round(distance, 6),
            "rrf_score": round(e.rrf, 6),
            "match_quality": round(e.quality, 4),
            "entity": {"vector_rank": e.vector_rank, "text_rank": e.text_rank,
                       "distance": None if e.distance is None else round(e.distance, 6), "words": round(e.words, 3)},
            "facts": [{"text": f.text, "vector_rank": f.vector_rank, "text_rank": f.text_rank,
                       "distance": None if f.distance is None else round(f.distance, 6),
                       "words": round(f.words, 3), "rrf": round(f.rrf, 6)} for f in e.facts[:PER_ENTITY]],
        }
