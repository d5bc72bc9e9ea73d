"""A question asking when ("When did …", "¿Cuándo …", "what year …") is answered by a fact that holds
a time ("last Saturday", "in May", "2023"): among an entity's facts that match it, the one with the
time comes first. (LoCoMo, conversations 0–4: 36% of the temporal questions' evidence facts hold a
time expression, 8% of all facts; bench/RESULTS.md, "Recall goals, session 5".) Other questions keep
their order."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.settings import Settings

UNDATED = "Melanie ran a charity race for mental health awareness."
DATED = "Melanie signed up for the charity race last Saturday."


@pytest.fixture
def melanie(tmp_path: Path, local_embedder: OnnxEmbeddingProvider) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "when.db"), embedder=local_embedder) as memory:
        memory.create_entities([{"name": "Melanie", "entityType": "Person",
                                 "observations": [UNDATED, DATED, "Melanie loves painting sunsets."]}])
        memory.embed_pending()
        yield memory


def test_a_when_question_puts_the_fact_with_a_time_first(melanie: Memory) -> None:
    hits = melanie.search_semantic("When did Melanie do the charity race?", 3, record=False)
    assert hits[0]["observations"][:2] == [DATED, UNDATED]


def test_other_questions_keep_their_order(melanie: Memory) -> None:
    hits = melanie.search_semantic("What race did Melanie run?", 3, record=False)
    assert hits[0]["observations"][:2] == [UNDATED, DATED]
