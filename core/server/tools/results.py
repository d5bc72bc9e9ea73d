"""Building tool results: structured content plus the text a model reads.

The official memory server sends each result twice: as ``structuredContent`` and as
``JSON.stringify(value, null, 2)`` in a text block. ``pydantic_core.to_json(value, indent=2)``
writes the same characters (non-ASCII kept, the same escapes, ``[]`` for empty lists), five times
faster than ``json.dumps(indent=2)``, whose indenting encoder is pure Python.
"""

from __future__ import annotations

from typing import Any

import pydantic_core
from mcp_types import CallToolResult, TextContent


def dumps(value: Any) -> str:
    """``value`` as JavaScript's ``JSON.stringify(value, null, 2)`` writes it."""
    return pydantic_core.to_json(value, indent=2).decode()


def tool_result(structured: dict[str, Any], text: Any = None, *notes: str) -> CallToolResult:
    """A successful result: ``structured`` as structured content, ``text`` (default: the same
    value) as JSON text, and optional extra text blocks after it (so the first block can stay
    byte-identical to the official server's while nothing the caller sent is silently dropped)."""
    body = text if isinstance(text, str) else dumps(structured if text is None else text)
    content = [TextContent(type="text", text=body)]
    content.extend(TextContent(type="text", text=note) for note in notes)
    return CallToolResult(content=content, structured_content=structured)


def tool_error(message: str) -> CallToolResult:
    """A failed call, reported in-band (``isError``) so the model reads ``message`` and can retry."""
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)
