"""What every write does for the entities it touched, in the writer's transaction: one place, so
no write path forgets a step (an index row, a stale vector, a neighbour whose text named it).

An entity's embedding text holds its name, type, summary, first facts and its relations with the names at their
other ends (see ``core.embeddings.text``): a change to any of those makes its vector stale, and so
does a relation appearing, ending or losing its other end. Its own text holds only its first few
observations; every observation is also a fact with its own words and vector, kept in step by
triggers (schema 4): adding one to a long entity leaves the entity's vector be.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.storage.sqlite import embedding_state, indexing
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.reads import IDS, id_chunks
from core.storage.sqlite.vector_cache import VectorCache


def created(conn: Connection, ids: Sequence[int]) -> None:
    """New entities: index their words (they have no vector yet, so they are already due)."""
    indexing.reindex(conn, list(ids), fresh=True)


def changed(conn: Connection, ids: Sequence[int]) -> None:
    """Entities whose own text changed: re-index their words, mark their vectors stale."""
    indexing.reindex(conn, list(ids))
    embedding_state.invalidate(conn, list(ids))


def facts_changed(conn: Connection, ids: Sequence[int], added: dict[int, int] | None = None) -> None:
    """Entities whose observations (only) changed (the facts' own index rows follow by trigger).
    Their own vector holds their first few facts: stale after a deletion, or an addition among those few."""
    indexing.flush_facts(conn)
    if added is None:
        embedding_state.invalidate(conn, list(ids))
    else:
        embedding_state.invalidate_heads(conn, list(ids), added)


def relinked(conn: Connection, ids: Sequence[int]) -> None:
    """Entities at either end of a relation that appeared or went away: their vectors are stale."""
    embedding_state.invalidate(conn, list(dict.fromkeys(ids)))


def deleting(conn: Connection, ids: Sequence[int], cache: VectorCache) -> None:
    """Entities about to be deleted: drop their vectors and index rows, and mark the entities
    they were related to as stale (their text named them). Call before the DELETE."""
    gone = set(ids)
    neighbours: set[int] = set()
    for chunk in id_chunks(list(ids)):
        for a, b in conn.execute(
            f"SELECT from_entity, to_entity FROM relations WHERE from_entity IN ({IDS}) "
            f"OR to_entity IN ({IDS})", (chunk, chunk)
        ):
            neighbours.update((a, b))
    embedding_state.delete_vectors(conn, list(ids))  # vec0 has no cascade
    cache.forget(list(ids))
    indexing.remove(conn, list(ids))
    relinked(conn, sorted(neighbours - gone))


def deleted(conn: Connection) -> None:
    """After the DELETE: the entities' facts, queued by the cascade, leave the fact indexes."""
    indexing.flush_facts(conn)


__all__ = ["changed", "created", "deleted", "deleting", "facts_changed", "relinked"]
