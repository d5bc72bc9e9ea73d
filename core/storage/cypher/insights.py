"""Insights on a Cypher server: the reads and writes the one lifecycle (``core.reflect.lifecycle``)
needs. An insight is an ``Entity`` of type ``Insight``; its review state lives on that node in
``ins_*`` properties instead of a table of its own. A dialect write sends its changes together at
commit, so review fields are gathered and written once (``flush``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, TypeVar

from core.history.undo import InsightState
from core.reflect.lifecycle import CARRIED_OUT_KINDS, InsightFilter, InsightLifecycle, InsightRecord, LogRow, Rank
from core.reflect.model import InsightDraft, ReflectRules, StoredInsight
from core.storage.cypher import rows as R
from core.storage.cypher.reflect_queries import (
    TOKEN_KEY,
    CypherDetection,
    graph_fingerprint,
    insight_records,
    stored_insights,
)
from core.storage.cypher.seams import Graph, Reader, WriteTx

T = TypeVar("T")
# lifecycle field → node property
_REVIEW = {"status": "ins_status", "stale": "ins_stale", "evidence": "ins_evidence", "base_confidence": "ins_base",
           "confidence": "ins_confidence", "confirmed_at": "ins_confirmed_at", "decided_at": "ins_decided_at",
           "decided_by": "ins_decided_by"}


_DIALECT = ("true", "$", {"status": "e.ins_status", "title": "e.name", "confirmed_at": "e.ins_confirmed_at"},
            "e.ins_stale = 0", "e.id IN $ids")


def _where(which: InsightFilter) -> tuple[str, dict[str, Any]]:
    return which.where(_DIALECT, list)


def insight_store(graph: Graph) -> InsightLifecycle:
    """The lifecycle over one ``CypherGraphStore``."""
    return InsightLifecycle(CypherInsightRows(graph))


class CypherInsightRows:
    """``core.reflect.lifecycle.InsightRows`` over one ``CypherGraphStore``."""

    def __init__(self, graph: Graph) -> None:
        self._graph = graph
        self._db = graph.db

    def now(self) -> str:
        return str(self._graph.now())

    def stamp(self, moment: datetime) -> str:
        return R.format_ts(moment)

    @contextlib.contextmanager
    def detection(self, rules: ReflectRules) -> Iterator[CypherDetection]:
        moment = self._graph.clock()
        session = CypherDetection(self._graph, rules, now=R.format_ts(moment),
                                  cutoff=R.format_ts(moment - timedelta(days=rules.stale_after_days)))
        session.open()
        try:
            yield session
        finally:
            session.close()

    def records(self, which: InsightFilter) -> list[InsightRecord]:
        return insight_records(self._db, *_where(which))

    def ranks(self, which: InsightFilter) -> list[Rank]:
        where, params = _where(which)
        return [(i, n, bool(s), c, f, e) for i, n, s, c, f, e in self._db.read(
            f"MATCH (e:Entity) WHERE e.ins_status IS NOT NULL AND {where} RETURN e.id, e.name, e.ins_stale, "
            "e.ins_confidence, e.ins_confirmed_at, e.created_at", params)]

    def counts(self) -> dict[str, int]:
        out = {s: int(n) for s, n in self._db.read(
            "MATCH (e:Entity) WHERE e.ins_status IS NOT NULL RETURN e.ins_status, count(e)")}
        out["stale"] = int(self._db.read("MATCH (e:Entity) WHERE e.ins_stale = 1 RETURN count(e)")[0][0])
        return out

    def write(self, work: Callable[[_Writes], T]) -> T:
        def run(tx: WriteTx) -> T:
            writes = _Writes(self._graph, tx)
            result = work(writes)
            writes.flush()
            return result
        done: T = self._graph.write(run)
        return done


class _Writes:
    """``core.reflect.lifecycle.InsightWrites`` inside one Cypher commit."""

    def __init__(self, graph: Graph, tx: WriteTx) -> None:
        self.graph, self.tx = graph, tx
        self.rows: dict[int, dict[str, Any]] = {}  # entity rows changed, written on flush
        self.ins: dict[int, dict[str, Any]] = {}  # review fields changed, written on flush
        self.created: list[dict[str, Any]] = []  # new insights' rows, created on flush

    def record(self, title: str) -> InsightRecord | None:
        found = insight_records(self.tx, "e.name = $t", {"t": title})
        return found[0] if found else None

    def stored(self) -> dict[str, StoredInsight]:
        return stored_insights(self.tx)

    def taken(self, titles: Sequence[str]) -> set[str]:
        return {r[0] for r in self.tx.read("UNWIND $t AS t MATCH (e:Entity {name: t}) RETURN t", {"t": list(titles)})}

    def live_records(self) -> list[InsightRecord]:
        return insight_records(self.tx, "e.ins_status <> 'dismissed' AND e.ins_confirmed_at IS NOT NULL")

    def create(self, draft: InsightDraft, now: str) -> None:
        eid = self.tx.next_ids("entity", 1)[0]
        # Queued and created together on flush (one write for a run's hundreds of new insights).
        self.created.append({
            "id": eid, "name": draft.title, "type": "Insight",
            "props": {"summary": draft.summary, "pattern": draft.pattern, "confidence": draft.confidence},
            "obs": [draft.summary], "obs_at": [now], "created_at": now, "updated_at": now, "archived_at": now})
        self.set_review(eid, pattern=draft.pattern, confidence=draft.confidence, base_confidence=draft.confidence,
                        status="pending", evidence=draft.evidence_json(), stale=False, confirmed_at=now)

    def _row(self, eid: int) -> dict[str, Any]:
        if eid not in self.rows:
            self.rows[eid] = self.graph.rows_by_id(self.tx, [eid])[eid]
        return self.rows[eid]

    def props(self, entity_id: int) -> dict[str, Any]:
        return dict(self._row(entity_id)["props"])

    def set_text(self, entity_id: int, props: dict[str, Any], old_summary: str | None,
                 new_summary: str | None, now: str) -> list[list[str]]:
        row = self._row(entity_id)
        row["props"], row["updated_at"] = props, now
        if new_summary is None:
            return []
        pairs = list(zip(row["obs"], row["obs_at"], strict=True))
        kept = [(o, t) for o, t in pairs if o != old_summary]
        if new_summary not in [o for o, _ in kept]:
            kept.append((new_summary, now))
        row["obs"], row["obs_at"] = [o for o, _ in kept], [t for _, t in kept]
        return [[o, t] for o, t in pairs if o == old_summary]

    def set_review(self, entity_id: int, **fields: Any) -> None:
        if "stale" in fields:
            fields["stale"] = int(fields["stale"])
        self.ins.setdefault(entity_id, {"id": entity_id}).update(
            {_REVIEW.get(k, f"ins_{k}"): v for k, v in fields.items()})

    def set_archived(self, entity_id: int, archived: bool, now: str, *, touch: bool) -> None:
        value = "coalesce(e.archived_at, $now)" if archived else "null"
        touched = ", e.updated_at = $now" if touch else ""
        self.tx.write(f"MATCH (e:Entity {{id: $i}}) SET e.archived_at = {value}{touched}", {"i": entity_id, "now": now})

    def link(self, entity_id: int, targets: Sequence[int], rel_type: str, now: str) -> list[str]:
        names = dict(self.tx.read("UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN e.id, e.name",
                                  {"ids": list(targets)}))
        have = {r[0] for r in self.tx.read(
            "MATCH (a:Entity {id: $a})-[r:REL]->(b:Entity) WHERE r.type = $t RETURN b.id",
            {"a": entity_id, "t": rel_type})}
        chosen = [t for t in targets if t in names and t not in have]
        if chosen:
            self.tx.write("UNWIND $rels AS p MATCH (a:Entity {id: $a}), (b:Entity {id: p.b}) "
                          "CREATE (a)-[:REL {id: p.id, type: $t, props: '{}', created_at: $now}]->(b)",
                          {"a": entity_id, "t": rel_type, "now": now, "rels": [
                              {"b": t, "id": i} for t, i in zip(chosen, self.tx.next_ids("relation", len(chosen)),
                                                                strict=True)]})
            self.graph.mark_stale(self.tx, [entity_id, *chosen])
        return [names[t] for t in chosen]

    def confirm(self, patterns: Sequence[str], now: str) -> None:
        # Runs after ``flush`` in the same commit, so it sees the stale flags and bases set above.
        self.tx.write("MATCH (e:Entity) WHERE e.ins_status IS NOT NULL AND e.ins_status <> 'dismissed' "
                      "AND e.ins_stale = 0 AND e.ins_pattern IN $p SET e.ins_confirmed_at = $now, "
                      "e.ins_confidence = e.ins_base", {"p": list(patterns), "now": now})

    def adopt(self, title: str, review: dict[str, Any]) -> bool:
        found = self.tx.read("MATCH (e:Entity {name: $t, type: 'Insight'}) WHERE e.ins_status IS NULL "
                             "RETURN e.id", {"t": title})
        if not found or found[0][0] in self.ins:
            return False
        self.set_review(found[0][0], **review)
        return True

    def log(self, rows: Sequence[LogRow]) -> None:
        self.graph.log_changes(self.tx, [(at, actor, op, entity, R.dumps(before), R.dumps(after))
                                  for at, actor, op, entity, before, after in rows])

    def flush(self) -> None:
        self.graph.put_rows(self.tx, self.created, create=True)
        self.graph.put_rows(self.tx, list(self.rows.values()))
        if self.ins:
            self.tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e += r", {"rows": list(self.ins.values())})
        self.rows, self.ins, self.created = {}, {}, []

    def fingerprint(self) -> str:
        return graph_fingerprint(self.tx)

    def fingerprint_after(self, created: int) -> str:
        """As ``graph_fingerprint`` once this commit lands (its writes are queued, not yet visible)."""
        before = graph_fingerprint(self.tx).split(":")
        before[0] = str(self.tx.counters.get("change", int(before[0])))
        before[2] = str(self.tx.counters.get("entity", int(before[2])))
        before[1] = str(int(before[1]) + created)
        return ":".join(before)

    def set_token(self, token: str) -> None:
        self.tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": TOKEN_KEY, "v": token})


# -- an insight's review state inside an edit session (``core.history.undo.EditSession``) -------

def insight_state(tx: Reader, title: str) -> InsightState | None:
    """The review state of the insight ``title`` as stored (a write's own queued writes are not seen)."""
    found = tx.read("MATCH (e:Entity {name: $t}) WHERE e.ins_status IS NOT NULL RETURN e.ins_status, "
                    "e.archived_at IS NOT NULL, e.ins_decided_at, e.ins_decided_by, e.ins_confirmed_at, "
                    "e.ins_confidence, e.ins_stale, e.ins_base", {"t": title})
    if not found:
        return None
    status, archived, decided_at, decided_by, confirmed_at, confidence, stale, base = found[0]
    return InsightState(status, bool(archived), decided_at, decided_by, confirmed_at, float(confidence or 0.0),
                        bool(stale), float(base or 0.0))


def set_insight_state(tx: WriteTx, title: str, state: InsightState, now: str) -> None:
    """Queue ``state`` (review fields, archived or not) on the insight ``title``."""
    tx.write("MATCH (e:Entity {name: $t}) WHERE e.ins_status IS NOT NULL SET "
             "e.archived_at = CASE WHEN $archived THEN coalesce(e.archived_at, $now) ELSE null END, "
             "e.updated_at = $now, e.ins_status = $status, e.ins_decided_at = $decided_at, "
             "e.ins_decided_by = $decided_by, e.ins_confirmed_at = $confirmed_at, e.ins_confidence = $confidence",
             {"t": title, "now": now, **state.as_dict()})


# -- bringing an older graph in step ----------------------------------------------------------

RECORDS_KEY = "archived_records"  # set once the approved hygiene proposals of older writes are archived


def archive_records(store: Graph) -> int:
    """Archive, as of their decision, the approved (or synced) insights of the kinds approved
    through ``approve_in`` (``CARRIED_OUT_KINDS``) that a Hipocampo from before they stayed archived
    left un-archived: records, not knowledge (SQLite's migration 011). Once per graph (a ``Meta``
    mark), one write; returns how many it archived."""
    if store.db.read("MATCH (m:Meta {key: $k}) RETURN m.value", {"k": RECORDS_KEY}):
        return 0

    def work(tx: WriteTx) -> int:
        where = ("MATCH (e:Entity) WHERE e.ins_status IN ['approved', 'synced'] AND e.ins_pattern IN $p "
                 "AND e.archived_at IS NULL")
        params = {"p": list(CARRIED_OUT_KINDS), "now": store.now(), "k": RECORDS_KEY}
        found = int(tx.read(f"{where} RETURN count(e)", params)[0][0])
        if found:
            tx.write(f"{where} SET e.archived_at = coalesce(e.ins_decided_at, $now)", params)
        tx.write("MERGE (m:Meta {key: $k}) SET m.value = '1'", params)
        return found

    done: int = store.write(work)
    return done
