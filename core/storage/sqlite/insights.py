"""Insights in SQLite: writing what reflect found, the review lifecycle, decay and listing.

An insight is an ordinary entity (``entity_type = 'Insight'``, ``name`` = its title, props
``summary``/``pattern``/``confidence``, the summary also as its one observation) plus an
``insights`` row with the review state. Choices made here, and why:

* A pending insight's entity is *archived*: it is a machine's guess, so it stays out of
  ``search_nodes``, ``fulltext_search`` and ``list_nodes`` until a person approves it. Approval
  un-archives it and links it ``DERIVED_FROM`` (the profile's ``insight_evidence_relation``) each
  evidence entity, so it becomes graph content like any other. A dismissed one stays archived.
* Dismissed titles never come back: the dismissed row stays, and if its entity is later deleted,
  the ``decide_insight`` entry in change_log still blocks the title.
* ``confidence`` is the live, decayed value; ``base_confidence`` is what the pattern gave when the
  insight was last confirmed (``confirmed_at``: found again by reflect, or approved). Decay is
  recomputed from those two, so it is idempotent however often it runs.
* An insight of a pattern that ran but no longer finds it (its anchor was deleted or archived,
  or the pattern stopped holding) is marked ``stale``; found again, it is fresh again.
"""

from __future__ import annotations

import contextlib
import json
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
from core.storage.sqlite import embedding_state, history, indexing, reads
from core.storage.sqlite.connection import Connection
from core.storage.sqlite.database import Database, format_ts
from core.storage.sqlite.detection import TOKEN_KEY, DetectionSession, graph_fingerprint, stored_insights
from core.storage.sqlite.reads import IDS

_SELECT_INSIGHT = """
SELECT e.name, i.pattern, i.confidence, i.base_confidence, i.status, i.stale, i.evidence,
       coalesce(json_extract(e.props, '$.summary'), ''), e.created_at, i.confirmed_at,
       i.decided_at, i.decided_by,
       i.confidence * pow(2.0, -max(0.0, julianday(:now) - julianday(coalesce(i.confirmed_at,
           e.created_at))) / :half_life) AS score
  FROM insights i JOIN entities e ON e.id = i.entity_id
"""

_DECAYED = "round(base_confidence * exp(-:rate * max(0.0, julianday(:as_of) - julianday(confirmed_at))), 6)"
_DECAY = f"""
UPDATE insights SET confidence = {_DECAYED}
 WHERE status <> 'dismissed' AND confirmed_at IS NOT NULL AND confidence <> {_DECAYED}
"""


def insight_dict(row: Sequence[Any]) -> dict[str, Any]:
    """The public shape of one insight (what ``Memory.surface_insights`` returns)."""
    (title, pattern, confidence, base, status, stale, evidence, summary, created_at, confirmed_at,
     decided_at, decided_by, score) = row
    return {
        "title": title, "pattern": pattern, "confidence": confidence, "base_confidence": base,
        "score": round(score, 6), "status": status, "stale": bool(stale), "summary": summary,
        "evidence": json.loads(evidence), "created_at": created_at, "confirmed_at": confirmed_at,
        "decided_at": decided_at, "decided_by": decided_by,
    }


