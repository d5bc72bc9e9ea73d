"""Turning a tool function into an MCP ``Tool`` with a hand-written output schema."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp_types import ToolAnnotations


def make_tool(
    fn: Callable[..., Any], *, title: str, annotations: ToolAnnotations, output_schema: dict[str, Any]
) -> Tool:
    """A Tool whose input schema comes from ``fn``'s signature and whose output schema is given.

    The function returns a finished ``CallToolResult``; MCPServer passes it through without
    re-validating the structured content we built ourselves (at 10k entities that check costs more
    than the query).
    """
    # cleandoc: the docstring is what a model reads; source indentation is noise to it.
    description = inspect.cleandoc(fn.__doc__ or "")
    tool = Tool.from_function(
        fn, title=title, description=description, annotations=annotations, structured_output=False
    )
    tool.fn_metadata.output_schema = output_schema  # read live by MCPServer, documented as such
    return tool
