"""What belongs to the official ``neo4j`` driver, apart from Neo4j's Cypher dialect (neo4j.py):
the connection pool, sessions, managed write transactions (the driver retries them on transient
errors), one explicit transaction a thread's calls join, parameters, and records as plain lists.

Nothing here is Neo4j-only Cypher, so it runs against any Bolt server: the tests run it live against
FalkorDB's experimental Bolt listener (tests/core/test_neo4j_driver.py), which the official driver
connects to as it does to Neo4j. That listener applies each statement at once (a rollback undoes
nothing), runs statements outside a transaction (``run``) on another graph than transactions, and
stalls the next handshake after a client disconnects; so rollback, ``run`` and database selection
are proven only against a Neo4j server: the contract suite's Neo4j leg.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlparse

from core.errors import ConfigError, StorageError

T = TypeVar("T")
SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def rows(result: Iterable[Any]) -> list[list[Any]]:
    """A result's records as plain lists of values, in the query's RETURN order."""
    return [list(record.values()) for record in result]


def shown_url(url: str) -> str:
    """``url`` without the credentials it may carry (for status lines, logs and errors)."""
    parsed = urlparse(url)
    if not parsed.hostname:
        return url
    return parsed._replace(netloc=parsed.hostname + (f":{parsed.port}" if parsed.port else "")).geturl()


class BoltDriver:
    """One Bolt server's ``database`` through the official driver (``pip install 'hipocampo[neo4j]'``)."""

    def __init__(self, url: str, database: str, user: str | None = None, password: str | None = None) -> None:
        try:
            import neo4j
        except ImportError as exc:  # pragma: no cover - the extra is missing
            raise ConfigError("The neo4j backend needs the Neo4j driver: pip install 'hipocampo[neo4j]'.") from exc
        if urlparse(url).scheme not in SCHEMES:
            raise ConfigError(f"HIPOCAMPO_GRAPH_URL for Neo4j must be bolt://host:7687 or neo4j://host:7687, "
                              f"got {url!r}.")
        self.url = shown_url(url)
        self.database = database
        self._local = threading.local()  # the open transaction of transaction(), per thread
        auth = (user or "neo4j", password) if password else None
        try:
            self._driver = neo4j.GraphDatabase.driver(url, auth=auth)
            self._driver.verify_connectivity()
        except Exception as exc:
            said = str(exc).replace(url, self.url)  # the driver's message repeats the URL, credentials and all
            said = said.replace(password, "…") if password else said
            raise StorageError(f"Cannot reach the Neo4j server at {self.url}: {said}") from exc

    def close(self) -> None:
        self._driver.close()

    def _open_tx(self) -> Any:
        return getattr(self._local, "tx", None)

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        """Run a read query (inside ``transaction()``: in it, so it sees what was written so far)."""
        open_tx = self._open_tx()
        if open_tx is not None:
            return rows(open_tx.run(query, params or {}))
        import neo4j

        records, _, _ = self._driver.execute_query(query, params or {}, database_=self.database,
                                                   routing_=neo4j.RoutingControl.READ)
        return rows(records)

    def write(self, work: Callable[[Any], T]) -> T:
        """``work(tx)`` in one managed write transaction, retried by the driver on transient errors
        (so ``work`` must be safe to run again); inside ``transaction()``, in that one instead."""
        open_tx = self._open_tx()
        if open_tx is not None:
            return work(open_tx)
        with self._driver.session(database=self.database) as session:
            return session.execute_write(work)

    def run(self, query: str, params: dict[str, Any] | None = None) -> None:
        """One statement in a session of its own, committed on its own (schema changes, and what Neo4j
        runs only outside a transaction: ``CALL { } IN TRANSACTIONS``). Not proven on FalkorDB's listener,
        which runs such statements on another graph than its transactions."""
        with self._driver.session(database=self.database) as session:
            session.run(query, params or {}).consume()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """All or nothing: one explicit transaction that every read and write of this thread joins
        until the block ends (committed then, rolled back if it raised). Nested blocks join the outer one."""
        if self._open_tx() is not None:
            yield
            return
        with self._driver.session(database=self.database) as session:
            tx = session.begin_transaction()
            self._local.tx = tx
            try:
                yield
            except BaseException:
                tx.rollback()
                raise
            else:
                tx.commit()
            finally:
                self._local.tx = None
                tx.close()