class SqliteInsightStore:
    """Reflect's and the review lifecycle's access to the graph's ``Database``.

    It shares the graph store's connection and lock, so its writes interleave safely with every
    other write and each lands in one transaction with its change_log rows.
    """

    def __init__(self, db: Database) -> None:
        self.db = db

    def now(self) -> str:
        return self.db.now()

    # -- reflect ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def detection(self, rules: ReflectRules) -> Iterator[DetectionSession]:
        """One consistent read of the graph for the detectors (a read transaction holding the
        working TEMP tables); nothing in the main database is written."""
        with self.db.lock:
            moment = self.db.clock()
            session = DetectionSession(
                self.db.conn, rules, now=format_ts(moment),
                cutoff=format_ts(moment - timedelta(days=rules.stale_after_days)),
            )
            with self.db.snapshot():
                session.open()
                try:
                    yield session
                finally:
                    session.close()

    def apply(self, plan: ReflectPlan, actor: str) -> ReflectOutcome:
        """Write one reflect's findings: create, refresh, mark stale, confirm. One transaction."""
        with self.db.write() as conn:
            untouched = graph_fingerprint(conn) == plan.fingerprint
            writer = _PlanWriter(conn, plan, actor)
            outcome = writer.write()
            token = f"{graph_fingerprint(conn)}|{plan.token_suffix}" if untouched else ""
            conn.execute("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)",
                         (TOKEN_KEY, token))
            return outcome

    # -- the review lifecycle ----------------------------------------------------------------

    def decide(self, title: str, action: str, actor: str, *, evidence_relation: str) -> dict[str, Any]:
        """Move ``title`` along pending → approved | dismissed, approved → synced, approved | dismissed →
        pending (reopened).

        Raises ``NotFound`` for an unknown title and ``Conflict`` for any other move.
        """
        now = self.now()
        with self.db.write() as conn:
            row = conn.execute(
                "SELECT i.entity_id, i.status, i.stale, i.evidence FROM insights i "
                "JOIN entities e ON e.id = i.entity_id WHERE e.name = ?", (title,)).fetchone()
            if row is None:
                raise NotFound(f"There is no insight titled {title!r}; surface_insights lists them "
                               "(titles must match exactly).")
            eid, status, stale, evidence = row
            new = TRANSITIONS.get((status, action))
            if new is None:
                raise Conflict(refusal(title, status, action))
            if action == "approve" and stale:
                raise Conflict(
                    f"The insight {title!r} is stale: the evidence it was built from has changed "
                    "(deleted, archived, or the pattern no longer holds). Run reflect again to "
                    "refresh it, or dismiss it.")
            after: dict[str, Any] = {"status": new}
            if action == "approve":
                conn.execute("UPDATE entities SET archived_at = NULL, updated_at = ? WHERE id = ?",
                             (now, eid))
                # A person confirming it counts as fresh evidence: decay restarts from here.
                conn.execute(
                    "UPDATE insights SET status = ?, decided_at = ?, decided_by = ?, "
                    "confirmed_at = ?, confidence = base_confidence WHERE entity_id = ?",
                    (new, now, actor, now, eid))
                after["relations"] = self._link_evidence(conn, eid, title, json.loads(evidence),
                                                         evidence_relation, actor, now)
            elif action == "dismiss":
                conn.execute("UPDATE entities SET archived_at = coalesce(archived_at, ?) WHERE id = ?",
                             (now, eid))
                conn.execute("UPDATE insights SET status = ?, decided_at = ?, decided_by = ? "
                             "WHERE entity_id = ?", (new, now, actor, eid))
            elif action == "reopen":  # back to review: out of the graph again until decided anew
                conn.execute("UPDATE entities SET archived_at = coalesce(archived_at, ?), updated_at = ? WHERE id = ?",
                             (now, now, eid))
                conn.execute("UPDATE insights SET status = ?, decided_at = NULL, decided_by = NULL "
                             "WHERE entity_id = ?", (new, eid))
            else:  # sync: written out elsewhere; the person's decision stays the one recorded
                conn.execute("UPDATE insights SET status = ? WHERE entity_id = ?", (new, eid))
            history.write(conn, [(now, actor, "decide_insight", title,
                                  history.dumps({"status": status}), history.dumps(after))])
            return self._get_locked(conn, title)

    def _link_evidence(self, conn: Connection, eid: int, title: str, evidence: dict[str, Any],
                       rel_type: str, actor: str, now: str) -> int:
        """``insight -rel_type-> entity`` for each evidence entity that still exists."""
        wanted = [e["id"] for e in evidence.get("entities", []) if e.get("id") not in (None, eid)]
        names = dict(conn.execute(
            f"SELECT id, name FROM entities WHERE id IN ({IDS})", (json.dumps(wanted),)).fetchall())
        log: list[history.LogRow] = []
        linked: list[int] = []
        for target in dict.fromkeys(wanted):
            if target not in names:
                continue
            cur = conn.execute(
                "INSERT INTO relations(from_entity, to_entity, relation_type, created_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", (eid, target, rel_type, now))
            if cur.rowcount:  # logged as the store logs create_relations: entity = from
                log.append((now, actor, "create_relation", title, None,
                            history.dumps([names[target], rel_type])))
                linked.append(target)
        # Both ends' embedded text lists their relations: re-embed them.
        embedding_state.invalidate(conn, [eid, *linked])
        history.write(conn, log)
        return len(log)

    # -- time --------------------------------------------------------------------------------

    def decay(self, as_of: datetime | None, actor: str) -> int:
        """Set every live insight's confidence to ``base · exp(−0.01 · days since confirmed)``
        as of ``as_of`` (default: now). Returns how many changed; a second run at the same
        moment changes none."""
        stamp = format_ts(as_of) if as_of is not None else self.now()
        with self.db.write() as conn:
            changed = conn.execute(_DECAY, {"rate": DECAY_RATE, "as_of": stamp}).rowcount
            if changed:
                history.write(conn, [(self.now(), actor, "decay_confidence", None, None,
                                      history.dumps({"as_of": stamp, "changed": changed}))])
            return changed

    # -- reading -----------------------------------------------------------------------------

    def list(
        self, *, limit: int = 10, title: str | None = None, query: str | None = None,
        status: str | None = "pending", confirmed_at: str | None = None, include_stale: bool = True,
    ) -> list[dict[str, Any]]:
        """Insights, best first: fresh before stale, then by temporal score
        (``confidence · 2^(−days since confirmed / 30)``), then by title."""
        where, args = ["1"], {"now": self.now(), "half_life": HALF_LIFE_DAYS, "limit": limit}
        if status is not None:
            where.append("i.status = :status")
            args["status"] = status
        if title is not None:
            where.append("e.name = :title")
            args["title"] = title
        if query is not None:
            # Folded both sides, like search_nodes: case, accents and Unicode forms don't matter.
            where.append("instr(hfold(e.name || char(10) || coalesce(json_extract(e.props, "
                         "'$.summary'), '')), :query) > 0")
            args["query"] = fold(query)
        if confirmed_at is not None:
            where.append("i.confirmed_at = :confirmed_at")
            args["confirmed_at"] = confirmed_at
        if not include_stale:
            where.append("i.stale = 0")
        with self.db.locked() as conn:
            rows = conn.execute(
                f"{_SELECT_INSIGHT} WHERE {' AND '.join(where)} "
                "ORDER BY i.stale, score DESC, e.name LIMIT :limit", args).fetchall()
        return [insight_dict(r) for r in rows]

    def get(self, title: str) -> dict[str, Any] | None:
        with self.db.locked() as conn:
            return self._get_locked(conn, title)

    def _get_locked(self, conn: Connection, title: str) -> dict[str, Any] | None:
        row = conn.execute(f"{_SELECT_INSIGHT} WHERE e.name = :title",
                           {"now": self.now(), "half_life": HALF_LIFE_DAYS, "title": title}).fetchone()
        return insight_dict(row) if row else None

    def counts(self) -> dict[str, int]:
        """How many insights per status, and how many of them are stale."""
        with self.db.locked() as conn:
            out = dict(conn.execute("SELECT status, count(*) FROM insights GROUP BY status"))
            out["stale"] = conn.execute("SELECT count(*) FROM insights WHERE stale").fetchone()[0]
        return out

    def adopt(self, insights: Sequence[dict[str, Any]], actor: str) -> int:
        """Give review rows to imported Insight entities (``{title, pattern, confidence, status}``),
        keeping the status they had. An entity that already has one keeps its own. Returns how many."""
        now = self.now()
        adopted = 0
        with self.db.write() as conn:
            for item in insights:
                row = conn.execute("SELECT id FROM entities WHERE name = ? AND entity_type = 'Insight'",
                                   (item["title"],)).fetchone()
                if row is None:
                    continue
                decided = item["status"] != "pending"
                cur = conn.execute(
                    "INSERT INTO insights(entity_id, pattern, confidence, base_confidence, status, evidence, "
                    "stale, confirmed_at, decided_at, decided_by) VALUES (?, ?, ?, ?, ?, '{}', 0, ?, ?, ?) "
                    "ON CONFLICT(entity_id) DO NOTHING",
                    (row[0], item["pattern"], item["confidence"], item["confidence"], item["status"], now,
                     now if decided else None, actor if decided else None))
                adopted += cur.rowcount
        return adopted


