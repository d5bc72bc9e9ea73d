"""Search quality on the labelled Spanish/English set, with the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.settings import Settings
from tests.quality.evaluate import evaluate, fill, load_dataset, table


def test_dataset_is_consistent() -> None:
    data = load_dataset()
    names = [e["name"] for e in data["entities"]]
    assert len(names) == len(set(names)) >= 60
    assert len(data["queries"]) >= 40
    assert {q["lang"] for q in data["queries"]} == {"es", "en"}
    assert sum(q["kind"] == "cross_lingual" for q in data["queries"]) >= 10
    for q in data["queries"]:
        assert set(q["relevant"]) <= set(names), q


@pytest.mark.parametrize("backend", ["sqlite", "falkordb"])
def test_hybrid_beats_full_text_and_matches_vectors(tmp_path: Path, local_embedder: OnnxEmbeddingProvider,
                                                    backend: str, request: pytest.FixtureRequest) -> None:
    data = load_dataset()
    server = request.getfixturevalue("graph_settings") if backend != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "quality.db", **server), embedder=local_embedder) as memory:
        fill(memory, data)
        results = evaluate(memory, data)
    print("\n" + table(results))
    text = results["full text (BM25)"]
    vectors = results["vectors (cosine)"]
    hybrid = results["hybrid + limbic (after 3 passes)"]
    # Word matches are what lifts LoCoMo (bench/RESULTS.md); here, where 40 of 63 queries share no
    # word with their target, they may cost one query (1/63 = 0.016), never more.
    assert hybrid.recall_at_5 >= vectors.recall_at_5 - 0.02
    assert hybrid.mrr >= vectors.mrr - 0.02  # ties re-ordered by limbic may move a hit by one
    # The goals (issue 21: recall@5 >= 0.93, MRR >= 0.85), which both backends reach since a
    # fact in the other language than the question's is judged against the question's background in
    # that language (bench/RESULTS.md, "Recall goals, session 5": 0.968 / 0.851; 0.921 / 0.835 before).
    assert hybrid.recall_at_5 >= 0.93 and hybrid.mrr >= 0.85
    assert hybrid.recall_at_5 > text.recall_at_5 and hybrid.mrr > text.mrr
