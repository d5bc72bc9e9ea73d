"""The contract suite runs against every backend the build has (today: SQLite).

A backend joins by adding its name to ``BACKENDS`` (skipping itself where its server is missing).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock

BACKENDS = ["sqlite"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def mem(backend: str, tmp_path: Path, clock: SteppingClock) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "contract.db", backend=backend), clock=clock) as m:
        yield m
