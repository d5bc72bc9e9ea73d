"""The BM25 a server's hit lists are ranked by: a rare word outweighs a common one, a short fact a
long one holding the same word, and a fact holding more of the query's words comes first."""

from __future__ import annotations

from core.search import bm25


def test_rare_words_short_facts_and_more_words_rank_first() -> None:
    hits = {"caroline": [1, 2, 3, 4, 5, 6, 7, 8], "pottery": [3, 9]}
    lengths = {i: 8 for i in range(1, 10)} | {9: 12}
    scores = bm25.score(hits, lengths, total=100)
    assert scores[3] > scores[9] > scores[1]  # both words > the rare one alone > the common one
    assert bm25.score({"pottery": [9, 3]}, lengths, total=100)[3] > bm25.score({"pottery": [9, 3]}, lengths, 100)[9]
    assert bm25.score({}, lengths, total=100) == {} and bm25.score(hits, {}, total=0) == {}
