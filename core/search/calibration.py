"""How good a match a cosine similarity is, for this query.

Sentence-embedding similarities are not comparable across queries: a query of punctuation or of
one vague word (``*``, ``NEAR(``, ``the``) is about as close to every text (0.80–0.83 with
multilingual-e5) as a real question is to its answer. So each query is first compared with a
fixed set of unrelated everyday sentences in both languages: the mean of those similarities is
what this query reaches with text that has nothing to do with it, and a memory counts as a match
only by how far it rises above that. Measured (multilingual-e5-small): punctuation, one vague word
or random letters rise at most 0.045 above it; real questions, across languages too, 0.055–0.15.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from core.errors import EmbeddingError

if TYPE_CHECKING:
    import numpy as np

    from core.protocols import EmbeddingProvider

ANCHORS = (
    "The meeting was moved to Thursday afternoon.",
    "She bought bread and milk at the market.",
    "The report needs two more charts before Friday.",
    "We watched a film about the ocean last night.",
    "He fixed the bicycle chain in the garage.",
    "They planted tulips along the garden path.",
    "The invoice was paid by bank transfer.",
    "My phone battery dies before lunch.",
    "El tren salió con diez minutos de retraso.",
    "Mi hermano vive en Valencia desde hace años.",
    "La receta lleva tomate, ajo y aceite de oliva.",
    "El proyecto usa PostgreSQL para los datos.",
    "Ayer llovió toda la tarde en la ciudad.",
    "Hay que renovar el pasaporte antes de julio.",
    "El gato duerme encima del sofá.",
    "Compramos una mesa nueva para la cocina.",
)
# A match must rise this far above the query's unrelated similarity to count at all, and is a
# full match this much further above it.
MARGIN_FLOOR, MARGIN_SPAN = 0.05, 0.10

_cache: dict[tuple[int, str], np.ndarray] = {}
_lock = threading.Lock()


def background(provider: EmbeddingProvider, query: np.ndarray) -> float | None:
    """The mean similarity ``query`` reaches with the unrelated anchor sentences (None when the
    provider cannot embed them)."""
    key = (id(provider), provider.model_id)
    with _lock:
        anchors = _cache.get(key)
    if anchors is None:
        try:
            anchors = provider.embed_documents(list(ANCHORS))
        except EmbeddingError:
            return None
        with _lock:
            _cache[key] = anchors
    return float((anchors @ query).mean())


def cosine_quality(distance: float | None, floor: float) -> float:
    """How good a match a cosine distance is for a query whose unrelated best is ``floor``, 0–1."""
    if distance is None:
        return 0.0
    return min(1.0, max(0.0, (1.0 - distance - floor - MARGIN_FLOOR) / MARGIN_SPAN))
