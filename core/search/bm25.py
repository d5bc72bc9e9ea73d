"""BM25 over per-word hit lists, for a full-text index that matches words but ranks them otherwise.

FalkorDB's full-text index (RediSearch) finds the facts holding each word, stemmed, but its score
is close to a count of the query's words a fact holds (measured on LoCoMo: every fact naming the
speaker scores the same), so a rare word weighs no more than a name in every fact. Given, for each
query word, the facts holding it and each fact's length in words, this scores them as SQLite's
FTS5 ``bm25()`` does (k1 = 1.2, b = 0.75), with each word counted once per fact.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

K1, B = 1.2, 0.75
# A word in more than 1/COMMON_SHARE of the documents (and at least COMMON_AT_LEAST) is common.
COMMON_SHARE, COMMON_AT_LEAST = 50, 500


def common_cap(total: int) -> int:
    """How many documents of ``total`` make a word common: counting a word's documents can stop there."""
    return max(COMMON_AT_LEAST, total // COMMON_SHARE)


def ranked_words(counts: Mapping[str, int], cap: int) -> tuple[list[str], bool]:
    """The words worth ranking, as SQLite's ``fact_fts`` search chooses them, and whether a document
    must hold them all: given each word's document count (counted up to ``cap``), the rare words
    (any of them), or when every word found is common, all of those (together). A common word's IDF
    is close to nothing, and ranking its thousands of documents is what a search would spend."""
    rare = [w for w, n in counts.items() if 0 < n < cap]
    if rare:
        return rare, False
    return [w for w, n in counts.items() if n >= cap], True


def idf(df: int, total: int) -> float:
    """A word's weight: in ``df`` of ``total`` documents (FTS5's, never negative)."""
    return math.log(1.0 + (total - df + 0.5) / (df + 0.5))


def score(hits: Mapping[str, Sequence[int]], lengths: Mapping[int, int], total: int,
          frequency: Mapping[str, int] | None = None) -> dict[int, float]:
    """doc id → BM25 for the query words in ``hits`` (word → the ids holding it), ``lengths`` the
    ids' lengths in words, ``total`` the number of documents indexed; ``frequency``: each word's
    document count where ``hits`` holds only some of them."""
    if not lengths or total <= 0:
        return {}
    average = sum(lengths.values()) / len(lengths)
    out: dict[int, float] = {}
    for word, ids in hits.items():
        df = len(ids) if frequency is None else max(len(ids), frequency.get(word, 0))
        if not df:
            continue
        weight = idf(df, total)
        for i in ids:
            norm = 1.0 - B + B * lengths.get(i, average) / max(average, 1e-9)
            out[i] = out.get(i, 0.0) + weight * (K1 + 1.0) / (1.0 + K1 * norm)
    return out
