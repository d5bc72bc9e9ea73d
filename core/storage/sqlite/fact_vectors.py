"""SQL for facts' vectors: which observations are due (``fact_due``, filled by triggers), their
text, storing int8 vectors only while that text is current, and the model they came from.

A vector is stored as int8: the unit vector scaled so its largest component is ±127 (384 bytes
for 384 dimensions, a quarter of float32). Cosine ranking divides by the stored vector's own norm,
so the scale needs no storing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.embeddings.context import still_current
from core.search.fact_matrix import quantize
from core.storage.sqlite.connection import Connection, atomic
from core.storage.sqlite.reads import IDS, id_chunks

if TYPE_CHECKING:  # numpy loads with the first vector, not with the server
    import numpy as np

VERSION_KEY = "fact_vectors_version"
MODEL_KEY = "fact_model"
DIMENSIONS_KEY = "fact_dimensions"


def bump_version(conn: Connection) -> None:
    conn.execute(
        "INSERT INTO db_metadata(key, value) VALUES (?, '1') "
        "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1", (VERSION_KEY,))


def version(conn: Connection) -> str | None:
    row = conn.execute("SELECT value FROM db_metadata WHERE key = ?", (VERSION_KEY,)).fetchone()
    return row[0] if row else None


def prepare_for_model(conn: Connection, model_id: str, dimensions: int) -> bool:
    """Make fact vectors fit the model: another model makes every fact due (old vectors stay
    searchable meanwhile if they have the same size; another size drops them). True if dropped."""
    with atomic(conn):
        meta = dict(conn.execute("SELECT key, value FROM db_metadata WHERE key IN (?, ?)",
                                 (MODEL_KEY, DIMENSIONS_KEY)).fetchall())
        dropped = False
        if meta.get(DIMENSIONS_KEY) not in (None, str(dimensions)):
            conn.execute("DELETE FROM fact_vectors")
            dropped = True
        if meta.get(MODEL_KEY) != model_id:
            conn.execute("INSERT OR IGNORE INTO fact_due(observation_id) SELECT o.id FROM observations o "
                         "LEFT JOIN fact_vectors v ON v.observation_id = o.id "
                         "WHERE v.observation_id IS NULL OR v.model_id != ?", (model_id,))
        if dropped or meta.get(MODEL_KEY) != model_id or meta.get(DIMENSIONS_KEY) != str(dimensions):
            conn.executemany("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)",
                             [(MODEL_KEY, model_id), (DIMENSIONS_KEY, str(dimensions))])
            bump_version(conn)  # other processes look again (nothing to do on an ordinary start)
        return dropped


def pending(conn: Connection, limit: int) -> dict[int, str]:
    """Up to ``limit`` due facts (observation id → text), oldest first."""
    return dict(conn.execute(
        "SELECT d.observation_id, o.content FROM fact_due d JOIN observations o ON o.id = d.observation_id "
        "ORDER BY d.observation_id LIMIT ?", (limit,)).fetchall())


def newest_pending(conn: Connection, newest: int) -> list[int]:
    """The due facts among the ``newest`` observations (what was just written)."""
    return [r[0] for r in conn.execute(
        "SELECT observation_id FROM fact_due WHERE observation_id > "
        "(SELECT coalesce(max(id), 0) FROM observations) - ? ORDER BY observation_id", (newest,))]


def texts(conn: Connection, ids: Sequence[int]) -> dict[int, str]:
    out: dict[int, str] = {}
    for chunk in id_chunks(list(ids)):
        out.update(conn.execute(f"SELECT id, content FROM observations WHERE id IN ({IDS})", (chunk,)).fetchall())
    return out


def in_context(conn: Connection, ids: Sequence[int]) -> dict[int, tuple[str, str | None, str | None]]:
    """observation id → (its text, its entity's name, its entity's type), for the ids that exist."""
    out: dict[int, tuple[str, str | None, str | None]] = {}
    for chunk in id_chunks(list(ids)):
        for oid, content, name, etype in conn.execute(
                "SELECT o.id, o.content, e.name, e.entity_type FROM observations o "
                f"LEFT JOIN entities e ON e.id = o.entity_id WHERE o.id IN ({IDS})", (chunk,)):
            out[oid] = (content, name, etype)
    return out


def store(conn: Connection, model_id: str, embedded: dict[int, tuple[str, np.ndarray]], now: str) -> int:
    """Write the vectors of facts whose text in context (``core.embeddings.context``) is still the
    one embedded; returns how many. A fact renamed or edited meanwhile stays due."""
    import numpy as np

    with atomic(conn):
        current = in_context(conn, list(embedded))
        fresh = [(i, h, v) for i, (h, v) in embedded.items() if i in current and still_current(h, *current[i])]
        if not fresh:
            return 0
        packed = quantize(np.stack([v for _, _, v in fresh]))
        conn.executemany(
            "INSERT OR REPLACE INTO fact_vectors(observation_id, model_id, text_hash, embedded_at, vector) "
            "VALUES (?, ?, ?, ?, ?)",
            [(i, model_id, h, now, packed[k].tobytes()) for k, (i, h, _) in enumerate(fresh)])
        conn.execute(f"DELETE FROM fact_due WHERE observation_id IN ({IDS})", (json.dumps([i for i, _, _ in fresh]),))
        bump_version(conn)
        return len(fresh)


def counts(conn: Connection) -> tuple[int, int]:
    """(facts with a current vector, all facts)."""
    total = conn.execute("SELECT count(*) FROM observations").fetchone()[0]
    due = conn.execute("SELECT count(*) FROM fact_due").fetchone()[0]
    return total - due, total


def forget(conn: Connection) -> None:
    """Every fact becomes due (vectors stay searchable until replaced)."""
    conn.execute("INSERT OR IGNORE INTO fact_due(observation_id) SELECT id FROM observations")


def due_of(conn: Connection, entity_ids: Sequence[int]) -> None:
    """Make every fact of ``entity_ids`` due (its context, the entity's name or type, changed);
    their vectors answer until replaced. Runs in the writer's transaction."""
    for chunk in id_chunks(list(entity_ids)):
        conn.execute("INSERT OR IGNORE INTO fact_due(observation_id) SELECT id FROM observations "
                     f"WHERE entity_id IN ({IDS})", (chunk,))


def owners(conn: Connection, ids: Sequence[int]) -> dict[int, tuple[int, str]]:
    """observation id → (entity id, text), for the ids that still exist."""
    out: dict[int, tuple[int, str]] = {}
    for chunk in id_chunks(list(ids)):
        for oid, eid, content in conn.execute(
                f"SELECT id, entity_id, content FROM observations WHERE id IN ({IDS})", (chunk,)):
            out[oid] = (eid, content)
    return out
