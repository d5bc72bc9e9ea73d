"""Hybrid search: meaning across languages, words, filters, and bounded limbic scoring."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput
from core.memory import Memory
from core.search.hybrid import FRESH_AT_MOST

MEMORIES = [
    {"name": "Marta Jiménez", "entityType": "Person",
     "observations": ["Le encanta correr maratones por la montaña", "Trabaja como enfermera en Bilbao"]},
    {"name": "Proyecto Atlas", "entityType": "Project",
     "observations": ["Migración de la base de datos a PostgreSQL", "La fecha límite es en marzo"]},
    {"name": "Dentist", "entityType": "Event", "observations": ["Appointment with Dr. Ruiz on Thursday at 10"]},
    {"name": "Lentil soup", "entityType": "Recipe", "observations": ["Grandma's lentil soup with cumin and carrots"]},
    {"name": "Kafka cluster", "entityType": "Technology", "observations": ["Three brokers handle the event stream"]},
    {"name": "Lisbon trip", "entityType": "Travel",
     "observations": ["Vacaciones en Portugal en agosto con la familia"]},
]


@pytest.fixture
def filled(semantic: Memory) -> Memory:
    semantic.create_entities(MEMORIES)
    semantic.embed_pending()
    return semantic


def top(mem: Memory, query: str, n: int = 1, **kw: object) -> list[str]:
    return [r["name"] for r in mem.search_semantic(query, n, **kw)]


def test_finds_by_meaning_across_languages(filled: Memory) -> None:
    assert top(filled, "what endurance sport does she practise on trails?") == ["Marta Jiménez"]
    assert top(filled, "¿cuándo tengo cita con el médico de los dientes?") == ["Dentist"]
    assert top(filled, "sopa de legumbres de la abuela") == ["Lentil soup"]
    assert top(filled, "summer holidays abroad with the kids") == ["Lisbon trip"]


def test_result_shape(filled: Memory) -> None:
    result = filled.search_semantic("database migration deadline", 3)[0]
    assert result["name"] == "Proyecto Atlas" and result["entityType"] == "Project"
    assert sorted(result["observations"]) == sorted(MEMORIES[1]["observations"])  # matching facts, best first
    assert result["other_observations"] == 0 and 0 < result["score"] <= 1
    assert set(result["scoring"]) == {"importance", "temporal_factor", "cooc_boost", "limbic_lift"}
    assert 0 < result["distance"] < 1 and result["rrf_score"] > 0 and result["limbic_score"] > 0


def test_filters_by_type_and_archived(filled: Memory) -> None:
    assert top(filled, "soup", 3, entity_type="Recipe") == ["Lentil soup"]
    assert top(filled, "database", 3, entity_type="Recipe") == []  # the only recipe is no good match
    filled.archive_node("Proyecto Atlas")
    assert "Proyecto Atlas" not in top(filled, "database migration", 6)
    assert top(filled, "database migration", 1, include_archived=True) == ["Proyecto Atlas"]


def test_exact_words_still_count(filled: Memory) -> None:
    assert top(filled, "Kafka") == ["Kafka cluster"]
    assert top(filled, "PostgreSQL") == ["Proyecto Atlas"]


def test_not_yet_embedded_entities_are_found_by_full_text(filled: Memory) -> None:
    filled.create_entities([{"name": "Zanzibar note", "observations": ["spice farms of Zanzibar"]}])
    results = filled.search_semantic("zanzibar", 3)
    assert results[0]["name"] == "Zanzibar note" and results[0]["distance"] is not None
    assert filled.vectors.count() == len(MEMORIES)  # measured on the fly, stored by the indexer


def test_what_was_just_written_is_found_by_meaning_at_once(filled: Memory) -> None:
    """Written in Spanish, looked for in English a moment later: no word in common, no stored vector yet."""
    filled.create_entities([{"name": "Toby", "entityType": "Pet",
                             "observations": ["Mi perro se llama Toby y le encanta correr por la playa"]}])
    results = filled.search_semantic("my dog who loves running on the beach", 3)
    assert results[0]["name"] == "Toby" and results[0]["distance"] is not None
    assert filled.vectors.count() == len(MEMORIES)  # embedded for this search; the indexer stores it


def test_after_a_bulk_write_only_full_text_finds_the_unembedded(filled: Memory) -> None:
    """More new entities than a search embeds on the fly: the search stays cheap and full text serves."""
    filled.create_entities([{"name": "Toby", "entityType": "Pet",
                             "observations": ["Mi perro se llama Toby y le encanta correr por la playa"]}])
    filled.create_entities([{"name": f"Note {i}", "observations": [f"unrelated note number {i}"]}
                            for i in range(FRESH_AT_MOST)])
    assert "Toby" not in top(filled, "my dog who loves running on the beach", 5)
    assert top(filled, "playa") == ["Toby"]  # its words still find it
    filled.embed_pending()
    assert top(filled, "my dog who loves running on the beach") == ["Toby"]


def test_searches_record_access_and_cooccurrence(filled: Memory) -> None:
    assert len(filled.search_semantic("PostgreSQL database and the Kafka brokers", 2)) == 2
    stats = filled.graph.limbic_stats([filled.get_node(n).id for n in ("Proyecto Atlas",)])
    (count, _), = stats["access"].values()
    assert count == 1
    with filled.graph.db.locked() as conn:
        assert conn.execute("SELECT count(*) FROM co_occurrences").fetchone()[0] == 1
    assert filled.search_vectors("database", 2)  # measuring paths record nothing
    with filled.graph.db.locked() as conn:
        assert conn.execute("SELECT sum(access_count) FROM entity_access").fetchone()[0] == 2


def test_limbic_feedback_cannot_lock_in_a_frequent_result(filled: Memory) -> None:
    """The seed's failure: hammering one query made its results win every later query."""
    for _ in range(60):
        filled.search_semantic("Kafka brokers event stream", 5)
    kafka = filled.search_semantic("Kafka brokers event stream", 5)[0]
    assert kafka["name"] == "Kafka cluster" and kafka["scoring"]["importance"] > 0
    assert top(filled, "sopa de legumbres de la abuela") == ["Lentil soup"]
    assert top(filled, "what endurance sport does she practise on trails?") == ["Marta Jiménez"]
    lift = max(r["scoring"]["limbic_lift"] for r in filled.search_semantic("Kafka brokers and the soup", 6))
    assert 0 < lift <= 0.002


