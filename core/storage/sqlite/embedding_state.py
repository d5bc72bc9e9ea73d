"""SQL a write runs for entities' vectors in its own transaction (an entity's vector due again, vec0's
rows replaced or deleted), and the access / co-occurrence counts that limbic scoring reads and
writes. The embedding lifecycle itself is ``vectors.SqliteVecStore``'s."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from core.embeddings.text import HEAD_FACTS
from core.storage.sqlite.connection import Connection, atomic
from core.storage.sqlite.reads import IDS, id_chunks
from core.storage.sqlite.vector_cache import bump_version

if TYPE_CHECKING:  # numpy loads with the first vector, not with the server
    import numpy as np


def invalidate(conn: Connection, ids: Sequence[int]) -> None:
    """Mark entities as due for re-embedding (their text changed). Runs in the writer's transaction."""
    for chunk in id_chunks(list(ids)):
        conn.execute(f"DELETE FROM embedding_state WHERE entity_id IN ({IDS})", (chunk,))


def invalidate_heads(conn: Connection, ids: Sequence[int], added: dict[int, int]) -> None:
    """Entities that gained ``added[id]`` facts: due again only if the new facts are among their
    first ``HEAD_FACTS`` (so a write to a long entity costs the same as to a short one)."""
    due = [eid for eid in ids if conn.execute(
        "SELECT count(*) FROM (SELECT 1 FROM observations WHERE entity_id = ? LIMIT ?)",
        (eid, HEAD_FACTS + 1 + added.get(eid, 0))).fetchone()[0] - added.get(eid, 0) < HEAD_FACTS]
    invalidate(conn, due)


def delete_vectors(conn: Connection, ids: Sequence[int]) -> None:
    """vec0 takes no part in ON DELETE CASCADE: vectors are removed by hand, first.

    One statement per id: vec0 answers ``rowid = ?`` by lookup but ``rowid IN (…)`` by a scan.
    """
    before = conn.total_changes
    conn.executemany("DELETE FROM entity_embeddings WHERE rowid = ?", [(int(i),) for i in ids])
    if conn.total_changes != before:  # only when a vector went: other processes reload theirs
        bump_version(conn)


def write_vectors(conn: Connection, ids: Sequence[int], vectors: Sequence[np.ndarray]) -> None:
    """Replace the vectors of ``ids`` (vec0 has no upsert)."""
    delete_vectors(conn, ids)
    conn.executemany("INSERT INTO entity_embeddings(rowid, embedding) VALUES (?, ?)",
                     [(int(i), _as_f32(v).tobytes()) for i, v in zip(ids, vectors, strict=True)])
    bump_version(conn)  # new vectors: other processes reload theirs


# -- limbic signals ---------------------------------------------------------------------------

def limbic_stats(conn: Connection, ids: Sequence[int]) -> dict[str, Any]:
    """Access counts, last access, degree and pairwise co-occurrence counts among ``ids``."""
    chunk = json.dumps(list(ids))
    access = {eid: (cnt, last) for eid, cnt, last in conn.execute(
        f"SELECT entity_id, access_count, last_access FROM entity_access WHERE entity_id IN ({IDS})", (chunk,))}
    degree = dict.fromkeys(ids, 0)
    for column in ("from_entity", "to_entity"):
        for eid, n in conn.execute(
            f"SELECT {column}, count(*) FROM relations WHERE {column} IN ({IDS}) AND ended_at IS NULL "
            f"GROUP BY {column}", (chunk,)
        ):
            degree[eid] += n
    cooc = {(a, b): n for a, b, n in conn.execute(
        f"SELECT entity_a_id, entity_b_id, co_count FROM co_occurrences WHERE entity_a_id IN ({IDS}) "
        f"AND entity_b_id IN ({IDS})", (chunk, chunk))}
    return {"access": access, "degree": degree, "cooc": cooc}


def record_access(conn: Connection, ids: Sequence[int], now: str) -> None:
    """Bump access counts of ``ids`` and the co-occurrence count of every pair among them."""
    with atomic(conn):
        # Only entities still there: another client may have deleted one since the search read it.
        ordered = [r[0] for r in conn.execute(
            f"SELECT id FROM entities WHERE id IN ({IDS}) ORDER BY id", (json.dumps(sorted(set(ids))),))]
        conn.executemany(
            "INSERT INTO entity_access(entity_id, access_count, last_access) VALUES (?, 1, ?) "
            "ON CONFLICT(entity_id) DO UPDATE SET access_count = access_count + 1, last_access = excluded.last_access",
            [(i, now) for i in ordered],
        )
        conn.executemany(
            "INSERT INTO co_occurrences(entity_a_id, entity_b_id, co_count, last_co) VALUES (?, ?, 1, ?) "
            "ON CONFLICT(entity_a_id, entity_b_id) DO UPDATE SET co_count = co_count + 1, last_co = excluded.last_co",
            [(a, b, now) for k, a in enumerate(ordered) for b in ordered[k + 1:]],
        )


def _as_f32(vector: Any) -> np.ndarray:
    import numpy as np

    return np.asarray(vector, dtype=np.float32)
