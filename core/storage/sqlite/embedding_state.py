"""SQL for the embedding lifecycle and limbic signals: which entities need (re-)embedding, what
text each is embedded from, storing vectors only if that text is still current, and the access /
co-occurrence counts that limbic scoring reads and writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from core.embeddings.text import HEAD_FACTS, entity_text, text_hash
from core.hygiene.store import current_relation
from core.storage.sqlite.connection import Connection, atomic
from core.storage.sqlite.reads import IDS, id_chunks
from core.storage.sqlite.vector_cache import bump_version

if TYPE_CHECKING:  # numpy loads with the first vector, not with the server
    import numpy as np

DEFAULT_DIMENSIONS = 384


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


def texts_for(conn: Connection, ids: Sequence[int]) -> dict[int, str]:
    """The embedding text of each entity in ``ids``: its name, type, summary, first ``HEAD_FACTS``
    observations (what it is) and relations, from its current rows. Every observation also has a
    vector of its own (``fact_vectors``): later facts need not change the entity's."""
    rows: dict[int, dict[str, Any]] = {}
    for chunk in id_chunks(list(ids)):
        for eid, name, etype, props in conn.execute(
            f"SELECT id, name, entity_type, props FROM entities WHERE id IN ({IDS})", (chunk,)
        ):
            decoded = json.loads(props)
            summary = decoded.get("summary")
            rows[eid] = {"name": name, "type": etype, "summary": summary if isinstance(summary, str) else None,
                         "obs": [], "rels": [], "props": decoded}
        for eid, content in conn.execute(
            "SELECT entity_id, content FROM (SELECT entity_id, content, row_number() OVER "
            f"(PARTITION BY entity_id ORDER BY id) AS n FROM observations WHERE entity_id IN ({IDS})) "
            "WHERE n <= ? ORDER BY entity_id, n", (chunk, HEAD_FACTS)
        ):
            rows[eid]["obs"].append(content)
        for eid, rtype, other in conn.execute(
            f"SELECT r.from_entity, r.relation_type, t.name FROM relations r JOIN entities t "
            f"ON t.id = r.to_entity WHERE r.from_entity IN ({IDS}) AND r.ended_at IS NULL ORDER BY r.id",
            (chunk,),
        ):
            if current_relation(rows[eid]["props"], rtype, other):  # a superseded one no longer says what it is
                rows[eid]["rels"].append(("→", rtype, other))
        for eid, rtype, other in conn.execute(
            f"SELECT r.to_entity, r.relation_type, f.name FROM relations r JOIN entities f "
            f"ON f.id = r.from_entity WHERE r.to_entity IN ({IDS}) AND r.ended_at IS NULL ORDER BY r.id",
            (chunk,),
        ):
            rows[eid]["rels"].append(("←", rtype, other))
    return {eid: entity_text(r["name"], r["type"], r["obs"], r["rels"], r["summary"]) for eid, r in rows.items()}


def pending_ids(conn: Connection, model_id: str, limit: int) -> list[int]:
    """Entities with no vector from ``model_id`` for their current text, oldest first."""
    return [r[0] for r in conn.execute(
        "SELECT e.id FROM entities e LEFT JOIN embedding_state s ON s.entity_id = e.id "
        "WHERE s.entity_id IS NULL OR s.model_id != ? ORDER BY e.id LIMIT ?", (model_id, limit))]


def newest_pending_ids(conn: Connection, model_id: str, newest: int) -> list[int]:
    """Among the ``newest`` entities (highest ids), those with no vector from ``model_id`` for
    their current text: what was just written. Reads ``newest`` rows, not the table."""
    return [r[0] for r in conn.execute(
        "SELECT e.id FROM (SELECT id FROM entities ORDER BY id DESC LIMIT ?) e "
        "LEFT JOIN embedding_state s ON s.entity_id = e.id WHERE s.entity_id IS NULL OR s.model_id != ? "
        "ORDER BY e.id", (newest, model_id))]


def counts(conn: Connection, model_id: str, *, in_memory: bool = False) -> tuple[int, int]:
    """(embedded with ``model_id``, total entities); ``in_memory``: of the unarchived ones only."""
    if in_memory:
        done, total = conn.execute(
            "SELECT count(s.entity_id), count(*) FROM entities e LEFT JOIN embedding_state s "
            "ON s.entity_id = e.id AND s.model_id = ? WHERE e.archived_at IS NULL", (model_id,)).fetchone()
        return int(done), int(total)
    done = conn.execute("SELECT count(*) FROM embedding_state WHERE model_id = ?", (model_id,)).fetchone()[0]
    total = conn.execute("SELECT count(*) FROM entities").fetchone()[0]
    return done, total


