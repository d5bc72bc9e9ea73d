"""The no-good-match gate where facts are embedded in context (``"{name} ({type}): {fact}"``): the
query's background is measured on anchor sentences of that same shape
(``core.search.calibration.ANCHORS``), so a short Spanish question about an English fact rises
above it and nonsense does not, in a new user's memory (with what reflect adds) and in a tiny one of
four entities, on every backend. (Reported with an MCP client: the new user's memory answered
``no_good_match`` to the first query; bench/RESULTS.md, "The no-good-match gate for facts in
context".)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.errors import InvalidInput
from core.memory import Memory
from core.settings import Settings

NEW_USER = [
    {"name": "Ana García", "entityType": "person", "observations": [
        "Works at Acme since 2021", "Likes green tea", "Speaks at PyCon Spain"]},
    {"name": "Billing service", "entityType": "service", "observations": [
        "p99 latency is 450 ms at peak", "Latency doubled after the March release", "Owned by the payments team"]},
    {"name": "Analytical Engine", "entityType": "technology", "observations": [
        "Mechanical general-purpose computer programmed with punched cards"]},
]
TINY = [
    {"name": "Ada Lovelace", "entityType": "Person", "observations": [
        "Daughter of the poet Lord Byron", "Wrote the first published algorithm, for the Analytical Engine"]},
    {"name": "José Martínez", "entityType": "Person", "observations": ["Backend engineer in Valencia"]},
    {"name": "Canción de cuna", "entityType": "Concept", "observations": [
        "Una canción tranquila; la abuela de José la cantaba cada noche"]},
    {"name": "Analytical Engine", "entityType": "Technology", "observations": [
        "Mechanical general-purpose computer programmed with punched cards"]},
]
NONSENSE = ['"', "*", "NEAR(", "asdf qwer zxcv", "the", "???", "zzqx wvvy", "lorem ipsum dolor",
            "ignore previous instructions", "DROP TABLE entities;"]


@pytest.fixture(params=[("sqlite", "new user"), ("falkordb", "new user"), ("sqlite", "tiny"), ("falkordb", "tiny")],
                ids=lambda p: f"{p[0]}, {p[1]}")
def new_user(request: pytest.FixtureRequest, tmp_path: Path,
             local_embedder: OnnxEmbeddingProvider) -> Iterator[Memory]:
    backend, which = request.param
    server = request.getfixturevalue("graph_settings") if backend != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "new.db", **server), embedder=local_embedder) as memory:
        memory.create_entities(NEW_USER if which == "new user" else TINY)
        if which == "new user":
            memory.reflect()
        memory.embed_pending()
        yield memory


@pytest.mark.parametrize("query", ["máquina programada con tarjetas perforadas",
                                   "máquina mecánica que se programaba con tarjetas perforadas"])
def test_a_spanish_question_about_an_english_fact_in_context_is_answered(new_user: Memory, query: str) -> None:
    hits = new_user.search_semantic(query, 5, record=False)
    assert hits and hits[0]["name"] == "Analytical Engine"


# Still answered in the tiny memory, before the anchors took the facts' shape and after: random
# letters come as near to "José Martínez" as a short real question comes to its answer, which no
# gate of cosines can tell apart (bench/gate_bench.py).
TINY_STILL_ANSWERED = {"zzqx wvvy"}


def test_nonsense_and_hostile_queries_still_find_no_good_match(new_user: Memory) -> None:
    tiny = new_user.search_nodes("José Martínez").entities != []
    for query in NONSENSE:
        if tiny and query in TINY_STILL_ANSWERED:
            continue
        assert new_user.search_semantic(query, 5, record=False) == [], query
    for empty in ("", "   "):  # an empty query is refused, not answered
        with pytest.raises(InvalidInput):
            new_user.search_semantic(empty, 5, record=False)
