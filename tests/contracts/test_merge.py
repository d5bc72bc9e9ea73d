"""Merging duplicates on every backend: one undoable change, aliases that the official reads and
the editor resolve, nothing lost (search, as-of read, undo), bad input refused with nothing changed."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput, NotFound
from core.memory import Memory
from tests.conftest import SteppingClock


def _people(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme", "Lives in Madrid"]},
        {"name": "Ana_Garcia", "entityType": "person", "observations": ["works at acme.", "Likes green tea"]},
        {"name": "ana garcia", "entityType": "Person", "observations": ["Speaks Spanish"]},
        {"name": "Acme", "entityType": "Company"},
        {"name": "Billing", "entityType": "Service"},
    ])
    mem.create_relations([
        {"from": "Ana_Garcia", "to": "Acme", "relationType": "works_at"},
        {"from": "Ana García", "to": "Acme", "relationType": "works_at"},
        {"from": "ana garcia", "to": "Ana García", "relationType": "same_as"},
        {"from": "Billing", "to": "ana garcia", "relationType": "owned_by"},
    ])


def _state(mem: Memory) -> dict:
    return mem.read_graph().dump()


def test_preview_changes_nothing_and_says_what_will(mem: Memory) -> None:
    _people(mem)
    before, version = _state(mem), mem.latest_change_id()
    preview = mem.merge_entities(["Ana_Garcia", "ana garcia"], into="Ana García")
    assert preview["dry_run"] is True
    plan = preview["preview"]
    assert plan["add_observations"] == ["Likes green tea", "Speaks Spanish"]
    assert [d["observation"] for d in plan["dropped_observations"]] == ["works at acme."]
    assert [(r["from"], r["relationType"], r["to"]) for r in plan["rewire_relations"]] == [
        ("Billing", "owned_by", "Ana García")]
    assert {r["why"] for r in plan["dropped_relations"]} == {
        "the kept entity has it already", "would relate the entity to itself"}
    assert plan["aliases"] == ["Ana_Garcia", "ana garcia"]
    assert _state(mem) == before and mem.latest_change_id() == version


def test_merge_is_one_change_and_names_still_resolve(mem: Memory, clock: SteppingClock) -> None:
    _people(mem)
    before = _state(mem)
    clock.advance(seconds=60)
    moment = clock.now
    clock.advance(seconds=60)
    done = mem.merge_entities(["Ana_Garcia", "ana garcia"], into="Ana García", dry_run=False)
    graph = _state(mem)
    names = sorted(e["name"] for e in graph["entities"])
    assert names == ["Acme", "Ana García", "Billing"]
    ana = next(e for e in graph["entities"] if e["name"] == "Ana García")
    assert ana["observations"] == ["Works at Acme", "Lives in Madrid", "Likes green tea", "Speaks Spanish"]
    rels = sorted((r["from"], r["relationType"], r["to"]) for r in graph["relations"])
    assert rels == [("Ana García", "works_at", "Acme"), ("Billing", "owned_by", "Ana García")]  # no loop, no repeat
    # The merged names open, find and edit the kept entity; an ordinary name is answered as before.
    assert [e.name for e in mem.open_nodes(["Ana_Garcia"]).entities] == ["Ana García"]
    assert [e["name"] for e in mem.open_nodes_dump(["ana garcia", "Acme"])["entities"]] == ["Acme", "Ana García"]
    assert "Ana García" in [e.name for e in mem.search_nodes("ana_gar").entities]
    assert mem.entity_for_edit("Ana_Garcia")["node"].name == "Ana García"
    assert mem.open_nodes(["Acme"]).dump() == {
        "entities": [{"name": "Acme", "entityType": "Company", "observations": []}],
        "relations": [{"from": "Ana García", "to": "Acme", "relationType": "works_at"}]}
    # Nothing lost: the dropped repeat is in the past as it was; undo brings everything back in one step.
    past = mem.query_at_date(moment)
    assert "works at acme." in next(e for e in past.entities if e.name == "Ana_Garcia").observations
    row = mem.undo_change()
    assert row.after["undo_of"] == done["change_id"]
    assert _sorted(_state(mem)) == _sorted(before)
    assert mem.open_nodes(["Ana_Garcia"]).entities[0].observations == ["works at acme.", "Likes green tea"]


def _sorted(graph: dict) -> tuple:
    return (sorted((e["name"], e["entityType"], tuple(sorted(e["observations"]))) for e in graph["entities"]),
            sorted((r["from"], r["to"], r["relationType"]) for r in graph["relations"]))


@pytest.mark.parametrize(("names", "into", "error"), [
    (["Nobody"], "Ana García", NotFound),
    (["Ana_Garcia"], "Nobody", NotFound),
    (["Ana García"], "Ana García", InvalidInput),
    ([], "Ana García", InvalidInput),
    ("Ana_Garcia", "Ana García", InvalidInput),
    ([""], "Ana García", InvalidInput),
])
def test_bad_input_is_refused_and_changes_nothing(mem: Memory, names: object, into: str,
                                                  error: type[Exception]) -> None:
    _people(mem)
    before, version = _state(mem), mem.latest_change_id()
    with pytest.raises(error) as caught:
        mem.merge_entities(names, into=into, dry_run=False)
    assert "Nothing was" in str(caught.value) or "nothing was" in str(caught.value)
    assert _state(mem) == before and mem.latest_change_id() == version


def test_reflect_proposes_and_approving_merges(mem: Memory) -> None:
    _people(mem)
    mem.create_entities([{"name": "Ana Gardner", "entityType": "Person", "observations": ["Lives in Leeds"]}])
    mem.reflect()
    pending = mem.surface_insights(limit=100)
    dup = [i for i in pending if i["pattern"] == "duplicate_entities"]
    assert [i["evidence"]["merge"] for i in dup] == [{"into": "Ana García", "names": ["Ana_Garcia", "ana garcia"]}]
    assert all("Gardner" not in i["title"] for i in pending)  # a near miss is not proposed
    decided = mem.decide_insight(dup[0]["title"], "approve")
    assert decided["status"] == "approved" and decided["applied"]["change_id"]
    assert [e.name for e in mem.open_nodes(["ana garcia"]).entities] == ["Ana García"]
    mem.undo_change()
    assert {e.name for e in mem.open_nodes(["Ana_Garcia", "ana garcia"]).entities} == {"Ana_Garcia", "ana garcia"}


def test_a_merge_that_fails_half_way_leaves_everything_as_it_was(mem: Memory) -> None:
    from core.hygiene.merge import apply_merge, plan_merge

    _people(mem)
    before, version = _state(mem), mem.latest_change_id()
    plan = plan_merge(mem.graph, ["Ana_Garcia"], "Ana García")
    # A relation to an entity deleted since the preview: its step fails after the facts were added.
    plan["rewire_relations"].append({"from": "Ana García", "to": "Gone", "relationType": "knows",
                                     "props": {"since": 2020}, "ended_at": None, "was": {}})
    with pytest.raises(NotFound):
        apply_merge(mem.graph, plan, "test")
    assert _state(mem) == before and mem.latest_change_id() == version
    assert mem.resolve_aliases(["Ana_Garcia"]) == {}


def test_a_merge_on_a_graph_server_writes_only_what_it_changes(mem: Memory, backend: str) -> None:
    """FalkorDB: no copy of the graph (GRAPH.COPY, what ``transaction()`` takes to put a graph back)
    for a merge, its approval or its undo: each is one atomic write of what it changes."""
    if backend != "falkordb":
        pytest.skip("the graph copy is FalkorDB's all-or-nothing transaction")
    redis = mem.graph.db.redis

    def copies() -> int:
        return int(redis.info("commandstats").get("cmdstat_graph.COPY", {}).get("calls", 0)) + int(
            redis.info("commandstats").get("cmdstat_graph.copy", {}).get("calls", 0))

    _people(mem)
    mem.reflect()
    before = copies()
    mem.merge_entities(["ana garcia"], into="Ana García", dry_run=False)
    mem.undo_change()
    title = next(i["title"] for i in mem.surface_insights(limit=100) if i["pattern"] == "duplicate_entities")
    mem.decide_insight(title, "approve")
    mem.undo_change()
    assert copies() == before
    assert {e.name for e in mem.read_graph().entities} >= {"Ana García", "Ana_Garcia", "ana garcia"}


def test_an_approved_hygiene_proposal_is_a_record_not_knowledge(mem: Memory) -> None:
    """Approving a duplicate (or a direct merge, or a superseded fact) carries the change out; the
    proposal itself stays out of the graph and of searches, and is listed as decided."""
    _people(mem)
    mem.add_observations([{"entityName": "Billing", "contents": ["Latency of Billing went from 544 ms to 62 ms"]}])
    mem.add_observations([{"entityName": "Billing", "contents": ["Latency of Billing went from 62 ms to 240 ms"]}])
    mem.reflect()
    pending = {i["pattern"]: i["title"] for i in mem.surface_insights(limit=50)}
    assert {"duplicate_entities", "superseded_facts"} <= pending.keys()
    mem.decide_insight(pending["duplicate_entities"], "approve")
    mem.decide_insight(pending["superseded_facts"], "approve")
    approved = {i["title"] for i in mem.surface_insights(limit=50, status="approved")}
    assert {pending["duplicate_entities"], pending["superseded_facts"]} <= approved
    graph = mem.read_graph().dump()
    assert not [e["name"] for e in graph["entities"] if e["entityType"] == "Insight"]
    for query in ("Ana García", "latency of billing"):
        hits = mem.search_semantic(query, limit=10, record=False)
        assert hits and not [h["name"] for h in hits if h["entityType"] == "Insight"], query
    assert mem.superseded_facts("Billing")  # the approval did what it proposed
