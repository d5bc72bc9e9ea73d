"""Numbered schema migrations.

``MIGRATIONS[n]`` is the SQL that takes a database from version ``n - 1`` to ``n``; each runs in
one transaction together with its ``PRAGMA user_version`` bump. ``schema.sql`` is always the whole
current schema, for fresh files. Version 1 is the first; the MCP Memory v2 import (user_version
0, seed 000's tables) is a separate, one-off migration to version 1, followed by the numbered ones.
"""

from __future__ import annotations

from importlib import resources


def read_sql(name: str) -> str:
    """The text of a migration file shipped beside this module."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


MIGRATIONS: dict[int, str] = {
    2: read_sql("002_folded_text.sql"),  # entity_folded: search_nodes confirms substrings in SQL
    3: read_sql("003_import_id.sql"),  # change_log.import_id: imports in chunks, rolled back by id
    4: read_sql("004_facts.sql"),  # fact_fts, fact_vectors: every observation indexed on its own
    5: read_sql("005_aliases.sql"),  # entity_aliases: names merged into an entity still open it
    6: read_sql("006_pins.sql"),  # pins: what the user pinned for the session brief
    7: read_sql("007_fact_context.sql"),  # facts embedded in context: every fact due again
    8: read_sql("008_name_tokens.sql"),  # entity_name_tokens: the duplicate rules' words, stored
    9: read_sql("009_folded_aliases.sql"),  # entity_aliases.folded: former names matched without folding
    10: read_sql("010_alias_words.sql"),  # aliases in the embedding text: merged entities due again
    11: read_sql("011_archived_records.sql"),  # approved hygiene proposals archived: records, not knowledge
}
