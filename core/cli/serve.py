"""``hipocampo mcp`` (the MCP server on stdio or HTTP) and ``hipocampo config`` (how a client starts it)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from core.cli.common import dropin, settings_of


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve MCP: stdio (bridging to a running hub when there is one), or HTTP with ``--http``."""
    from core.server.transports.stdio import configure_logging, run_stdio  # the MCP SDK is not imported yet (front.py)

    configure_logging()
    settings, official = dropin(args)
    if not args.http:
        run_stdio(settings, bridge=not args.no_bridge, official=official)
        return 0
    import anyio

    from core.io.official_sync import open_with_official_file
    from core.server.tools.state import start_background
    from core.server.transports.http import refuse_second_hub, serve_http
    from core.server.transports.stdio import stop_on_signals

    refuse_second_hub()  # before loading the model
    with stop_on_signals():  # while it opens; uvicorn takes the signals over while it serves
        memory, sync = open_with_official_file(settings, official)
        with memory:
            start_background(memory)
            if sync is not None:
                sync.start()
            try:
                anyio.run(lambda: serve_http(memory, port=args.port, on_ready=_ready_and_settled))
            except OSError as exc:  # the port is taken, or not ours to bind
                print(
                    f"hipocampo: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}", file=sys.stderr
                )
                return 2
            finally:
                if sync is not None:
                    sync.stop()
    return 0


def _ready_and_settled(info: dict[str, Any]) -> None:
    """The hub accepts connections: say so, then freeze what it was loaded with (``settle_heap``)."""
    from core.processes import settle_heap
    from core.server.transports.http import print_ready

    print_ready(info)
    settle_heap()


def cmd_config(args: argparse.Namespace) -> int:
    """Print the configuration that starts Hipocampo from ``args.client``; with ``--install``, add it
    to the client's configuration file (a backup is kept beside it)."""
    from core.clients import TITLES, client_config, display_path, install_into

    db = Path(settings_of(args).db).expanduser().absolute()
    if args.hooks:  # with --install too: the hooks, then the server entry
        from core.hooks import print_install

        print_install(args.client, db)
        if not args.install:
            return 0
    if args.install:
        result = install_into(args.client, db)
        where = display_path(result.path)
        if result.action == "unchanged":
            print(f"{TITLES[args.client]} already starts Hipocampo ({where}, server {result.key!r}).")
            return 0
        backup = f" (backup: {display_path(result.backup)})" if result.backup else ""
        print(f"{result.action.capitalize()} server {result.key!r} in {where}{backup}.")
        if result.beside:
            print(f"Your existing {result.beside!r} server was kept; remove it to use Hipocampo alone.")
        print(f"Restart {TITLES[args.client]} to load it.")
        return 0
    where, text = client_config(args.client, db)
    print(f"# {args.client}: {where}", file=sys.stderr)
    print(text)
    return 0
