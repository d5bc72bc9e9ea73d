"""The contract suite runs against every backend the build has: SQLite, FalkorDB on a server the
session starts (tests/graph_server.py), and Neo4j where ``NEO4J_URI`` names a server (skipped
otherwise, saying how to run it: tests/conftest.py ``NEO4J_HOW``).

A backend joins by adding its name to ``BACKENDS``. A test of something a backend does not do yet
is marked with ``not_on(backend, reason)``: it then checks that the backend says so (ConfigError).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock

BACKENDS = ["sqlite", "falkordb", "neo4j"]
SERVER_SETTINGS = {"falkordb": "graph_settings", "neo4j": "neo4j_settings"}


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def mem(backend: str, tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest,
        local_embedder: OnnxEmbeddingProvider) -> Iterator[Memory]:
    """A fresh memory of ``backend`` embedding with the session's model (loaded on first use, once:
    a memory of its own loaded it again for every test that embeds, ~1.5 s each)."""
    server = request.getfixturevalue(SERVER_SETTINGS[backend]) if backend != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "contract.db", **{"backend": backend, **server}), clock=clock,
                embedder=local_embedder) as m:
        yield m
