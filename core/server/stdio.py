"""``hipocampo mcp`` / ``mcp-memory``: the MCP server an assistant starts over stdio.

With a live hub for the same database (the desktop app) it bridges to it; otherwise it opens the
database itself, headless. Logs go to stderr; stdout carries nothing but the protocol.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer

from core.errors import HipocampoError
from core.memory import Memory
from core.server.app import build_server
from core.server.bridge import run_bridge
from core.server.endpoint import live_hub
from core.server.pipes import pipe_stdio, pipes_usable
from core.server.state import start_background
from core.settings import Settings


def configure_logging() -> None:
    """Log to stderr (on a stdio server, stdout belongs to the protocol); ``HIPOCAMPO_LOG=debug``
    (or info, warning, error) sets the level."""
    level = getattr(logging, os.environ.get("HIPOCAMPO_LOG", "warning").upper(), logging.WARNING)
    logging.basicConfig(
        stream=sys.stderr, level=level, format="hipocampo %(levelname)s %(name)s: %(message)s"
    )


def run_stdio(settings: Settings, *, bridge: bool = True) -> None:
    """Serve MCP on stdin/stdout until the client disconnects."""
    hub = live_hub(str(settings.db)) if bridge and settings.backend == "sqlite" else None
    if hub is not None:
        logging.getLogger(__name__).info("Bridging to the Hipocampo hub at %s", hub.get("url"))
        anyio.run(run_bridge, hub, settings)
        return
    with Memory(settings) as memory:
        start_background(memory)
        anyio.run(serve_stdio, build_server(memory))


async def serve_stdio(server: MCPServer[Any]) -> None:
    """Run ``server`` on stdin/stdout: on the event loop's pipes where it can, else the SDK's way."""
    lowlevel = getattr(server, "_lowlevel_server", None)  # what the SDK's own in-memory Client runs
    if lowlevel is None or not pipes_usable():
        await server.run_stdio_async()
        return
    async with pipe_stdio() as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mcp-memory`` script (MCP Memory v2's name, for drop-in configs)."""
    parser = argparse.ArgumentParser(prog="mcp-memory", description="Hipocampo's MCP server on stdio.")
    parser.add_argument(
        "--db", type=Path, default=None, help="SQLite file (default: $HIPOCAMPO_DB or the user data folder)"
    )
    parser.add_argument("--no-bridge", action="store_true", help="never forward to a running desktop app")
    args = parser.parse_args(argv)
    configure_logging()
    try:
        settings = Settings(**({"db": args.db} if args.db is not None else {}))
        run_stdio(settings, bridge=not args.no_bridge)
    except HipocampoError as exc:
        print(f"hipocampo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
