"""Shared fixtures. Qt runs offscreen: without a display the test process would abort."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402


class SteppingClock:
    """A clock the test moves by hand, so timestamps are exact and ordered."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock() -> SteppingClock:
    return SteppingClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def memory(db_path: Path, clock: SteppingClock) -> Iterator[Memory]:
    """A real SQLite-backed memory in a temporary file."""
    with Memory(Settings(db=db_path), clock=clock) as m:
        yield m
