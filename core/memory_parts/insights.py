"""Reflect and the insight review lifecycle: the rules live in ``core.reflect``, the reads and
writes in the backend's ``InsightStore`` (SQLite and the Cypher stores both have one)."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import core.hygiene  # noqa: F401  # registers hygiene's kinds with reflect (detectors, what approving does)
from core.errors import Conflict, InvalidInput, NotFound
from core.memory_parts.checks import check_title
from core.memory_parts.context import MemoryContext
from core.protocols import InsightStore
from core.reflect.lifecycle import CARRY_OUT, Host

if TYPE_CHECKING:
    from core.reflect.profile import Profile


class Insights:
    """Checks each call, then hands the backend's insight store to the rules."""

    def __init__(self, ctx: MemoryContext) -> None:
        self.ctx = ctx

    def store(self) -> InsightStore:
        return self.ctx.graph.insight_store()

    @staticmethod
    def schema_profile() -> Profile:
        from core.reflect.profile import load_profile

        return load_profile()

    def _evidence_relation(self) -> str:
        return self.schema_profile().reflect.insight_evidence_relation

    def reflect(self, actor: str | None, host: Host) -> dict[str, Any]:
        """Every registered detector over the graph (``core.reflect.patterns.SPECS``); then the
        kinds whose ``auto_approve`` setting is on have their new pending insights approved."""
        from core.reflect.engine import reflect

        rules = self.schema_profile().reflect
        who = self.ctx.actor(actor)
        result = reflect(self.store(), rules, who, host.graph)
        if result["created"]:
            self.ctx.written()
        auto = [k for k, c in CARRY_OUT.items() if c.auto_approve is not None and c.auto_approve(self.ctx.settings)]
        if auto:  # off unless the user turned it on
            result["auto_approved"] = self._auto_approve(auto, who, host)
        return result

    def _auto_approve(self, kinds: list[str], actor: str, host: Host) -> int:
        approved = 0
        for insight in self.store().list(limit=1000, status="pending", include_stale=False):
            if insight["pattern"] in kinds:
                with contextlib.suppress(NotFound, Conflict):  # a fact edited since: left for a person
                    self.decide(insight["title"], "approve", f"{actor} (auto-approved)", host)
                    approved += 1
        return approved

    def surface(self, *, limit: int, title: str | None, query: str | None,
                status: str | None) -> list[dict[str, Any]]:
        from core.reflect.model import STATUSES

        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise InvalidInput(f"limit must be a whole number from 1 to 1000, got {limit!r}")
        if status is not None and status != "all" and status not in STATUSES:
            raise InvalidInput(f"status must be one of {', '.join(STATUSES)} or 'all', got {status!r}")
        for value, what in ((title, "title"), (query, "query")):
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise InvalidInput(f"{what} must be a non-empty string when given")
        return self.store().list(limit=limit, title=title, query=query,
                                 status=None if status in (None, "all") else status)

    def decide(self, title: str, action: str, actor: str | None, host: Host) -> dict[str, Any]:
        """Approving runs what the insight's kind registered (``core.reflect.lifecycle.carry_out``:
        a merge, a superseded fact marked …) around the decision."""
        check_title(title)
        if action not in ("approve", "dismiss"):
            raise InvalidInput(f"action must be 'approve' or 'dismiss', got {action!r}")
        who = self.ctx.actor(actor)

        def decide() -> dict[str, Any]:
            return self.store().decide(title, action, who, evidence_relation=self._evidence_relation())

        found = self.store().list(limit=1, title=title, status=None) if action == "approve" else []
        on_approve = CARRY_OUT[found[0]["pattern"]].approve \
            if found and found[0]["pattern"] in CARRY_OUT else None
        decided = on_approve(host, found[0], who, decide) if on_approve is not None else decide()
        if action == "approve":
            self.ctx.written()
        return decided

    def reopen(self, title: str, actor: str | None, host: Host) -> dict[str, Any]:
        check_title(title)
        who = self.ctx.actor(actor)
        reopened = self.store().decide(title, "reopen", who, evidence_relation=self._evidence_relation())
        carried = CARRY_OUT.get(str(reopened.get("pattern")))
        if carried is not None and carried.reopen is not None:
            carried.reopen(host, reopened, who)  # what approving it did is taken back
        self.ctx.written()
        return reopened

    def mark_synced(self, title: str, actor: str | None) -> dict[str, Any]:
        check_title(title)
        return self.store().decide(title, "sync", self.ctx.actor(actor),
                                   evidence_relation=self._evidence_relation())

    def decay(self, as_of: datetime | str | None, actor: str | None) -> int:
        if isinstance(as_of, str):
            try:
                as_of = datetime.fromisoformat(as_of.replace("Z", "+00:00"))
            except ValueError:
                raise InvalidInput(f"as_of must be an ISO-8601 date or time, got {as_of!r}") from None
        if as_of is not None and as_of.tzinfo is None:
            as_of = as_of.replace(tzinfo=UTC)
        return self.store().decay(as_of, self.ctx.actor(actor))

    def counts(self) -> dict[str, int]:
        return {"pending": 0, "approved": 0, "dismissed": 0, "synced": 0, **self.store().counts()}

    def adopt(self, insights: list[dict[str, Any]], actor: str | None) -> int:
        from core.reflect.model import ALL_PATTERNS, STATUSES

        rows = []
        for item in insights:
            status = item.get("status") if item.get("status") in STATUSES else "pending"
            pattern = item.get("pattern") if item.get("pattern") in ALL_PATTERNS else "imported"
            confidence = item.get("confidence")
            confidence = float(confidence) if isinstance(confidence, (int, float)) else 0.0
            rows.append({"title": item["title"], "pattern": pattern, "status": status,
                         "confidence": min(1.0, max(0.0, confidence))})
        return self.store().adopt(rows, self.ctx.actor(actor)) if rows else 0
