"""Limbic scoring: how often, how recently and with what else an entity is recalled.

Seed 000's signals (access frequency, recency, degree, co-occurrence), but *bounded*: their
combined lift is at most ``MAX_LIFT`` of cosine similarity, enough to re-order near-equals and
never enough to push a clearly more relevant entity out of the top results. The seed multiplied
relevance by up to ×1.5 for importance and ×0.1 for age, and every search bumped its own top
results; within one pass of queries a few entities locked in at the top of everything.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

# Largest additive lift, in cosine-similarity units. Measured on the bilingual quality set
# (bench/RESULTS.md): multilingual-e5 similarities of neighbouring results are often within
# 0.005 of each other, and a lift of 0.005 already cost MRR after the feedback passes; 0.002
# re-orders true near-ties only.
MAX_LIFT = 0.002
_DEGREE_CAP = 15
_HOURLY_DECAY = 0.0001  # half-life ≈ 290 days, as the seed


@dataclass(frozen=True)
class LimbicFactors:
    importance: float       # access frequency (relative to the batch) × degree bonus, 0–1.15
    temporal_factor: float  # recency of the last access, 0.1–1
    cooc_boost: float       # Σ log2(1 + co-occurrences) with the other results
    lift: float             # what is added to relevance, 0–MAX_LIFT


def _hours_since(stamp: str, now: datetime) -> float:
    then = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return max(0.0, (now - then).total_seconds() / 3600)


def limbic_factors(ids: Sequence[int], stats: dict[str, Any], now: datetime) -> dict[int, LimbicFactors]:
    """Factors for each of ``ids`` (one search's candidates) from ``GraphStore.limbic_stats``."""
    access: dict[int, tuple[int, str]] = stats["access"]
    degree: dict[int, int] = stats["degree"]
    cooc_pairs: dict[tuple[int, int], int] = stats["cooc"]
    max_access = max((a[0] for a in access.values()), default=0)
    cooc: dict[int, float] = dict.fromkeys(ids, 0.0)
    for (a, b), n in cooc_pairs.items():
        weight = math.log2(1 + n)
        if a in cooc:
            cooc[a] += weight
        if b in cooc:
            cooc[b] += weight
    max_cooc = max(cooc.values(), default=0.0)
    out: dict[int, LimbicFactors] = {}
    for i in ids:
        count, last = access.get(i, (0, None))
        frequency = math.log2(1 + count) / math.log2(1 + max_access) if max_access else 0.0
        importance = frequency * (1 + 0.15 * min(degree.get(i, 0), _DEGREE_CAP) / _DEGREE_CAP)
        temporal = max(0.1, math.exp(-_HOURLY_DECAY * _hours_since(last, now))) if last else 1.0
        together = cooc[i] / max_cooc if max_cooc else 0.0
        # Frequency counts only as much as it is recent; co-occurrence adds context.
        signal = 0.8 * (importance / 1.15) * temporal + 0.2 * together
        out[i] = LimbicFactors(importance=importance, temporal_factor=temporal,
                               cooc_boost=cooc[i], lift=MAX_LIFT * min(1.0, signal))
    return out
