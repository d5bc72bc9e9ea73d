"""Input validation every part of ``Memory`` shares: refused input names the bad item and says that
nothing was changed, before anything is written."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from core.errors import InvalidInput
from core.settings import Settings

M = TypeVar("M", bound=BaseModel)
MAX_PAGE = 2**63 - 1  # SQLite's largest integer: a limit or offset beyond it cannot be asked for


def coerce(kind: type[M], items: Any, what: str) -> list[M]:
    """Validate a list of dicts/models into ``kind``; errors name the item and the field."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise InvalidInput(f"{what} must be a list, got {type(items).__name__}")
    items = list(items)
    try:
        # ``kind`` is a pydantic model class picked at run time: mypy cannot take a variable as a type.
        return TypeAdapter(list[kind]).validate_python(  # type: ignore[valid-type]
            [i.model_dump(by_alias=True) if isinstance(i, BaseModel) else i for i in items]
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = err["loc"]
        where = f"{what}[{loc[0]}]" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc[1:])
        raise InvalidInput(f"{where}: {err['msg']}. Nothing was changed.") from None


class Name(BaseModel):
    name: str

    model_config = {"strict": True}


def as_list(values: Any, what: str) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidInput(f"{what} must be a list of names, got {type(values).__name__}")
    return list(values)


def names(values: Any, what: str = "names") -> list[str]:
    """``values`` as a list of names; anything but a list of strings is refused, naming the item."""
    listed = as_list(values, what)
    for i, name in enumerate(listed):
        if not isinstance(name, str):
            raise InvalidInput(f"{what}[{i}] must be a string, got {type(name).__name__}")
    return listed


def check_page(limit: int | None, offset: int) -> None:
    for name, value in (("limit", limit), ("offset", offset)):
        if value is not None and not 0 <= value <= MAX_PAGE:
            raise InvalidInput(f"{name} must be a whole number from 0 to {MAX_PAGE:,}, got {value:,}. "
                               "Nothing was read; omit limit to read every entity.")


def check_query(query: Any) -> None:
    if not isinstance(query, str):
        raise InvalidInput(f"query must be a string, got {type(query).__name__}")
    if "\x00" in query:
        raise InvalidInput("query contains a NUL character, which no name, type or observation can hold; "
                           "nothing was searched. Send the query without it.")


def check_observation(value: str, where: str) -> None:
    if not value.strip():
        raise InvalidInput(f"{where}: observation must not be empty. Nothing was changed.")
    if "\x00" in value:
        raise InvalidInput(f"{where}: observation contains a NUL character. Nothing was changed.")


def check_title(title: Any) -> None:
    if not isinstance(title, str) or not title.strip():
        raise InvalidInput("title must be the exact, non-empty title of an insight")


class Limits:
    """The checks that read the settings' limits (name length, request size)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def name(self, value: str, where: str, kind: str = "name") -> None:
        if not value.strip():
            raise InvalidInput(f"{where}: {kind} must not be empty. Nothing was changed.")
        if len(value) > self.settings.max_name_chars:
            raise InvalidInput(
                f"{where}: {kind} is {len(value)} characters; the limit is "
                f"{self.settings.max_name_chars}. Nothing was changed."
            )
        if "\x00" in value:
            raise InvalidInput(f"{where}: {kind} contains a NUL character. Nothing was changed.")

    def request(self, texts: Iterable[str], what: str) -> None:
        """One protective limit on a whole call's size (``max_request_bytes``), the same everywhere."""
        size = sum(len(t.encode("utf-8")) for t in texts)
        if size > self.settings.max_request_bytes:
            raise InvalidInput(
                f"{what}: this request holds {size:,} bytes; the limit is {self.settings.max_request_bytes:,} "
                "(HIPOCAMPO_MAX_REQUEST_BYTES). Send it in several smaller calls. Nothing was changed."
            )


def moment(value: datetime | str | None, now: datetime, what: str = "ended_at") -> str | None:
    """``value`` (a datetime, an ISO date or date-time, not after ``now``) as stored timestamps are written."""
    if value is None:
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            raise InvalidInput(f"{what} must be an ISO-8601 date or time, got {value!r}. "
                               "Nothing was changed.") from None
    if not isinstance(value, datetime):
        raise InvalidInput(f"{what} must be a date, got {type(value).__name__}. Nothing was changed.")
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    value = value.astimezone(UTC)
    if value > now:
        raise InvalidInput(f"{what} {value.date().isoformat()} is in the future. Nothing was changed.")
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"
