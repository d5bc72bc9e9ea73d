"""What changed, who changed it, and taking it back: change_log reads, the live feed, undo and
restoring a deleted entity."""

from __future__ import annotations

from datetime import datetime

from core.errors import InvalidInput
from core.memory_parts.context import MemoryContext
from core.model import Change, Node


class History:
    """change_log as history, activity and a feed; undo and restore write through the store."""

    def __init__(self, ctx: MemoryContext) -> None:
        self.ctx = ctx
        self.graph = ctx.graph

    def history(self, name: str | None, limit: int) -> list[Change]:
        return self.graph.history(name, limit=limit)

    def changes_since(self, after_id: int, limit: int) -> list[Change]:
        if isinstance(after_id, bool) or not isinstance(after_id, int) or after_id < 0:
            raise InvalidInput(f"after_id must be a whole number ≥ 0, got {after_id!r}")
        if not 1 <= limit <= 10_000:
            raise InvalidInput(f"limit must be between 1 and 10000, got {limit!r}")
        return self.graph.changes_since(after_id, limit=limit)

    def activity(self, *, before_id: int | None, actor: str | None, since: datetime | str | None,
                 until: datetime | str | None, limit: int) -> list[Change]:
        if before_id is not None and (isinstance(before_id, bool) or not isinstance(before_id, int)
                                      or before_id < 1):
            raise InvalidInput(f"before_id must be a whole number ≥ 1, got {before_id!r}")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
            raise InvalidInput(f"limit must be between 1 and 10000, got {limit!r}")
        for value, what in ((since, "since"), (until, "until")):
            if value is not None and not isinstance(value, (datetime, str)):
                raise InvalidInput(f"{what} must be a date-time or ISO-8601 text, got {type(value).__name__}")
        return self.graph.activity(before_id=before_id, actor=actor, since=since, until=until, limit=limit)

    def entity_history(self, name: str, limit: int) -> list[Change]:
        if not 1 <= limit <= 10_000:
            raise InvalidInput(f"limit must be between 1 and 10000, got {limit!r}")
        return self.graph.entity_history(name, limit=limit)

    @staticmethod
    def describe_change(row: Change) -> str:
        from core.change_words import describe

        return describe(row)

    def undo_change(self, change_id: int | None, entity: str | None, by: str | None,
                    actor: str | None) -> Change:
        if change_id is not None and (isinstance(change_id, bool) or not isinstance(change_id, int) or change_id < 1):
            raise InvalidInput(f"change_id must be a change number ≥ 1, got {change_id!r}. Nothing was changed.")
        row = self.graph.undo_change(change_id, entity, by, self.ctx.actor(actor))
        self.ctx.written()
        return row

    def restore_entity(self, name: str, actor: str | None) -> Node:
        node = self.graph.restore_entity(name, self.ctx.actor(actor))
        self.ctx.written()
        return node