def store(conn: Connection, model_id: str, embedded: dict[int, tuple[str, np.ndarray]], now: str) -> int:
    """Write vectors whose source text is still the entity's current text; returns how many.

    An entity edited while its vector was being computed keeps no state row, so it is picked up
    again; a deleted one is skipped.
    """
    with atomic(conn):
        current = texts_for(conn, list(embedded))
        fresh = {eid: (h, v) for eid, (h, v) in embedded.items()
                 if eid in current and text_hash(current[eid]) == h}
        if not fresh:
            return 0
        write_vectors(conn, list(fresh), [v for _, v in fresh.values()])
        conn.executemany(
            "INSERT INTO embedding_state(entity_id, text_hash, model_id, embedded_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(entity_id) DO UPDATE SET text_hash = excluded.text_hash, "
            "model_id = excluded.model_id, embedded_at = excluded.embedded_at",
            [(eid, h, model_id, now) for eid, (h, _) in fresh.items()],
        )
        return len(fresh)


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


LEASE_KEY = "embedding_lease"


def take_lease(conn: Connection, owner: str, now: str, until: str,
               holder_gone: Callable[[str], bool] = lambda _owner: False) -> bool:
    """Become (or stay) the one process that embeds in the background; False if another live
    process holds the lease. A lease whose time ran out, or whose holder ``holder_gone`` says
    is dead, is taken over at once.
    Several MCP servers on one file would otherwise embed everything once each."""
    with atomic(conn):
        row = conn.execute("SELECT value FROM db_metadata WHERE key = ?", (LEASE_KEY,)).fetchone()
        if row is not None:
            lease = json.loads(row[0])
            if lease["owner"] != owner and lease["until"] > now and not holder_gone(lease["owner"]):
                return False
        conn.execute("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)",
                     (LEASE_KEY, json.dumps({"owner": owner, "until": until})))
        return True


def lease(conn: Connection) -> dict[str, str] | None:
    """The background-embedding lease (``owner``, ``until``), if anyone holds one."""
    row = conn.execute("SELECT value FROM db_metadata WHERE key = ?", (LEASE_KEY,)).fetchone()
    return json.loads(row[0]) if row else None


def drop_lease(conn: Connection, owner: str) -> None:
    with atomic(conn):
        conn.execute("DELETE FROM db_metadata WHERE key = ? AND json_extract(value, '$.owner') = ?",
                     (LEASE_KEY, owner))


def vector_dimensions(conn: Connection) -> int:
    row = conn.execute("SELECT value FROM db_metadata WHERE key = 'embedding_dimensions'").fetchone()
    return int(row[0]) if row else DEFAULT_DIMENSIONS


def prepare_for_model(conn: Connection, model_id: str, dimensions: int) -> bool:
    """Make the vector table fit ``dimensions``; returns True if it had to be rebuilt.

    A different model of the same size keeps its old vectors searchable until each entity is
    re-embedded (the state rows say which are stale); a different size cannot, so the table is
    recreated empty and the re-index starts from nothing.
    """
    with atomic(conn):
        rebuilt = False
        if vector_dimensions(conn) != dimensions:
            conn.execute("DROP TABLE IF EXISTS entity_embeddings")
            conn.execute(f"CREATE VIRTUAL TABLE entity_embeddings USING vec0("
                         f"embedding float[{int(dimensions)}] distance_metric=cosine)")
            bump_version(conn)
            conn.execute("DELETE FROM embedding_state")
            rebuilt = True
        conn.executemany("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)",
                         [("embedding_dimensions", str(dimensions)), ("embedding_model", model_id)])
        return rebuilt


def distances(conn: Connection, query: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
    """Cosine distance from ``query`` to each stored vector in ``ids`` (ids without one are absent).

    One lookup per id: vec0 answers ``rowid = ?`` directly but ``rowid IN (…)`` with a full scan.
    """
    blob = _as_f32(query).tobytes()
    out: dict[int, float] = {}
    for eid in ids:
        row = conn.execute("SELECT vec_distance_cosine(embedding, ?) FROM entity_embeddings WHERE rowid = ?",
                           (blob, int(eid))).fetchone()
        if row is not None:
            out[int(eid)] = float(row[0])
    return out


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
