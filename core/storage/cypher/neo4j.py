"""The Neo4j dialect: how Hipocampo's Cypher store speaks to Neo4j (the write lock, schema DDL, the
full-text and vector index procedures, subquery counts). The driver (sessions, transactions, retries,
parameters, records) is bolt.py; the Cypher store above both is the one FalkorDB uses.

Proven here without a Neo4j server (tests/core/test_neo4j_driver.py, live against FalkorDB's Bolt
listener): connecting, parameterised reads, writes through the lock and the queued-write commit, the
write counter. Not proven without one (the contract suite's Neo4j leg, where ``NEO4J_URI`` names a
server): the Neo4j-only procedures and DDL (``ensure_schema``, the full-text and vector indexes and
their ``db.index.*`` calls, ``dbms.components``, ``CALL { } IN TRANSACTIONS``, ``COUNT { }``), named
databases, and rollback.

A write is one managed transaction that first writes a lock node, so writers of every process take
turns (a read-then-write never overwrites what it did not see, as FalkorDB's WATCH ensures there).
Its reads run at once and its writes go at the end, as in every dialect (``tx.QueuedTx``).
``snapshot()`` is one explicit transaction that the calls inside it join.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from core.errors import ConfigError, StorageError
from core.storage.cypher.bolt import BoltDriver, rows
from core.storage.cypher.tx import COUNTER_WRITE, QueuedTx

T = TypeVar("T")
LOCK = "MERGE (l:HipocampoWrites {key: 'writes'}) ON CREATE SET l.version = 0 SET l.taken = true"
BUMP = "MATCH (l:HipocampoWrites {key: 'writes'}) SET l.version = l.version + 1"
TEXT_INDEX = "hipocampo_text"
VECTOR_INDEX = "hipocampo_vec"
# Lucene's query syntax: every one of these is escaped, so each word is literal.
_LUCENE_SPECIAL = set('+-&|!(){}[]^"~*?:\\/')


class Neo4jTx(QueuedTx):
    """One write inside a Neo4j transaction."""

    def __init__(self, tx: Any) -> None:
        super().__init__()
        self._tx = tx

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        return rows(self._tx.run(query, params or {}))


class Neo4jDialect:
    """A Neo4j database (``graph_name``) reached through the official driver."""

    name = "neo4j"

    def __init__(self, url: str, graph_name: str, user: str | None = None, password: str | None = None) -> None:
        self.driver = BoltDriver(url, graph_name, user, password)  # ConfigError without the driver
        import neo4j

        self.url = self.driver.url
        self.graph_name = graph_name
        try:
            self.read("RETURN 1")
        except neo4j.exceptions.ClientError as exc:
            self.driver.close()
            if "DatabaseNotFound" in str(exc.code):
                raise ConfigError(
                    f"The Neo4j server has no database {graph_name!r}: create it (CREATE DATABASE {graph_name}) "
                    "or set HIPOCAMPO_GRAPH_NAME=neo4j (Neo4j Community has that one database).") from exc
            raise StorageError(f"Neo4j refused {self.url}: {exc}") from exc

    def close(self) -> None:
        self.driver.close()

    # -- running queries ------------------------------------------------------------------------

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        return self.driver.read(query, params)

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

        return self.driver.write(work)

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
        with self.driver.transaction():
            yield

    def drop(self) -> None:
        """Delete every node of this database (tests, migration targets); its indexes stay."""
        self.driver.run("MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS")

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
        for step in steps:
            self.driver.run(step)

    # -- full text and vectors ----------------------------------------------------------------

    @staticmethod
    def fulltext_query(words: list[str]) -> str:
        """Lucene syntax for "any of these folded words", every character literal, the name weighted 10×."""
        escaped = ["".join("\\" + ch if ch in _LUCENE_SPECIAL else ch for ch in w) for w in words]
        return " OR ".join(f"ft_name:{w}^10 OR ft_body:{w}" for w in escaped)

    FULLTEXT_CALL = f"CALL db.index.fulltext.queryNodes('{TEXT_INDEX}', $q) YIELD node, score WITH node, score"

    def create_vector_index(self, dimensions: int) -> None:
        self.driver.run(f"CREATE VECTOR INDEX {VECTOR_INDEX} IF NOT EXISTS FOR (v:Vec) ON v.embedding OPTIONS "
                        f"{{indexConfig: {{`vector.dimensions`: {int(dimensions)}, "
                        "`vector.similarity_function`: 'cosine'}}")

    def drop_vector_index(self) -> None:
        self.driver.run(f"DROP INDEX {VECTOR_INDEX} IF EXISTS")

    # The k nearest, ``score`` as the cosine distance the store expects: Neo4j gives (1 + cos) / 2.
    VECTOR_CALL = (f"CALL db.index.vector.queryNodes('{VECTOR_INDEX}', $k, $v) YIELD node, score AS similarity "
                   "WITH node, 2.0 * (1.0 - similarity) AS score")

    @staticmethod
    def vector_value(param: str) -> str:
        return param

    # Current and ended relations of ``e``.
    DEGREE = "COUNT { (e)-[:REL]->() } + COUNT { (e)<-[:REL]-() }"
