"""``hipocampo-app``: start the best thing this machine can run.

The desktop app where there is a display; the MCP server over stdio where there is none (a server,
a container, a process spawned by an MCP client); and while neither is built, ``hipocampo status``.
"""

from __future__ import annotations

import importlib.util
import os
import sys

from core import cli


def has_display() -> bool:
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if has_display() and importlib.util.find_spec("desktop.app") is not None:
        from desktop.app import main as desktop_main

        return int(desktop_main(args) or 0)
    if importlib.util.find_spec("core.server") and importlib.util.find_spec("core.server.stdio"):
        return cli.main([*args, "mcp"])
    return cli.main([*args, "status"])


if __name__ == "__main__":
    sys.exit(main())
