"""``hipocampo-app`` (and the bundle's executable): start the best thing this machine can run.

- ``Hipocampo mcp …``, ``Hipocampo status`` … — any ``hipocampo`` subcommand runs the command line,
  so an MCP client can point straight at the app's executable;
- with a display: the desktop app;
- without one (a server, a container, a process spawned by an MCP client, which gets no DISPLAY):
  the MCP server over stdio.
"""

from __future__ import annotations

import argparse
import os
import sys

from core import cli


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _subcommands() -> set[str]:
    """The ``hipocampo`` subcommand names (status, mcp, import …)."""
    for action in cli.build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in _subcommands() for a in args if not a.startswith("-")):
        return cli.main(args)
    if has_display():
        from desktop.app import leave
        from desktop.app import main as desktop_main

        leave(desktop_main(args))  # the app has closed everything: no interpreter teardown to wait for
    if "--version" in args:
        return cli.main(["--version"])
    print("hipocampo: no display here; serving MCP over stdio instead of opening the window.", file=sys.stderr)
    return cli.main([*[a for a in args if a != "--tray"], "mcp"])


if __name__ == "__main__":
    sys.exit(main())
