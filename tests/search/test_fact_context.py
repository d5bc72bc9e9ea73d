"""Facts are embedded in context: after their entity's name and type (core.embeddings.text.fact_text),
by the background embedder and by a search that embeds just-written facts alike; migration 007 makes
every fact of an existing memory due again, its old vectors searchable meanwhile."""

from __future__ import annotations

import numpy as np

from core.embeddings.text import fact_text
from core.memory import Memory
from core.storage.sqlite.migrations import MIGRATIONS
from core.storage.sqlite.schema import execute_script

REDIS = {"name": "Redis", "entityType": "Technology",
         "observations": ["Redis se usa como caché de sesiones.",
                          "Tuvimos una caída en junio porque la instancia se quedó sin memoria."]}
CRASH = "Tuvimos una caída en junio porque la instancia se quedó sin memoria."


def fact_distance(memory: Memory, query: str, fact: str) -> float:
    for hit in memory.search_semantic(query, 5, record=False):
        for f in hit["facts"]:
            if f["text"] == fact:
                return float(f["distance"])
    raise AssertionError(f"{fact!r} not among the candidates")


def test_a_fact_is_embedded_after_its_entity(semantic: Memory) -> None:
    semantic.create_entities([REDIS])
    semantic.embed_pending()
    query = "¿Por qué se cayó Redis en junio?"
    q = semantic.embedder.embed_query(query)
    bare, framed = semantic.embedder.embed_documents([CRASH, fact_text("Redis", "Technology", CRASH)])
    distance = fact_distance(semantic, query, CRASH)
    assert abs(distance - (1 - float(framed @ q))) < 0.003  # int8: within a few thousandths
    assert abs(distance - (1 - float(bare @ q))) > 0.01  # … and not the bare text's


def test_a_fact_the_search_embeds_itself_is_in_context_too(semantic: Memory) -> None:
    semantic.create_entities([REDIS])  # not embedded: the search embeds what was just written
    query = "¿Por qué se cayó Redis en junio?"
    q = semantic.embedder.embed_query(query)
    framed = semantic.embedder.embed_documents([fact_text("Redis", "Technology", CRASH)])[0]
    assert abs(fact_distance(semantic, query, CRASH) - (1 - float(framed @ q))) < 1e-4


def test_migration_007_makes_every_fact_due_and_keeps_old_vectors_searchable(semantic: Memory) -> None:
    semantic.create_entities([REDIS, {"name": "Ana", "observations": ["likes tea", "plays the cello"]}])
    semantic.embed_pending()
    model = semantic.embedder.model_id
    assert semantic.vectors.fact_progress(model) == (4, 4)
    with semantic.graph.db.write() as conn:  # what opening an older file runs, by its number
        execute_script(conn, MIGRATIONS[7])
    assert semantic.vectors.fact_progress(model) == (0, 4)
    vector = semantic.embedder.embed_documents([fact_text("Ana", "Generic", "plays the cello")])[0]
    assert semantic.vectors.search_facts(vector, 1)  # the old vectors still answer meanwhile
    assert semantic.embed_pending() >= 4
    assert semantic.vectors.fact_progress(model) == (4, 4)
    (fid, distance), = semantic.vectors.search_facts(np.asarray(vector), 1)
    assert distance < 0.003


def test_a_one_fact_entity_that_matches_best_comes_first_in_a_mixed_memory(semantic: Memory) -> None:
    """Its own vector counts as any entity's does: a person of two facts that match worse (one about
    the machine, one about something else) does not outrank the machine itself."""
    semantic.create_entities([
        {"name": "Ada Lovelace", "entityType": "Person", "observations": [
            "Daughter of the poet Lord Byron", "Wrote the first published algorithm, for the Analytical Engine"]},
        {"name": "José Martínez", "entityType": "Person", "observations": ["Backend engineer in Valencia"]},
        {"name": "Analytical Engine", "entityType": "Technology", "observations": [
            "Mechanical general-purpose computer programmed with punched cards"]},
    ])
    semantic.embed_pending()
    hits = semantic.search_semantic("máquina mecánica que se programaba con tarjetas perforadas", record=False)
    assert [h["name"] for h in hits][:2] == ["Analytical Engine", "Ada Lovelace"]
    assert hits[0]["score"] > hits[1]["score"]
