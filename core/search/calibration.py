"""How good a match a cosine similarity is, for this query.

Sentence-embedding similarities are not comparable across queries: a query of punctuation or of
one vague word (``*``, ``NEAR(``, ``the``) is about as close to every text (0.80–0.83 with
multilingual-e5) as a real question is to its answer. So each query is first compared with a
fixed set of unrelated everyday sentences in both languages: the mean of those similarities is
what this query reaches with text that has nothing to do with it, and a memory counts as a match
only by how far it rises above that.

The anchors are embedded in the shape facts are stored in, ``"{name} ({type}): {fact}"``
(``core.embeddings.text.fact_text``): the name-and-type prefix makes any two such texts closer, so
bare anchors set the background too low for nonsense (which then rose as far as real questions)
and, relative to it, too high for a short cross-lingual question. Rise of the best match above the
background, multilingual-e5-small (``bench/gate_bench.py``; bench/RESULTS.md, "The no-good-match
gate for facts in context"); a query is answered from a rise of MARGIN_FLOOR + GOOD_MATCH (0.05) × MARGIN_SPAN:

| rise above the background                                       | bare anchors | in context |
|-----------------------------------------------------------------|--------------|------------|
| nonsense/hostile of the tests, in the tests' small memories, max | 0.057        | 0.037      |
|   the same, second highest                                       | 0.050        | 0.029      |
| the same queries in the 63-entity quality memory, max            | 0.076        | 0.050      |
| "máquina programada con tarjetas perforadas" (3 / 4 entities)    | 0.055 / 0.058 | 0.042 / 0.045 |
| quality set (63 queries): the lowest best match                  | 0.058        | 0.035      |
| those and the tests' 9 questions: median rise of the relevant one | 0.091        | 0.072      |
| answered from                                                    | 0.055        | 0.032      |

Languages: the model puts a Spanish question ~0.046 nearer to the Spanish anchors than to the English
ones (an English question: 0.006; the labelled set's 63 queries), so an English fact's cosine to a
Spanish question is low by about that much whatever it says, and Spanish near misses came first.
``backgrounds`` gives the background in each language as well, and the searcher judges a fact written
in the other language than the question's against the background there (bench/RESULTS.md, "Recall
goals, session 5").

The highest nonsense, "zzqx wvvy" in a 4-entity memory, is answered both ways; in a memory of
dozens of entities most nonsense finds some fact that rises far enough, both ways (13 of 20 in the
quality memory now, 14 before): the gate refuses nonsense in a small memory, it proves no relevance.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from core.embeddings.text import fact_text
from core.errors import EmbeddingError

if TYPE_CHECKING:
    import numpy as np

    from core.protocols import EmbeddingProvider

# Everyday sentences, each as a fact of an invented entity, in the shape facts are embedded in
# (``core.embeddings.text.fact_text``): the query is compared with what is stored, shape and all.
ANCHORS = (
    ("Team meeting", "event", "The meeting was moved to Thursday afternoon."),
    ("Lucía", "person", "She bought bread and milk at the market."),
    ("Quarterly report", "document", "The report needs two more charts before Friday."),
    ("Movie night", "event", "We watched a film about the ocean last night."),
    ("Bicycle", "object", "He fixed the bicycle chain in the garage."),
    ("Garden", "place", "They planted tulips along the garden path."),
    ("Invoice 2291", "document", "The invoice was paid by bank transfer."),
    ("My phone", "device", "My phone battery dies before lunch."),
    ("Viaje a Madrid", "evento", "El tren salió con diez minutos de retraso."),
    ("Pablo", "persona", "Mi hermano vive en Valencia desde hace años."),
    ("Salmorejo", "receta", "La receta lleva tomate, ajo y aceite de oliva."),
    ("Proyecto Faro", "proyecto", "El proyecto usa PostgreSQL para los datos."),
    ("Ciudad", "lugar", "Ayer llovió toda la tarde en la ciudad."),
    ("Pasaporte", "documento", "Hay que renovar el pasaporte antes de julio."),
    ("Misi", "mascota", "El gato duerme encima del sofá."),
    ("Cocina", "lugar", "Compramos una mesa nueva para la cocina."),
)
ANCHOR_LANGUAGES = ("en",) * 8 + ("es",) * 8  # of ANCHORS, in order
# A match must rise this far above the query's unrelated similarity to count at all, and is a
# full match this much further above it.
MARGIN_FLOOR, MARGIN_SPAN = 0.027, 0.10

_cache: dict[tuple[int, str], np.ndarray] = {}
_lock = threading.Lock()


def _anchors(provider: EmbeddingProvider) -> np.ndarray | None:
    key = (id(provider), provider.model_id)
    with _lock:
        anchors = _cache.get(key)
    if anchors is None:
        try:
            anchors = provider.embed_documents([fact_text(*anchor) for anchor in ANCHORS])
        except EmbeddingError:
            return None
        with _lock:
            _cache[key] = anchors
    return anchors


def background(provider: EmbeddingProvider, query: np.ndarray) -> float | None:
    """The mean similarity ``query`` reaches with the unrelated anchor sentences (None when the
    provider cannot embed them)."""
    anchors = _anchors(provider)
    return None if anchors is None else float((anchors @ query).mean())


def backgrounds(provider: EmbeddingProvider, query: np.ndarray) -> dict[str | None, float]:
    """The background of ``query`` against the anchors of each language ("es", "en") and of all
    (None); empty when the provider cannot embed them."""
    anchors = _anchors(provider)
    if anchors is None:
        return {}
    sims = anchors @ query
    out: dict[str | None, float] = {None: float(sims.mean())}
    for lang in ("es", "en"):
        picked = [k for k, tag in enumerate(ANCHOR_LANGUAGES) if tag == lang]
        out[lang] = float(sims[picked].mean())
    return out


def cosine_quality(distance: float | None, floor: float) -> float:
    """How good a match a cosine distance is for a query whose unrelated best is ``floor``, 0–1."""
    if distance is None:
        return 0.0
    return min(1.0, max(0.0, (1.0 - distance - floor - MARGIN_FLOOR) / MARGIN_SPAN))
