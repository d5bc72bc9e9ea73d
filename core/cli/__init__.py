"""``hipocampo`` — the command line.

Every subcommand works on the database from ``--db``, else ``HIPOCAMPO_DB``, else the platform's
user data folder.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from core import __version__
from core.cli import brief, files, history, hygiene, search, serve, status
from core.clients import CLIENTS
from core.errors import HipocampoError
from core.settings import Settings


def build_parser() -> argparse.ArgumentParser:
    from core.io import EXPORT_FORMATS

    parser = argparse.ArgumentParser(prog="hipocampo", description="Local-first memory for AI assistants.")
    parser.add_argument("--version", action="version", version=f"hipocampo {__version__}")
    db_help = "SQLite file (default: $HIPOCAMPO_DB, else beside $MEMORY_FILE_PATH, else the user data folder)"
    parser.add_argument("--db", type=Path, default=None, help=db_help)
    # The same global options after the subcommand (``hipocampo search x --db F``): SUPPRESS keeps
    # a subcommand that was not given one from resetting what came before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=db_help)
    sub = parser.add_subparsers(dest="command", required=True)

    status_cmd = sub.add_parser("status", parents=[common], help="database, counts, model, hub")
    status_cmd.add_argument("--json", action="store_true", help="machine-readable output")
    status_cmd.set_defaults(func=status.cmd_status)

    mcp = sub.add_parser("mcp", parents=[common], help="run the MCP server (stdio, or HTTP with --http)")
    mcp.add_argument("--http", action="store_true", help="serve Streamable HTTP on 127.0.0.1 as the hub")
    mcp.add_argument("--port", type=int, default=0, help="HTTP port (default: a free one)")
    mcp.add_argument("--no-bridge", action="store_true", help="stdio: never forward to a running hub")
    mcp.set_defaults(func=serve.cmd_mcp)

    imp = sub.add_parser(
        "import", parents=[common],
        help="import memory.jsonl, Engrama .ndjson or engrama.db, MCP Memory v2 .db, notes")
    imp.add_argument("files", type=Path, nargs="+", help="files, or folders of Markdown/text notes")
    imp.add_argument(
        "--format",
        choices=("jsonl", "ndjson", "sqlite", "engrama-db", "markdown"),
        default=None,
        help="default: detected from each file",
    )
    imp.add_argument("--json", action="store_true", help="machine-readable reports")
    imp.add_argument(
        "--skip-bad-lines", action="store_true",
        help="import what can be read and list the rest (default: a file with unreadable records imports nothing)",
    )
    imp.set_defaults(func=files.cmd_import)

    exp = sub.add_parser("export", parents=[common], help="export the graph")
    exp.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        default="jsonl",
        help="jsonl (official memory server), ndjson (Engrama), graphml, markdown (a folder)",
    )
    exp.add_argument("--out", type=Path, default=None, help="file (folder for markdown); default: stdout")
    exp.set_defaults(func=files.cmd_export)

    search_cmd = sub.add_parser("search", parents=[common], help="search the memory")
    search_cmd.add_argument("query")
    search_cmd.add_argument("--limit", type=int, default=10)
    search_cmd.add_argument("--substring", action="store_true", help="substring match (search_nodes)")
    search_cmd.add_argument("--json", action="store_true")
    search_cmd.set_defaults(func=search.cmd_search)

    reflect = sub.add_parser("reflect", parents=[common], help="look for patterns; propose insights")
    reflect.add_argument("--json", action="store_true", help="the whole result, machine-readable")
    reflect.set_defaults(func=search.cmd_reflect)

    reindex = sub.add_parser("reindex", parents=[common], help="compute missing or stale embeddings (resumable)")
    reindex.add_argument("--all", action="store_true", help="re-embed every entity, even current ones")
    reindex.set_defaults(func=search.cmd_reindex)

    backup = sub.add_parser("backup", parents=[common], help="copy the database, safely while it is in use")
    backup.add_argument(
        "dest", type=Path, nargs="?", default=None, help="file or folder (default: the backups folder beside it)"
    )
    backup.set_defaults(func=files.cmd_backup)

    migrate = sub.add_parser("migrate", parents=[common],
                             help="copy the whole memory to another backend (resumable, verified)")
    migrate.add_argument("--to", required=True, choices=["sqlite", "falkordb", "neo4j"],
                         help="the backend to move to")
    migrate.add_argument("--target-db", type=Path, default=None, help="the SQLite file to create (--to sqlite)")
    migrate.add_argument("--graph-url", default=None, help="the server (default: $HIPOCAMPO_GRAPH_URL)")
    migrate.add_argument("--graph-name", default=None, help="the graph on it (default: $HIPOCAMPO_GRAPH_NAME)")
    migrate.set_defaults(func=files.cmd_migrate)

    history_cmd = sub.add_parser("history", parents=[common], help="what changed, newest first (one entity, or all)")
    history_cmd.add_argument("entity", nargs="?", default=None, help="an entity's name (former names work too)")
    history_cmd.add_argument("--limit", type=int, default=50)
    history_cmd.add_argument("--json", action="store_true", help="the change_log rows, with before and after")
    history_cmd.set_defaults(func=history.cmd_history)

    undo = sub.add_parser("undo", parents=[common], help="undo the last change, or a given one")
    undo.add_argument("change", type=int, nargs="?", default=None, help="a change number from `hipocampo history`")
    undo.add_argument("--entity", default=None, help="the newest change about this entity")
    undo.add_argument("--json", action="store_true")
    undo.set_defaults(func=history.cmd_undo)

    hygiene.add_hygiene_parsers(sub, common)  # merge, tidy

    restore = sub.add_parser("restore", parents=[common], help="put a backup back (the file as it was is kept)")
    restore.add_argument("backup", type=Path, nargs="?", default=None, help="backup file (default: the newest)")
    restore.add_argument("--list", action="store_true", help="list the backups, newest first")
    restore.add_argument("--force", action="store_true",
                         help="restore even a backup with no entities over a memory that has some")
    restore.set_defaults(func=files.cmd_restore)

    config = sub.add_parser("config", parents=[common], help="print the setup for an MCP client, or --install it")
    config.add_argument("client", choices=CLIENTS)
    config.add_argument("--install", action="store_true",
                        help="add Hipocampo to the client's configuration file (keeps a backup)")
    config.add_argument("--hooks", action="store_true",
                        help="claude-code: install the session hooks (brief at start, save reminders; keeps a backup)")
    config.set_defaults(func=serve.cmd_config)
    brief.add_brief_parsers(sub, common)  # brief, pin, hook
    return parser


def main(argv: list[str] | None = None) -> int:
    from core.processes import share_malloc_arenas
    from core.storage.errors import as_storage_error

    share_malloc_arenas()  # before any thread: a smaller resident heap for the servers
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except HipocampoError as exc:
        print(f"hipocampo: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # ``hipocampo export | head``: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the final flush at exit does not complain
        return 141  # 128 + SIGPIPE, as a shell reports a pipe's writer that stopped early
    except Exception as exc:  # SQLite's own errors (a damaged or busy file) read as advice, not a traceback
        storage = as_storage_error(exc, str(getattr(args, "db", None) or Settings().db))
        if storage is None:
            raise
        print(f"hipocampo: {storage}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM for ``mcp`` (128 + the signal's number)
        return int(getattr(exc, "exit_code", 130))
