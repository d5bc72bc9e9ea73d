"""``core.hygiene.store.HygieneStore`` on a Cypher server: aliases are the ``aliases`` list
property each entity node carries (``rows.stored`` writes it from props), the detector's reads,
and the Change node that groups one merge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.graph_rules import aliases_of
from core.storage.cypher import rows as R
from core.storage.cypher.seams import Graph, WriteTx

_LIVE = "e.archived_at IS NULL AND e.type <> 'Insight'"
_TOKENS_PAGE = 5_000  # names' words stored per write (a page: an interrupted backfill resumes)
FOLD_PAGE = 1000  # entities a write of ``fold_aliases`` does


def fold_aliases(store: Graph) -> int:
    """Give every entity with aliases but no ``folded_aliases`` (written before they were kept)
    its folded aliases, a page per write; resumable (what is done is no longer found). Returns
    how many entities it did; on a graph without such entities, one indexed read."""
    done = 0
    while True:
        def page(tx: WriteTx) -> int:
            found = tx.read("MATCH (e:Entity) WHERE e.has_aliases = true AND e.folded_aliases IS NULL "
                            "RETURN e.id, e.props LIMIT $n", {"n": FOLD_PAGE})
            rows = [{"id": int(i), "f": R.folded_aliases(aliases_of(R.loads(p)))} for i, p in found]
            if rows:
                tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e.folded_aliases = r.f", {"rows": rows})
            return len(rows)

        n = store.write(page)
        if not n:
            return done
        done += n


# "1" once every entity with aliases has them in its own words and its embedding text (written
# before they were: its ``ft_own`` rewritten, its vector due again).
ALIAS_WORDS_KEY = "alias_words"


def alias_words(store: Graph) -> int:
    """Give every entity merged into before its aliases were part of its own words (``rows.own_text``)
    and of its embedding text (``core.embeddings.text``) those words, and make its vector due; a
    page per write, resumable by the ``id`` cursor, then marked done. Returns how many it did; on an
    upgraded graph, one read."""
    done = 0
    while True:
        def page(tx: WriteTx) -> int:
            mark = tx.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": ALIAS_WORDS_KEY})
            if mark and str(mark[0][0]) == "1":
                return 0
            cursor = tx.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": ALIAS_WORDS_KEY + "_after"})
            after = int(cursor[0][0]) if cursor else -1
            found = tx.read("MATCH (e:Entity) WHERE e.has_aliases = true AND e.id > $a "
                            "RETURN e.id, e.type, e.props ORDER BY e.id LIMIT $n", {"a": after, "n": FOLD_PAGE})
            rows = [{"id": int(i), "o": R.own_text(t, R.loads(p) or {})} for i, t, p in found]
            if rows:
                tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) "
                         "SET e.ft_own = r.o, e.emb_model = null, e.emb_hash = null", {"rows": rows})
            key, value = (ALIAS_WORDS_KEY + "_after", str(rows[-1]["id"])) if rows else (ALIAS_WORDS_KEY, "1")
            tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": key, "v": value})
            return len(rows)

        n = store.write(page)
        if not n:
            return done
        done += n


class CypherHygiene:
    def __init__(self, store: Graph) -> None:
        self.store = store
        self.db = store.db

    def resolve_aliases(self, names: Sequence[str]) -> dict[str, str]:
        wanted = list(dict.fromkeys(names))
        if not wanted:
            return {}
        taken = {r[0] for r in self.db.read("UNWIND $names AS n MATCH (e:Entity {name: n}) RETURN n",
                                            {"names": wanted})}
        free = [n for n in wanted if n not in taken]
        if not free:
            return {}
        found: dict[str, str] = {}
        for alias, name in self.db.read(
                "UNWIND $names AS n MATCH (e:Entity) WHERE n IN e.aliases RETURN n, e.name ORDER BY e.id",
                {"names": free}):
            found.setdefault(alias, name)
        return found

    def alias_matches(self, folded_query: str) -> list[str]:
        return [r[0] for r in self.db.read(
            "MATCH (e:Entity) WHERE e.has_aliases = true AND e.archived_at IS NULL "
            "AND any(a IN e.folded_aliases WHERE a CONTAINS $q) RETURN e.name ORDER BY e.id", {"q": folded_query})]

    def entity_rows(self) -> list[tuple[int, str, str]]:
        found = self.db.read(f"MATCH (e:Entity) WHERE {_LIVE} RETURN e.id, e.name, e.type")
        return [(int(i), n, t) for i, n, t in found]

    def entity_name_rows(self) -> list[tuple[int, str, str, str | None]]:
        # name_tokens is written with the name (rows.stored): stale only on a node written before it was.
        found = self.db.read(f"MATCH (e:Entity) WHERE {_LIVE} RETURN e.id, e.name, e.type, e.name_tokens")
        return [(int(i), n, t, k) for i, n, t, k in found]

    def store_name_tokens(self, rows: Sequence[tuple[int, str, str]]) -> None:
        for start in range(0, len(rows), _TOKENS_PAGE):
            page = [{"id": i, "name": n, "tokens": t} for i, n, t in rows[start : start + _TOKENS_PAGE]]

            def write(tx: WriteTx, page: list[dict[str, Any]] = page) -> None:
                tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) WHERE e.name = r.name "
                         "SET e.name_tokens = r.tokens", {"rows": page})
            self.store.write(write)

    def neighbours(self, ids: Sequence[int]) -> dict[int, set[int]]:
        out: dict[int, set[int]] = {int(i): set() for i in ids}
        if not out:
            return out
        for a, b in self.db.read(
                "UNWIND $ids AS i MATCH (a:Entity {id: i})-[r:REL]-(b:Entity) WHERE r.ended_at IS NULL "
                "RETURN a.id, b.id", {"ids": list(out)}):
            out[int(a)].add(int(b))
        return out

    def repeated_fact_rows(self) -> list[tuple[int, str, list[str]]]:
        return [(int(i), n, list(obs)) for i, n, obs in self.db.read(
            f"MATCH (e:Entity) WHERE {_LIVE} AND size(e.obs) > 1 RETURN e.id, e.name, e.obs")]

    def single_valued(self, types: Sequence[str]) -> list[tuple[int, str, list[tuple[str, str, str]],
                                                                 list[tuple[str, str]]]]:
        if not types:
            return []
        # Filtered on the server: only entities that could have a finding come back (updated_at
        # moves when facts are added, so a fact newer than the relations implies a newer updated_at).
        out = []
        for eid, props, rels, since, obs, obs_at in self.db.read(
                "MATCH (e:Entity)-[r:REL]->(t:Entity) WHERE r.type IN $types AND r.ended_at IS NULL AND "
                f"{_LIVE} WITH e, collect([r.id, r.type, t.name, r.created_at]) AS rels, min(r.created_at) AS since "
                "WHERE size(rels) > 1 OR e.updated_at >= since RETURN e.id, e.props, rels, since, e.obs, e.obs_at",
                {"types": list(types)}):
            facts = [(o, t) for o, t in zip(obs or [], obs_at or [], strict=False) if t >= since]
            if len(rels) > 1 or facts:
                held = [(ty, to, c) for _, ty, to, c in sorted(rels, key=lambda r: r[0])]
                out.append((int(eid), props or "{}", held, facts))
        return out

    def relations_of(self, ids: Sequence[int]) -> list[tuple[int, str, list[tuple[str, str, str]],
                                                             list[tuple[str, str]]]]:
        wanted = sorted({int(i) for i in ids})
        if not wanted:
            return []
        rels: dict[int, list[list[Any]]] = {}
        for eid, rid, rtype, to, created in self.db.read(
                "UNWIND $ids AS i MATCH (e:Entity {id: i})-[r:REL]->(t:Entity) WHERE r.ended_at IS NULL "
                "RETURN e.id, r.id, r.type, t.name, r.created_at", {"ids": wanted}):
            rels.setdefault(int(eid), []).append([rid, rtype, to, created])
        return [(int(eid), props or "{}", [(ty, to, c) for _, ty, to, c in sorted(rels.get(int(eid), []),
                                                                                key=lambda r: r[0])],
                 list(zip(obs or [], obs_at or [], strict=False)))
                for eid, props, obs, obs_at in self.db.read(
                    f"UNWIND $ids AS i MATCH (e:Entity {{id: i}}) WHERE {_LIVE} RETURN e.id, e.props, e.obs, e.obs_at",
                    {"ids": wanted})]
