"""Insights on a Cypher server: what reflect found, the review lifecycle, decay and listing.

The same design as SQLite's (``core.storage.sqlite.insights`` says why each choice): an insight
is an ``Entity`` of type ``Insight`` (archived while pending), and its review state lives on that
node in ``ins_*`` properties instead of a table of its own.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

from core.errors import Conflict, NotFound
from core.reflect.model import (
    ALL_PATTERNS,
    DECAY_RATE,
    HALF_LIFE_DAYS,
    TRANSITIONS,
    InsightDraft,
    ReflectOutcome,
    ReflectPlan,
    ReflectRules,
    StoredInsight,
    refusal,
)
from core.search.folding import fold
from core.storage.cypher import rows as R
from core.storage.cypher.reflect_queries import CypherDetection

TOKEN_KEY = "reflect_fingerprint"
INSIGHT = ("e.id, e.name, e.props, e.created_at, e.ins_pattern, e.ins_confidence, e.ins_base, e.ins_status, "
           "e.ins_stale, e.ins_evidence, e.ins_confirmed_at, e.ins_decided_at, e.ins_decided_by")


def graph_fingerprint(db: Any) -> str:
    """What the structural patterns depend on: the change, entity and relation counters, and counts."""
    counters = dict(db.read("MATCH (c:Counter) RETURN c.name, c.value"))
    entities = db.read("MATCH (e:Entity) RETURN count(e)")[0][0]
    relations = db.read("MATCH ()-[r:REL]->() RETURN count(r)")[0][0]
    return ":".join(str(v) for v in (counters.get("change", 0), entities, counters.get("entity", 0), relations,
                                     counters.get("relation", 0)))


def _insights(db: Any, where: str = "true", params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    found = db.read(f"MATCH (e:Entity) WHERE e.ins_status IS NOT NULL AND {where} RETURN {INSIGHT}", params or {})
    keys = ["id", "name", "props", "created_at", "pattern", "confidence", "base", "status", "stale", "evidence",
            "confirmed_at", "decided_at", "decided_by"]
    out = []
    for r in found:
        row = dict(zip(keys, r, strict=True))
        summary = json.loads(row["props"] or "{}").get("summary")
        row["summary"] = summary if isinstance(summary, str) else ""
        out.append(row)
    return out


def stored_insights(db: Any) -> dict[str, StoredInsight]:
    """Every insight, by title."""
    out = {}
    for r in _insights(db):
        key = json.loads(r["evidence"]).get("key")
        out[r["name"]] = StoredInsight(r["id"], r["name"], r["pattern"], r["status"], bool(r["stale"]), r["base"],
                                       r["evidence"], r["summary"], tuple(key) if isinstance(key, list) else key)
    return out


def blocked_titles(db: Any, titles: Sequence[str]) -> set[str]:
    """Titles reflect may not create: the name is taken, or an insight of that title was dismissed."""
    taken = {r[0] for r in db.read("UNWIND $t AS t MATCH (e:Entity {name: t}) RETURN t", {"t": list(titles)})}
    dismissed = {r[0] for r in db.read(
        "UNWIND $t AS t MATCH (c:Change {entity: t}) WHERE c.op = 'decide_insight' RETURN t, c.after",
        {"t": list(titles)}) if json.loads(r[1] or "{}").get("status") == "dismissed"}
    return taken | dismissed


def _days(later: str, earlier: str) -> float:
    def parse(s: str) -> datetime:
        return datetime.fromisoformat(s.replace("Z", "+00:00"))
    return (parse(later) - parse(earlier)).total_seconds() / 86400


def insight_dict(r: dict[str, Any], now: str) -> dict[str, Any]:
    """The public shape of one insight (what ``Memory.surface_insights`` returns)."""
    since = r["confirmed_at"] or r["created_at"]
    score = r["confidence"] * 2.0 ** (-max(0.0, _days(now, since)) / HALF_LIFE_DAYS)
    return {
        "title": r["name"], "pattern": r["pattern"], "confidence": r["confidence"], "base_confidence": r["base"],
        "score": round(score, 6), "status": r["status"], "stale": bool(r["stale"]), "summary": r["summary"],
        "evidence": json.loads(r["evidence"]), "created_at": r["created_at"], "confirmed_at": r["confirmed_at"],
        "decided_at": r["decided_at"], "decided_by": r["decided_by"],
    }


class CypherInsightStore:
    """Reflect's and the review lifecycle's access to one ``CypherGraphStore``."""

    def __init__(self, graph: Any) -> None:
        self._graph = graph
        self._db = graph.db

    def now(self) -> str:
        return self._graph.now()

    @contextlib.contextmanager
    def detection(self, rules: ReflectRules) -> Iterator[CypherDetection]:
        moment = self._graph._clock()
        session = CypherDetection(self._graph, rules, now=R.format_ts(moment),
                                  cutoff=R.format_ts(moment - timedelta(days=rules.stale_after_days)))
        session.open()
        try:
            yield session
        finally:
            session.close()

    def apply(self, plan: ReflectPlan, actor: str) -> ReflectOutcome:
        """Write one reflect's findings: create, refresh, mark stale, confirm; all in one commit."""
        def write(tx: Any) -> ReflectOutcome:
            untouched = graph_fingerprint(tx) == plan.fingerprint
            outcome = _PlanWriter(self._graph, tx, plan, actor).write()
            token = f"{self._fingerprint_after(tx, outcome)}|{plan.token_suffix}" if untouched else ""
            tx.write("MERGE (m:Meta {key: $k}) SET m.value = $v", {"k": TOKEN_KEY, "v": token})
            return outcome

        return self._graph._write(write)

    @staticmethod
    def _fingerprint_after(tx: Any, outcome: ReflectOutcome) -> str:
        """The fingerprint once this commit lands (its writes are queued, not yet visible)."""
        before = graph_fingerprint(tx).split(":")
        before[0] = str(tx.counters.get("change", int(before[0])))
        before[2] = str(tx.counters.get("entity", int(before[2])))
        before[1] = str(int(before[1]) + outcome.created)
        return ":".join(before)

    # -- the review lifecycle ----------------------------------------------------------------

    def decide(self, title: str, action: str, actor: str, *, evidence_relation: str) -> dict[str, Any]:
        """Move ``title`` along pending → approved | dismissed, approved → synced, back to pending (reopen)."""
        now = self.now()

        def write(tx: Any) -> None:
            found = _insights(tx, "e.name = $t", {"t": title})
            if not found:
                raise NotFound(f"There is no insight titled {title!r}; surface_insights lists them "
                               "(titles must match exactly).")
            r = found[0]
            new = TRANSITIONS.get((r["status"], action))
            if new is None:
                raise Conflict(refusal(title, r["status"], action))
            if action == "approve" and r["stale"]:
                raise Conflict(
                    f"The insight {title!r} is stale: the evidence it was built from has changed "
                    "(deleted, archived, or the pattern no longer holds). Run reflect again to "
                    "refresh it, or dismiss it.")
            after: dict[str, Any] = {"status": new}
            if action == "approve":
                tx.write("MATCH (e:Entity {id: $i}) SET e.archived_at = null, e.updated_at = $now, "
                         "e.ins_status = $s, e.ins_decided_at = $now, e.ins_decided_by = $by, "
                         "e.ins_confirmed_at = $now, e.ins_confidence = e.ins_base",
                         {"i": r["id"], "now": now, "s": new, "by": actor})
                after["relations"] = self._link_evidence(tx, r["id"], title, json.loads(r["evidence"]),
                                                         evidence_relation, actor, now)
            elif action == "dismiss":
                tx.write("MATCH (e:Entity {id: $i}) SET e.archived_at = coalesce(e.archived_at, $now), "
                         "e.ins_status = $s, e.ins_decided_at = $now, e.ins_decided_by = $by",
                         {"i": r["id"], "now": now, "s": new, "by": actor})
            elif action == "reopen":  # back to review: out of the graph again until decided anew
                tx.write("MATCH (e:Entity {id: $i}) SET e.archived_at = coalesce(e.archived_at, $now), "
                         "e.updated_at = $now, e.ins_status = $s, e.ins_decided_at = null, e.ins_decided_by = null",
                         {"i": r["id"], "now": now, "s": new})
            else:
                tx.write("MATCH (e:Entity {id: $i}) SET e.ins_status = $s", {"i": r["id"], "s": new})
            self._graph._log(tx, [(now, actor, "decide_insight", title, R.dumps({"status": r["status"]}),
                                   R.dumps(after))])

        self._graph._write(write)
        return self.get(title)  # type: ignore[return-value]

    def _link_evidence(self, tx: Any, eid: int, title: str, evidence: dict[str, Any], rel_type: str,
                       actor: str, now: str) -> int:
        """``insight -rel_type-> entity`` for each evidence entity that still exists."""
        wanted = list(dict.fromkeys(e["id"] for e in evidence.get("entities", []) if e.get("id") not in (None, eid)))
        names = dict(tx.read("UNWIND $ids AS i MATCH (e:Entity {id: i}) RETURN e.id, e.name", {"ids": wanted}))
        have = {r[0] for r in tx.read("MATCH (a:Entity {id: $a})-[r:REL]->(b:Entity) WHERE r.type = $t RETURN b.id",
                                      {"a": eid, "t": rel_type})}
        targets = [t for t in wanted if t in names and t not in have]
        if targets:
            tx.write("UNWIND $rels AS p MATCH (a:Entity {id: $a}), (b:Entity {id: p.b}) "
                     "CREATE (a)-[:REL {id: p.id, type: $t, props: '{}', created_at: $now}]->(b)",
                     {"a": eid, "t": rel_type, "now": now, "rels": [
                         {"b": t, "id": i} for t, i in zip(targets, tx.next_ids("relation", len(targets)),
                                                           strict=True)]})
            self._graph._stale(tx, [eid, *targets])
        self._graph._log(tx, [(now, actor, "create_relation", title, None, R.dumps([names[t], rel_type]))
                              for t in targets])
        return len(targets)

    # -- time --------------------------------------------------------------------------------

    def decay(self, as_of: datetime | None, actor: str) -> int:
        """Set every live insight's confidence to ``base · exp(−rate · days since confirmed)`` as of ``as_of``."""
        stamp = R.format_ts(as_of) if as_of is not None else self.now()

        def write(tx: Any) -> int:
            changes = []
            for r in _insights(tx, "e.ins_status <> 'dismissed' AND e.ins_confirmed_at IS NOT NULL"):
                value = round(r["base"] * math.exp(-DECAY_RATE * max(0.0, _days(stamp, r["confirmed_at"]))), 6)
                if value != r["confidence"]:
                    changes.append({"id": r["id"], "c": value})
            if changes:
                tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e.ins_confidence = r.c", {"rows": changes})
                self._graph._log(tx, [(self.now(), actor, "decay_confidence", None, None,
                                       R.dumps({"as_of": stamp, "changed": len(changes)}))])
            return len(changes)

        return self._graph._write(write)

    # -- reading -----------------------------------------------------------------------------

    def list(self, *, limit: int = 10, title: str | None = None, query: str | None = None,
             status: str | None = "pending", confirmed_at: str | None = None,
             include_stale: bool = True) -> list[dict[str, Any]]:
        """Insights, best first: fresh before stale, then by temporal score, then by title."""
        where, params = ["true"], {}
        if status is not None:
            where.append("e.ins_status = $status")
            params["status"] = status
        if title is not None:
            where.append("e.name = $title")
            params["title"] = title
        if confirmed_at is not None:
            where.append("e.ins_confirmed_at = $confirmed")
            params["confirmed"] = confirmed_at
        if not include_stale:
            where.append("e.ins_stale = 0")
        now = self.now()
        rows = [insight_dict(r, now) for r in _insights(self._db, " AND ".join(where), params)]
        if query is not None:
            needle = fold(query)
            rows = [r for r in rows if needle in fold(f"{r['title']}\n{r['summary']}")]
        rows.sort(key=lambda r: (r["stale"], -r["score"], r["title"]))
        return rows[:limit]

    def get(self, title: str) -> dict[str, Any] | None:
        found = self.list(limit=1, title=title, status=None)
        return found[0] if found else None

    def counts(self) -> dict[str, int]:
        """How many insights per status, and how many of them are stale."""
        out = {s: int(n) for s, n in self._db.read(
            "MATCH (e:Entity) WHERE e.ins_status IS NOT NULL RETURN e.ins_status, count(e)")}
        out["stale"] = int(self._db.read("MATCH (e:Entity) WHERE e.ins_stale = 1 RETURN count(e)")[0][0])
        return out

    def adopt(self, insights: Sequence[dict[str, Any]], actor: str) -> int:
        """Give imported Insight entities (``{title, pattern, confidence, status}``) their review
        state, keeping the status they had; one that already has a state keeps its own."""
        now = self.now()

        def write(tx: Any) -> int:
            adopted = 0
            for item in insights:
                found = tx.read("MATCH (e:Entity {name: $t, type: 'Insight'}) WHERE e.ins_status IS NULL "
                                "RETURN e.id", {"t": item["title"]})
                if not found:
                    continue
                decided = item["status"] != "pending"
                tx.write(
                    "MATCH (e:Entity {id: $i}) SET e.ins_pattern = $p, e.ins_confidence = $c, e.ins_base = $c, "
                    "e.ins_status = $s, e.ins_evidence = '{}', e.ins_stale = 0, e.ins_confirmed_at = $now, "
                    "e.ins_decided_at = $at, e.ins_decided_by = $by",
                    {"i": found[0][0], "p": item["pattern"], "c": item["confidence"], "s": item["status"],
                     "now": now, "at": now if decided else None, "by": actor if decided else None})
                adopted += 1
            return adopted

        return self._graph._write(write)


