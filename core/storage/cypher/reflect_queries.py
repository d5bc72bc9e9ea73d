"""The reflect detectors' reads (``core.reflect.reading.Detection``) in Cypher: the same rows as
the SQLite ones (``core.storage.sqlite.reflect_queries``), each a match or two, with what SQLite
does in TEMP tables (one relation kept per pair, the courses cut per concept) done on the matched
rows. The detectors themselves are ``core.reflect.patterns`` and ``core.reflect.detectors``.
Labels and relation types are passed as lists of their spellings in this graph.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from core.reflect.lifecycle import InsightRecord
from core.reflect.model import ReflectRules, StoredInsight, detector_vocabulary

T = TypeVar("T")
Tup = tuple[Any, ...]
TOKEN_KEY = "reflect_fingerprint"
INSIGHT = ("e.id, e.name, e.props, e.created_at, e.ins_pattern, e.ins_confidence, e.ins_base, e.ins_status, "
           "e.ins_stale, e.ins_evidence, e.ins_confirmed_at, e.ins_decided_at, e.ins_decided_by")
LIVE = "{v}.archived_at IS NULL AND NOT {v}.type IN $Insight"
CURRENT = "r.ended_at IS NULL"


def _live(v: str) -> str:
    return LIVE.format(v=v)


def graph_fingerprint(db: Any) -> str:
    """What the structural patterns depend on: the change, entity and relation counters, and counts."""
    counters = dict(db.read("MATCH (c:Counter) RETURN c.name, c.value"))
    entities = db.read("MATCH (e:Entity) RETURN count(e)")[0][0]
    relations = db.read("MATCH ()-[r:REL]->() RETURN count(r)")[0][0]
    return ":".join(str(v) for v in (counters.get("change", 0), entities, counters.get("entity", 0), relations,
                                     counters.get("relation", 0)))


def insight_records(db: Any, where: str = "true", params: dict[str, Any] | None = None) -> list[InsightRecord]:
    out = []
    for eid, name, props, created, pattern, conf, base, status, stale, evidence, confirmed, decided, by in db.read(
            f"MATCH (e:Entity) WHERE e.ins_status IS NOT NULL AND {where} RETURN {INSIGHT}", params or {}):
        summary = json.loads(props or "{}").get("summary")
        out.append(InsightRecord(eid, name, pattern, status, bool(stale), conf, base, evidence,
                                 summary if isinstance(summary, str) else "", created, confirmed, decided, by))
    return out


def stored_insights(db: Any) -> dict[str, StoredInsight]:
    """Every insight, by title."""
    return {name: StoredInsight.read(eid, name, pattern, status, stale, base, evidence,
                                     json.loads(props or "{}").get("summary"))
            for eid, name, pattern, status, stale, base, evidence, props in db.read(
                "MATCH (e:Entity) WHERE e.ins_status IS NOT NULL RETURN e.id, e.name, e.ins_pattern, e.ins_status, "
                "e.ins_stale, e.ins_base, e.ins_evidence, e.props")}


def blocked_titles(db: Any, titles: Sequence[str]) -> set[str]:
    """Titles reflect may not create: the name is taken, or an insight of that title was dismissed."""
    taken = {r[0] for r in db.read("UNWIND $t AS t MATCH (e:Entity {name: t}) RETURN t", {"t": list(titles)})}
    dismissed = {r[0] for r in db.read(
        "UNWIND $t AS t MATCH (c:Change {entity: t}) WHERE c.op = 'decide_insight' RETURN t, c.after",
        {"t": list(titles)}) if json.loads(r[1] or "{}").get("status") == "dismissed"}
    return taken | dismissed


class CypherDetection:
    """One reflect's reading of the graph through the dialect (see ``engine.Detection``)."""

    def __init__(self, store: Any, rules: ReflectRules, *, now: str, cutoff: str) -> None:
        self._store = store
        self._db = store.db
        self.rules = rules
        self.now = now
        self.cutoff = cutoff
        self.fingerprint = ""
        self._p: dict[str, Any] = {}
        self._cache: dict[str, Any] = {}

    def open(self) -> None:
        self.fingerprint = graph_fingerprint(self._db)
        labels, params = detector_vocabulary(
            self.rules, [r[0] for r in self._db.read("MATCH (e:Entity) RETURN DISTINCT e.type")],
            [r[0] for r in self._db.read("MATCH ()-[r:REL]->() RETURN DISTINCT r.type")])
        self._p = {**labels, **params, "cutoff": self.cutoff}

    def close(self) -> None:
        self._cache.clear()

    def _read(self, query: str, **extra: Any) -> list[list[Any]]:
        rows: list[list[Any]] = self._db.read(query, {**self._p, **extra})
        return rows

    # -- what the engine asks, and the detectors' reads --------------------------------------------

    def last_token(self) -> str:
        return self._store.get_metadata(TOKEN_KEY) or ""

    def stored(self) -> dict[str, StoredInsight]:
        return stored_insights(self._db)

    def blocked(self, titles: Sequence[str]) -> set[str]:
        return blocked_titles(self._db, titles)

    def names(self, ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        found = self._db.read("UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN e.id, e.name, e.type",
                              {"ids": [int(i) for i in dict.fromkeys(ids)]})
        return {i: (n, t) for i, n, t in found}

    # -- working sets (each read once per reflect) ----------------------------------------------

    def _once(self, name: str, build: Callable[[], T]) -> T:
        if name not in self._cache:
            self._cache[name] = build()
        value: T = self._cache[name]
        return value

    def _links(self, a: str, b: str, where: str = "") -> dict[tuple[int, int], tuple[str, int]]:
        """One current relation per (a-node, b-node) pair, either direction, outward ones first."""
        found = self._read(
            f"MATCH (x:Entity)-[r:REL]-(y:Entity) WHERE x.type IN ${a} AND x.archived_at IS NULL AND {CURRENT} "
            f"AND y.type IN ${b} AND y.archived_at IS NULL {where} "
            "RETURN x.id, y.id, r.type, CASE WHEN startNode(r) = x THEN 1 ELSE 0 END AS out ORDER BY out DESC, r.id")
        links: dict[tuple[int, int], tuple[str, int]] = {}
        for x, y, rel, out in found:
            links.setdefault((x, y), (rel, out))
        return links

    def issue_links(self, label: str) -> list[tuple[int, int]]:
        pairs = {(x, y) for x, y in self._read(
            f"MATCH (x:Entity)-[r:REL]-(y:Entity) WHERE (x.type IN $Problem OR x.type IN $Vulnerability) "
            f"AND x.archived_at IS NULL AND {CURRENT} AND y.type IN ${label} AND y.archived_at IS NULL "
            "RETURN DISTINCT x.id, y.id")}
        return sorted(pairs)

    def problems(self) -> list[tuple[Any, ...]]:
        solved = dict(self._read(
            f"MATCH (p:Entity)-[r:REL]->(d:Entity) WHERE p.type IN $Problem AND p.archived_at IS NULL "
            f"AND {CURRENT} AND r.type IN $solved_by AND d.type IN $Decision AND d.archived_at IS NULL "
            "RETURN p.id, min(d.id)"))
        return [(pid, str(status).lower(), solved.get(pid)) for pid, status in self._read(
            "MATCH (p:Entity) WHERE p.type IN $Problem AND p.archived_at IS NULL "
            "RETURN p.id, coalesce(p.p_status, '')")]

    def live_ids(self, label: str) -> list[int]:
        return [r[0] for r in self._read(f"MATCH (v:Entity) WHERE v.type IN ${label} AND v.archived_at IS NULL "
                                         "RETURN v.id")]

    def courses(self, most: int) -> list[tuple[Any, ...]]:
        out: dict[int, list[int]] = {}
        for cid, kid, _name in self._read(
            f"MATCH (k:Entity)-[r:REL]->(c:Entity) WHERE k.type IN $Course AND k.archived_at IS NULL "
            f"AND r.type IN $covers AND {CURRENT} AND c.type IN $Concept AND c.archived_at IS NULL "
            "RETURN DISTINCT c.id, k.id, k.name ORDER BY k.name"
        ):
            if len(out.setdefault(cid, [])) < most:
                out[cid].append(kid)
        return [(cid, kid) for cid, kids in out.items() for kid in kids]

    def in_domain(self) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._in_domain()]

    def _in_domain(self) -> set[tuple[int, int]]:
        return self._once("in_domain", lambda: {(n, d) for n, d in self._read(
            f"MATCH (n:Entity)-[r:REL]->(d:Entity) WHERE r.type IN $in_domain AND {CURRENT} AND d.type IN $Domain "
            f"AND d.archived_at IS NULL AND {_live('n')} RETURN DISTINCT n.id, d.id")})

    def technique_concepts(self) -> list[tuple[Any, ...]]:
        return [(t, c, rel, out) for (t, c), (rel, out) in self._technique_sets()[0].items()]

    def concept_domains(self) -> list[tuple[Any, ...]]:
        return [(c, d, *hit) for (c, d), hit in self._technique_sets()[1].items()]

    def _technique_sets(self) -> tuple[dict[tuple[int, int], tuple[str, int]], dict[tuple[int, int], Tup]]:
        def build() -> tuple[dict[tuple[int, int], tuple[str, int]], dict[tuple[int, int], Tup]]:
            placed = {n for n, _ in self._in_domain()}
            tconcept = {k: v for k, v in self._links("Technique", "Concept").items() if k[0] in placed}
            concepts = sorted({c for _, c in tconcept})
            domains: dict[int, list[int]] = {}
            for n, d in sorted(self._in_domain()):
                domains.setdefault(n, []).append(d)
            cdomain: dict[tuple[int, int], Tup] = {}
            for cid, eid, rel, out in self._read(
                f"UNWIND $ids AS cid MATCH (c:Entity {{id: cid}})-[r:REL]-(e:Entity) WHERE {CURRENT} "
                "RETURN cid, e.id, r.type, CASE WHEN startNode(r) = c THEN 1 ELSE 0 END AS out ORDER BY out, r.id",
                ids=concepts,
            ):
                for did in domains.get(eid, []):
                    cdomain.setdefault((cid, did), (eid, rel, out))
            return tconcept, cdomain
        return self._once("technique", build)

    def statuses(self, label: str) -> list[tuple[Any, ...]]:
        return [(i, str(status).lower()) for i, status in self._read(
            f"MATCH (e:Entity) WHERE e.type IN ${label} AND e.archived_at IS NULL "
            "RETURN e.id, coalesce(e.p_status, '')")]

    def linked_ids(self, ids: Sequence[int]) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._read(
            f"MATCH (a:Entity)-[r:REL]-(n:Entity) WHERE a.id IN $ids AND {CURRENT} RETURN a.id, n.id", ids=list(ids))]

    def node_facts(self, ids: Sequence[int]) -> list[tuple[Any, ...]]:
        rows = self._read(f"MATCH (n:Entity) WHERE n.id IN $ids AND {_live('n')} "
                          "RETURN n.id, n.type, n.updated_at, n.p_confidence", ids=list(ids))
        return [(*r[:3], _number(r[3])) for r in rows]

    def links_between(self, pairs: Sequence[tuple[int, int]]) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in self._read(
            f"UNWIND $pairs AS p MATCH (a:Entity {{id: p[0]}})-[r:REL]-(b:Entity {{id: p[1]}}) WHERE {CURRENT} "
            "RETURN p[0], p[1], r.type, CASE WHEN startNode(r) = a THEN 1 ELSE 0 END",
            pairs=[list(p) for p in pairs])]

    def technology_users(self) -> list[tuple[Any, ...]]:
        rows = self._read(
            f"MATCH (n:Entity)-[r:REL]->(t:Entity) WHERE t.type IN $Technology AND t.archived_at IS NULL "
            f"AND {CURRENT} AND r.type IN $uses AND {_live('n')} AND n.id <> t.id "
            "RETURN t.id, count(DISTINCT n.id), count(DISTINCT n.type)")
        return [tuple(r) for r in rows]

    def concept_links(self) -> list[tuple[Any, ...]]:
        rows = self._read(
            f"MATCH (c:Entity)-[r:REL]-(n:Entity) WHERE c.type IN $Concept AND c.archived_at IS NULL AND {CURRENT} "
            f"AND {_live('n')} AND n.id <> c.id RETURN c.id, count(DISTINCT n.id)")
        return [tuple(r) for r in rows]

    _DEGREE = ("OPTIONAL MATCH (e)-[r:REL]-(o:Entity) WHERE r.ended_at IS NULL AND o.archived_at IS NULL "
               "AND NOT o.type IN $Insight AND NOT coalesce(o.p_stub, false) WITH e, count(r) AS d ")

    def real_degrees(self, ids: Sequence[int]) -> dict[int, int]:
        return dict(self._read(f"MATCH (e:Entity) WHERE e.id IN $ids {self._DEGREE}RETURN e.id, d", ids=list(ids)))

    def under_connected(self, below: int) -> list[tuple[Any, ...]]:
        rows = self._read(
            "MATCH (e:Entity) WHERE e.archived_at IS NULL AND NOT e.type IN $Domain AND NOT e.type IN $Insight "
            f"{self._DEGREE}WHERE d < $below RETURN e.id, e.name, e.type, e.created_at, d", below=below)
        return [tuple(r) for r in rows]


    def _members(self, ids: list[int], where: str, most: int) -> dict[int, list[list[Any]]]:
        """Each hub's first 2·cap linked live entities ``[id, name, label, rel, outward]`` (inward
        first, then by relation id), cut per hub on the server. One MATCH over the hubs, not an
        UNWIND of lookups: FalkorDB ran the UNWIND form hub by hub (3k entities: 12 s of a 20 s
        reflect; this form 0.4 s)."""
        found = self._read(
            f"MATCH (h:Entity)-[r:REL]-(n:Entity) WHERE h.id IN $ids AND {CURRENT} AND {_live('n')} "
            f"AND n.id <> h.id {where} "
            "WITH h.id AS hid, n, r, CASE WHEN startNode(r) = h THEN 1 ELSE 0 END AS out ORDER BY hid, out, r.id "
            "WITH hid, collect([n.id, n.name, n.type, r.type, out, r.id])[0..$most] AS kept "
            "UNWIND kept AS k RETURN hid, k[0], k[1], k[2], k[3], k[4], k[5]",
            ids=ids, most=most)
        out: dict[int, list[list[Any]]] = {}
        for hub, mid, name, label, rel, outward, _rid in sorted(found, key=lambda r: (r[0], r[5], r[6])):
            out.setdefault(hub, []).append([mid, name, label, rel, outward])
        return out

    def technology_members(self, ids: Sequence[int], most: int) -> dict[int, list[list[Any]]]:
        return self._members(list(ids), "AND r.type IN $uses AND startNode(r) = n", most)

    def concept_members(self, ids: Sequence[int], most: int) -> dict[int, list[list[Any]]]:
        return self._members(list(ids), "", most)


def _number(value: Any) -> float | None:
    """A numeric property as the detectors compare it (a boolean is not a number)."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
