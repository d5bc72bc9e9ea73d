"""What every subcommand shares: the settings for ``--db``, a memory that must exist already, JSON
output, and the note about entities not embedded yet."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from core.errors import InvalidInput, NotFound
from core.model import Change
from core.search.hybrid import FRESH_AT_MOST
from core.settings import Settings


def settings_of(args: argparse.Namespace, **extra: Any) -> Settings:
    """The settings for this command's ``--db`` (and the official server's file, when that decides it)."""
    return dropin(args, **extra)[0]


def existing(args: argparse.Namespace, *, writes: bool = False, **extra: Any) -> Settings:
    """Settings for a command on a memory that must exist already: a missing database is an error,
    not a new empty file. One on a read-only disk or folder is opened read-only, unless the
    command ``writes``."""
    settings = settings_of(args, **extra)
    db = Path(settings.db)
    if str(db) == ":memory:" or settings.backend != "sqlite":  # a graph server: no file to find
        return settings
    if not db.exists():
        raise NotFound(
            f"There is no memory at {db}: nothing has been saved there. Check --db (or HIPOCAMPO_DB); "
            "the MCP server, the app or `hipocampo import` create it."
        )
    wal = Path(f"{db}-wal")
    if not writes and db.is_file() and db.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size > 0):
        raise NotFound(  # a command that only reads must not write a schema into it
            f"{db} is an empty file, not a Hipocampo memory: nothing has been saved there. Check --db (or "
            "HIPOCAMPO_DB); the MCP server, the app or `hipocampo import` make it a memory. It was left as it is."
        )
    if os.access(db, os.W_OK) and os.access(db.parent, os.W_OK):
        return settings
    if writes:
        raise InvalidInput(f"{db} is on a read-only location; `hipocampo {args.command}` needs to write to it. "
                           "Copy it somewhere writable (`hipocampo backup DEST` works) and use that.")
    return settings.model_copy(update={"read_only": True})


def dropin(args: argparse.Namespace, **extra: Any) -> tuple[Settings, Path | None]:
    """Settings, and the official server's file (``MEMORY_FILE_PATH``) when it decides the database."""
    from core.io.official_sync import dropin_settings

    settings, official = dropin_settings(args.db, **extra)
    if Path(settings.db).is_dir():
        raise InvalidInput(f"{settings.db} is a folder; --db names the database file itself "
                           f"(for example {Path(settings.db) / 'memory.db'}).")
    return settings, official


def dump(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False, default=as_json))


def as_json(value: Any) -> Any:
    """A ``Change`` (a change_log row) prints as its seven columns."""
    if isinstance(value, Change):
        return value.as_dict()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def say_pending(status: dict[str, Any], *, after_import: bool = False) -> None:
    """Tell the user when some entities have no vector yet (search is full text for them)."""
    if status.get("model") is None:
        if not after_import:
            print(f"hipocampo: searching by full text only ({status.get('error')}).", file=sys.stderr)
        return
    pending = status.get("entities", 0) - status.get("embedded", 0)
    if pending <= 0:
        return
    if after_import:
        print(f"{pending:,} entities still need embedding for search by meaning; the MCP server, the app "
              "or `hipocampo reindex` will do it.", file=sys.stderr)
    else:
        print(f"hipocampo: {pending:,} of {status['entities']:,} entities are not embedded yet: a search embeds "
              f"up to {FRESH_AT_MOST} of the newest itself; the others are found by full text only until the "
              "server, the app or `hipocampo reindex` embeds them.", file=sys.stderr)
