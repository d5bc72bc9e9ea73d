"""The official memory server's tools: same inputs, same results (structured and text), same
annotations; Hipocampo's additions (merged, paging) never change what the official fields hold."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from core.memory import Memory
from tests.server.conftest import CLIENT_NAME, fails, js_stringify, ok, text_of

pytestmark = pytest.mark.anyio

ADA = {"name": "Ada", "entityType": "Person", "observations": ["wrote the first program", "born 1815"]}
BABBAGE = {"name": "Babbage", "entityType": "Person", "observations": ["designed the Analytical Engine"]}
WORKED = {"from": "Ada", "to": "Babbage", "relationType": "worked with"}


async def seed(client: Client) -> None:
    await ok(client, "create_entities", {"entities": [ADA, BABBAGE]})
    await ok(client, "create_relations", {"relations": [WORKED]})


async def test_create_entities_returns_only_new_ones_as_the_official_server(client: Client) -> None:
    result = await client.call_tool("create_entities", {"entities": [ADA]})
    assert result.structured_content == {"entities": [ADA]}
    assert text_of(result) == js_stringify([ADA])  # the official text is the bare array
    assert len(result.content) == 1

    again = await client.call_tool("create_entities", {"entities": [ADA, BABBAGE]})
    assert again.structured_content == {"entities": [BABBAGE]}
    assert text_of(again) == js_stringify([BABBAGE])


async def test_create_entities_reports_what_it_merged_into_existing_entities(
    client: Client, mem: Memory
) -> None:
    await ok(client, "create_entities", {"entities": [ADA]})
    result = await client.call_tool(
        "create_entities",
        {
            "entities": [
                {"name": "Ada", "entityType": "Person", "observations": ["born 1815", "met Babbage in 1833"]}
            ]
        },
    )
    assert result.structured_content == {
        "entities": [],
        "merged": [{"entityName": "Ada", "addedObservations": ["met Babbage in 1833"]}],
    }
    assert text_of(result) == "[]"  # the first block stays exactly the official one
    assert "met Babbage in 1833" in text_of(result, 1)
    assert mem.open_nodes(["Ada"]).entities[0].observations[-1] == "met Babbage in 1833"


async def test_entity_type_is_required_as_by_the_official_server(client: Client, mem: Memory) -> None:
    entities = [{"name": "Ok", "entityType": "T"}, {"name": "Bare"}]
    refused = await fails(client, "create_entities", {"entities": entities})
    assert refused == ("Invalid arguments for create_entities: entities[1].entityType: Field required. "
                       "Nothing was changed.")
    assert mem.read_graph().entities == []
    assert await ok(client, "create_entities", {"entities": [{"name": "Bare", "entityType": "Note"}]}) == {
        "entities": [{"name": "Bare", "entityType": "Note", "observations": []}]  # observations: [] if left out
    }


async def test_create_relations_is_deduplicated_and_keeps_missing_ends(client: Client) -> None:
    await ok(client, "create_entities", {"entities": [ADA, BABBAGE]})
    result = await client.call_tool("create_relations", {"relations": [WORKED, WORKED]})
    assert result.structured_content == {"relations": [WORKED]}
    assert text_of(result) == js_stringify([WORKED])
    assert await ok(client, "create_relations", {"relations": [WORKED]}) == {"relations": []}
    ghost = {"from": "Ada", "to": "Lovelace", "relationType": "is"}
    assert await ok(client, "create_relations", {"relations": [ghost]}) == {"relations": [ghost]}
    found = await ok(client, "search_nodes", {"query": ""})
    assert {e["name"] for e in found["entities"]} == {"Ada", "Babbage", "Lovelace"}


async def test_add_observations_returns_results_and_fails_whole_for_an_unknown_entity(
    client: Client, mem: Memory
) -> None:
    await seed(client)
    result = await client.call_tool(
        "add_observations",
        {"observations": [{"entityName": "Ada", "contents": ["born 1815", "translated Menabrea"]}]},
    )
    expected = [{"entityName": "Ada", "addedObservations": ["translated Menabrea"]}]
    assert result.structured_content == {"results": expected}
    assert text_of(result) == js_stringify(expected)

    message = await fails(
        client,
        "add_observations",
        {
            "observations": [
                {"entityName": "Babbage", "contents": ["new fact"]},
                {"entityName": "Nobody", "contents": ["x"]},
            ]
        },
    )
    assert "'Nobody' does not exist" in message
    assert "new fact" not in mem.open_nodes(["Babbage"]).entities[0].observations


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("delete_entities", {"entityNames": ["Babbage", "Nobody"]}, "Entities deleted successfully"),
        (
            "delete_observations",
            {"deletions": [{"entityName": "Ada", "observations": ["born 1815"]}]},
            "Observations deleted successfully",
        ),
        ("delete_relations", {"relations": [WORKED]}, "Relations deleted successfully"),
    ],
)
async def test_deletes_answer_success_and_message(
    client: Client, tool: str, args: dict, message: str
) -> None:
    await seed(client)
    result = await client.call_tool(tool, args)
    assert result.structured_content == {"success": True, "message": message}
    assert text_of(result) == message


async def test_deletes_take_effect(client: Client) -> None:
    await seed(client)
    await ok(
        client, "delete_observations", {"deletions": [{"entityName": "Ada", "observations": ["born 1815"]}]}
    )
    await ok(client, "delete_entities", {"entityNames": ["Babbage"]})
    graph = await ok(client, "read_graph", {})
    assert graph == {"entities": [{**ADA, "observations": ["wrote the first program"]}], "relations": []}


async def test_read_graph_is_the_official_shape_and_text(client: Client) -> None:
    await seed(client)
    result = await client.call_tool("read_graph", {})
    expected = {"entities": [ADA, BABBAGE], "relations": [WORKED]}
    assert result.structured_content == expected
    assert text_of(result) == js_stringify(expected)


async def test_read_graph_pages_and_names_only(client: Client) -> None:
    await seed(client)
    await ok(client, "create_entities", {"entities": [{"name": "Menabrea", "entityType": "Person"}]})
    page = await ok(client, "read_graph", {"limit": 1, "offset": 1})
    assert page == {"entities": [BABBAGE], "relations": [], "total_entities": 3, "total_relations": 1}
    names = await ok(client, "read_graph", {"names_only": True})
    assert names["entities"] == [{"name": n, "entityType": "Person"} for n in ("Ada", "Babbage", "Menabrea")]
    assert names["total_entities"] == 3


async def test_search_nodes_matches_substrings_case_and_accent_blind(client: Client) -> None:
    await seed(client)
    await ok(client, "create_entities", {"entities": [{"name": "Canción", "entityType": "Song"}]})
    assert (await ok(client, "search_nodes", {"query": "ANALYTICAL"}))["entities"] == [BABBAGE]
    found = await ok(client, "search_nodes", {"query": "babb"})
    assert found == {"entities": [BABBAGE], "relations": [WORKED]}  # relations touching a hit come too
    assert [e["name"] for e in (await ok(client, "search_nodes", {"query": "cancion"}))["entities"]] == [
        "Canción"
    ]
    assert await ok(client, "search_nodes", {"query": "50%"}) == {"entities": [], "relations": []}


async def test_open_nodes_ignores_unknown_names(client: Client) -> None:
    await seed(client)
    result = await client.call_tool("open_nodes", {"names": ["Ada", "Nobody"]})
    assert result.structured_content == {"entities": [ADA], "relations": [WORKED]}
    assert text_of(result) == js_stringify(result.structured_content)


async def test_search_semantic_is_lean_and_stable_with_the_breakdown_on_request(client: Client) -> None:
    await seed(client)
    args = {"query": "Analytical Engine", "limit": 5}
    results = (await ok(client, "search_semantic", args))["results"]
    assert results and results[0]["name"] == "Babbage"
    assert all(set(r) == {"name", "entityType", "observations", "other_observations", "score"} for r in results)
    for _ in range(3):  # each search is recalled (limbic signals grow); the scores stay put
        again = (await ok(client, "search_semantic", args))["results"]
        assert {r["name"]: r["score"] for r in again} == {r["name"]: r["score"] for r in results}
    explained = (await ok(client, "search_semantic", {**args, "explain": True}))["results"]
    assert {"name", "entityType", "observations", "score", "limbic_score", "scoring", "distance",
            "rrf_score"} <= set(explained[0])
    assert explained[0]["score"] == results[0]["score"]
    assert "limit" in await fails(client, "search_semantic", {"query": "x", "limit": 0})


async def test_search_semantic_says_when_nothing_matches_well(client: Client) -> None:
    await seed(client)
    for query in ['"', "*", "NEAR(", "zzqx wvvy"]:
        answer = await ok(client, "search_semantic", {"query": query})
        assert answer == {"results": [], "no_good_match": True}, query
    answer = await ok(client, "search_semantic", {"query": "Analytical Engine"})
    assert answer["results"] and answer["no_good_match"] is False
    scores = [r["score"] for r in answer["results"]]
    assert scores == sorted(scores, reverse=True) and all(0 < s <= 1 for s in scores)


async def test_migrate_imports_an_official_file_and_is_rerunnable(client: Client, mem: Memory,
                                                                  tmp_path: Path) -> None:
    source = tmp_path / "memory.jsonl"
    source.write_text(
        '{"type":"entity","name":"Ada","entityType":"Person","observations":["a"]}\n'
        "this line is corrupt\n"
        '{"type":"relation","from":"Ada","to":"Ada","relationType":"self"}\n',
        encoding="utf-8",
    )
    assert "allowed_import_dirs" in await fails(client, "migrate", {"source_path": str(source)})
    assert mem.health_check()["counts"]["entities"] == 0  # nothing read, nothing written
    mem.settings.allowed_import_dirs = [tmp_path]
    first = await ok(client, "migrate", {"source_path": str(source)})
    assert first == {
        "entities_imported": 1,
        "relations_imported": 1,
        "errors": 1,
        "skipped": 0,
        "error_details": [first["error_details"][0]],
    }
    assert first["error_details"][0].startswith("line 2:")
    again = await ok(client, "migrate", {"source_path": str(source)})
    assert (again["entities_imported"], again["relations_imported"], again["skipped"]) == (0, 0, 2)
    assert "absolute path" in await fails(client, "migrate", {"source_path": "memory.jsonl"})
    assert "Cannot read" in await fails(client, "migrate", {"source_path": str(tmp_path / "none.jsonl")})
    assert "allowed_import_dirs" in await fails(client, "migrate", {"source_path": "/etc/passwd"})


async def test_tools_that_read_files_say_so(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("engrama_ingest", "migrate"):
        assert tools[name].annotations.open_world_hint is True, name  # it reads the user's files
    assert tools["migrate"].annotations.read_only_hint is False


async def test_bad_arguments_come_back_as_advice(client: Client) -> None:
    missing = await fails(client, "create_entities", {"entities": [{"entityType": "Person"}]})
    assert (
        missing
        == "Invalid arguments for create_entities: entities[0].name: Field required. Nothing was changed."
    )
    wrong_type = await fails(client, "open_nodes", {"names": "Ada"})
    assert wrong_type.startswith("Invalid arguments for open_nodes: names:")
    empty = await fails(client, "create_entities", {"entities": [{"name": "  ", "entityType": "T"}]})
    assert empty == "entities[0].name: name must not be empty. Nothing was changed."


async def test_writes_are_recorded_under_the_clients_name(client: Client, mem: Memory) -> None:
    await seed(client)
    assert {row.actor for row in mem.history()} == {CLIENT_NAME}


async def test_annotations_match_the_official_server_but_where_it_says_less_than_true(
    client: Client, mem: Memory
) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("read_graph", "search_nodes", "open_nodes"):
        assert tools[name].annotations.read_only_hint is True
        assert tools[name].annotations.idempotent_hint is True
    for name in ("delete_entities", "delete_observations", "delete_relations"):
        assert tools[name].annotations.destructive_hint is True
        assert tools[name].annotations.idempotent_hint is True
    # The official server calls its three writes not idempotent; here a repeat adds nothing, so they are.
    for name in ("create_entities", "create_relations", "add_observations"):
        annotations = tools[name].annotations
        assert (annotations.read_only_hint, annotations.destructive_hint, annotations.idempotent_hint) == (
            False,
            False,
            True,
        )
    calls = [
        ("create_entities", {"entities": [{"name": "Ada", "entityType": "Person", "observations": ["x"]},
                                          {"name": "Bo", "entityType": "Person"}]}),
        ("create_relations", {"relations": [{"from": "Ada", "to": "Bo", "relationType": "knows"}]}),
        ("add_observations", {"observations": [{"entityName": "Ada", "contents": ["y"]}]}),
    ]
    for name, arguments in calls:
        await ok(client, name, arguments)
        before = (mem.read_graph().dump(), mem.latest_change_id())
        await ok(client, name, arguments)
        assert (mem.read_graph().dump(), mem.latest_change_id()) == before, name
    # Only the tools that read the user's files reach beyond the memory.
    assert {n for n, t in tools.items() if t.annotations.open_world_hint} == {"engrama_ingest", "migrate"}


async def test_observation_tools_accept_mcp_memory_v2_form(client: Client, mem: Memory) -> None:
    await seed(client)
    added = await ok(client, "add_observations", {"name": "Ada", "observations": ["liked poetry", "born 1815"]})
    assert added == {"results": [{"entityName": "Ada", "addedObservations": ["liked poetry"]}]}
    assert await ok(client, "delete_observations", {"name": "Ada", "observations": ["liked poetry"]}) == {
        "success": True, "message": "Observations deleted successfully"}
    assert "liked poetry" not in mem.open_nodes(["Ada"]).entities[0].observations
    before = mem.read_graph().dump()
    assert "also give `name`" in await fails(client, "add_observations", {"observations": ["loose text"]})
    assert "not both" in await fails(client, "delete_observations", {
        "deletions": [{"entityName": "Ada", "observations": ["born 1815"]}], "name": "Ada",
        "observations": ["born 1815"]})
    assert "Give `deletions`" in await fails(client, "delete_observations", {})
    assert "does not exist" in await fails(client, "add_observations", {"name": "Nobody", "observations": ["x"]})
    assert mem.read_graph().dump() == before
