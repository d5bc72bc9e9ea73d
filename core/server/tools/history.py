"""History where assistants are: what happened to an entity, and bringing back a deleted one.

Both read ``change_log`` through ``Memory`` (``entity_history``, ``restore_entity``), which records
every write with who made it.
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

READ = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
# A second restore of the same name changes nothing (it is refused: the entity exists again).
RESTORE = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False)

HISTORY_OUT = _object({
    "name": {"type": "string"},
    "changes": _array("newest first: objects {id, at, actor, op, what, before, after}"),
    "deleted": {"type": "boolean", "description": "the entity is deleted now and restore_entity can bring it back"},
})
RESTORE_OUT = _object({"restored": {"type": "object", "description": "{name, entityType, observations}"}})


def entity_history(
    name: Annotated[str, Field(description="The entity's exact name (a former name works too)")],
    ctx: Context,
    limit: Annotated[int, Field(ge=1, le=500, description="At most this many changes")] = 20,
) -> CallToolResult:
    """What happened to an entity, newest first: each change with its id, time, who made it (the
    assistant or app), what it did, and the state before and after. Also says whether the entity is
    deleted now, so restore_entity can bring it back."""
    memory = memory_of(ctx)
    rows = memory.entity_history(name, limit=limit)
    changes: list[dict[str, Any]] = [
        {"id": r.id, "at": r.at, "actor": r.actor, "op": r.op, "what": memory.describe_change(r),
         "before": r.before, "after": r.after}
        for r in rows
    ]
    return tool_result({"name": name, "changes": changes, "deleted": memory.last_deletion(name) is not None})


def restore_entity(
    name: Annotated[str, Field(description="The exact name of a deleted entity")], ctx: Context
) -> CallToolResult:
    """Bring back an entity that was deleted: its type, observations and the relations to entities
    that still exist, as they were just before the deletion. Fails if nothing by that name was
    deleted, or if an entity with that name exists again."""
    node = memory_of(ctx).restore_entity(name, actor=actor_of(ctx))
    return tool_result({"restored": {"name": node.name, "entityType": node.label,
                                     "observations": list(node.observations)}})


def tools() -> list[Tool]:
    """This module's tools, in the order tools/list shows them."""
    return [
        make_tool(entity_history, title="Entity History", annotations=READ, output_schema=HISTORY_OUT),
        make_tool(restore_entity, title="Restore a Deleted Entity", annotations=RESTORE, output_schema=RESTORE_OUT),
    ]
