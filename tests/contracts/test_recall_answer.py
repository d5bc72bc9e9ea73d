"""search_semantic's answer, the same on every backend: entities with at most ``per_entity`` of
their facts, how many others they have, relevance in 0–1 in the results' order, ``max_tokens``
respected, bad bounds refused with nothing changed."""

from __future__ import annotations

import json

import pytest

from core.errors import InvalidInput
from core.memory import Memory

NOTES = [f"Zanzibar spice farm visit number {i}, cloves and vanilla" for i in range(30)]


@pytest.fixture
def filled(mem: Memory) -> Memory:
    mem.create_entities([{"name": "Zanzibar trip", "entityType": "Travel", "observations": NOTES},
                         {"name": "Kafka cluster", "entityType": "Technology",
                          "observations": ["Three brokers handle the event stream"]}])
    mem.embed_pending()
    return mem


def test_an_answer_is_entities_with_a_few_facts_each(filled: Memory) -> None:
    hits = filled.search_semantic("Zanzibar spice farm cloves", 5)
    top = hits[0]
    assert top["name"] == "Zanzibar trip" and 1 <= len(top["observations"]) <= 3
    assert set(top["observations"]) <= set(NOTES) and top["other_observations"] == 30 - len(top["observations"])
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    one = filled.search_semantic("Zanzibar spice farm cloves", 5, per_entity=1)[0]
    assert len(one["observations"]) == 1 and one["other_observations"] == 29


def test_max_tokens_bounds_the_answer(filled: Memory) -> None:
    hits = filled.search_semantic("Zanzibar spice farm cloves", 5, max_tokens=25)
    size = len(json.dumps([{k: h[k] for k in ("name", "entityType", "observations", "score")} for h in hits],
                          ensure_ascii=False)) // 4
    assert hits and size <= 40  # the best one, trimmed to fit (JSON punctuation aside)


def test_bad_bounds_are_refused(filled: Memory) -> None:
    before = filled.latest_change_id()
    for kwargs in ({"per_entity": -1}, {"max_tokens": 0}, {"per_entity": "3"}):
        with pytest.raises(InvalidInput):
            filled.search_semantic("Zanzibar", 5, **kwargs)
    assert filled.latest_change_id() == before


# -- every fact indexed on its own, kept in step with every write, on every backend -------------------

SISTER = "La hermana de Ana vive en Buenos Aires y da clases de violín"
FILLER = [f"Ana logged inventory item number {i} for the warehouse audit" for i in range(40)]


@pytest.fixture
def long_entity(mem: Memory) -> Memory:
    mem.create_entities([{"name": "Ana", "entityType": "Person", "observations": FILLER[:20]}])
    mem.add_observations([{"entityName": "Ana", "contents": [SISTER, *FILLER[20:]]}])
    mem.create_entities([{"name": "Lisbon trip", "entityType": "Travel",
                          "observations": ["Vacaciones en Portugal en agosto con la familia"]}])
    mem.embed_pending()
    return mem


def facts_of(mem: Memory, name: str) -> list[str]:
    eid = mem.get_node(name).id
    return [text for _, text in mem.graph.facts_of([eid])[eid]]


def test_a_fact_past_the_entitys_own_text_is_found_by_meaning(long_entity: Memory) -> None:
    model = long_entity.embedder.model_id
    assert long_entity.vectors.fact_progress(model) == (42, 42)
    hit = long_entity.search_semantic("where does Ana's sister live, and what does she teach?", 3)[0]
    assert hit["name"] == "Ana" and hit["observations"][0] == SISTER
    assert hit["other_observations"] == 41 - len(hit["observations"])


def test_nonsense_finds_no_good_match(long_entity: Memory) -> None:
    for query in ['"', "*", "NEAR(", "asdf qwer zxcv", "the"]:
        assert long_entity.search_semantic(query, 10) == [], query
    assert long_entity.search_semantic("family holidays in Portugal", 10)[0]["name"] == "Lisbon trip"


def test_what_was_just_written_is_found_before_the_embedder_runs(long_entity: Memory) -> None:
    long_entity.add_observations([{"entityName": "Ana", "contents": ["Ana adoptó un gato negro llamado Merlín"]}])
    assert list(long_entity.vectors.pending_facts(long_entity.embedder.model_id, 10).values()) == [
        "Ana adoptó un gato negro llamado Merlín"]
    hit = long_entity.search_semantic("Ana's new black cat", 1)[0]  # no stored vector yet, no shared word
    assert hit["observations"][0] == "Ana adoptó un gato negro llamado Merlín"


def test_facts_follow_every_write(long_entity: Memory) -> None:
    mem = long_entity
    mem.delete_observations([{"entityName": "Ana", "observations": [SISTER]}])
    assert SISTER not in facts_of(mem, "Ana") and not mem.graph.fact_search("violin")
    mem.replace_observation("Ana", FILLER[0], "Ana plays the cello on Sundays")
    assert "Ana plays the cello on Sundays" in facts_of(mem, "Ana") and FILLER[0] not in facts_of(mem, "Ana")
    mem.undo_change()  # the replacement taken back
    assert FILLER[0] in facts_of(mem, "Ana") and not mem.graph.fact_search("cello")
    mem.save_entity("Lisbon trip", add_observations=["Hotel junto al río Tajo"],
                    delete_observations=["Vacaciones en Portugal en agosto con la familia"])
    assert facts_of(mem, "Lisbon trip") == ["Hotel junto al río Tajo"]
    lisbon = mem.get_node("Lisbon trip").id
    mem.delete_entities(["Lisbon trip"])
    assert mem.graph.facts_of([lisbon])[lisbon] == [] and not mem.graph.fact_search("tajo")
    mem.undo_change()  # the deletion taken back: the entity and its facts come back
    assert facts_of(mem, "Lisbon trip") == ["Hotel junto al río Tajo"]
    mem.embed_pending()
    model = mem.embedder.model_id
    done, total = mem.vectors.fact_progress(model)
    assert done == total == len(facts_of(mem, "Ana")) + 1
    hit = mem.search_semantic("a hotel by the river", 1)[0]
    assert hit["name"] == "Lisbon trip" and hit["observations"] == ["Hotel junto al río Tajo"]


def test_an_import_indexes_every_fact(mem: Memory, tmp_path) -> None:
    from core.io import import_path

    lines = [{"type": "entity", "name": f"Note {i}", "entityType": "Note",
              "observations": [f"imported fact {i} about glaciers", f"second fact {i}"]} for i in range(3)]
    source = tmp_path / "memory.jsonl"
    source.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    import_path(mem, source)
    assert sorted(eid for _, eid, _ in mem.graph.fact_search("glaciers")) == sorted(
        mem.get_node(f"Note {i}").id for i in range(3))
    assert mem.vectors.fact_progress(mem.embedder.model_id) == (0, 6)
    mem.embed_pending()
    assert mem.vectors.fact_progress(mem.embedder.model_id) == (6, 6)


def test_reindex_makes_every_fact_due_and_keeps_it_searchable(long_entity: Memory) -> None:
    model = long_entity.embedder.model_id
    long_entity.forget_embeddings()
    assert long_entity.vectors.fact_progress(model) == (0, 42)
    hit = long_entity.search_semantic("where does Ana's sister live, and what does she teach?", 1)[0]
    assert hit["observations"][0] == SISTER  # the old vectors serve until replaced
    long_entity.embed_pending()
    assert long_entity.vectors.fact_progress(model) == (42, 42)