class _PlanWriter:
    """Applies one ``ReflectPlan`` inside the caller's transaction."""

    def __init__(self, conn: Connection, plan: ReflectPlan, actor: str) -> None:
        self.conn, self.plan, self.actor, self.now = conn, plan, actor, plan.now
        self.log: list[history.LogRow] = []
        self.reindex: list[int] = []
        self.outcome = ReflectOutcome(incremental=plan.incremental, patterns_run=tuple(plan.found),
                                      found={p: len(t) for p, t in plan.found.items()})

    def write(self) -> ReflectOutcome:
        stored = stored_insights(self.conn)
        drafted: set[str] = set()
        fresh = [d for d in self.plan.drafts if d.title not in stored]
        taken = reads.ids_by_name(self.conn, [d.title for d in fresh])
        for d in self.plan.drafts:
            s = stored.get(d.title)
            if s is None:
                if d.title in taken:  # created by someone else since detection: not ours to use
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
            if holds:  # found, but its evidence could not be rebuilt: keep it as it stands
                self.outcome.refreshed += 1
            self._set_stale(s, stale=not holds)
        self._confirm(stored)
        indexing.reindex(self.conn, self.reindex)
        self.log.append((self.now, self.actor, "reflect", None, None, history.dumps({
            "created": self.outcome.created, "refreshed": self.outcome.refreshed,
            "stale": self.outcome.stale, "incremental": self.plan.incremental})))
        history.write(self.conn, self.log)
        return self.outcome

    def _create(self, d: InsightDraft) -> None:
        props = json.dumps({"summary": d.summary, "pattern": d.pattern, "confidence": d.confidence},
                           ensure_ascii=False)
        # Archived from birth: a pending guess stays out of searches until a person approves it.
        eid = self.conn.execute(
            "INSERT INTO entities(name, entity_type, props, created_at, updated_at, archived_at) "
            "VALUES (?, 'Insight', ?, ?, ?, ?)", (d.title, props, self.now, self.now, self.now)).lastrowid
        self.conn.execute("INSERT INTO observations(entity_id, content, created_at) VALUES (?, ?, ?)",
                          (eid, d.summary, self.now))
        self.conn.execute(
            "INSERT INTO insights(entity_id, pattern, confidence, base_confidence, status, evidence, "
            "stale, confirmed_at) VALUES (?, ?, ?, ?, 'pending', ?, 0, ?)",
            (eid, d.pattern, d.confidence, d.confidence, d.evidence_json(), self.now))
        self.reindex.append(eid)
        self.log.append((self.now, self.actor, "create_insight", d.title, None, history.dumps(
            {"entityType": "Insight", "pattern": d.pattern, "confidence": d.confidence,
             "status": "pending"})))
        self.outcome.created += 1

    def _refresh(self, s: StoredInsight, d: InsightDraft) -> None:
        evidence = d.evidence_json()
        if s.summary != d.summary or s.base_confidence != d.confidence:
            old = self.conn.execute("SELECT props FROM entities WHERE id = ?", (s.entity_id,)).fetchone()[0]
            props = {**json.loads(old), "summary": d.summary, "confidence": d.confidence}
            self.conn.execute("UPDATE entities SET props = ?, updated_at = ? WHERE id = ?",
                              (json.dumps(props, ensure_ascii=False), self.now, s.entity_id))
            self.log.append((self.now, self.actor, "update_entity", s.title,
                             history.dumps({"entityType": "Insight", "props": json.loads(old)}),
                             history.dumps({"entityType": "Insight", "props": props})))
            if s.summary != d.summary:
                self._replace_summary(s, d.summary)
            self.reindex.append(s.entity_id)
            embedding_state.invalidate(self.conn, [s.entity_id])  # its text changed
        if evidence != s.evidence_json or s.base_confidence != d.confidence:
            self.conn.execute("UPDATE insights SET evidence = ?, base_confidence = ? WHERE entity_id = ?",
                              (evidence, d.confidence, s.entity_id))
        self._set_stale(s, stale=False)
        self.outcome.refreshed += 1

    def _replace_summary(self, s: StoredInsight, summary: str) -> None:
        """Swap the summary observation, logged as a deletion and an addition so that
        ``query_at_date`` still shows the old text on older dates."""
        gone = self.conn.execute(
            "DELETE FROM observations WHERE entity_id = ? AND content = ? RETURNING content, created_at",
            (s.entity_id, s.summary)).fetchall()
        if gone:
            self.log.append((self.now, self.actor, "delete_observations", s.title,
                             history.dumps({"observations": [list(g) for g in gone]}), None))
        self.conn.execute("INSERT OR IGNORE INTO observations(entity_id, content, created_at) "
                          "VALUES (?, ?, ?)", (s.entity_id, summary, self.now))
        self.log.append((self.now, self.actor, "add_observations", s.title, None, history.dumps([summary])))

    def _set_stale(self, s: StoredInsight, *, stale: bool) -> None:
        if s.stale == stale:
            return
        self.conn.execute("UPDATE insights SET stale = ? WHERE entity_id = ?", (int(stale), s.entity_id))
        self.log.append((self.now, self.actor, "mark_insight_stale", s.title,
                         history.dumps({"stale": s.stale}), history.dumps({"stale": stale})))
        if stale:
            self.outcome.stale += 1

    def _confirm(self, stored: dict[str, StoredInsight]) -> None:
        """Everything still holding (found now, or in a pattern skipped because nothing changed)
        is confirmed now: its confidence goes back to its base and decay restarts."""
        patterns = [p for p in ALL_PATTERNS if p in self.plan.found or p in self.plan.confirmed]
        self.conn.execute(
            "UPDATE insights SET confirmed_at = ?, confidence = base_confidence "
            "WHERE status <> 'dismissed' AND stale = 0 AND pattern IN (SELECT value FROM json_each(?))",
            (self.now, json.dumps(patterns)))
        self.outcome.refreshed += sum(
            1 for s in stored.values()
            if s.pattern in self.plan.confirmed and s.status != "dismissed" and not s.stale)
