"""Hipocampo's memory engine: the knowledge graph, search, reflect, import/export, MCP. No Qt."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.memory import Memory

__all__ = ["Memory"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``core.Memory``, imported on first use: a client's hook or the stdio server's early answers
    import ``core.something`` without paying for the whole engine (numpy, pydantic, the stores)."""
    if name == "Memory":
        from core.memory import Memory

        return Memory
    raise AttributeError(f"module 'core' has no attribute {name!r}")
