"""Entities and observations: creation, merging, deletion, as any backend must behave."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput, NotFound
from core.memory import Memory
from tests.conftest import SteppingClock


def names(graph) -> list[str]:  # noqa: ANN001
    return [e.name for e in graph.entities]


def test_create_returns_only_new_entities_and_reports_merges(mem: Memory) -> None:
    first = mem.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["math"]}])
    assert [e.name for e in first.entities] == ["Ada"]
    again = mem.create_entities([
        {"name": "Ada", "entityType": "Robot", "observations": ["math", "poetry"]},
        {"name": "Bob", "observations": []},
    ])
    assert [e.name for e in again.entities] == ["Bob"]
    assert again.entities[0].entityType == "Generic"
    assert [(m.entityName, m.addedObservations) for m in again.merged] == [("Ada", ["poetry"])]
    ada = mem.open_nodes(["Ada"]).entities[0]
    assert ada.entityType == "Person"  # an existing entity's type is not overwritten
    assert ada.observations == ["math", "poetry"]


def test_creating_the_same_batch_twice_changes_nothing(mem: Memory) -> None:
    batch = [{"name": "X", "observations": ["a", "b", "a"]}, {"name": "Y", "observations": ["c"]}]
    mem.create_entities(batch)
    before = mem.read_graph().dump()
    result = mem.create_entities(batch)
    assert result.entities == [] and result.merged == []
    assert mem.read_graph().dump() == before
    assert before["entities"][0]["observations"] == ["a", "b"]  # de-duplicated per entity


def test_add_observations_dedups_and_unknown_entity_changes_nothing(mem: Memory) -> None:
    mem.create_entities([{"name": "A", "observations": ["one"]}, {"name": "B"}])
    added = mem.add_observations([{"entityName": "A", "contents": ["one", "two", "two"]}])
    assert [(a.entityName, a.addedObservations) for a in added] == [("A", ["two"])]
    before = mem.read_graph().dump()
    with pytest.raises(NotFound, match="'Nobody'"):
        mem.add_observations([
            {"entityName": "B", "contents": ["would be added"]},
            {"entityName": "Nobody", "contents": ["x"]},
        ])
    assert mem.read_graph().dump() == before


def test_created_at_kept_and_updated_at_moves(mem: Memory, clock: SteppingClock) -> None:
    mem.create_entities([{"name": "N", "observations": ["a"]}])
    n0 = mem.get_node("N")
    clock.advance(minutes=5)
    mem.add_observations([{"entityName": "N", "contents": ["b"]}])
    n1 = mem.get_node("N")
    assert n1.created_at == n0.created_at
    assert n1.updated_at > n0.updated_at
    clock.advance(minutes=5)
    mem.add_observations([{"entityName": "N", "contents": ["b"]}])  # nothing new: no move
    assert mem.get_node("N").updated_at == n1.updated_at
    clock.advance(minutes=5)
    mem.merge_node("Concept", "N", {"summary": "s"})
    n2 = mem.get_node("N")
    assert n2.created_at == n0.created_at and n2.updated_at > n1.updated_at


def test_merge_node_is_idempotent_and_patches_props(mem: Memory, clock: SteppingClock) -> None:
    a = mem.merge_node("Project", "Hipocampo", {"summary": "memory", "tags": ["mcp"]})
    clock.advance(seconds=1)
    b = mem.merge_node("Project", "Hipocampo", {"summary": "memory", "tags": ["mcp"]})
    assert a.id == b.id and b.updated_at == a.updated_at  # same props: not an update
    c = mem.merge_node("Project", "Hipocampo", {"status": "active", "summary": None})
    assert c.id == a.id
    assert c.props == {"tags": ["mcp"], "status": "active"}
    assert mem.count_labels() == {"Project": 1}


def test_soft_delete_keeps_entity_readable_but_out_of_search(mem: Memory) -> None:
    mem.create_entities([{"name": "Old", "observations": ["legacy system"]}])
    assert mem.delete_node("Old", soft=True)
    node = mem.get_node("Old")
    assert node is not None and node.archived_at is not None
    assert node.observations == ["legacy system"]
    assert names(mem.open_nodes(["Old"])) == ["Old"]
    assert names(mem.read_graph()) == []  # the current graph leaves archived entities out
    assert mem.read_graph(names_only=True).total_entities == 0
    assert names(mem.search_nodes("legacy")) == []
    assert mem.fulltext_search("legacy") == []
    assert [n.name for n in mem.list_nodes(include_archived=True)] == ["Old"]
    assert mem.list_nodes() == []
    assert mem.delete_node("Old", soft=False)
    assert mem.get_node("Old") is None
    assert mem.delete_node("Old") is False


def test_delete_entities_cascades_everywhere(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Gone", "observations": ["zanzibar fact"]},
        {"name": "Stays", "observations": ["other"]},
    ])
    mem.create_relations([
        {"from": "Gone", "to": "Stays", "relationType": "knows"},
        {"from": "Stays", "to": "Gone", "relationType": "likes"},
    ])
    import numpy as np

    if mem.vectors is not None:
        gone_id = mem.get_node("Gone").id
        mem.vectors.upsert([gone_id], np.ones((1, 384), dtype=np.float32))
        assert mem.vectors.count() == 1
        assert [i for i, _ in mem.vectors.search(np.ones(384, dtype=np.float32), 5)] == [gone_id]
    assert mem.delete_entities(["Gone", "Never existed"]) == 1
    graph = mem.read_graph()
    assert names(graph) == ["Stays"] and graph.relations == []
    assert names(mem.search_nodes("zanzibar")) == []
    assert mem.fulltext_search("zanzibar") == []
    if mem.vectors is not None:
        assert mem.vectors.count() == 0
        assert mem.vectors.search(np.ones(384, dtype=np.float32), 5) == []
    assert mem.health_check()["counts"] | {"insights": 0} == {
        "entities": 1, "observations": 1, "relations": 0, "insights": 0}
    assert mem.get_neighbours("Stays", 1) == []


def test_full_text_follows_edits(mem: Memory) -> None:
    mem.create_entities([{"name": "Lab", "observations": ["uses a centrifuge"]}])
    assert [s.node.name for s in mem.fulltext_search("centrifuge")] == ["Lab"]
    mem.add_observations([{"entityName": "Lab", "contents": ["bought a spectrometer"]}])
    assert [s.node.name for s in mem.fulltext_search("spectrometer")] == ["Lab"]
    assert names(mem.search_nodes("SPECTRO")) == ["Lab"]
    mem.delete_observations([{"entityName": "Lab", "observations": ["uses a centrifuge"]}])
    assert mem.fulltext_search("centrifuge") == []
    assert names(mem.search_nodes("centrifuge")) == []
    assert [s.node.name for s in mem.fulltext_search("spectrometer")] == ["Lab"]
    mem.merge_node("Place", "Lab", {"summary": "wet laboratory in Bilbao"})
    assert [s.node.name for s in mem.fulltext_search("bilbao")] == ["Lab"]


def test_fulltext_ranks_by_bm25_and_filters_label(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Rust", "entityType": "Technology", "observations": ["memory safety without gc"]},
        {"name": "Blog post", "entityType": "Note", "observations": ["mentions rust once"]},
        {"name": "Zig", "entityType": "Technology", "observations": ["no hidden control flow"]},
    ])
    hits = mem.fulltext_search("rust")
    assert [h.node.name for h in hits] == ["Rust", "Blog post"]  # name hits weigh more
    assert hits[0].score > hits[1].score > 0
    assert [h.node.name for h in mem.fulltext_search("rust", label="Note")] == ["Blog post"]
    assert len(mem.fulltext_search("rust", limit=1)) == 1


def test_open_nodes_ignores_unknown_and_returns_touching_relations(mem: Memory) -> None:
    mem.create_entities([{"name": n} for n in "ABC"])
    mem.create_relations([
        {"from": "A", "to": "B", "relationType": "r"},
        {"from": "C", "to": "A", "relationType": "s"},
        {"from": "B", "to": "C", "relationType": "t"},
    ])
    graph = mem.open_nodes(["A", "missing"])
    assert names(graph) == ["A"]
    assert sorted(r.relationType for r in graph.relations) == ["r", "s"]


def test_read_graph_pages_and_names_only(mem: Memory) -> None:
    mem.create_entities([{"name": f"E{i:02d}", "observations": [f"obs {i}"]} for i in range(25)])
    mem.create_relations([{"from": f"E{i:02d}", "to": f"E{i + 1:02d}", "relationType": "next"}
                          for i in range(24)])
    full = mem.read_graph()
    assert len(full.entities) == 25 and len(full.relations) == 24 and full.total_entities is None
    pages = [mem.read_graph(limit=10, offset=o) for o in (0, 10, 20)]
    assert [len(p.entities) for p in pages] == [10, 10, 5]
    assert sum(len(p.relations) for p in pages) == 24  # each relation on exactly one page
    assert [e.name for p in pages for e in p.entities] == [e.name for e in full.entities]
    summary = mem.read_graph(names_only=True)
    assert summary.total_entities == 25 and summary.total_relations == 24
    assert set(summary.entities[0].model_dump()) == {"name", "entityType"}


def test_lookup_label_and_count_labels(mem: Memory) -> None:
    mem.merge_node("Person", "Grace", {})
    mem.merge_node("Person", "Alan", {})
    mem.merge_node("Concept", "Recursion", {})
    assert mem.lookup_node_label("Grace") == "Person"
    assert mem.lookup_node_label("grace") is None  # names are exact, case-sensitive
    assert mem.count_labels() == {"Person": 2, "Concept": 1}


def test_count_labels_leaves_out_archived_records_when_asked(mem: Memory) -> None:
    mem.merge_node("Person", "Grace", {})
    mem.merge_node("Insight", "A pattern", {"status": "pending"})
    assert mem.archive_node("A pattern")
    assert mem.count_labels() == {"Person": 1, "Insight": 1}
    assert mem.count_labels(include_archived=False) == {"Person": 1}


def test_merge_node_that_changes_nothing_records_nothing(mem: Memory) -> None:
    mem.merge_node("Person", "Grace", {"role": "admiral", "born": 1906})
    node = mem.get_node("Grace")
    assert node is not None
    last = mem.latest_change_id()
    mem.merge_node("Person", "Grace", {"role": "admiral"})
    mem.merge_node("Person", "Grace", {"gone": None})
    assert mem.latest_change_id() == last
    assert mem.get_node("Grace") == node
    assert not mem.archive_node("Nobody")
    assert mem.archive_node("Grace") and mem.archive_node("Grace")  # the second leaves it as it is
    assert [c.op for c in mem.history(limit=2)] == ["archive_entity", "create_entity"]


def test_health_check_reports_counts(mem: Memory) -> None:
    mem.create_entities([{"name": "A", "observations": ["x", "y"]}])
    health = mem.health_check()
    assert health["ok"] is True
    assert health["counts"]["entities"] == 1 and health["counts"]["observations"] == 2


def test_deep_health_check_finds_a_damaged_file(tmp_path) -> None:  # noqa: ANN001
    """quick_check runs only when asked (it reads every page), and then it reports damage."""
    db = tmp_path / "damaged.db"
    with Memory.open(db, embeddings="none") as m:
        m.create_entities([{"name": f"E{i}", "observations": ["x" * 500]} for i in range(300)])
        assert m.health_check(deep=True)["quick_check"] == "ok"
        assert m.health_check()["quick_check"] == "not run"
        with m.graph.db.locked() as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            root = conn.execute(
                "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_observations_1'").fetchone()[0]
    data = bytearray(db.read_bytes())
    page = 4096
    start = (root - 1) * page  # scribble over the header of one index page: the tables still open
    data[start + 8 : start + 64] = b"\xff" * 56
    db.write_bytes(bytes(data))
    with Memory.open(db, embeddings="none") as m:
        health = m.health_check(deep=True)
    assert health["ok"] is False and health["quick_check"] != "ok"


def test_read_graph_dump_matches_the_models(mem: Memory) -> None:
    mem.create_entities([{"name": f"E{i}", "entityType": "T", "observations": [f"o{i}", "shared"]}
                         for i in range(30)])
    mem.create_relations([{"from": f"E{i}", "to": f"E{i + 1}", "relationType": "next"} for i in range(29)])
    mem.archive_node("E5")
    for kwargs in ({}, {"names_only": True}, {"names_only": True, "limit": 7, "offset": 3},
                   {"limit": 10, "offset": 20}):
        assert mem.read_graph_dump(**kwargs) == mem.read_graph(**kwargs).dump(), kwargs


def test_open_nodes_dump_matches_the_models(mem: Memory) -> None:
    mem.create_entities([{"name": f"E{i}", "entityType": "T", "observations": [f"o{i}", "shared"]}
                         for i in range(8)])
    mem.create_relations([{"from": f"E{i}", "to": f"E{(i * 3) % 8}", "relationType": "r"} for i in range(8)])
    mem.archive_node("E5")
    for names in (["E1", "E6", "E1", "missing"], ["E5", "E0"], [], ["E7", "E2", "E4"], ["E3", "E0", "E3", "E6", "E0"]):
        assert mem.open_nodes_dump(names) == mem.open_nodes(names).dump(), names
    assert [e["name"] for e in mem.open_nodes_dump(["E7", "E2"])["entities"]] == ["E7", "E2"]  # as asked
    first_named = mem.open_nodes_dump(["E3", "missing", "E0", "E3", "E6", "E0"])["entities"]
    assert [e["name"] for e in first_named] == ["E3", "E0", "E6"]


def test_open_nodes_refuses_names_that_are_not_strings(mem: Memory) -> None:
    with pytest.raises(InvalidInput, match=r"names\[1\] must be a string, got int"):
        mem.open_nodes_dump(["E1", 7])
    with pytest.raises(InvalidInput, match="must be a list of names"):
        mem.open_nodes("E1")


def test_newest_pending_reads_only_the_newest_entities(mem: Memory) -> None:
    """What a semantic search embeds on the fly: the newest entities still lacking a vector."""
    import numpy as np

    from core.embeddings.text import text_hash

    if mem.vectors is None:
        pytest.skip("this memory has no vector store")
    mem.create_entities([{"name": n, "observations": [f"about {n}"]} for n in ("A", "B", "C", "D", "E")])
    ids = mem.graph.ids_for(["A", "B", "C", "D", "E"])
    assert mem.vectors.newest_pending("m1", 3) == [ids["C"], ids["D"], ids["E"]]
    text = mem.vectors.texts([ids["D"]])[ids["D"]]
    vector = np.ones(mem.vectors.dimensions, dtype=np.float32)
    assert mem.vectors.store_embedded("m1", {ids["D"]: (text_hash(text), vector)}) == 1
    assert mem.vectors.newest_pending("m1", 3) == [ids["C"], ids["E"]]
    assert mem.vectors.newest_pending("m2", 3) == [ids["C"], ids["D"], ids["E"]]  # another model
    mem.add_observations([{"entityName": "D", "contents": ["edited"]}])  # its vector is the old text's
    assert mem.vectors.newest_pending("m1", 3) == [ids["C"], ids["D"], ids["E"]]


def test_vectors_stay_searchable_through_edits(mem: Memory) -> None:
    """Editing an entity keeps its vector findable (FalkorDB loses indexed nodes whose properties change)."""
    import numpy as np

    if mem.vectors is None:
        pytest.skip("this memory has no vector store")
    mem.create_entities([{"name": f"V{i}", "observations": ["x"]} for i in range(20)])
    ids = mem.graph.ids_for([f"V{i}" for i in range(20)])
    rng = np.random.default_rng(7)
    vectors = rng.random((20, mem.vectors.dimensions), dtype=np.float32)
    mem.vectors.upsert([ids[f"V{i}"] for i in range(20)], vectors)
    mem.add_observations([{"entityName": f"V{i}", "contents": ["edited"]} for i in range(20)])
    mem.merge_node("Thing", "V3", {"summary": "changed"})
    mem.graph.record_access([ids["V1"], ids["V2"]])
    for i in range(20):
        assert mem.vectors.search(vectors[i], 1)[0][0] == ids[f"V{i}"], i
    mem.vectors.upsert([ids["V5"]], vectors[6:7])  # replaced: found at its new place only
    assert {i for i, _ in mem.vectors.search(vectors[6], 2)} == {ids["V5"], ids["V6"]}
    assert mem.vectors.count() == 20
