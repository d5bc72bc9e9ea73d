"""The MCP server: the memory-compatible tools, the engrama_* tools and the graph resource.

``build_server(memory)`` returns an ``MCPServer`` that any transport can run (stdio, Streamable
HTTP, the in-memory client in tests, the desktop app's event loop).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult
from pydantic import ValidationError

from core import __version__
from core.errors import HipocampoError
from core.memory import Memory
from core.server import resources, tools_engrama, tools_history, tools_hygiene, tools_memory
from core.server.results import tool_error
from core.server.state import ServerState
from core.storage.errors import as_storage_error

SERVER_NAME = "hipocampo"

INSTRUCTIONS = """\
Hipocampo is the user's long-term memory: a knowledge graph of entities (people, projects,
decisions …) with observations (facts) and typed relations, kept on this machine.
- Before creating something, look for it: search_nodes (substring) or search_semantic (meaning).
- Names are matched exactly and case-sensitively; reuse the name you found.
- read_graph on a large memory is expensive: pass names_only=true or limit/offset.
- Every change is kept: entity_history shows who changed an entity and how; restore_entity brings
  back one that was deleted by mistake.
- engrama_* tools offer the same graph with labels and properties (summary, details, tags),
  neighbourhood context, and reflect/insights that a human approves.
"""


class HipocampoServer(MCPServer[ServerState]):
    """MCPServer whose tool errors read like advice, not like stack traces."""

    memory: Memory

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[ServerState, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            with self.memory.busy():  # background embedding steps aside meanwhile
                return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, HipocampoError):
                return tool_error(str(cause))
            if isinstance(cause, ValidationError):
                return tool_error(describe_validation_error(name, cause))
            storage = as_storage_error(cause, str(self.memory.settings.db)) if cause is not None else None
            if storage is not None:  # busy, damaged, full: say so, and what to do
                return tool_error(str(storage))
            raise


def describe_validation_error(tool: str, exc: ValidationError) -> str:
    """One line per bad argument, with where it is and what is wrong: what a model needs to retry."""
    lines = []
    for err in exc.errors()[:5]:
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err["loc"]).lstrip(".")
        lines.append(f"{where or 'arguments'}: {err['msg']}")
    more = len(exc.errors()) - len(lines)
    if more > 0:
        lines.append(f"… and {more} more")
    return f"Invalid arguments for {tool}: " + "; ".join(lines) + ". Nothing was changed."


def build_server(memory: Memory, *, endpoint: dict[str, Any] | None = None) -> HipocampoServer:
    """An MCP server over ``memory``. The caller owns ``memory`` (opens and closes it)."""
    state = ServerState(memory=memory, endpoint=dict(endpoint or {}))

    @asynccontextmanager
    async def lifespan(_server: MCPServer[ServerState]) -> AsyncIterator[ServerState]:
        yield state

    server = HipocampoServer(
        SERVER_NAME,
        tools=[*tools_memory.tools(), *tools_history.tools(), *tools_engrama.tools(), *tools_hygiene.tools()],
        title="Hipocampo memory",
        version=__version__,
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        log_level="WARNING",
    )
    server.memory = memory
    resources.register(server, state)
    return server
