"""Any user string is safe in search: literal, folded, never an FTS syntax error."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.memory import Memory

TRICKY = [
    "say \"hello\" now", "it's", "well-known", "c*", "key:value", "NEAR(a b)", "this AND that",
    "(unbalanced", "closing)", "50% off", "snake_case", "a^b", "{braces}", "OR", "NOT", "-",
    "\"", "''", "back\\slash", "col:umn*", "a + b", "tab\there",
]


@pytest.fixture
def tricky(mem: Memory) -> Memory:
    mem.create_entities([{"name": f"T{i}", "observations": [f"text with {t} inside"]}
                         for i, t in enumerate(TRICKY)])
    mem.create_entities([{"name": "plain", "observations": ["nothing special here at all"]}])
    return mem


@pytest.mark.parametrize("index", range(len(TRICKY)))
def test_tricky_strings_match_literally(tricky: Memory, index: int) -> None:
    query = TRICKY[index]
    found = {e.name for e in tricky.search_nodes(query).entities}
    texts = {f"T{i}": f"text with {t} inside" for i, t in enumerate(TRICKY)}
    texts["plain"] = "nothing special here at all"
    expected = {name for name, text in texts.items() if query.casefold() in text.casefold()}
    assert found == expected
    assert f"T{index}" in found
    tricky.fulltext_search(query)  # must not raise


def test_wildcards_are_literal(tricky: Memory) -> None:
    assert [e.name for e in tricky.search_nodes("%").entities] == ["T9"]
    assert [e.name for e in tricky.search_nodes("_").entities] == ["T10"]
    assert [e.name for e in tricky.search_nodes("t_x").entities] == []  # '_' is not "any char"
    assert tricky.search_nodes("s%c").entities == []


def test_case_accents_and_unicode_forms_fold(mem: Memory) -> None:
    mem.create_entities([
        {"name": "José", "observations": ["Le encanta la canción del niño"]},
        {"name": "Straße", "entityType": "Ort"},
        {"name": "Cafe\u0301 decomposed"},  # "Café" in NFD form
    ])
    for q in ["jose", "JOSÉ", "José", "JOSE"]:
        assert [e.name for e in mem.search_nodes(q).entities] == ["José"]
    assert [e.name for e in mem.search_nodes("CANCION DEL NINO").entities] == ["José"]
    assert [e.name for e in mem.search_nodes("strasse").entities] == ["Straße"]
    assert [e.name for e in mem.search_nodes("café").entities] == ["Cafe\u0301 decomposed"]
    assert [s.node.name for s in mem.fulltext_search("cancion")] == ["José"]
    assert [s.node.name for s in mem.fulltext_search("NIÑO")] == ["José"]


def test_emoji_and_cjk_round_trip(mem: Memory) -> None:
    mem.create_entities([
        {"name": "東京タワー", "entityType": "場所", "observations": ["高さ333メートル 🗼"]},
        {"name": "Party 🎉", "observations": ["🎂🎈 birthday"]},
    ])
    graph = mem.read_graph().dump()
    assert graph["entities"][0] == {"name": "東京タワー", "entityType": "場所",
                                    "observations": ["高さ333メートル 🗼"]}
    assert [e.name for e in mem.search_nodes("京タ").entities] == ["東京タワー"]
    assert [e.name for e in mem.search_nodes("メートル").entities] == ["東京タワー"]
    assert [e.name for e in mem.search_nodes("🎉").entities] == ["Party 🎉"]
    assert [e.name for e in mem.search_nodes("🎂🎈").entities] == ["Party 🎉"]
    assert mem.open_nodes(["東京タワー"]).entities[0].observations == ["高さ333メートル 🗼"]


def test_short_queries_fall_back_to_a_scan(mem: Memory) -> None:
    mem.create_entities([{"name": "Go", "observations": ["language"]}, {"name": "Rust"}])
    assert [e.name for e in mem.search_nodes("go").entities] == ["Go"]
    assert [e.name for e in mem.search_nodes("ST").entities] == ["Rust"]


def test_search_limit(mem: Memory) -> None:
    mem.create_entities([{"name": f"item {i}"} for i in range(10)])
    assert len(mem.search_nodes("item", limit=3).entities) == 3
    assert len(mem.search_nodes("item").entities) == 10


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.text(min_size=1, max_size=40).filter(lambda s: s.strip() and "\x00" not in s))
def test_any_string_is_safe_and_matches_substrings(tricky: Memory, query: str) -> None:
    from core.search.folding import fold

    found = {e.name for e in tricky.search_nodes(query).entities}
    corpus = {f"T{i}": f"T{i}\x1fGeneric\x1ftext with {t} inside" for i, t in enumerate(TRICKY)}
    for name, text in corpus.items():
        if name in found:
            assert any(fold(query) in fold(part) for part in text.split("\x1f"))
    tricky.fulltext_search(query)


def test_a_match_never_spans_two_fields(mem: Memory) -> None:
    """Name, type and each observation are matched one at a time, whatever the query holds."""
    mem.create_entities([
        {"name": "abc", "entityType": "def", "observations": ["ghi", "jkl"]},
        {"name": "unit\x1fseparator", "observations": ["line one\nline two"]},
    ])
    for query in ["cde", "c\x1fd", "fgh", "f\x1fg", "ij", "i\x1fj", "i\nj", "abcdef"]:
        assert mem.search_nodes(query).entities == [], query
    assert [e.name for e in mem.search_nodes("T\x1fS").entities] == ["unit\x1fseparator"]
    assert [e.name for e in mem.search_nodes("ONE\nLINE").entities] == ["unit\x1fseparator"]
    assert mem.search_nodes("t\x1fs", limit=1).entities[0].observations == ["line one\nline two"]


def test_search_follows_every_kind_of_write(mem: Memory) -> None:
    mem.create_entities([{"name": "Ana", "observations": ["toca el violín"]}])
    assert [e.name for e in mem.search_nodes("VIOLIN").entities] == ["Ana"]
    mem.add_observations([{"entityName": "Ana", "contents": ["y el piano"]}])
    assert [e.name for e in mem.search_nodes("piano").entities] == ["Ana"]
    mem.delete_observations([{"entityName": "Ana", "observations": ["toca el violín"]}])
    assert mem.search_nodes("violin").entities == []
    mem.merge_node("Musician", "Ana", {"summary": "x"})
    assert [e.name for e in mem.search_nodes("musician").entities] == ["Ana"]
    mem.delete_entities(["Ana"])
    assert mem.search_nodes("piano").entities == []
    assert mem.search_nodes_dump("an") == {"entities": [], "relations": []}


_ROUND_TRIPS = itertools.count()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.text(min_size=1, max_size=30).filter(lambda s: s.strip() and "\x00" not in s),
                      min_size=2, max_size=5, unique=True))
def test_answers_give_back_every_character_in_order(mem: Memory, texts: list[str]) -> None:
    """What search_nodes and open_nodes answer is what was written, character for character, with the
    observations in the order they were added (not sorted), and the relations oldest first."""
    n = next(_ROUND_TRIPS)
    name, other = f"rt{n} \"quoted\" \\ back", f"rt{n} other"
    observations = sorted(texts, reverse=True)  # any order but the stored index's
    mem.create_entities([{"name": name, "entityType": 'T"y\npe', "observations": observations},
                         {"name": other, "entityType": "T", "observations": [texts[0]]}])
    mem.create_relations([{"from": other, "to": name, "relationType": texts[1]},
                          {"from": name, "to": other, "relationType": texts[0]}])
    expected = {
        "entities": [{"name": name, "entityType": 'T"y\npe', "observations": observations},
                     {"name": other, "entityType": "T", "observations": [texts[0]]}],
        "relations": [{"from": other, "to": name, "relationType": texts[1]},
                      {"from": name, "to": other, "relationType": texts[0]}],
    }
    assert mem.search_nodes_dump(f"rt{n} ") == expected
    assert mem.open_nodes_dump([name, other]) == expected
    assert mem.open_nodes_dump([other, name])["entities"] == expected["entities"][::-1]


def test_a_large_answer_is_whole_and_in_order(mem: Memory) -> None:
    """Enough hits for the SQLite backend to read the relations on its second connection while it
    reads the entities: the answer is the same as a small one's, in order and whole."""
    from core.storage.sqlite.reads import SPLIT_FROM

    n = SPLIT_FROM + 50
    hits = [{"name": f"hit {i:04d}", "entityType": "Big", "observations": [f"shared word {i}", f"b{i}"]}
            for i in range(n)]
    others = [{"name": f"other {i:04d}", "entityType": "Small", "observations": ["nothing"]} for i in range(20)]
    mem.create_entities(others + hits[::-1])  # stored in another order than the answer's
    relations = []
    for i in range(n):  # between hits, from a hit outwards, into a hit from outside; oldest first
        relations.append({"from": f"hit {i:04d}", "to": f"hit {(i * 7 + 1) % n:04d}", "relationType": "NEXT"})
        if i % 3 == 0:
            relations.append({"from": f"hit {i:04d}", "to": f"other {i % 20:04d}", "relationType": "OUT"})
        if i % 5 == 0:
            relations.append({"from": f"other {i % 20:04d}", "to": f"hit {i:04d}", "relationType": "IN"})
    relations = list({(r["from"], r["to"], r["relationType"]): r for r in relations}.values())
    mem.create_relations(relations)
    ended = relations[10]
    mem.delete_relations([ended])
    outside = {"from": "other 0001", "to": "other 0002", "relationType": "NOT_TOUCHING"}
    mem.create_relations([outside])
    found = mem.search_nodes_dump("shared word")
    stored_order = sorted(hits, key=lambda e: -int(e["name"][4:]))  # search answers in stored order
    assert found["entities"] == stored_order
    assert found["relations"] == [r for r in relations if r != ended]
    opened = mem.open_nodes_dump([e["name"] for e in hits])
    assert opened["entities"] == hits and opened["relations"] == found["relations"]