class _PlanWriter:
    """Applies one ``ReflectPlan`` inside the caller's commit."""

    def __init__(self, graph: Any, tx: Any, plan: ReflectPlan, actor: str) -> None:
        self.graph, self.tx, self.plan, self.actor, self.now = graph, tx, plan, actor, plan.now
        self.log: list[tuple] = []
        self.outcome = ReflectOutcome(incremental=plan.incremental, patterns_run=tuple(plan.found),
                                      found={p: len(t) for p, t in plan.found.items()})
        self.rows: dict[int, dict[str, Any]] = {}
        self.ins: dict[int, dict[str, Any]] = {}

    def write(self) -> ReflectOutcome:
        stored = stored_insights(self.tx)
        drafted: set[str] = set()
        fresh = [d for d in self.plan.drafts if d.title not in stored]
        taken = {r[0] for r in self.tx.read("UNWIND $t AS t MATCH (e:Entity {name: t}) RETURN t",
                                            {"t": [d.title for d in fresh]})}
        for d in self.plan.drafts:
            s = stored.get(d.title)
            if s is None:
                if d.title in taken:
                    continue
                self._create(d)
            elif s.status != "dismissed" and s.pattern == d.pattern:
                self._refresh(s, d)
            else:
                continue
            drafted.add(d.title)
        for s in stored.values():
            if s.status == "dismissed" or s.pattern not in self.plan.found or s.title in drafted:
                continue
            holds = s.key in self.plan.found[s.pattern]
            if holds:
                self.outcome.refreshed += 1
            self._set_stale(s, stale=not holds)
        self.graph._put(self.tx, list(self.rows.values()))
        if self.ins:
            self.tx.write("UNWIND $rows AS r MATCH (e:Entity {id: r.id}) SET e += r", {"rows": list(self.ins.values())})
        self._confirm(stored)
        self.log.append((self.now, self.actor, "reflect", None, None, R.dumps({
            "created": self.outcome.created, "refreshed": self.outcome.refreshed,
            "stale": self.outcome.stale, "incremental": self.plan.incremental})))
        self.graph._log(self.tx, self.log)
        return self.outcome

    def _create(self, d: InsightDraft) -> None:
        eid = self.tx.next_ids("entity", 1)[0]
        row = {"id": eid, "name": d.title, "type": "Insight",
               "props": {"summary": d.summary, "pattern": d.pattern, "confidence": d.confidence},
               "obs": [d.summary], "obs_at": [self.now], "created_at": self.now, "updated_at": self.now,
               "archived_at": self.now}
        self.graph._put(self.tx, [row], create=True)
        self.ins[eid] = {"id": eid, "ins_pattern": d.pattern, "ins_confidence": d.confidence, "ins_base": d.confidence,
                         "ins_status": "pending", "ins_evidence": d.evidence_json(), "ins_stale": 0,
                         "ins_confirmed_at": self.now}
        self.log.append((self.now, self.actor, "create_insight", d.title, None, R.dumps(
            {"entityType": "Insight", "pattern": d.pattern, "confidence": d.confidence, "status": "pending"})))
        self.outcome.created += 1

    def _row(self, eid: int) -> dict[str, Any]:
        if eid not in self.rows:
            self.rows[eid] = self.graph._rows_by_id(self.tx, [eid])[eid]
        return self.rows[eid]

    def _ins(self, eid: int) -> dict[str, Any]:
        return self.ins.setdefault(eid, {"id": eid})

    def _refresh(self, s: StoredInsight, d: InsightDraft) -> None:
        evidence = d.evidence_json()
        if s.summary != d.summary or s.base_confidence != d.confidence:
            row = self._row(s.entity_id)
            old = dict(row["props"])
            row["props"] = {**old, "summary": d.summary, "confidence": d.confidence}
            row["updated_at"] = self.now
            self.log.append((self.now, self.actor, "update_entity", s.title,
                             R.dumps({"entityType": "Insight", "props": old}),
                             R.dumps({"entityType": "Insight", "props": row["props"]})))
            if s.summary != d.summary:
                pairs = [(o, t) for o, t in zip(row["obs"], row["obs_at"], strict=True)]
                gone = [[o, t] for o, t in pairs if o == s.summary]
                if gone:
                    self.log.append((self.now, self.actor, "delete_observations", s.title,
                                     R.dumps({"observations": gone}), None))
                kept = [(o, t) for o, t in pairs if o != s.summary]
                if d.summary not in [o for o, _ in kept]:
                    kept.append((d.summary, self.now))
                row["obs"], row["obs_at"] = [o for o, _ in kept], [t for _, t in kept]
                self.log.append((self.now, self.actor, "add_observations", s.title, None, R.dumps([d.summary])))
        if evidence != s.evidence_json or s.base_confidence != d.confidence:
            self._ins(s.entity_id).update(ins_evidence=evidence, ins_base=d.confidence)
        self._set_stale(s, stale=False)
        self.outcome.refreshed += 1

    def _set_stale(self, s: StoredInsight, *, stale: bool) -> None:
        if s.stale == stale:
            return
        self._ins(s.entity_id)["ins_stale"] = int(stale)
        self.log.append((self.now, self.actor, "mark_insight_stale", s.title,
                         R.dumps({"stale": s.stale}), R.dumps({"stale": stale})))
        if stale:
            self.outcome.stale += 1

    def _confirm(self, stored: dict[str, StoredInsight]) -> None:
        patterns = [p for p in ALL_PATTERNS if p in self.plan.found or p in self.plan.confirmed]
        # Runs after the rows above in the same commit, so it sees their stale flags and bases.
        self.tx.write("MATCH (e:Entity) WHERE e.ins_status IS NOT NULL AND e.ins_status <> 'dismissed' "
                      "AND e.ins_stale = 0 AND e.ins_pattern IN $p SET e.ins_confirmed_at = $now, "
                      "e.ins_confidence = e.ins_base", {"p": patterns, "now": self.now})
        self.outcome.refreshed += sum(
            1 for s in stored.values()
            if s.pattern in self.plan.confirmed and s.status != "dismissed" and not s.stale)
