"""What every backend stores the same way: timestamps (ISO-8601 UTC with milliseconds, so they sort
as text), JSON text for change_log payloads, the placeholder a missing relation end becomes, and a
batch's relations without repeats. Written once here; SQLite and the graph servers import it."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from core.model import Relation

# A relation end that does not exist yet: an entity of this type, marked in its properties.
PLACEHOLDER_TYPE = "Unknown"
PLACEHOLDER_KEY = "placeholder"


def utc_now() -> datetime:
    return datetime.now(UTC)


def format_ts(moment: datetime) -> str:
    """ISO-8601 UTC with milliseconds: sorts correctly as text (the form every backend stores)."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def dumps(value: Any) -> str | None:
    """A change_log payload as compact JSON text (None stays None)."""
    return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loads(value: str | None) -> Any:
    return json.loads(value) if value else None


def unique_relations(relations: Sequence[Relation]) -> list[Relation]:
    """``relations`` without repeats (same from, to and type), first occurrence kept."""
    seen: dict[tuple[str, str, str], Relation] = {}
    for r in relations:
        seen.setdefault(r.key(), r)
    return list(seen.values())
