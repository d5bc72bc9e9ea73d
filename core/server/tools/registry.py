"""Turning a tool function into an MCP ``Tool`` with a hand-written output schema."""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp_types import ToolAnnotations

#: Threads that run tool bodies, kept for the life of the process. The SDK would hand a sync tool to
#: anyio's worker threads, which live only as long as the task anyio takes for the root: on the
#: desktop app's qasync loop (no ``run_until_complete``) that is the request itself, so every call
#: started and joined a new thread on the GUI thread (157 threads for 200 calls, measured).
TOOL_THREADS = ThreadPoolExecutor(max_workers=16, thread_name_prefix="hipocampo-tool")


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
        _on_tool_thread(fn), title=title, description=description, annotations=annotations, structured_output=False
    )
    tool.fn_metadata.output_schema = output_schema  # read live by MCPServer, documented as such
    return tool


def _on_tool_thread(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as a coroutine function that runs it on :data:`TOOL_THREADS` (same signature and
    docstring, so the input schema is unchanged; the caller's context variables go along)."""
    if inspect.iscoroutinefunction(fn):
        return fn

    @functools.wraps(fn)
    async def run(**kwargs: Any) -> Any:
        context = contextvars.copy_context()
        return await asyncio.get_running_loop().run_in_executor(
            TOOL_THREADS, functools.partial(context.run, fn, **kwargs))

    return run
