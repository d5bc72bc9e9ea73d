"""``hipocampo`` — the command line.

Every subcommand works on the database from ``--db``, else ``HIPOCAMPO_DB``, else the platform's
user data folder.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from core import __version__
from core.errors import HipocampoError
from core.memory import Memory
from core.settings import Settings


def _settings(args: argparse.Namespace) -> Settings:
    overrides: dict[str, Any] = {}
    if args.db is not None:
        overrides["db"] = args.db
    return Settings(**overrides)


def cmd_status(args: argparse.Namespace) -> int:
    """Print the database, its health and counts."""
    settings = _settings(args)
    with Memory(settings) as memory:
        health = memory.health_check()
        labels = memory.count_labels()
    if args.json:
        print(json.dumps({**health, "labels": labels}, indent=2, ensure_ascii=False))
        return 0 if health["ok"] else 1
    counts = health["counts"]
    print(f"Hipocampo {__version__}")
    print(f"  database     {health.get('path', settings.db)} ({health['backend']}, schema "
          f"{health.get('schema_version')}, integrity {health.get('quick_check')})")
    print(f"  sqlite       {health.get('sqlite_version')}, sqlite-vec {health.get('sqlite_vec_version')}")
    print(f"  entities     {counts.get('entities', 0)} ({health.get('archived', 0)} archived)")
    print(f"  observations {counts.get('observations', 0)}")
    print(f"  relations    {counts.get('relations', 0)}")
    print(f"  insights     {counts.get('insights', 0)}")
    if labels:
        top = ", ".join(f"{k} {v}" for k, v in list(labels.items())[:8])
        print(f"  types        {top}")
    return 0 if health["ok"] else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hipocampo", description="Local-first memory for AI assistants.")
    parser.add_argument("--version", action="version", version=f"hipocampo {__version__}")
    parser.add_argument("--db", type=Path, default=None, help="SQLite file (default: $HIPOCAMPO_DB or "
                        "the user data folder)")
    sub = parser.add_subparsers(dest="command", required=True)
    status = sub.add_parser("status", help="database, counts and health")
    status.add_argument("--json", action="store_true", help="machine-readable output")
    status.set_defaults(func=cmd_status)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except HipocampoError as exc:
        print(f"hipocampo: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
