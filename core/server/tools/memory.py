"""The official memory server's nine tools, plus MCP Memory v2's search_semantic and migrate.

Inputs, results and annotations match ``@modelcontextprotocol/server-memory`` so Hipocampo can
replace it in any client's configuration. Differences are additions only: ``merged`` on
create_entities (entities that already existed), and optional paging on read_graph/search_nodes.

The tools are plain functions: MCPServer runs them in a worker thread, so SQLite never blocks the
event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from core.errors import InvalidInput
from core.memory import Memory
from core.server.tools.read_log import log_read
from core.server.tools.registry import make_tool
from core.server.tools.results import dumps, tool_result
from core.server.tools.schemas import (
    ADD_OBSERVATIONS_OUT,
    CREATE_ENTITIES_OUT,
    CREATE_RELATIONS_OUT,
    GRAPH_OUT,
    MIGRATE_OUT,
    SEMANTIC_OUT,
    SUCCESS_OUT,
    DeletionArg,
    EntityArg,
    ObservationArg,
    RelationArg,
)
from core.server.tools.state import actor_of, memory_of

# The official server's annotations, tool by tool, except where what the tool does says otherwise:
# the official server marks its three writes not idempotent, but here a repeated call adds nothing
# (existing entities merge, existing observations and relations are skipped), so they are.
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False)
DELETE = ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False)
READ = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
# migrate reads a file from the user's disk (in an allowed folder): open world, and it writes
IMPORT = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=True)


def create_entities(entities: list[EntityArg], ctx: Context) -> CallToolResult:
    """Create multiple new entities in the knowledge graph.

    An entity whose name already exists is not duplicated: its new observations are added to it
    and reported under `merged`; `entities` lists only the entities that are new."""
    result = memory_of(ctx).create_entities([e.model_dump() for e in entities], actor=actor_of(ctx))
    created = [e.model_dump() for e in result.entities]
    structured: dict[str, object] = {"entities": created}
    notes = []
    if result.merged:
        merged = [m.model_dump() for m in result.merged]
        structured["merged"] = merged
        notes.append("Already existed; these observations were added to them:\n" + dumps(merged))
    return tool_result(structured, created, *notes)


def create_relations(relations: list[RelationArg], ctx: Context) -> CallToolResult:
    """Create multiple new relations between entities in the knowledge graph. Relations should be in
    active voice. Both entities must exist; relations that already exist are not duplicated."""
    created = memory_of(ctx).create_relations([r.dump() for r in relations], actor=actor_of(ctx))
    dumped = [r.dump() for r in created]
    return tool_result({"relations": dumped}, dumped)


def add_observations(
    observations: Annotated[
        list[ObservationArg | str],
        Field(description="An array of {entityName, contents: [string]}; or, with `name`, the "
                          "observation texts themselves (MCP Memory v2's form)"),
    ],
    ctx: Context,
    name: Annotated[
        str | None, Field(description="MCP Memory v2's form: the entity that `observations` (strings) go to")
    ] = None,
) -> CallToolResult:
    """Add new observations to existing entities in the knowledge graph. Observations an entity
    already has are skipped. If any entity does not exist, nothing is added."""
    items = _v2_or_official(observations, name, "contents", "observations")
    results = memory_of(ctx).add_observations(items, actor=actor_of(ctx))
    dumped = [r.model_dump() for r in results]
    return tool_result({"results": dumped}, dumped)


def _v2_or_official(
    values: Sequence[ObservationArg | DeletionArg | str] | None, name: str | None, key: str, what: str
) -> list[dict[str, object]]:
    """Either the official form (objects naming their entity) or MCP Memory v2's (``name`` plus
    plain strings), never a mix."""
    values = values or []
    if name is None:
        if any(isinstance(v, str) for v in values):
            raise InvalidInput(f"`{what}` holds plain strings: also give `name` (the entity they belong "
                               f"to), or send objects {{entityName, {key}}}. Nothing was changed.")
        return [v.model_dump() for v in values if not isinstance(v, str)]  # none is, said above
    if not all(isinstance(v, str) for v in values):
        raise InvalidInput(f"With `name`, `{what}` must be plain strings. Nothing was changed.")
    return [{"entityName": name, key: list(values)}]


def _success(message: str) -> CallToolResult:
    return tool_result({"success": True, "message": message}, message)


def delete_entities(
    entityNames: Annotated[list[str], Field(description="An array of entity names to delete")], ctx: Context
) -> CallToolResult:
    """Delete multiple entities and their associated relations from the knowledge graph. Unknown
    names are ignored."""
    memory_of(ctx).delete_entities(entityNames, actor=actor_of(ctx))
    return _success("Entities deleted successfully")


def delete_observations(
    ctx: Context,
    deletions: Annotated[
        list[DeletionArg] | None,
        Field(description="An array of {entityName, observations: [string]} to delete"),
    ] = None,
    name: Annotated[str | None, Field(description="MCP Memory v2's form: the entity to delete from")] = None,
    observations: Annotated[
        list[str] | None, Field(description="MCP Memory v2's form: the observation texts to delete")
    ] = None,
) -> CallToolResult:
    """Delete specific observations from entities in the knowledge graph (give `deletions`, or
    `name` with `observations`)."""
    if deletions is not None and (name is not None or observations is not None):
        raise InvalidInput("Give either `deletions` or `name` with `observations`, not both. Nothing was changed.")
    if deletions is None and name is None:
        raise InvalidInput("Give `deletions` ([{entityName, observations}]) or `name` with `observations`.")
    items = _v2_or_official(deletions if deletions is not None else observations, name, "observations",
                            "deletions" if deletions is not None else "observations")
    memory_of(ctx).delete_observations(items, actor=actor_of(ctx))
    return _success("Observations deleted successfully")


def delete_relations(
    relations: Annotated[list[RelationArg], Field(description="An array of relations to delete")],
    ctx: Context,
) -> CallToolResult:
    """Delete multiple relations from the knowledge graph."""
    memory_of(ctx).delete_relations([r.dump() for r in relations], actor=actor_of(ctx))
    return _success("Relations deleted successfully")


def read_graph(
    ctx: Context,
    limit: Annotated[int | None, Field(ge=0, description="Page size (entities); omit for all")] = None,
    offset: Annotated[int, Field(ge=0, description="Entities to skip, for paging")] = 0,
    names_only: Annotated[bool, Field(description="Only names and types: a cheap overview")] = False,
) -> CallToolResult:
    """Read the entire knowledge graph.

    On a large memory this is expensive: pass names_only=true for an overview, or limit/offset to
    page through it (paged and names-only reads also return total_entities/total_relations)."""
    return read_graph_reply(memory_of(ctx), limit=limit, offset=offset, names_only=names_only, client=actor_of(ctx))


def read_graph_reply(memory: Memory, limit: int | None = None, offset: int = 0,
                     names_only: bool = False, *, client: str = "mcp") -> CallToolResult:
    """read_graph's answer, logged as ``client``'s read (the tool's body; the stdio fast path calls
    it too: core/server/fast)."""
    graph = memory.read_graph_dump(limit=limit, offset=offset, names_only=names_only)
    log_read(memory, client, "read_graph", "", graph)
    return tool_result(graph)


def search_nodes(
    query: Annotated[
        str,
        Field(description="The search query to match against entity names, types, and observation content"),
    ],
    ctx: Context,
    limit: Annotated[int | None, Field(ge=1, description="At most this many entities")] = None,
) -> CallToolResult:
    """Search for nodes in the knowledge graph based on a query: a case- and accent-insensitive
    substring of the name, type or any observation. Relations touching a hit come too."""
    return search_nodes_reply(memory_of(ctx), query, limit=limit, client=actor_of(ctx))


def search_nodes_reply(memory: Memory, query: str, limit: int | None = None, *,
                       client: str = "mcp") -> CallToolResult:
    """search_nodes' answer, logged as ``client``'s read (the tool's body; the stdio fast path calls
    it too: core/server/fast)."""
    found = memory.search_nodes_dump(query, limit=limit)
    log_read(memory, client, "search_nodes", query, found)
    return tool_result(found)


def open_nodes(
    names: Annotated[list[str], Field(description="An array of entity names to retrieve")], ctx: Context
) -> CallToolResult:
    """Open specific nodes in the knowledge graph by their names (exact, case-sensitive; unknown
    names are ignored), with the relations touching them."""
    return open_nodes_reply(memory_of(ctx), names, client=actor_of(ctx))


def open_nodes_reply(memory: Memory, names: list[str], *, client: str = "mcp") -> CallToolResult:
    """open_nodes' answer, logged as ``client``'s read (the tool's body; the stdio fast path calls it
    too: core/server/fast)."""
    found = memory.open_nodes_dump(names)
    log_read(memory, client, "open_nodes", ", ".join(n for n in names if isinstance(n, str)), found)
    return tool_result(found)


def search_semantic(
    query: Annotated[str, Field(description="What you are looking for, in any language")],
    ctx: Context,
    limit: Annotated[int, Field(ge=1, le=100, description="Maximum entities")] = 10,
    explain: Annotated[
        bool, Field(description="also return how each score was made (limbic_score, scoring, distance, "
                                "rrf_score, match_quality, entity and facts ranks)")
    ] = False,
    per_entity: Annotated[int, Field(ge=0, le=100, description="Matching facts shown per entity")] = 3,
    max_tokens: Annotated[
        int | None, Field(ge=1, description="Bound the whole answer to about this many tokens")
    ] = None,
) -> CallToolResult:
    """Search the memory by meaning and words: the facts (observations) that match best, grouped
    by entity. Use it when the exact words are unknown; use search_nodes for exact substrings.
    Each result: name, entityType, observations (its matching facts, best first), other_observations
    (how many more it has; open_nodes shows all) and score (relevance 0–1, the results' order).
    When nothing matches well, results is empty and no_good_match is true."""
    hits = memory_of(ctx).search_semantic(query, limit, per_entity=per_entity, max_tokens=max_tokens,
                                          include_superseded=explain)  # explain shows retired facts, marked
    if not explain:
        hits = [{k: h[k] for k in LEAN_HIT} for h in hits]
    log_read(memory_of(ctx), actor_of(ctx), "search_semantic", query, {"results": hits})
    return tool_result({"results": hits, "no_good_match": not hits})


LEAN_HIT = ("name", "entityType", "observations", "other_observations", "score")


def migrate(
    source_path: Annotated[
        str, Field(description="Absolute path of a memory.jsonl (or older memory.json) file")
    ],
    ctx: Context,
) -> CallToolResult:
    """Import an official memory server file (memory.jsonl, in a folder the user allowed) into this
    memory. Safe to run again:
    what is already here is skipped. Corrupt lines are skipped and counted; otherwise the file
    lands whole or not at all."""
    from core.io.official import import_official  # imported late: most sessions never migrate

    path = Path(source_path).expanduser()
    if not path.is_absolute():
        raise InvalidInput(f"source_path must be an absolute path, got {source_path!r}.")
    memory = memory_of(ctx)
    path = memory.allowed_file(path, "memory file")
    memory.auto_backup("import")
    report = import_official(memory, path, actor=actor_of(ctx))
    return tool_result(report.as_migrate())


def tools() -> list[Tool]:
    """This module's tools, in the order tools/list shows them."""
    return [
        make_tool(
            create_entities, title="Create Entities", annotations=WRITE, output_schema=CREATE_ENTITIES_OUT
        ),
        make_tool(
            create_relations, title="Create Relations", annotations=WRITE, output_schema=CREATE_RELATIONS_OUT
        ),
        make_tool(
            add_observations, title="Add Observations", annotations=WRITE, output_schema=ADD_OBSERVATIONS_OUT
        ),
        make_tool(delete_entities, title="Delete Entities", annotations=DELETE, output_schema=SUCCESS_OUT),
        make_tool(
            delete_observations, title="Delete Observations", annotations=DELETE, output_schema=SUCCESS_OUT
        ),
        make_tool(delete_relations, title="Delete Relations", annotations=DELETE, output_schema=SUCCESS_OUT),
        make_tool(read_graph, title="Read Graph", annotations=READ, output_schema=GRAPH_OUT),
        make_tool(search_nodes, title="Search Nodes", annotations=READ, output_schema=GRAPH_OUT),
        make_tool(open_nodes, title="Open Nodes", annotations=READ, output_schema=GRAPH_OUT),
        # It records what was recalled (limbic scoring) but changes no memory content.
        make_tool(search_semantic, title="Search by Meaning", annotations=READ, output_schema=SEMANTIC_OUT),
        make_tool(migrate, title="Import memory.jsonl", annotations=IMPORT, output_schema=MIGRATE_OUT),
    ]
