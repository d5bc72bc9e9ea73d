"""The contract suite runs against every backend the build has: SQLite, and FalkorDB on a server
the session starts (tests/graph_server.py).

A backend joins by adding its name to ``BACKENDS``. A test of something a backend does not do yet
is marked with ``not_on(backend, reason)``: it then checks that the backend says so (ConfigError).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock

BACKENDS = ["sqlite", "falkordb"]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def mem(backend: str, tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest) -> Iterator[Memory]:
    server = request.getfixturevalue("graph_settings") if backend != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "contract.db", **{"backend": backend, **server}), clock=clock) as m:
        yield m
