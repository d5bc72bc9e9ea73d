"""What every tool gets from the server: the Memory (through the typed lifespan context) and
who is calling (the MCP client's name, for change_log)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcp.server.mcpserver import Context

from core.memory import Memory

FALLBACK_ACTOR = "mcp"


@dataclass
class ServerState:
    """Server-wide state, yielded by the lifespan and shared by every connection."""

    memory: Memory
    # Shown by engrama_status: where the HTTP hub listens, when this process is one.
    endpoint: dict[str, Any] = field(default_factory=dict)
    # Who follows which resources, and the task that tells them (core.server.subscriptions.Follow).
    follow: Any = None


def state_of(ctx: Context[Any, Any]) -> ServerState:
    """The ServerState of the request ``ctx`` belongs to (the lifespan in ``transports/app.py`` yields it;
    the tools take a plain ``Context``, as the SDK injects it, so its type is checked here)."""
    state = ctx.request_context.lifespan_context
    if not isinstance(state, ServerState):
        raise TypeError(f"the server's lifespan yields {type(state).__name__}, not a ServerState")
    return state


def memory_of(ctx: Context[Any, Any]) -> Memory:
    return state_of(ctx).memory


def actor_of(ctx: Context[Any, Any]) -> str:
    """The calling client's name from its ``initialize`` clientInfo, e.g. ``claude-ai``.

    Recorded as the actor of every write, so history says which assistant changed what.
    """
    try:
        params = ctx.request_context.session.client_params
    except ValueError:  # no request (a direct call in a test)
        return FALLBACK_ACTOR
    name = params.client_info.name if params is not None and params.client_info is not None else ""
    name = (name or "").strip()
    return name[:100] if name else FALLBACK_ACTOR


def start_background(memory: Memory) -> None:
    """Let a long-running server keep embeddings in step with writes, off the request path."""
    memory.start_background()
