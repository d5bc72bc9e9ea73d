"""Read queries shared by the store's methods: entities by id, their observations and relations."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from core.model import Entity, EntitySummary, Node, Relation
from core.storage.sqlite.connection import Connection

IDS = "SELECT value FROM json_each(?)"
_CHUNK = 20_000


def id_chunks(ids: Sequence[int]) -> Iterable[str]:
    """``ids`` as JSON arrays small enough for one statement each."""
    for start in range(0, len(ids), _CHUNK):
        yield json.dumps(list(ids[start : start + _CHUNK]))


def ids_by_name(conn: Connection, names: Sequence[str]) -> dict[str, int]:
    """Map each existing name in ``names`` to its entity id (exact, case-sensitive match)."""
    found: dict[str, int] = {}
    unique = list(dict.fromkeys(names))
    for start in range(0, len(unique), _CHUNK):
        chunk = json.dumps(unique[start : start + _CHUNK])
        found.update(
            conn.execute(
                "SELECT name, id FROM entities WHERE name IN (SELECT value FROM json_each(?))",
                (chunk,),
            ).fetchall()
        )
    return found


def observations_of(conn: Connection, ids: Sequence[int]) -> dict[int, list[str]]:
    """Observations per entity id, oldest first."""
    out: dict[int, list[str]] = {i: [] for i in ids}
    for chunk in id_chunks(ids):
        for entity_id, content in conn.execute(
            f"SELECT entity_id, content FROM observations WHERE entity_id IN ({IDS}) ORDER BY id",
            (chunk,),
        ):
            out[entity_id].append(content)
    return out


def nodes(conn: Connection, ids: Sequence[int], *, with_observations: bool = True) -> list[Node]:
    """Full nodes for ``ids``, in the order given (unknown ids are skipped)."""
    rows: dict[int, tuple] = {}
    for chunk in id_chunks(ids):
        for row in conn.execute(
            "SELECT id, name, entity_type, props, created_at, updated_at, archived_at "
            f"FROM entities WHERE id IN ({IDS})",
            (chunk,),
        ):
            rows[row[0]] = row
    obs = observations_of(conn, list(rows)) if with_observations else {}
    return [
        Node(
            id=r[0], name=r[1], label=r[2], props=json.loads(r[3]), observations=obs.get(r[0], []),
            created_at=r[4], updated_at=r[5], archived_at=r[6],
        )
        for i in ids
        if (r := rows.get(i)) is not None
    ]


def entities(conn: Connection, ids: Sequence[int]) -> list[Entity]:
    """Official-shape entities for ``ids``, in the order given."""
    return [Entity(name=n.name, entityType=n.label, observations=n.observations) for n in nodes(conn, ids)]


def summaries(conn: Connection, ids: Sequence[int]) -> list[EntitySummary]:
    return [EntitySummary(name=n.name, entityType=n.label) for n in nodes(conn, ids, with_observations=False)]


_REL_SELECT = """
SELECT r.id, f.name, t.name, r.relation_type
  FROM relations r JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity
"""


def relations_touching(conn: Connection, ids: Sequence[int]) -> list[Relation]:
    """Current relations with either end in ``ids``, oldest first, each once."""
    found: dict[int, Relation] = {}
    for chunk in id_chunks(ids):
        for column in ("from_entity", "to_entity"):
            for rid, src, dst, rtype in conn.execute(
                f"{_REL_SELECT} WHERE r.{column} IN ({IDS}) AND r.ended_at IS NULL", (chunk,)
            ):
                found[rid] = Relation(**{"from": src, "to": dst, "relationType": rtype})
    return [found[k] for k in sorted(found)]


def relations_from(conn: Connection, ids: Sequence[int]) -> list[Relation]:
    """Current relations from ``ids`` to entities not archived (each lands on exactly one page)."""
    out: list[tuple[int, Relation]] = []
    for chunk in id_chunks(ids):
        for rid, src, dst, rtype in conn.execute(
            f"{_REL_SELECT} WHERE r.from_entity IN ({IDS}) AND r.ended_at IS NULL AND t.archived_at IS NULL",
            (chunk,)
        ):
            out.append((rid, Relation(**{"from": src, "to": dst, "relationType": rtype})))
    return [r for _, r in sorted(out, key=lambda p: p[0])]
