"""The server's surface, frozen: tool names, their parameters, output schemas, the graph resource.

Changing any of these changes what every configured assistant sees; do it on purpose, here.
"""

from __future__ import annotations

import json

import pytest
from mcp import Client

from core.memory import Memory
from tests.server.conftest import js_stringify, ok

pytestmark = pytest.mark.anyio

PARAMETERS = {
    "create_entities": ["entities"],
    "create_relations": ["relations"],
    "add_observations": ["observations", "name"],
    "delete_entities": ["entityNames"],
    "delete_observations": ["deletions", "name", "observations"],
    "delete_relations": ["relations"],
    "read_graph": ["limit", "offset", "names_only"],
    "search_nodes": ["query", "limit"],
    "open_nodes": ["names"],
    "search_semantic": ["query", "limit", "explain", "per_entity", "max_tokens"],
    "migrate": ["source_path"],
    "entity_history": ["name", "limit"],
    "restore_entity": ["name"],
    "engrama_search": ["query", "limit", "params"],
    "engrama_remember": ["label", "properties", "relations", "params"],
    "engrama_relate": ["from_name", "from_label", "rel_type", "to_name", "to_label", "params"],
    "engrama_context": ["name", "label", "hops", "params"],
    "engrama_ingest": ["source", "source_type", "context_hint", "params"],
    "engrama_reflect": [],
    "engrama_surface_insights": ["limit", "title", "query", "status", "params"],
    "engrama_approve_insight": ["title", "action", "params"],
    "engrama_status": [],
    "brief": ["max_tokens"],
    "pin": ["name", "fact", "unpin"],
    "merge_entities": ["names", "into", "dry_run"],
    "tidy": ["apply"],
}
# (readOnly, destructive, idempotent, openWorld) for each tool, checked against what it does
# (README "Annotations"): a search that records what was recalled is still read-only to the user;
# the three official writes are idempotent here (a repeat adds nothing), unlike the official server's.
TOOL_COUNT = len(PARAMETERS)  # what tools/list answers, on every transport
R, W = True, False
ANNOTATIONS = {
    "create_entities": (W, False, True, False),
    "create_relations": (W, False, True, False),
    "add_observations": (W, False, True, False),
    "delete_entities": (W, True, True, False),
    "delete_observations": (W, True, True, False),
    "delete_relations": (W, True, True, False),
    "read_graph": (R, False, True, False),
    "search_nodes": (R, False, True, False),
    "open_nodes": (R, False, True, False),
    "search_semantic": (R, False, True, False),
    "migrate": (W, False, True, True),
    "entity_history": (R, False, True, False),
    "restore_entity": (W, False, True, False),
    "engrama_search": (R, False, True, False),
    "engrama_remember": (W, True, True, False),
    "engrama_relate": (W, False, True, False),
    "engrama_context": (R, False, True, False),
    "engrama_ingest": (R, False, True, True),
    "engrama_reflect": (W, False, True, False),
    "engrama_surface_insights": (R, False, True, False),
    "engrama_approve_insight": (W, False, True, False),
    "engrama_status": (R, False, True, False),
    "brief": (R, False, True, False),
    "pin": (W, False, True, False),
    "merge_entities": (W, True, False, False),  # removes the merged entities (one undo brings them back)
    "tidy": (W, True, False, False),  # carries out merges when asked to
}
# The official server requires these; optional additions must not become required. (Only
# delete_observations relaxes one: MCP Memory v2's form sends `name` and `observations` instead.)
REQUIRED = {
    "create_entities": ["entities"],
    "create_relations": ["relations"],
    "add_observations": ["observations"],
    "delete_entities": ["entityNames"],
    "delete_observations": [],
    "delete_relations": ["relations"],
    "read_graph": [],
    "search_nodes": ["query"],
    "open_nodes": ["names"],
}


async def test_tool_names_and_parameters_are_frozen(client: Client) -> None:
    tools = (await client.list_tools()).tools
    assert {t.name: list(t.input_schema.get("properties", {})) for t in tools} == PARAMETERS
    for tool in tools:
        assert tool.description and len(tool.description) > 30, tool.name
        assert tool.title, tool.name
        if tool.name in REQUIRED:
            assert sorted(tool.input_schema.get("required", [])) == sorted(REQUIRED[tool.name])


async def test_annotations_are_frozen(client: Client) -> None:
    tools = (await client.list_tools()).tools
    found = {t.name: (t.annotations.read_only_hint, t.annotations.destructive_hint, t.annotations.idempotent_hint,
                      t.annotations.open_world_hint) for t in tools if t.annotations is not None}
    assert found == ANNOTATIONS


async def test_official_input_items_keep_the_official_field_names(client: Client) -> None:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    defs = tools["create_entities"].input_schema["$defs"]
    assert list(defs["EntityArg"]["properties"]) == ["name", "entityType", "observations"]
    assert list(tools["create_relations"].input_schema["$defs"]["RelationArg"]["properties"]) == [
        "from",
        "to",
        "relationType",
    ]


async def test_output_schemas_type_the_top_level_only(client: Client) -> None:
    """Clients validate structured content against these; item schemas would cost O(graph)."""
    tools = {t.name: t for t in (await client.list_tools()).tools}
    for tool in tools.values():
        assert tool.output_schema is not None and tool.output_schema["type"] == "object", tool.name
        assert "$defs" not in json.dumps(tool.output_schema) and "items" not in tool.output_schema.get(
            "properties", {}
        ), tool.name
    assert tools["read_graph"].output_schema["required"] == ["entities", "relations"]
    assert tools["delete_entities"].output_schema["required"] == ["success", "message"]


async def test_knowledge_graph_resource_is_the_whole_graph(client: Client, mem: Memory) -> None:
    await ok(
        client,
        "create_entities",
        {"entities": [{"name": "Ada", "entityType": "Person", "observations": ["x"]}]},
    )
    resources = (await client.list_resources()).resources
    assert [(str(r.uri), r.mime_type) for r in resources] == [
        ("memory://knowledge-graph", "application/json"), ("memory://brief", "text/plain")
    ]
    templates = (await client.list_resource_templates()).resource_templates
    assert [(t.uri_template, t.mime_type) for t in templates] == [("memory://entity/{name}", "application/json")]
    read = await client.read_resource("memory://knowledge-graph")
    assert read.contents[0].text == js_stringify(mem.read_graph().dump())
    assert json.loads(read.contents[0].text)["entities"][0]["name"] == "Ada"


async def test_server_identifies_itself_and_explains_itself(client: Client) -> None:
    assert client.server_info is not None and client.server_info.name == "hipocampo"
    assert client.instructions and "search_nodes" in client.instructions
    assert "brief" in client.instructions and "never instructions" in client.instructions


async def test_prompts_are_frozen(client: Client) -> None:
    prompts = {p.name: [a.name for a in p.arguments or []] for p in (await client.list_prompts()).prompts}
    assert prompts == {"recall": ["topic"], "remember-session": [], "review-insights": []}
