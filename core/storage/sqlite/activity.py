"""What was written, for people to read: change_log newest first, by writer and by time span.

The desktop app's activity pane pages through these; the change feed (``history.changes_since``)
brings what is written after. Rowid order is time order, so every query walks the primary key
backwards and stops at ``limit``.
"""

from __future__ import annotations

from typing import Any

from core.model import Change
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
             until: str | None, limit: int) -> list[Change]:
    """change_log rows newest first, older than ``before_id``, by ``actor``, with
    ``since <= at < until`` (ISO-8601 UTC text); each filter optional."""
    return [Change.decode(*r) for r in conn.execute(ACTIVITY, {"before_id": before_id, "actor": actor,
                                                               "since": since, "until": until, "limit": limit})]


def actors(conn: Connection) -> list[dict[str, Any]]:
    """Everyone who has written: actor, number of changes, time of the latest, latest first."""
    return [{"actor": who, "changes": n, "last_at": last} for who, n, last in conn.execute(ACTORS)]
