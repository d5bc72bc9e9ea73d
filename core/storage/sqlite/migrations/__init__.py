"""Numbered schema migrations.

``MIGRATIONS[n]`` is the SQL that takes a database from version ``n - 1`` to ``n``; each runs in
one transaction together with its ``PRAGMA user_version`` bump. ``schema.sql`` is always the whole
current schema, for fresh files. Version 1 is the first, so the list is empty for now; the
MCP Memory v2 import (user_version 0, seed 000's tables) is a separate, one-off migration.
"""

from __future__ import annotations

from importlib import resources

MIGRATIONS: dict[int, str] = {}


def read_sql(name: str) -> str:
    """The text of a migration file shipped beside this module."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
