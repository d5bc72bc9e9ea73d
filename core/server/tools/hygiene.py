"""Memory hygiene where assistants are: merging duplicate entities and the one maintenance call.

Both go through ``Memory`` (``merge_entities``, ``tidy``): a preview first by default, and what is
applied is one undoable change each (``hipocampo undo`` or the app's undo takes it back).
"""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from core.server.tools.registry import make_tool
from core.server.tools.results import tool_result
from core.server.tools.schemas import _array, _object
from core.server.tools.state import actor_of, memory_of

CHANGES = ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=False, openWorldHint=False)

MERGE_OUT = _object({
    "dry_run": {"type": "boolean", "description": "true: nothing was changed, this is what would change"},
    "preview": {"type": "object", "description": "{into, merged, add_observations, dropped_observations, "
                "rewire_relations, dropped_relations, add_properties, aliases, delete_entities}"},
    "text": {"type": "string", "description": "the preview in words"},
}, {"change_id": {"type": "integer", "description": "the change that did it (undo takes it back whole)"},
    "resolved_insights": _array("titles of the pending duplicate proposals this merge settled (approved with it; "
                                "undo puts them back to review)")})
TIDY_OUT = _object({"dry_run": {"type": "boolean"}}, {
    "proposals": _array("on a dry run, best first: objects {id, kind, label, confidence, summary, evidence, preview}"),
    "kinds": {"type": "object", "description": "every kind of proposal tidy knows, with what it is"},
    "applied": _array("objects {id, kind, ...what changed, change_id}"),
})


def merge_entities(
    names: Annotated[list[str], Field(description="The entities to merge into `into` (exact names)")],
    into: Annotated[str, Field(description="The entity to keep (exact name); the others merge into it")],
    ctx: Context,
    dry_run: Annotated[bool, Field(description="true (default): only show what would change")] = True,
) -> CallToolResult:
    """Merge duplicate entities (the same person or project written twice) into one. By default a
    dry run: returns exactly what would change. With dry_run=false: their observations join the kept
    entity (exact and near-exact repeats dropped), their relations are rewired to it (no relation of
    it to itself, no repeated relation), their names stay as aliases that open_nodes, search_nodes
    and search_semantic still find, and the whole merge is one change the user can undo. Ask the
    user before merging."""
    result: dict[str, Any] = memory_of(ctx).merge_entities(names, into=into, dry_run=dry_run, actor=actor_of(ctx))
    return tool_result(result)


def tidy(
    ctx: Context,
    apply: Annotated[list[str] | None, Field(
        description="Ids of proposals (from a dry run) to carry out; omit for a dry run")] = None,
) -> CallToolResult:
    """One maintenance call: lists what memory hygiene proposes now (possible duplicate entities,
    near-identical observations, and any other kind it knows), each with its evidence and a preview
    of what it would change. A dry run by default: nothing is changed. Pass the chosen ids as
    `apply` to carry them out; each is one change the user can undo. Ask the user first."""
    return tool_result(memory_of(ctx).tidy(apply=apply, actor=actor_of(ctx)))


def tools() -> list[Tool]:
    """This module's tools, in the order tools/list shows them."""
    return [
        make_tool(merge_entities, title="Merge Duplicate Entities", annotations=CHANGES, output_schema=MERGE_OUT),
        make_tool(tidy, title="Tidy the Memory", annotations=CHANGES, output_schema=TIDY_OUT),
    ]