def test_limbic_reorders_near_equals(semantic: Memory) -> None:
    semantic.create_entities([
        # Facts are embedded after their entity's name: two names the model sees as near-equals.
        {"name": "Notes (a)", "observations": ["meeting notes from the weekly sync"]},
        {"name": "Notes (b)", "observations": ["meeting notes from the weekly sync"]},
    ])
    semantic.embed_pending()
    first = top(semantic, "weekly sync meeting notes", 2)
    loser = first[1]
    for _ in range(20):
        semantic.graph.record_access([semantic.get_node(loser).id])
    assert top(semantic, "weekly sync meeting notes", 2)[0] == loser


def test_bad_arguments(filled: Memory) -> None:
    with pytest.raises(InvalidInput):
        filled.search_semantic("   ")
    with pytest.raises(InvalidInput):
        filled.search_semantic("x", 0)
    with pytest.raises(InvalidInput):
        filled.search_semantic("x", 101)


NAMESAKES = [{"name": f"Daniel Moreno {i:06d}", "entityType": "Person",
              "observations": [f"Works on the billing project, team {i % 3}", "Lives in Madrid"]} for i in range(1, 13)]


def test_an_entity_named_by_the_query_comes_first(semantic: Memory) -> None:
    """Near namesakes are equally close to the model; the one whose name was typed is what was meant."""
    semantic.create_entities(NAMESAKES)
    semantic.embed_pending()
    for i in range(1, 13):
        name = f"Daniel Moreno {i:06d}"
        results = semantic.search_semantic(name, 5)
        assert results[0]["name"] == name, [r["name"] for r in results]
        assert results[0]["score"] == pytest.approx(max(r["score"] for r in results), abs=0.05)  # honest scores
    assert top(semantic, "  daniel MORENO 000007 ") == ["Daniel Moreno 000007"]  # case and spaces aside
    namesake = semantic.get_node("Daniel Moreno 000008")
    assert namesake is not None
    for _ in range(30):  # frequent recall of a namesake cannot push the named one down
        semantic.graph.record_access([namesake.id])
    assert top(semantic, "Daniel Moreno 000007", 3)[0] == "Daniel Moreno 000007"
    assert top(semantic, "Daniel Moreno 000007", 3, entity_type="Place") == []  # filters still apply


def test_an_entity_named_by_the_query_is_found_when_neither_list_has_it(semantic: Memory) -> None:
    """Not embedded yet (too many pending to embed with the query) and no word full text could match."""
    semantic.create_entities(NAMESAKES)
    semantic.embed_pending()
    semantic.create_entities([{"name": "🦊", "entityType": "Pet", "observations": ["the fox emoji the kids use"]}]
                             + [{"name": f"Pending {i}", "observations": ["imported"]} for i in range(FRESH_AT_MOST)])
    assert top(semantic, "🦊", 1) == ["🦊"]
    semantic.archive_node("🦊")
    assert "🦊" not in top(semantic, "🦊", 3)
    assert top(semantic, "🦊", 3, include_archived=True)[0] == "🦊"
