"""``GET /brief`` on the hub: the session brief for a client's hook, without an MCP session.

A hook must answer within a second (``core/hooks.py``); a plain request with the hub's bearer token
(checked by ``LocalOnly`` like every other path) costs milliseconds, where an MCP handshake would
need the SDK loaded first. ``?max_tokens=N`` sets the budget; the answer also carries the newest
change id, so a Stop hook can tell whether anything was saved during the session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from core.brief import DEFAULT_BUDGET
from core.errors import HipocampoError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from core.memory import Memory

BRIEF_PATH = "/brief"


def register(server: MCPServer, memory: Memory) -> None:
    """Add ``GET /brief`` to ``server`` (an MCPServer about to become an HTTP app)."""

    @server.custom_route(BRIEF_PATH, methods=["GET"])  # type: ignore[untyped-decorator]  # the SDK's decorator is unannotated
    async def brief(request: Request) -> Response:
        try:
            budget = int(request.query_params.get("max_tokens", DEFAULT_BUDGET))
        except ValueError:
            return JSONResponse({"error": "max_tokens must be a whole number"}, status_code=400)

        def build() -> dict[str, Any]:
            made = memory.brief(budget)
            return {**made.as_dict(), "receipt": made.receipt(), "latest_change_id": memory.latest_change_id()}

        try:
            return JSONResponse(await anyio.to_thread.run_sync(build))
        except HipocampoError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
