"""A word in more than a tenth of the memory's facts (the person it is about, named in every other
fact, and in ten at least) says little about which fact answers, and in the query's embedding it pulls toward every fact
that names it: the query's vector is the mean of its own and that of the query without such words
(``core.search.hybrid.COMMON_WORDS_SHARE``). A question that names her and asks about a necklace finds
the fact about the necklace, not her facts about other things. (LoCoMo 0–4 in-process: both shapes
+0.01–0.04 R@5, +0.02–0.04 MRR, the labelled set unchanged; bench/RESULTS.md, "Recall: where the
misses are, session 5".)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.protocols import FactText
from core.settings import Settings

NECKLACE = "Melanie received a special necklace from her grandmother in Sweden, a symbol of love and faith."
CAROLINE = [
    "Caroline attended an LGBTQ support group and found the stories inspiring.",
    "Caroline is researching adoption agencies to build a family of her own.",
    "Caroline wants to study counseling and work in mental health.",
    "Caroline painted a sunset with her friends last weekend.",
    "Caroline went to a pride parade and felt the community's support.",
    "Caroline says her friends and family are her biggest source of strength.",
    "Caroline bought a new guitar and practices every evening.",
    "Caroline gave a talk at her school about transgender stories.",
    "Caroline volunteers at the animal shelter on Sundays.",
    "Caroline read a book about identity and acceptance.",
    "Caroline and her friends went hiking in the mountains.",
    "Caroline is learning to cook Swedish meatballs.",
]


@pytest.fixture(params=["sqlite", "falkordb"])
def memory(request: pytest.FixtureRequest, tmp_path: Path,
           local_embedder: OnnxEmbeddingProvider) -> Iterator[Memory]:
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "common.db", **server), embedder=local_embedder) as m:
        facts = [*CAROLINE, NECKLACE, "Melanie runs every morning before work."]
        m.create_entities([{"name": f"fact-{i:02d}", "entityType": "Fact", "observations": [t]}
                           for i, t in enumerate(facts, start=1)])
        m.embed_pending()
        yield m


def test_a_name_in_most_facts_does_not_outweigh_what_is_asked(memory: Memory) -> None:
    hits = memory.search_semantic("What does Caroline's necklace symbolize?", 3, record=False)
    assert hits[0]["observations"] == [NECKLACE]


def test_a_rare_name_still_counts(memory: Memory) -> None:
    hits = memory.search_semantic("What does Melanie do every morning?", 3, record=False)
    assert hits[0]["observations"] == ["Melanie runs every morning before work."]


def test_which_words_are_common(memory: Memory) -> None:
    graph = memory.graph
    assert isinstance(graph, FactText)
    assert graph.common_words(["caroline", "melanie", "necklace"], 0.1, 10, 10_000) == {"caroline"}
    assert graph.common_words(["caroline"], 0.1, 13, 10_000) == set()  # 12 facts: fewer than 13
    # a word in at_most facts is common whatever its share (counting further would cost more)
    assert graph.common_words(["caroline", "melanie"], 1.0, 1, 2) == {"caroline", "melanie"}
