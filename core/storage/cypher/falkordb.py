"""The FalkorDB dialect: connecting, atomic writes, and the index and procedure syntax.

A write is read-then-write: its reads run at once, its writes are queued and sent together in one
MULTI/EXEC, guarded by WATCH on a version key every writer bumps. If another client wrote in
between, the whole write is computed again, so no process ever overwrites what it did not see.
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import urlparse

from core.errors import ConfigError, StorageError
from core.storage.cypher.tx import COUNTER_WRITE, QueuedTx

T = TypeVar("T")
MAX_RETRIES = 1000
SOCKET_TIMEOUT_S = 300


class FalkorTx(QueuedTx):
    """One write: ``read`` runs now, ``write`` waits for the MULTI/EXEC."""

    def __init__(self, dialect: FalkorDialect, pipe: Any) -> None:
        from falkordb.graph import Graph

        super().__init__()
        self._dialect = dialect
        self._graph = Graph(pipe, dialect.graph_name)

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        return self._dialect.run(self._graph, query, params, read_only=True)


class FalkorDialect:
    """A FalkorDB graph reached through the ``falkordb`` client."""

    name = "falkordb"

    def __init__(self, url: str, graph_name: str, user: str | None = None, password: str | None = None) -> None:
        try:
            from falkordb import FalkorDB
        except ImportError as exc:  # pragma: no cover - the extra is missing
            raise ConfigError("The falkordb backend needs the falkordb client: pip install 'hipocampo[falkordb]'.") \
                from exc
        parsed = urlparse(url)
        if parsed.scheme not in ("redis", "rediss", "falkor", "falkors"):
            raise ConfigError(f"HIPOCAMPO_GRAPH_URL for FalkorDB must be redis://host:port, got {url!r}.")
        # redis-py gives up on an answer after 5 s by default; one batch of a large import, or a
        # snapshot copy of a large graph, takes longer (measured: a 10k-relation batch at 190k relations).
        kwargs: dict[str, Any] = {"socket_timeout": SOCKET_TIMEOUT_S, "socket_connect_timeout": 10}
        if user:
            kwargs["username"] = user
        if password:
            kwargs["password"] = password
        # Shown in status and logs: the server without any credentials in the URL.
        self.url = parsed._replace(netloc=parsed.hostname + (f":{parsed.port}" if parsed.port else "")).geturl() \
            if parsed.hostname else url
        self.graph_name = graph_name
        self.version_key = f"hipocampo:{graph_name}:version"
        #: the version key's value the last write of this process left (``cypher.memo``), None if it wrote nothing
        self.last_version: int | None = None
        try:
            self._db = FalkorDB.from_url(url, **kwargs)
            self.redis = self._db.connection
            self.redis.ping()
        except Exception as exc:
            raise StorageError(f"Cannot reach the FalkorDB server at {url}: {exc}") from exc
        self.graph = self._db.select_graph(graph_name)

    def close(self) -> None:
        self._db.close()

    # -- running queries ------------------------------------------------------------------------

    def run(self, graph: Any, query: str, params: dict[str, Any] | None, *, read_only: bool) -> list[list[Any]]:
        from redis.exceptions import ResponseError

        try:
            rows: list[list[Any]] = (graph.ro_query if read_only else graph.query)(query, params).result_set
            return rows
        except ResponseError as exc:
            if "empty key" in str(exc) or "Invalid graph operation on empty key" in str(exc):
                return []  # a graph never written is an empty graph
            raise

    def read(self, query: str, params: dict[str, Any] | None = None) -> list[list[Any]]:
        return self.run(self.graph, query, params, read_only=True)

    def read_tagged(self, query: str, params: dict[str, Any] | None = None) -> tuple[list[list[Any]], int | None]:
        """The rows of a read and the version key's value just before it, in one round trip (a
        pipeline): while the key keeps that value no write has been made since (``cypher.memo``)."""
        version, (rows,) = self._pipelined([(query, params)], tagged=True)
        return rows, version

    def read_many(self, reads: list[tuple[str, dict[str, Any] | None]]) -> list[list[list[Any]]]:
        """The rows of several independent reads, sent together (one round trip)."""
        return self._pipelined(reads, tagged=False)[1]

    def _pipelined(self, reads: list[tuple[str, dict[str, Any] | None]],
                   tagged: bool) -> tuple[int | None, list[list[list[Any]]]]:
        from falkordb.query_result import QueryResult
        from redis.exceptions import ResponseError

        with self.redis.pipeline(transaction=False) as pipe:
            if tagged:
                pipe.get(self.version_key)
            for query, params in reads:
                pipe.execute_command("GRAPH.RO_QUERY", self.graph_name,
                                     self.graph._build_params_header(params) + query, "--compact")
            try:
                answers = pipe.execute()
            except ResponseError as exc:
                if "empty key" in str(exc):  # a graph never written is an empty graph
                    return None, [[] for _ in reads]
                raise
        version = answers.pop(0) if tagged else None
        return (int(version) if version else None), [QueryResult(self.graph, raw).result_set for raw in answers]

    def version_tag(self) -> int | None:
        """The version key's value (None before the first write): what ``read_tagged`` tags rows with."""
        value = self.redis.get(self.version_key)
        return int(value) if value else None

    def write(self, fn: Callable[[FalkorTx], T]) -> T:
        """Run ``fn`` until it commits without another writer in between; return what it returned."""
        from redis.exceptions import WatchError

        self.last_version = None
        for _ in range(MAX_RETRIES):
            with self.redis.pipeline(transaction=True) as pipe:
                try:
                    pipe.watch(self.version_key)
                    tx = FalkorTx(self, pipe)
                    result = fn(tx)
                    if not tx.writes:
                        return result
                    pipe.multi()
                    for query, params in tx.writes:
                        pipe.execute_command("GRAPH.QUERY", self.graph_name,
                                             self.graph._build_params_header(params) + query, "--compact")
                    for counter, value in tx.counters.items():
                        pipe.execute_command("GRAPH.QUERY", self.graph_name,
                                             self.graph._build_params_header({"n": counter, "v": value})
                                             + COUNTER_WRITE, "--compact")
                    pipe.incr(self.version_key)
                    self.last_version = int(pipe.execute()[-1])
                    return result
                except WatchError:
                    continue
        raise StorageError("Too many concurrent writers; the write was not made.")

    def server_version(self) -> str:
        """"FalkorDB 4.16.3 on Redis 8.2.3", as far as the server tells."""
        redis_version = self.redis.info("server").get("redis_version", "?")
        for module in self.redis.execute_command("MODULE", "LIST"):
            fields = {(k.decode() if isinstance(k, bytes) else k): v for k, v in module.items()} \
                if isinstance(module, dict) else dict(zip(module[::2], module[1::2], strict=False))
            name = fields.get("name")
            if (name.decode() if isinstance(name, bytes) else name) == "graph":
                v = int(fields.get("ver", 0))
                return f"FalkorDB {v // 10000}.{v // 100 % 100}.{v % 100} on Redis {redis_version}"
        return f"Redis {redis_version}"

    def version(self) -> int:
        value = self.redis.get(self.version_key)
        return int(value) if value else 0

    # -- whole-graph operations ---------------------------------------------------------------

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[None]:
        """All or nothing: a copy of the graph is taken first and put back if the block fails."""
        backup = f"{self.graph_name}__txn_{uuid.uuid4().hex}"
        exists = bool(self.redis.exists(self.graph_name))
        if exists:
            self.redis.execute_command("GRAPH.COPY", self.graph_name, backup)
        try:
            yield
        except BaseException:
            if self.redis.exists(self.graph_name):
                self.redis.execute_command("GRAPH.DELETE", self.graph_name)
            if exists:
                self.redis.execute_command("GRAPH.COPY", backup, self.graph_name)
            version = self.redis.incr(self.version_key)
            if exists:  # facts may have gone back: moved past any value seen meanwhile (counts kept, cypher.facts)
                self.graph.query("MERGE (c:Counter {name: $n}) SET c.value = coalesce(c.value, 0) + $v",
                                 {"n": "fact_gone", "v": int(version)})
            raise
        finally:
            if exists:
                self.redis.execute_command("GRAPH.DELETE", backup)

    def drop(self) -> None:
        """Delete the whole graph (tests, migration targets)."""
        if self.redis.exists(self.graph_name):
            self.redis.execute_command("GRAPH.DELETE", self.graph_name)
        self.redis.delete(self.version_key)

    # -- schema -------------------------------------------------------------------------------

    def ensure_schema(self) -> None:
        """Indexes and the unique-name constraint, created once (each step is idempotent)."""
        from redis.exceptions import ResponseError

        # No index on relation types: FalkorDB 4.16 answers an undirected match filtered through one
        # with no rows (measured: (h)-[r:REL]-(n) WHERE r.type IN $list).
        steps = [
            "CREATE INDEX FOR (e:Entity) ON (e.id)",
            "CREATE INDEX FOR (e:Entity) ON (e.name)",
            "CREATE INDEX FOR (e:Entity) ON (e.type)",
            "CREATE INDEX FOR (e:Entity) ON (e.aliases)",  # names merged into it (core.hygiene.store)
            "CREATE INDEX FOR (e:Entity) ON (e.has_aliases)",
            "CREATE INDEX FOR (c:Change) ON (c.id)",
            "CREATE INDEX FOR (c:Change) ON (c.entity)",
            "CREATE INDEX FOR (m:Meta) ON (m.key)",
            "CREATE INDEX FOR (c:Counter) ON (c.name)",
            "CREATE INDEX FOR (v:Vec) ON (v.id)",
            # Whole words as SQLite's FTS5 matches them: no stemming ("called" is not "call"), no stopwords.
            "CALL db.idx.fulltext.createNodeIndex({label: 'Entity', stopwords: []}, "
            "{field: 'ft_name', weight: 10, nostem: true}, {field: 'ft_body', nostem: true})",
            # An entity's own words apart from its facts' (whose text is in ft_body): search ranks
            # them on their own, and a word common among facts costs nothing here.
            "CALL db.idx.fulltext.createNodeIndex({label: 'Own', stopwords: []}, "
            "{field: 'ft_name', weight: 10, nostem: true}, {field: 'ft_own', nostem: true})",
        ]
        for step in steps:
            try:
                self.graph.query(step)
            except ResponseError as exc:
                if "already indexed" not in str(exc) and "already exists" not in str(exc):
                    raise
        try:
            self.redis.execute_command("GRAPH.CONSTRAINT", "CREATE", self.graph_name, "UNIQUE", "NODE", "Entity",
                                       "PROPERTIES", 1, "name")
        except ResponseError as exc:
            if "already exists" not in str(exc):
                raise

    # -- full text and vectors ----------------------------------------------------------------

    @staticmethod
    def fulltext_query(words: list[str]) -> str:
        """RediSearch syntax for "any of these folded words", every character literal."""
        return " | ".join("".join(ch if ch.isalnum() else "\\" + ch for ch in w) for w in words)

    FULLTEXT_CALL = "CALL db.idx.fulltext.queryNodes('Entity', $q) YIELD node, score"
    OWN_CALL = "CALL db.idx.fulltext.queryNodes('Own', $q) YIELD node, score"

    def create_vector_index(self, dimensions: int) -> None:
        from redis.exceptions import ResponseError

        try:
            self.graph.query(f"CREATE VECTOR INDEX FOR (v:Vec) ON (v.embedding) "
                             f"OPTIONS {{dimension: {int(dimensions)}, similarityFunction: 'cosine'}}")
        except ResponseError as exc:
            if "already indexed" not in str(exc) and "already exists" not in str(exc):
                raise

    def drop_vector_index(self) -> None:
        from redis.exceptions import ResponseError

        with contextlib.suppress(ResponseError):
            self.graph.query("DROP VECTOR INDEX FOR (v:Vec) ON (v.embedding)")

    # The k nearest: FalkorDB's cosine "score" is a distance (0 = same direction). Vectors live on
    # ``:Vec {id}`` nodes of their own, only ever created and deleted: in FalkorDB 4.16 a node whose
    # properties are SET after it was indexed is no longer found by the vector index (measured:
    # 50 of 50 found, then 0 after one SET of an unrelated property).
    VECTOR_CALL = "CALL db.idx.vector.queryNodes('Vec', 'embedding', $k, vecf32($v)) YIELD node, score"

    # Current and ended relations of ``e``: the server keeps each node's degree per relation type.
    DEGREE = "outdegree(e, 'REL') + indegree(e, 'REL')"

    @staticmethod
    def vector_value(param: str) -> str:
        return f"vecf32({param})"
