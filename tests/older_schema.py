"""Take a SQLite memory back to what an older schema left, so a test can open it and watch its
migrations run (each step undoes one migration's additions, the newest first)."""

from __future__ import annotations

import json
import sqlite3

from core.reflect.lifecycle import CARRIED_OUT_KINDS
from core.storage.sqlite.migrations import read_sql


def without_archived_records(conn: sqlite3.Connection) -> None:
    """As before migration 011: approved (or synced) hygiene proposals un-archived, as approving
    them left them then."""
    conn.execute("UPDATE entities SET archived_at = NULL WHERE id IN (SELECT entity_id FROM insights "
                 "WHERE status IN ('approved', 'synced') AND pattern IN (SELECT value FROM json_each(?)))",
                 (json.dumps(CARRIED_OUT_KINDS),))
    conn.execute("PRAGMA user_version = 10")


def without_folded_aliases(conn: sqlite3.Connection) -> None:
    """As before migration 009 (and 010, 011): aliases without their folded column, version 5's triggers."""
    without_archived_records(conn)
    conn.execute("DROP INDEX idx_entity_aliases_folded")
    conn.execute("ALTER TABLE entity_aliases DROP COLUMN folded")
    for trigger in ("entity_aliases_added", "entity_aliases_changed"):
        conn.execute(f"DROP TRIGGER {trigger}")
    script = read_sql("005_aliases.sql")
    for part in script.split("END;")[:2]:  # version 5's triggers, without the folds
        conn.execute(part[part.index("CREATE TRIGGER"):] + "END;")
    conn.execute("PRAGMA user_version = 8")


def without_name_tokens(conn: sqlite3.Connection) -> None:
    """As before migration 008 (and 009): no stored words of the names."""
    without_folded_aliases(conn)
    conn.execute("DROP TABLE entity_name_tokens")
    conn.execute("PRAGMA user_version = 7")
