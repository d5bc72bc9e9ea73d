"""What was written, for people to read: change_log newest first, by writer and by time span.

The desktop app's activity pane pages through these; the change feed (``history.changes_since``)
brings what is written after. Rowid order is time order, so every query walks the primary key
backwards and stops at ``limit``.
"""

from __future__ import annotations

import json
from typing import Any

from core.storage.sqlite.connection import Connection

# Named queries: filters are bound, never spliced; an absent filter binds NULL and matches all.
ACTIVITY = """
SELECT id, at, actor, op, entity, before, after FROM change_log
WHERE (:before_id IS NULL OR id < :before_id)
  AND (:actor IS NULL OR actor = :actor)
  AND (:since IS NULL OR at >= :since)
  AND (:until IS NULL OR at < :until)
ORDER BY id DESC LIMIT :limit
"""

ACTORS = """
SELECT actor, count(*) AS changes, max(at) AS last_at FROM change_log
GROUP BY actor ORDER BY last_at DESC, actor
"""


def activity(conn: Connection, *, before_id: int | None, actor: str | None, since: str | None,
             until: str | None, limit: int) -> list[dict[str, Any]]:
    """change_log rows newest first, older than ``before_id``, by ``actor``, with
    ``since <= at < until`` (ISO-8601 UTC text); each filter optional."""
    rows = conn.execute(ACTIVITY, {"before_id": before_id, "actor": actor, "since": since,
                                   "until": until, "limit": limit}).fetchall()
    return [
        {"id": i, "at": at, "actor": who, "op": op, "entity": ent,
         "before": json.loads(b) if b else None, "after": json.loads(a) if a else None}
        for i, at, who, op, ent, b, a in rows
    ]


def actors(conn: Connection) -> list[dict[str, Any]]:
    """Everyone who has written: actor, number of changes, time of the latest, latest first."""
    return [{"actor": who, "changes": n, "last_at": last} for who, n, last in conn.execute(ACTORS)]
