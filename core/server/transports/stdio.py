"""``hipocampo mcp`` / ``mcp-memory``: the MCP server an assistant starts over stdio.

With a live hub for the same database (the desktop app) it bridges to it; otherwise it opens the
database itself, headless. Logs go to stderr; stdout carries nothing but the protocol.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.embeddings.indexer import halt_all, release_all_leases
from core.errors import HipocampoError
from core.io.official_sync import dropin_settings
from core.processes import settle_heap
from core.server.fast.front import Front, pipes_usable, take_stdio
from core.server.transports.endpoint import live_hub
from core.settings import Settings

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

# The MCP SDK (~0.5 s to import) is imported only once the early answers are being given (front.py).
DEFAULT_MAX_LINE = 8 * 1024 * 1024  # pipes.DEFAULT_MAX_LINE, without importing the SDK to read it


def configure_logging(settings: Settings | None = None) -> None:
    """Log to stderr (on a stdio server, stdout belongs to the protocol); the setting ``log``
    (``HIPOCAMPO_LOG=debug``, or info, warning, error) sets the level."""
    level = getattr(logging, (settings or Settings()).log.upper(), logging.WARNING)
    level = level if isinstance(level, int) else logging.WARNING
    logging.basicConfig(
        stream=sys.stderr, level=level, format="hipocampo %(levelname)s %(name)s: %(message)s"
    )


INTERACTIVE_GRACE_SECONDS = 0.2
STOP_GRACE_SECONDS = 1.5  # after SIGINT/SIGTERM, a clean stop gets this long; then the lease is released and we exit


def run_stdio(settings: Settings, *, bridge: bool = True, official: Path | None = None) -> None:
    """Serve MCP on stdin/stdout until the client disconnects, or SIGINT/SIGTERM arrives.
    ``official``: the official server's file (``MEMORY_FILE_PATH``) to merge in at start and while serving."""
    from core.io.official_sync import open_with_official_file

    # In a terminal the SDK reads stdin on a thread that only an Enter would wake: no client is
    # writing there, so Ctrl-C need not wait for a clean unwind that cannot come.
    with stop_on_signals(grace=INTERACTIVE_GRACE_SECONDS if _interactive() else STOP_GRACE_SECONDS):
        # The client's initialize and tools/list are answered while the hub is looked for, the SDK
        # loads and the memory opens (front.py): a forwarding server as fast as a direct one.
        front = Front(take_stdio()).start() if pipes_usable() and settings.fast_path else None
        hub = live_hub(str(settings.db)) if bridge and settings.backend == "sqlite" else None
        if hub is not None:
            if official is not None:  # the hub holds the model: merge once with a light memory
                light, _ = open_with_official_file(settings.model_copy(update={"embeddings": "none"}), official)
                light.close()
            logging.getLogger(__name__).info("Bridging to the Hipocampo hub at %s", hub.get("url"))
            _greet_a_person(settings)
            import anyio

            from core.server.transports.bridge import run_bridge

            anyio.run(run_bridge, hub, settings, front)
            return
        try:
            memory, sync = open_with_official_file(settings, official)
        except HipocampoError as exc:  # e.g. a newer schema: the client is told why, on every request
            if front is not None:
                front.refuse_all(f"Hipocampo cannot open its memory: {exc}")
            raise
        with memory:
            _greet_a_person(settings)
            import anyio

            from core.server.tools.state import start_background
            from core.server.transports.app import build_server

            start_background(memory)
            if sync is not None:
                sync.start()
            server = build_server(memory)
            settle_heap()
            try:
                anyio.run(serve_stdio, server, settings.max_request_bytes, front)
            finally:
                if sync is not None:
                    sync.stop()


def _interactive() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _greet_a_person(settings: Settings) -> None:
    """Started by hand in a terminal, a stdio server looks hung: say what it waits for."""
    if _interactive():
        print(f"hipocampo: MCP server on stdio for {settings.db}, waiting for an MCP client to talk to it "
              "(assistants start it themselves; see `hipocampo config`). Press Ctrl-C to stop.",
              file=sys.stderr, flush=True)


