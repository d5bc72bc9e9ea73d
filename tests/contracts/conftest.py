"""The contract suite runs against every backend: SQLite always, Neo4j where a server is set up."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.fixture(params=["sqlite", "neo4j"])
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "neo4j" and not os.environ.get("NEO4J_URI"):
        pytest.skip("NEO4J_URI is not set: no Neo4j server to test against")
    return request.param


@pytest.fixture
def mem(backend: str, tmp_path: Path, clock: SteppingClock) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "contract.db", backend=backend), clock=clock) as m:
        yield m
