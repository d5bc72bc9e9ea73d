"""What the embedder's status counts, on every backend: the entities ``read_graph`` returns. An
insight waiting for review is an (archived) entity row the embedder indexes too, but no entity to
the user: ``hipocampo search`` said "4 of 4 entities are not embedded yet" of a memory of 2."""

from __future__ import annotations

from core.memory import Memory


def _two_people_and_their_insights(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Ana García", "entityType": "Person", "observations": ["works at Acme"]},
        {"name": "Ana_Garcia", "entityType": "Person", "observations": ["lives in Madrid"]},
    ])
    mem.reflect(actor="test")
    assert mem.insight_counts()["pending"] >= 2  # a possible duplicate, and under-connected nodes


def test_pending_insights_are_not_counted_as_entities(mem: Memory) -> None:
    _two_people_and_their_insights(mem)
    status = mem.embedding_status()
    assert status["entities"] == len(mem.read_graph().entities) == 2
    assert status["embedded"] == 0
    mem.embed_pending()
    status = mem.embedding_status()
    assert (status["embedded"], status["entities"], status["pending"]) == (2, 2, 0)


def test_after_a_merge_the_count_is_still_what_read_graph_returns(mem: Memory) -> None:
    _two_people_and_their_insights(mem)
    mem.merge_entities(["Ana_Garcia"], into="Ana García", dry_run=False)
    status = mem.embedding_status()
    assert status["entities"] == len(mem.read_graph().entities)
    assert status["embedded"] == 0 and status["pending"] > status["entities"]  # insight rows are due too
    mem.embed_pending()
    status = mem.embedding_status()
    assert status["embedded"] == status["entities"] == len(mem.read_graph().entities) and status["pending"] == 0
