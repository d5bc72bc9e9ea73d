"""An entity's facts that repeat a better one count less (core.search.diversity): the facts it shows
are picked so that a near-copy of one already shown gives way to a fact that says something else;
the results and their scores keep their order."""

from __future__ import annotations

from core.memory import Memory
from core.search.diversity import overlap, pick, stems

CAROLINE = {"name": "Caroline", "entityType": "Person", "observations": [
    "Caroline is considering a career in counseling and mental health.",
    "Caroline is considering a career in counseling and mental health to help others.",
    "Caroline is considering a career in mental health counseling, to support others.",
    "Caroline applied to a master's program in social work to become a therapist.",
    "Caroline has a guinea pig named Oscar.",
    "Caroline went hiking last weekend.",
    "Caroline painted a sunset at the beach.",
]}
MELANIE = {"name": "Melanie", "entityType": "Person", "observations": [
    "Melanie plays the violin.", "Melanie works as a nurse in a hospital."]}


def test_an_entity_shows_a_different_fact_before_a_third_copy_of_the_first(semantic: Memory) -> None:
    semantic.create_entities([CAROLINE, MELANIE])
    semantic.embed_pending()
    hits = semantic.search_semantic("What does Caroline want to study to work in mental health?", 5, record=False)
    assert hits[0]["name"] == "Caroline"
    shown = hits[0]["observations"]
    assert len(shown) == 3
    assert "Caroline applied to a master's program in social work to become a therapist." in shown
    assert sum("considering a career" in fact for fact in shown) == 2
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True)


def test_words_repeat_across_languages_by_their_stems() -> None:
    assert stems("Las ciudades españolas") == stems("la ciudad española") == {"ciudad", "espano"}
    assert overlap(stems("counseling career in mental health"), stems("a career in counseling")) > 0.3
    assert overlap(stems("counseling career"), stems("guinea pig named Oscar")) == 0.0
    assert overlap(frozenset(), stems("anything")) == 0.0


def test_a_repeat_gives_way_to_a_near_equal_that_says_something_else() -> None:
    items = [("a", 0.90, "career in counseling and mental health"),
             ("b", 0.89, "career in counseling and mental health to help"),
             ("c", 0.87, "applied to a master program in social work")]
    picked = pick(items, lambda i: i[1], lambda i: stems(i[2]), 0.3)
    assert [i[0] for i, _ in picked] == ["a", "c", "b"]
    assert picked[0][1] == 0.90  # the best is never moved nor lowered
    assert picked[1][1] == 0.87  # what repeats nothing keeps its relevance
    assert [s for _, s in picked] == sorted((s for _, s in picked), reverse=True)


def test_a_clearly_better_repeat_keeps_its_place_and_nothing_moves_without_weight() -> None:
    items = [("a", 0.90, "career in counseling"), ("b", 0.80, "career in counseling"), ("c", 0.40, "a pet")]
    assert [i[0] for i, _ in pick(items, lambda i: i[1], lambda i: stems(i[2]), 0.3)] == ["a", "b", "c"]
    assert pick(items, lambda i: i[1], lambda i: stems(i[2]), 0.0) == [(i, i[1]) for i in items]


def test_past_the_window_the_order_is_kept_below_the_window() -> None:
    items = [(k, 1.0 - k / 100, "the same words") for k in range(30)]
    picked = pick(items, lambda i: i[1], lambda i: stems(i[2]), 0.3, window=5)
    assert [i[0] for i, _ in picked][5:] == list(range(5, 30))
    assert [s for _, s in picked] == sorted((s for _, s in picked), reverse=True)
