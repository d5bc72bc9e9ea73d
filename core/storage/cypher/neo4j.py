"""The Neo4j dialect: connecting through the official ``neo4j`` driver, serialised writes, and the
index and procedure syntax. The Cypher store above it is the one FalkorDB uses.

Not yet run against a Neo4j server (none could run where it was written): the contract suite's
Neo4j leg runs where ``NEO4J_URI`` is set.

A write is one managed transaction that first writes a lock node, so writers of every process take
turns (a read-then-write never overwrites what it did not see, as FalkorDB's WATCH ensures there).
Its reads run at once and its writes go at the end, as in every dialect (``tx.QueuedTx``).
``snapshot()`` is one explicit transaction that the calls inside it join.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlparse

from core.errors import ConfigError, StorageError
from core.storage.cypher.tx import COUNTER_WRITE, QueuedTx

T = TypeVar("T")
SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
LOCK = "MERGE (l:HipocampoWrites {key: 'writes'}) ON CREATE SET l.version = 0 SET l.taken = true"
BUMP = "MATCH (l:HipocampoWrites {key: 'writes'}) SET l.version = l.version + 1"
TEXT_INDEX = "hipocampo_text"
VECTOR_INDEX = "hipocampo_vec"
# Lucene's query syntax: every one of these is escaped, so each word is literal.
_LUCENE_SPECIAL = set('+-&|!(){}[]^"~*?:\\/')


def _rows(result: Any) -> list[list[Any]]:
    return [list(record.values()) for record in result]


class Neo4jTx(QueuedTx):
    """One write inside a Neo4j transaction."""

    def __init__(self, tx: Any) -> None:
        super().__init__()
        self._tx = tx

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        return _rows(self._tx.run(query, params or {}))


class Neo4jDialect:
    """A Neo4j database (``graph_name``) reached through the official driver."""

    name = "neo4j"

    def __init__(self, url: str, graph_name: str, user: str | None = None, password: str | None = None) -> None:
        try:
            import neo4j
        except ImportError as exc:  # pragma: no cover - the extra is missing
            raise ConfigError("The neo4j backend needs the Neo4j driver: pip install 'hipocampo[neo4j]'.") from exc
        parsed = urlparse(url)
        if parsed.scheme not in SCHEMES:
            raise ConfigError(f"HIPOCAMPO_GRAPH_URL for Neo4j must be bolt://host:7687 or neo4j://host:7687, "
                              f"got {url!r}.")
        self.url = parsed._replace(netloc=parsed.hostname + (f":{parsed.port}" if parsed.port else "")).geturl() \
            if parsed.hostname else url
        self.graph_name = graph_name
        self._local = threading.local()  # the open transaction of snapshot(), per thread
        auth = (user or "neo4j", password) if password else None
        try:
            self._driver = neo4j.GraphDatabase.driver(url, auth=auth)
            self._driver.verify_connectivity()
        except Exception as exc:
            raise StorageError(f"Cannot reach the Neo4j server at {self.url}: {exc}") from exc
        try:
            self.read("RETURN 1")
        except neo4j.exceptions.ClientError as exc:
            self._driver.close()
            if "DatabaseNotFound" in str(exc.code):
                raise ConfigError(
                    f"The Neo4j server has no database {graph_name!r}: create it (CREATE DATABASE {graph_name}) "
                    "or set HIPOCAMPO_GRAPH_NAME=neo4j (Neo4j Community has that one database).") from exc
            raise StorageError(f"Neo4j refused {self.url}: {exc}") from exc

    def close(self) -> None:
        self._driver.close()

    # -- running queries ------------------------------------------------------------------------

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        open_tx = getattr(self._local, "tx", None)
        if open_tx is not None:  # inside snapshot(): see what it wrote so far
            return _rows(open_tx.run(query, params or {}))
        import neo4j

        records, _, _ = self._driver.execute_query(query, params or {}, database_=self.graph_name,
                                                   routing_=neo4j.RoutingControl.READ)
        return [list(r.values()) for r in records]

    def write(self, fn: Callable[[Neo4jTx], T]) -> T:
        """Run ``fn`` in one transaction holding the write lock; the driver retries it on transient errors."""
        def work(tx: Any) -> T:
            tx.run(LOCK).consume()  # first: writers take turns from here to the commit
            queued = Neo4jTx(tx)
            result = fn(queued)
            if queued.writes or queued.counters:
                for query, params in queued.writes:
                    tx.run(query, params).consume()
                for counter, value in queued.counters.items():
                    tx.run(COUNTER_WRITE, {"n": counter, "v": value}).consume()
                tx.run(BUMP).consume()
            return result

        open_tx = getattr(self._local, "tx", None)
        if open_tx is not None:
            return work(open_tx)
        with self._driver.session(database=self.graph_name) as session:
            return session.execute_write(work)

    def version(self) -> int:
        found = self.read("MATCH (l:HipocampoWrites {key: 'writes'}) RETURN l.version")
        return int(found[0][0]) if found else 0

    def server_version(self) -> str:
        found = self.read("CALL dbms.components() YIELD name, versions, edition RETURN name, versions[0], edition")
        return " ".join(f"{n} {v} ({e})" for n, v, e in found) or "Neo4j"

    # -- whole-graph operations ---------------------------------------------------------------

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """All or nothing: one transaction that every read and write of this thread joins until the end."""
        if getattr(self._local, "tx", None) is not None:
            yield
            return
        with self._driver.session(database=self.graph_name) as session:
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

    def drop(self) -> None:
        """Delete every node of this database (tests, migration targets); its indexes stay."""
        with self._driver.session(database=self.graph_name) as session:
            session.run("MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()

    # -- schema -------------------------------------------------------------------------------

    def ensure_schema(self) -> None:
        """Indexes and the unique-name constraint (each statement is idempotent)."""
        steps = [
            "CREATE CONSTRAINT hipocampo_entity_name IF NOT EXISTS FOR (e:Entity) REQUIRE e.name IS UNIQUE",
            "CREATE INDEX hipocampo_entity_id IF NOT EXISTS FOR (e:Entity) ON (e.id)",
            "CREATE INDEX hipocampo_entity_type IF NOT EXISTS FOR (e:Entity) ON (e.type)",
            "CREATE INDEX hipocampo_change_id IF NOT EXISTS FOR (c:Change) ON (c.id)",
            "CREATE INDEX hipocampo_change_entity IF NOT EXISTS FOR (c:Change) ON (c.entity)",
            "CREATE INDEX hipocampo_meta_key IF NOT EXISTS FOR (m:Meta) ON (m.key)",
            "CREATE INDEX hipocampo_counter_name IF NOT EXISTS FOR (c:Counter) ON (c.name)",
            "CREATE INDEX hipocampo_vec_id IF NOT EXISTS FOR (v:Vec) ON (v.id)",
            # Whole words as SQLite's FTS5 matches them: no stemming, no stopwords (the text is folded already).
            f"CREATE FULLTEXT INDEX {TEXT_INDEX} IF NOT EXISTS FOR (e:Entity) ON EACH [e.ft_name, e.ft_body] "
            "OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}}",
        ]
        with self._driver.session(database=self.graph_name) as session:
            for step in steps:
                session.run(step).consume()

    # -- full text and vectors ----------------------------------------------------------------

    @staticmethod
    def fulltext_query(words: list[str]) -> str:
        """Lucene syntax for "any of these folded words", every character literal, the name weighted 10×."""
        escaped = ["".join("\\" + ch if ch in _LUCENE_SPECIAL else ch for ch in w) for w in words]
        return " OR ".join(f"ft_name:{w}^10 OR ft_body:{w}" for w in escaped)

    FULLTEXT_CALL = f"CALL db.index.fulltext.queryNodes('{TEXT_INDEX}', $q) YIELD node, score WITH node, score"

    def create_vector_index(self, dimensions: int) -> None:
        with self._driver.session(database=self.graph_name) as session:
            session.run(f"CREATE VECTOR INDEX {VECTOR_INDEX} IF NOT EXISTS FOR (v:Vec) ON v.embedding OPTIONS "
                        f"{{indexConfig: {{`vector.dimensions`: {int(dimensions)}, "
                        "`vector.similarity_function`: 'cosine'}}").consume()

    def drop_vector_index(self) -> None:
        with self._driver.session(database=self.graph_name) as session:
            session.run(f"DROP INDEX {VECTOR_INDEX} IF EXISTS").consume()

    # The k nearest, ``score`` as the cosine distance the store expects: Neo4j gives (1 + cos) / 2.
    VECTOR_CALL = (f"CALL db.index.vector.queryNodes('{VECTOR_INDEX}', $k, $v) YIELD node, score AS similarity "
                   "WITH node, 2.0 * (1.0 - similarity) AS score")

    @staticmethod
    def vector_value(param: str) -> str:
        return param

    # Current and ended relations of ``e``.
    DEGREE = "COUNT { (e)-[:REL]->() } + COUNT { (e)<-[:REL]-() }"
