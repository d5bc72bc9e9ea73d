"""engrama_* tools: flat or params-wrapped arguments, plain structured results, errors as isError."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from core.memory import Memory
from tests.server.conftest import CLIENT_NAME, fails, ok

pytestmark = pytest.mark.anyio



async def test_remember_takes_flat_or_params_form_alike(client: Client, mem: Memory) -> None:
    flat = await ok(
        client,
        "engrama_remember",
        {
            "label": "Technology",
            "properties": {"name": "SQLite", "summary": "An embedded database.", "tags": ["db"]},
        },
    )
    wrapped = await ok(
        client,
        "engrama_remember",
        {
            "params": {
                "label": "Technology",
                "properties": {"name": "DuckDB", "summary": "An embedded analytics database."},
            }
        },
    )
    assert flat["created"] and wrapped["created"]
    assert flat["node"]["properties"] == {"summary": "An embedded database.", "tags": ["db"]}
    assert mem.get_node("DuckDB").label == "Technology"
    assert mem.get_node("SQLite").props == {"summary": "An embedded database.", "tags": ["db"]}


async def test_remember_merges_properties_and_keys_decisions_by_title(client: Client, mem: Memory) -> None:
    await ok(
        client,
        "engrama_remember",
        {"label": "Decision", "properties": {"title": "Use SQLite", "summary": "one file", "status": "open"}},
    )
    again = await ok(
        client,
        "engrama_remember",
        {"label": "Decision", "properties": {"title": "Use SQLite", "status": "done", "summary": None}},
    )
    assert again["created"] is False
    assert again["node"]["title"] == "Use SQLite"
    assert mem.get_node("Use SQLite").props == {"status": "done"}  # null removes a property
    message = await fails(client, "engrama_remember", {"label": "Decision", "properties": {"summary": "x"}})
    assert "'title'" in message


async def test_remember_links_targets_creating_stubs_and_stores_observations(
    client: Client, mem: Memory
) -> None:
    await ok(client, "engrama_remember", {"label": "Technology", "properties": {"name": "Python"}})
    result = await ok(
        client,
        "engrama_remember",
        {
            "label": "Project",
            "properties": {"name": "Hipocampo", "observations": ["started in 2026"]},
            "relations": {
                "USES": ["Python", {"name": "sqlite-vec", "label": "Tool"}],
                "IN_DOMAIN": ["memory"],
            },
        },
    )
    links = {r["to"]: r for r in result["relations"]}
    assert links["Python"]["stub_created"] is False and links["Python"]["created"] is True
    assert links["sqlite-vec"]["stub_created"] is True and mem.get_node("sqlite-vec").label == "Tool"
    assert mem.get_node("memory").label == "Domain"  # inferred from IN_DOMAIN
    assert mem.get_node("memory").props == {"stub": True}
    assert mem.get_node("Hipocampo").observations == ["started in 2026"]
    assert {r.to for r in mem.open_nodes(["Hipocampo"]).relations} == {"Python", "sqlite-vec", "memory"}


async def test_a_bad_relation_target_leaves_nothing_behind(client: Client, mem: Memory) -> None:
    message = await fails(
        client,
        "engrama_remember",
        {"label": "Project", "properties": {"name": "P"}, "relations": {"USES": [{"label": "Tool"}]}},
    )
    assert "needs a name" in message
    assert mem.get_node("P") is None


async def test_relate_needs_existing_nodes_and_is_idempotent(client: Client) -> None:
    for name in ("Ada", "Babbage"):
        await ok(client, "engrama_remember", {"label": "Person", "properties": {"name": name}})
    first = await ok(
        client,
        "engrama_relate",
        {
            "params": {
                "from_name": "Ada",
                "from_label": "Person",
                "rel_type": "WORKED_WITH",
                "to_name": "Babbage",
                "to_label": "Person",
            }
        },
    )
    assert first == {
        "from": {"name": "Ada", "label": "Person"},
        "rel_type": "WORKED_WITH",
        "to": {"name": "Babbage", "label": "Person"},
        "created": True,
    }
    second = await ok(
        client, "engrama_relate", {"from_name": "Ada", "rel_type": "WORKED_WITH", "to_name": "Babbage"}
    )
    assert second["created"] is False
    message = await fails(
        client, "engrama_relate", {"from_name": "Ada", "rel_type": "KNOWS", "to_name": "Nobody"}
    )
    assert "'Nobody' does not exist" in message and "engrama_remember" in message
    assert "rel_type" in await fails(client, "engrama_relate", {"from_name": "Ada", "to_name": "Babbage"})


async def test_context_walks_hops_with_paths(client: Client) -> None:
    await ok(
        client,
        "engrama_remember",
        {"label": "Project", "properties": {"name": "A"}, "relations": {"USES": ["B"]}},
    )
    await ok(
        client,
        "engrama_remember",
        {"label": "Technology", "properties": {"name": "B"}, "relations": {"DEPENDS_ON": ["C"]}},
    )
    one = await ok(client, "engrama_context", {"name": "A"})
    assert [(n["name"], n["distance"]) for n in one["neighbours"]] == [("B", 1)]
    two = await ok(client, "engrama_context", {"params": {"name": "A", "label": "Project", "hops": 2}})
    assert [(n["name"], n["distance"], n["path"]) for n in two["neighbours"]] == [
        ("B", 1, ["USES"]),
        ("C", 2, ["USES", "DEPENDS_ON"]),
    ]
    assert {(r["from"], r["to"]) for r in two["relations"]} == {("A", "B"), ("B", "C")}
    assert "hops" in await fails(client, "engrama_context", {"name": "A", "hops": 4})
    assert "'Nobody' does not exist" in await fails(client, "engrama_context", {"name": "Nobody"})


async def test_search_returns_nodes_with_scores(client: Client) -> None:
    await ok(
        client,
        "engrama_remember",
        {
            "label": "Technology",
            "properties": {"name": "SQLite", "summary": "embedded relational database engine"},
        },
    )
    await ok(client, "engrama_remember", {"label": "Person", "properties": {"name": "Ada"}})
    found = await ok(client, "engrama_search", {"params": {"query": "relational database", "limit": 5}})
    assert found["count"] == 1 and found["results"][0]["name"] == "SQLite"
    assert found["results"][0]["label"] == "Technology" and found["results"][0]["score"] > 0
    assert "query" in await fails(client, "engrama_search", {})
    assert "limit" in await fails(client, "engrama_search", {"query": "x", "limit": 500})


async def test_ingest_reads_text_or_a_note_and_writes_nothing(
    client: Client, mem: Memory, tmp_path: Path
) -> None:
    await ok(client, "engrama_remember", {"label": "Technology", "properties": {"name": "SQLite"}})
    before = mem.health_check()["counts"]
    text = await ok(
        client,
        "engrama_ingest",
        {"source": "We moved the cache to SQLite.", "source_type": "text", "context_hint": "hipocampo"},
    )
    assert text["content"] == "We moved the cache to SQLite."
    assert text["known_entities"] == [{"name": "SQLite", "label": "Technology"}]
    assert "engrama_remember" in text["extraction_prompt"] and "hipocampo" in text["extraction_prompt"]
    notes = tmp_path / "notes"
    notes.mkdir()
    note = notes / "meeting.md"
    note.write_text("# Meeting\n\nDecided to keep SQLite.\n", encoding="utf-8")
    refused = await fails(client, "engrama_ingest", {"params": {"source": str(note)}})
    assert "allowed_import_dirs" in refused and "Nothing was read" in refused  # no folder allowed yet
    mem.settings.allowed_import_dirs = [notes]
    from_note = await ok(client, "engrama_ingest", {"params": {"source": str(note)}})
    assert from_note["source_path"] == str(note.resolve()) and "keep SQLite" in from_note["content"]
    assert mem.health_check()["counts"] == before
    assert ".md or .txt" in await fails(client, "engrama_ingest", {"source": str(notes / "missing.md")})
    secret = tmp_path / "secret.md"
    secret.write_text("not for the model", encoding="utf-8")
    (notes / "link.md").symlink_to(secret)  # a link inside an allowed folder to a file outside it
    for outside in ("/etc/passwd", str(secret), str(notes / "link.md"), str(notes / ".." / "secret.md")):
        assert "allowed_import_dirs" in await fails(client, "engrama_ingest", {"source": outside})
    assert "source_type" in await fails(client, "engrama_ingest", {"source": "x", "source_type": "video"})


async def test_status_describes_the_memory(client: Client, mem: Memory) -> None:
    await ok(client, "engrama_remember", {"label": "Person", "properties": {"name": "Ada"}})
    status = await ok(client, "engrama_status", {})
    assert status["server"] == "hipocampo" and status["ok"] is True
    where = str(mem.settings.db) if mem.graph.backend == "sqlite" else (
        f"{mem.settings.graph_url} graph {mem.settings.graph_name}")  # the server and graph, no password
    assert status["database"] == where
    assert status["labels"] == {"Person": 1} and status["counts"]["entities"] == 1
    assert status["embeddings"]["provider"] == "none"
    if hasattr(Memory, "insight_counts"):
        assert status["insights"]["pending"] == 0
    assert status["endpoint"] is None  # not a hub


async def test_unknown_fields_are_refused_not_ignored(client: Client) -> None:
    message = await fails(client, "engrama_search", {"params": {"query": "x", "colour": "red"}})
    assert "colour" in message


async def test_engrama_writes_are_recorded_under_the_clients_name(client: Client, mem: Memory) -> None:
    await ok(client, "engrama_remember", {"label": "Person", "properties": {"name": "Ada"}})
    assert {row.actor for row in mem.history()} == {CLIENT_NAME}


def _reflect_graph(mem: Memory) -> None:
    """Two projects using one technology: reflect's shared_technology pattern."""
    for project in ("Alpha", "Beta"):
        mem.merge_node("Project", project, {"status": "active"})
    mem.merge_node("Technology", "SQLite", {})
    for project in ("Alpha", "Beta"):
        mem.merge_relation(project, "USES", "SQLite")


