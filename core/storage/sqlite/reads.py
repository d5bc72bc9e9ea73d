"""Read queries shared by the store's methods: entities by id, their observations and relations."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from core.model import Node, Relation
from core.processes import collector_paused
from core.storage.sqlite.connection import Connection

if TYPE_CHECKING:
    from concurrent.futures import Future

IDS = "SELECT value FROM json_each(?)"
_CHUNK = 20_000


def id_chunks(ids: Sequence[int]) -> Iterable[str]:
    """``ids`` as JSON arrays small enough for one statement each."""
    for start in range(0, len(ids), _CHUNK):
        yield json.dumps(list(ids[start : start + _CHUNK]))


def inserted(cursor: Any) -> int:
    """The id the INSERT that ran on ``cursor`` gave its row."""
    eid = cursor.lastrowid
    assert eid is not None  # an INSERT that ran
    return int(eid)


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
    rows: dict[int, tuple[Any, ...]] = {}
    for chunk in id_chunks(ids):
        for row in conn.execute(
            "SELECT id, name, entity_type, props, created_at, updated_at, archived_at "
            f"FROM entities WHERE id IN ({IDS})",
            (chunk,),
        ):
            rows[row[0]] = row
    obs = observations_of(conn, list(rows)) if with_observations else {}
    # Rows come from our own schema: construct without re-validating (10k entities: ~100 ms less).
    return [
        Node.model_construct(
            id=r[0], name=r[1], label=r[2], props=json.loads(r[3]), observations=obs.get(r[0], []),
            created_at=r[4], updated_at=r[5], archived_at=r[6],
        )
        for i in ids
        if (r := rows.get(i)) is not None
    ]


def entity_dicts(conn: Connection, ids: Sequence[int], *, names_only: bool = False) -> list[dict[str, Any]]:
    """Official-shape entities for ``ids`` as plain dicts, in the order given (``names_only``: no observations)."""
    rows: dict[int, dict[str, Any]] = {}
    for chunk in id_chunks(ids):
        for eid, name, etype in conn.execute(f"SELECT id, name, entity_type FROM entities WHERE id IN ({IDS})",
                                             (chunk,)):
            rows[eid] = {"name": name, "entityType": etype}
    if not names_only:
        for eid, obs in observations_of(conn, list(rows)).items():
            rows[eid]["observations"] = obs
    return [r for i in ids if (r := rows.get(i)) is not None]


def relation(src: str, dst: str, rtype: str) -> Relation:
    return Relation.model_construct(from_=src, to=dst, relationType=rtype)


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
                found[rid] = relation(src, dst, rtype)
    return [found[k] for k in sorted(found)]


def relations_from(conn: Connection, ids: Sequence[int]) -> list[dict[str, str]]:
    """Current relations from ``ids`` to entities not archived (each lands on exactly one page), as dicts."""
    out: list[tuple[int, dict[str, str]]] = []
    for chunk in id_chunks(ids):
        for rid, src, dst, rtype in conn.execute(
            f"{_REL_SELECT} WHERE r.from_entity IN ({IDS}) AND r.ended_at IS NULL AND t.archived_at IS NULL",
            (chunk,)
        ):
            out.append((rid, {"from": src, "to": dst, "relationType": rtype}))
    return [r for _, r in sorted(out, key=lambda p: p[0])]


# The official JSON shape, written by SQLite itself: a broad search answers thousands of entities
# and relations, and every row handed to Python costs ~0.5 µs before a dict is made of it. One JSON
# text per list, parsed by ``json.loads`` in C, took the core's broad search_nodes at 10k (1,930
# entities, 7,009 relations) from 29.3–30.8 to 25.7–27.0 ms. ``hits`` holds the entity ids in answer order,
# and CROSS JOIN keeps that order (it makes ``hits`` SQLite's outer loop).
_HITS = "WITH hits(id) AS MATERIALIZED (SELECT value FROM json_each(:ids) ORDER BY key) "
_ENTITIES = """
(SELECT json_group_array(json_object('name', e.name, 'entityType', e.entity_type, 'observations',
          (SELECT json_group_array(o.content ORDER BY o.id) FROM observations o WHERE o.entity_id = e.id)))
   FROM hits h CROSS JOIN entities e ON e.id = h.id)"""
_RELATIONS = """
(SELECT json_group_array(json_object('from', f.name, 'to', t.name, 'relationType', r.relation_type))
   FROM (SELECT id FROM relations WHERE from_entity IN hits
         UNION SELECT id FROM relations WHERE to_entity IN hits ORDER BY 1) k
   CROSS JOIN relations r ON r.id = k.id
   JOIN entities f ON f.id = r.from_entity JOIN entities t ON t.id = r.to_entity
  WHERE r.ended_at IS NULL)"""
_ANSWER = f"{_HITS}SELECT {_ENTITIES}, {_RELATIONS}"
# From this many entities on, the relations are read on the database's second connection while
# the entities are read and parsed on the first: SQLite's steps run without Python's lock, so the
# two overlap. At 10k: 1,930 entities in 16 ms against 24 in one statement, 150 in 1.2 against 1.7,
# 50 in 0.55 against 0.51 (below ~100, handing work to another thread costs what it saves).
SPLIT_FROM = 150
_ENTITIES_ALONE = f"{_HITS}SELECT {_ENTITIES}"
_RELATIONS_ALONE = f"{_HITS}SELECT {_RELATIONS}"

Beside = Callable[[Callable[[Connection], Any]], "Future[Any] | None"]


def answer_for_ids(
    conn: Connection, ids: Sequence[int], beside: Beside | None = None
) -> dict[str, list[dict[str, Any]]]:
    """``{"entities", "relations"}`` as the official server answers: the entities ``ids`` in that
    order (unknown ids skipped), and every current relation with either end among them, oldest
    first, each once. ``beside`` (``Database.beside``) reads the relations of a large answer on a
    second connection at the same time; never inside a transaction, whose writes only ``conn`` sees."""
    args = {"ids": json.dumps(list(ids))}
    pending = None
    if beside is not None and len(ids) >= SPLIT_FROM and not conn.in_transaction:
        pending = beside(lambda other: other.execute(_RELATIONS_ALONE, args).fetchone()[0])
    with collector_paused():
        if pending is None:
            entities, relations = conn.execute(_ANSWER, args).fetchone()
            return {"entities": json.loads(entities), "relations": json.loads(relations)}
        found = json.loads(conn.execute(_ENTITIES_ALONE, args).fetchone()[0])
        return {"entities": found, "relations": json.loads(pending.result())}


# The same answer for entities named in a JSON array (each once, in the order first named; unknown
# names skipped), in one statement: after an assistant's pause between two calls, each statement
# SQLite runs costs several times its warm time, and open_nodes of 5 names took 0.42–0.45 ms in one
# statement against 0.71–0.96 as a lookup of the ids then the answer (0.07 against 0.10 warm).
_HITS_BY_NAME = """WITH hits(id) AS MATERIALIZED (
    SELECT e.id FROM json_each(:names) n JOIN entities e ON e.name = n.value GROUP BY e.id ORDER BY min(n.key)) """
_ANSWER_BY_NAME = f"{_HITS_BY_NAME}SELECT {_ENTITIES}, {_RELATIONS}"


def answer_for_names(
    conn: Connection, names: Sequence[str], beside: Beside | None = None
) -> dict[str, list[dict[str, Any]]]:
    """``answer_for_ids`` for the entities called ``names`` (exact names; each once, in the order
    first named; unknown names skipped)."""
    if beside is not None and len(names) >= SPLIT_FROM and not conn.in_transaction:
        found = ids_by_name(conn, names)
        return answer_for_ids(conn, [found[n] for n in dict.fromkeys(names) if n in found], beside)
    with collector_paused():
        entities, relations = conn.execute(_ANSWER_BY_NAME, {"names": json.dumps(list(names))}).fetchone()
        return {"entities": json.loads(entities), "relations": json.loads(relations)}


def whole_graph(conn: Connection) -> dict[str, list[dict[str, Any]]]:
    """Every live entity and current relation between live entities, as the official JSON shape,
    in three table scans: for a whole graph, plain dicts and full scans are several times faster
    than per-id lookups and models (10k entities: ~40 ms instead of ~300 ms)."""
    rows: dict[int, dict[str, Any]] = {
        eid: {"name": name, "entityType": etype, "observations": []}
        for eid, name, etype in conn.execute(
            "SELECT id, name, entity_type FROM entities WHERE archived_at IS NULL ORDER BY id")
    }
    for eid, content in conn.execute("SELECT entity_id, content FROM observations ORDER BY id"):
        row = rows.get(eid)
        if row is not None:
            row["observations"].append(content)
    relations = [{"from": src, "to": dst, "relationType": rtype} for src, dst, rtype in conn.execute(
        "SELECT f.name, t.name, r.relation_type FROM relations r JOIN entities f ON f.id = r.from_entity "
        "JOIN entities t ON t.id = r.to_entity WHERE r.ended_at IS NULL AND f.archived_at IS NULL "
        "AND t.archived_at IS NULL ORDER BY r.id")]
    return {"entities": list(rows.values()), "relations": relations}


class Totals:
    """(live entities, current relations between them), cached until any connection writes.

    Counting 200k relations costs milliseconds; paging through a graph asks on every page.
    """

    def __init__(self) -> None:
        self._cache: tuple[tuple[int, int], tuple[int, int]] | None = None

    def __call__(self, conn: Connection) -> tuple[int, int]:
        version = (conn.execute("PRAGMA data_version").fetchone()[0], conn.total_changes)
        if self._cache is None or self._cache[0] != version:
            entities = conn.execute("SELECT count(*) FROM entities WHERE archived_at IS NULL").fetchone()[0]
            relations = conn.execute(
                "SELECT count(*) FROM relations r JOIN entities f ON f.id = r.from_entity "
                "JOIN entities t ON t.id = r.to_entity WHERE r.ended_at IS NULL "
                "AND f.archived_at IS NULL AND t.archived_at IS NULL").fetchone()[0]
            self._cache = (version, (entities, relations))
        return self._cache[1]