class Stopped(KeyboardInterrupt):
    """SIGINT or SIGTERM asked the server to stop (a KeyboardInterrupt, which asyncio and anyio
    unwind through cleanly); ``exit_code`` is 128 + the signal's number, as shells report it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.exit_code = 128 + signum


@contextlib.contextmanager
def stop_on_signals(grace: float = STOP_GRACE_SECONDS) -> Iterator[None]:
    """While inside, SIGINT and SIGTERM unwind the server (closing the memory and releasing the
    embedding lease). If that has not ended the process after ``grace`` seconds (a thread stuck
    in a blocking read, a long model call), the lease is released and the process exits anyway."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_signal(signum: int, _frame: object) -> None:
        begin_stop(signum, grace)
        raise Stopped(signum)

    originals = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
    # Unwound after a signal, the memory is closed and the lease given up: the process ends here,
    # with the code it would have had (128 + the signal's number for a server the signal unwound;
    # 0 for the hub, which uvicorn stops cleanly).
    try:
        yield
    except BaseException:
        _restore(originals)
        if _stopping:
            _exit_now(128 + _stopping[0])
        raise
    _restore(originals)
    if _stopping:
        _exit_now(0)


def _restore(handlers: dict[signal.Signals, Any]) -> None:
    for sig, handler in handlers.items():
        signal.signal(sig, handler)


HARD_STOP_MARGIN_SECONDS = 1.0  # then, if even that could not run, faulthandler ends the process from C
_stopping: list[int] = []
_devnull: list[Any] = []


def begin_stop(signum: int, grace: float = STOP_GRACE_SECONDS) -> None:
    """The first steps on SIGINT/SIGTERM, before the clean unwind: the background embedder is told
    to stop; after ``grace`` seconds the lease is released and the process exits anyway; and a
    moment later, a last resort, it exits from C (faulthandler's watchdog needs no GIL) even if
    Python itself cannot run (a thread holding the GIL inside a C call that never returns)."""
    if _stopping:
        return
    _stopping.append(signum)
    _devnull.append(open(os.devnull, "w"))  # noqa: SIM115 - kept open until the process exits
    faulthandler.dump_traceback_later(grace + HARD_STOP_MARGIN_SECONDS, exit=True, file=_devnull[0])
    halt_all()
    timer = threading.Timer(grace, _exit_now, (128 + signum,))
    timer.daemon = True
    timer.start()


def _exit_now(code: int) -> None:
    """Release the lease, write out what is buffered and end the process without the interpreter's
    teardown (freeing onnxruntime's session, the SDK, ~900 modules): it came after everything that
    matters was done, and at load 8 the process took 1.8-2.7 s more to end after the memory closed."""
    release_all_leases()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


async def serve_stdio(server: MCPServer[Any], max_line: int = DEFAULT_MAX_LINE, front: Front | None = None) -> None:
    """Run ``server`` on stdin/stdout: on the event loop's pipes where it can, else the SDK's way.
    ``front``: the early answers given so far, which the SDK's session takes over from."""
    from core.server.fast.express import Express
    from core.server.transports.pipes import pipe_stdio

    lowlevel = getattr(server, "_lowlevel_server", None)  # what the SDK's own in-memory Client runs
    if lowlevel is None or (front is None and not pipes_usable()):
        await server.run_stdio_async()
        return
    wire, handover = (front.wire, front.handover()) if front is not None else (None, None)
    memory = getattr(server, "memory", None)
    foreground = memory.foreground if memory is not None else None
    fast = memory is not None and memory.settings.fast_path  # off: every message through the SDK
    express = Express(memory, lowlevel.server_info_stamp) if memory is not None and fast else None
    async with pipe_stdio(max_line, foreground, wire=wire, handover=handover, express=express) as (
        read_stream, write_stream
    ):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``mcp-memory`` script (MCP Memory v2's name, for drop-in configs)."""
    from core.processes import share_malloc_arenas

    share_malloc_arenas()  # before any thread starts
    parser = argparse.ArgumentParser(prog="mcp-memory", description="Hipocampo's MCP server on stdio.")
    parser.add_argument(
        "--db", type=Path, default=None,
        help="SQLite file (default: $HIPOCAMPO_DB, else beside $MEMORY_FILE_PATH, else the user data folder)"
    )
    parser.add_argument("--no-bridge", action="store_true", help="never forward to a running desktop app")
    args = parser.parse_args(argv)
    configure_logging()
    try:
        settings, official = dropin_settings(args.db)
        run_stdio(settings, bridge=not args.no_bridge, official=official)
    except HipocampoError as exc:
        print(f"hipocampo: {exc}", file=sys.stderr)
        return 2
    except Stopped as stopped:
        return stopped.exit_code
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