async def test_reflect_proposes_insights_a_human_then_decides(client: Client, mem: Memory) -> None:
    _reflect_graph(mem)
    summary = await ok(client, "engrama_reflect", {})
    assert summary  # the summary's fields are reflect's own (issue 4)
    pending = await ok(client, "engrama_surface_insights", {"params": {"limit": 10}})
    assert pending["count"] >= 1
    title = pending["insights"][0]["title"]
    decided = await ok(client, "engrama_approve_insight", {"title": title, "action": "dismiss"})
    assert decided
    remaining = await ok(client, "engrama_surface_insights", {"limit": 10})
    assert title not in [i["title"] for i in remaining["insights"]]
    assert "action" in await fails(client, "engrama_approve_insight", {"title": title, "action": "maybe"})


async def test_deciding_an_unknown_insight_is_an_error(client: Client) -> None:
    await fails(client, "engrama_approve_insight", {"title": "No such insight", "action": "approve"})


async def test_one_request_limit_for_every_tool(client: Client, mem: Memory) -> None:
    """A 1 MB observation is fine everywhere; a summary over max_request_bytes is refused like an
    observation over it would be (engrama_remember used to take 4 MB where add_observations refused 1)."""
    await ok(client, "create_entities", {"entities": [{"name": "Big", "entityType": "Note"}]})
    await ok(client, "add_observations", {"observations": [{"entityName": "Big", "contents": ["o" * 1_000_000]}]})
    await ok(client, "engrama_remember",
             {"label": "Note", "properties": {"name": "Summary", "summary": "s" * 1_000_000}})
    too_big = "x" * (mem.settings.max_request_bytes + 1)
    before = mem.read_graph().dump()
    for tool, args in (
        ("engrama_remember", {"label": "Note", "properties": {"name": "Huge", "summary": too_big}}),
        ("add_observations", {"observations": [{"entityName": "Big", "contents": [too_big]}]}),
        ("create_entities", {"entities": [{"name": "Huge", "entityType": "T", "observations": [too_big]}]}),
    ):
        assert "HIPOCAMPO_MAX_REQUEST_BYTES" in await fails(client, tool, args), tool
    assert mem.read_graph().dump() == before
