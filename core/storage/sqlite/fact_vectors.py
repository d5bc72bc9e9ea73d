"""Facts' vectors made due in the writer's transaction (the store's reads and writes of them are
``vectors.SqliteVecStore``'s; ``fact_due`` is filled by triggers as observations change)."""

from __future__ import annotations

from collections.abc import Sequence

from core.storage.sqlite.connection import Connection
from core.storage.sqlite.reads import IDS, id_chunks


def due_of(conn: Connection, entity_ids: Sequence[int]) -> None:
    """Make every fact of ``entity_ids`` due (its context, the entity's name or type, changed);
    their vectors answer until replaced. Runs in the writer's transaction."""
    for chunk in id_chunks(list(entity_ids)):
        conn.execute("INSERT OR IGNORE INTO fact_due(observation_id) SELECT id FROM observations "
                     f"WHERE entity_id IN ({IDS})", (chunk,))
