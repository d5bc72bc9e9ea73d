"""Every fact indexed on its own: found deep inside a long entity, answered within a budget,
nonsense refused, writes touching only the fact they change, and the schema-4 migration."""

from __future__ import annotations

from pathlib import Path

from core.embeddings.text import HEAD_FACTS
from core.memory import Memory
from core.settings import Settings
from core.storage.sqlite.schema import SCHEMA_VERSION

SISTER = "La hermana de Ana vive en Buenos Aires y da clases de violín"
FILLER = [f"Ana logged inventory item number {i} for the warehouse audit" for i in range(150)]


def long_entity(mem: Memory) -> None:
    mem.create_entities([{"name": "Ana", "entityType": "Person", "observations": FILLER[:75]}])
    mem.add_observations([{"entityName": "Ana", "contents": [SISTER]}])
    mem.add_observations([{"entityName": "Ana", "contents": FILLER[75:]}])
    mem.create_entities([{"name": "Lisbon trip", "entityType": "Travel",
                          "observations": ["Vacaciones en Portugal en agosto con la familia"]}])


def test_a_fact_deep_inside_a_long_entity_is_found_by_meaning(semantic: Memory) -> None:
    long_entity(semantic)
    semantic.embed_pending()
    hit = semantic.search_semantic("where does Ana's sister live, and what does she teach?", 3)[0]
    assert hit["name"] == "Ana" and hit["observations"][0] == SISTER
    assert len(hit["observations"]) <= 3 and hit["other_observations"] == 151 - len(hit["observations"])


def test_the_answer_is_bounded(semantic: Memory) -> None:
    long_entity(semantic)
    semantic.embed_pending()
    one = semantic.search_semantic("warehouse audit inventory", 5, per_entity=1)
    assert [len(h["observations"]) for h in one] == [1] * len(one)
    small = semantic.search_semantic("warehouse audit inventory", 5, max_tokens=30)
    assert len(small) == 1 and len(small[0]["observations"]) <= 1


def test_nonsense_finds_no_good_match_and_scores_follow_the_order(semantic: Memory) -> None:
    long_entity(semantic)
    semantic.embed_pending()
    for query in ['"', "*", "NEAR(", "asdf qwer zxcv", "the"]:
        assert semantic.search_semantic(query, 10) == [], query
    hits = semantic.search_semantic("family holidays in Portugal", 10)
    assert hits[0]["name"] == "Lisbon trip"
    scores = [h["score"] for h in hits]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 1 for s in scores)


def test_what_was_just_added_to_a_long_entity_is_found_at_once(semantic: Memory) -> None:
    long_entity(semantic)
    semantic.embed_pending()
    semantic.add_observations([{"entityName": "Ana", "contents": ["Ana adoptó un gato negro llamado Merlín"]}])
    hit = semantic.search_semantic("Ana's new black cat", 1)[0]  # no stored vector yet, no shared word
    assert hit["name"] == "Ana" and hit["observations"][0] == "Ana adoptó un gato negro llamado Merlín"


def test_adding_a_fact_to_a_long_entity_touches_only_that_fact(semantic: Memory) -> None:
    long_entity(semantic)
    semantic.embed_pending()
    model = semantic.embedder.model_id
    semantic.add_observations([{"entityName": "Ana", "contents": ["one more"]}])
    assert semantic.vectors.pending(model, 10) == {}  # the entity's own vector holds its first facts only
    assert list(semantic.vectors.pending_facts(model, 10).values()) == ["one more"]
    semantic.create_entities([{"name": "Short", "observations": ["a"]}])
    semantic.embed_pending()
    semantic.add_observations([{"entityName": "Short", "contents": ["b"]}])  # among its first HEAD_FACTS
    assert list(semantic.vectors.pending(model, 10)) == [semantic.get_node("Short").id]
    assert HEAD_FACTS > 2


def test_a_schema_3_database_is_migrated_with_every_fact_due(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    with Memory(Settings(db=db, embeddings="none")) as mem:
        mem.create_entities([{"name": "Ana", "observations": ["likes green tea", "lives in Lisbon"]}])
        with mem.graph.db.write() as conn:  # what a version-3 file holds: no fact index
            for trigger in ("fact_added", "fact_removed", "fact_changed"):
                conn.execute(f"DROP TRIGGER {trigger}")
            for table in ("fact_fts", "fact_substr", "fact_folded", "fact_vectors", "fact_due", "fact_queue"):
                conn.execute(f"DROP TABLE {table}")
            conn.execute("DROP TABLE pins")  # version 6's
            for trigger in ("entity_aliases_added", "entity_aliases_changed"):  # version 5's
                conn.execute(f"DROP TRIGGER {trigger}")
            conn.execute("DROP TABLE entity_aliases")
            conn.execute("PRAGMA user_version = 3")
    with Memory(Settings(db=db, embeddings="none")) as mem:
        with mem.graph.db.locked() as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            assert conn.execute("SELECT count(*) FROM fact_due").fetchone()[0] == 2
        (_, owner, _), = mem.graph.fact_search("tea")
        assert owner == mem.get_node("Ana").id
        assert [h["name"] for h in mem.search_semantic("green tea")] == ["Ana"]
        assert mem.search_semantic("green tea")[0]["observations"] == ["likes green tea"]


def test_a_write_to_a_long_entity_changes_as_many_rows_as_one_to_a_short_one(tmp_path: Path) -> None:
    """No work proportional to the entity's size: the same rows change (SQLite counts them, index
    rows and trigger work included) whether the entity has 3 facts or 600."""
    with Memory(Settings(db=tmp_path / "w.db", embeddings="none")) as mem:
        mem.create_entities([{"name": "short", "observations": [f"note {i}" for i in range(3)]},
                             {"name": "long", "observations": [f"note {i}" for i in range(600)]}])
        changed = {}
        for name in ("short", "long", "short", "long"):
            before = mem.graph.db.conn.total_changes
            mem.add_observations([{"entityName": name, "contents": [f"one more for {name} {before}"]}])
            changed[name] = mem.graph.db.conn.total_changes - before
        assert changed["long"] == changed["short"]
        assert mem.search_nodes("one more for long").entities[0].name == "long"
