"""Hipocampo's memory engine: the knowledge graph, search, reflect, import/export, MCP. No Qt."""

from core.memory import Memory

__all__ = ["Memory"]
__version__ = "0.1.0"
