"""An entity's facts that repeat a better one count less (maximal marginal relevance, bounded).

Memories repeat themselves: an assistant writes "considering a career in counseling" in three
sessions, and the three fill an entity's answer for a question whose answer needs two different
facts. So the facts an entity shows are picked greedily: each next one by its fused score minus
``FACT_DIVERSITY`` times how much it repeats one already picked (Carbonell & Goldstein's MMR).
Repetition is measured on words (folded, function words aside, cut to their first ``STEM``
letters: a stemming that serves Spanish and English alike), so it needs no vectors and works on
every backend. Bounded: only the first ``WINDOW`` facts of the first ``WINDOW`` results
are re-ordered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from core.search.folding import content_words

T = TypeVar("T")

# How much a repetition costs, against a fact's fused score (0–1). Only an entity's shown facts are
# picked so: re-ordering the results themselves gained LoCoMo's one-fact entities 0.001 R@5 at 0.1,
# lost 0.006 at 0.25, and levelled two identical entities that only the limbic lift is to tell
# apart (bench/RESULTS.md, "Recall: an entity's facts say more than one thing").
FACT_DIVERSITY = 0.3
STEM = 6
MIN_LENGTH = 3
WINDOW = 20


def stems(text: str) -> frozenset[str]:
    """The words of ``text`` that say what it is about, each cut to its first ``STEM`` letters."""
    return frozenset(w[:STEM] for w in content_words(text) if len(w) >= MIN_LENGTH)


def overlap(a: frozenset[str], b: frozenset[str]) -> float:
    """How much two texts repeat each other, 0–1 (Jaccard of their stems)."""
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def pick(items: Sequence[T], relevance: Callable[[T], float], words: Callable[[T], frozenset[str]],
         weight: float, window: int = WINDOW, count: int | None = None) -> list[tuple[T, float]]:
    """``items`` (best first) re-ordered greedily by relevance minus ``weight`` × their largest
    overlap with those picked before, each with that adjusted relevance: the first ``count`` (all
    of the first ``window`` by default) picked from the first ``window``; the rest keep their order
    (and their relevance, at most the last adjusted one's)."""
    head, tail = list(items[:window]), list(items[window:])
    if weight <= 0 or len(head) < 2:
        return [(i, relevance(i)) for i in items]
    count = len(head) if count is None else min(count, len(head))
    bags = [words(i) for i in head]
    scores = [relevance(i) for i in head]
    repeat = [0.0] * len(head)  # each one's largest overlap with those picked so far
    left = list(range(len(head)))
    out: list[tuple[T, float]] = []
    while left and len(out) < count:
        # max keeps the first of equals: the original order
        best = max(left, key=lambda k: scores[k] - weight * repeat[k])
        out.append((head[best], scores[best] - weight * repeat[best]))
        left.remove(best)
        for k in left:
            repeat[k] = max(repeat[k], overlap(bags[k], bags[best]))
    floor = min(score for _, score in out)
    out.extend((head[k], min(scores[k] - weight * repeat[k], floor)) for k in left)
    out.extend((i, min(relevance(i), floor)) for i in tail)
    return out
