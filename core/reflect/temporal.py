"""Time in reflect: confidence decay and the temporal score used to rank insights.

Both are pure functions of a stored base confidence and an age in days, so they give the same
answer however often they are applied. The storage layer computes the same formulas in SQL
(``core.storage.sqlite.insights``); tests hold the two to each other.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

from core.reflect.model import DECAY_RATE, HALF_LIFE_DAYS


def decayed_confidence(base: float, days: float, *, rate: float = DECAY_RATE) -> float:
    """``base · exp(−rate · days)``; no decay for a zero or negative age."""
    return base * math.exp(-rate * max(0.0, days))


def temporal_score(confidence: float, days: float, *, half_life: float = HALF_LIFE_DAYS) -> float:
    """``confidence · 2^(−days / half_life)``: recent, confident insights first."""
    return float(confidence * 2.0 ** (-max(0.0, days) / half_life))


def days_between(earlier: str | datetime, later: str | datetime) -> float:
    """Fractional days from ``earlier`` to ``later`` (ISO-8601 strings or aware datetimes)."""
    return (_as_datetime(later) - _as_datetime(earlier)).total_seconds() / 86400.0


def _as_datetime(value: str | datetime) -> datetime:
    if isinstance(value, datetime):
        moment = value
    else:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
