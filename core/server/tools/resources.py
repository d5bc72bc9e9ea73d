"""The ``memory://knowledge-graph`` resource: the whole graph, as the official server serves it."""

from __future__ import annotations

import anyio.to_thread
from mcp.server.mcpserver import MCPServer

from core.server.tools.results import dumps
from core.server.tools.state import ServerState

GRAPH_URI = "memory://knowledge-graph"


def register(server: MCPServer, state: ServerState) -> None:
    """Add the graph resource to ``server``."""

    # Static resources get no Context, so the state comes in by closure.
    @server.resource(
        GRAPH_URI,
        name="knowledge-graph",
        title="Knowledge Graph",
        description="The full knowledge graph with all entities and relations",
        mime_type="application/json",
    )
    async def knowledge_graph() -> str:
        graph = await anyio.to_thread.run_sync(state.memory.read_graph_dump)
        return dumps(graph)
