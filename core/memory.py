"""Memory: the one façade every caller uses (MCP tools, CLI, desktop app).

It validates input (types, sizes, emptiness) before anything is written, so a batch with one bad
item changes nothing, and it names the bad item in the error. Storage semantics live in the store.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from core.embeddings.factory import create_embedder
from core.embeddings.foreground import Foreground
from core.embeddings.indexer import EmbeddingIndexer, load_at_background_priority
from core.errors import ConfigError, Conflict, EmbeddingError, InvalidInput, NotFound, StorageError
from core.model import (
    AddedObservations,
    CreateEntitiesResult,
    EntityInput,
    GraphCommunities,
    GraphOverview,
    KnowledgeGraph,
    Neighbour,
    Node,
    NodeWithNeighbours,
    ObservationDeletion,
    ObservationInput,
    Relation,
    ScoredNode,
)
from core.protocols import EmbeddingProvider, GraphStore, VectorStore
from core.search.hybrid import HybridSearcher
from core.settings import Settings
from core.storage.factory import create_stores

M = TypeVar("M", bound=BaseModel)
log = logging.getLogger(__name__)
_MAX_PAGE = 2**63 - 1  # SQLite's largest integer: a limit or offset beyond it cannot be asked for


def _coerce(kind: type[M], items: Any, what: str) -> list[M]:
    """Validate a list of dicts/models into ``kind``; errors name the item and the field."""
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise InvalidInput(f"{what} must be a list, got {type(items).__name__}")
    items = list(items)
    try:
        return TypeAdapter(list[kind]).validate_python(  # type: ignore[valid-type]
            [i.model_dump(by_alias=True) if isinstance(i, BaseModel) else i for i in items]
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = err["loc"]
        where = f"{what}[{loc[0]}]" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc[1:])
        raise InvalidInput(f"{where}: {err['msg']}. Nothing was changed.") from None


class Memory:
    """The knowledge graph, whatever backend holds it."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        graph: GraphStore | None = None,
        vectors: VectorStore | None = None,
        clock: Callable[[], datetime] | None = None,
        embedder: EmbeddingProvider | None = None,
    ) -> None:
        self.settings = settings or Settings()
        if graph is None:
            stores = create_stores(self.settings, clock=clock)
            graph, vectors = stores.graph, stores.vectors
        self.graph: GraphStore = graph
        self.vectors: VectorStore | None = vectors
        self._clock = clock
        self.embedder: EmbeddingProvider | None = embedder  # given: shared, not closed here
        self._owns_embedder = embedder is None
        self.embedding_error: str | None = None
        if embedder is None:
            try:
                created = create_embedder(self.settings)
                if created.model_id != "none":
                    self.embedder = created
            except EmbeddingError as exc:  # e.g. the model was never built: full text still works
                self.embedding_error = str(exc)
                log.warning("Semantic search unavailable: %s", exc)
        # Calls marked busy() make the background embedder step aside (see core.embeddings.foreground).
        self.foreground = Foreground()
        self.indexer: EmbeddingIndexer | None = (
            EmbeddingIndexer(vectors, self.embedder, foreground=self.foreground)
            if self.embedder is not None and vectors is not None else None
        )
        self._background = False
        self._reads: Any = None  # the read log, opened on first use (core.storage.read_log)

    @classmethod
    def open(cls, db: Path | str | None = None, **overrides: Any) -> Memory:
        """Open the memory at ``db`` (default: settings/env), e.g. ``Memory.open(":memory:")``."""
        clock = overrides.pop("clock", None)
        if db is not None:
            overrides["db"] = db
        return cls(Settings(**overrides), clock=clock)

    def close(self) -> None:
        """Stop background embedding (releasing its lease), then close the model and the file."""
        idle = self.indexer.stop() if self.indexer is not None else True
        close = getattr(self.embedder, "close", None)
        if close is not None and self._owns_embedder and idle:  # never under a running batch
            close()
        if self._reads is not None:
            self._reads.close()
        self.graph.close()

    def halt_background(self) -> None:
        """Ask background embedding to stop now, without waiting (a quit's first step; ``close`` waits)."""
        if self.indexer is not None:
            self.indexer.halt()

    # -- embeddings --------------------------------------------------------------------------

    def start_background(self) -> None:
        """Keep vectors in step with writes from a background thread (servers and the app)."""
        if self.indexer is not None and not self._background:
            self._background = True
            self.indexer.start()
            self.indexer.notify()

    def load_embedder(self) -> None:
        """Load the embedding model now (the app does so while it opens) so no later call pauses for it."""
        if self.embedder is None:
            return
        try:
            load_at_background_priority(self.embedder)
        except EmbeddingError as exc:  # the indexer reports the same error when it tries; full text still works
            self.embedding_error = str(exc)
            log.warning("Semantic search unavailable: %s", exc)

    def busy(self) -> contextlib.AbstractContextManager[None]:
        """Mark a foreground call (an MCP tool, a GUI request): background embedding waits for it."""
        return self.foreground.call()

    def _written(self) -> None:
        if self._background and self.indexer is not None:
            self.indexer.notify()

    def embed_pending(self, progress: Any = None, cancel: threading.Event | None = None) -> int:
        """Embed every entity whose vector is missing or stale, now; returns how many."""
        if self.indexer is None:
            return 0
        return self.indexer.run_until_idle(progress, cancel)

    def forget_embeddings(self) -> None:
        """Mark every entity as due for embedding (``hipocampo reindex --all``)."""
        if self.vectors is not None:
            self.vectors.forget_state()

    def embedding_status(self) -> dict[str, Any]:
        """Provider, model, how many entities are embedded, and any error."""
        if self.indexer is None:
            return {"provider": self.settings.embeddings, "model": None, "embedded": 0,
                    "entities": self.health_check().get("counts", {}).get("entities", 0),
                    "error": self.embedding_error or "no embedding provider: search uses full text"}
        return {"provider": self.settings.embeddings, **self.indexer.status()}

    def _searcher(self) -> HybridSearcher:
        clock = self._clock or (lambda: datetime.now(UTC))
        return HybridSearcher(self.graph, self.vectors, self.embedder, clock=clock)

    def search_vectors(self, query: str, limit: int = 10) -> list[dict[str, Any]]:
        """Plain cosine KNN, nothing else (for measuring what hybrid search adds)."""
        return self._searcher().search(query, limit, record=False, use_text=False, use_limbic=False)

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """All calls inside land together or not at all: ``with memory.transaction(): …``."""
        return self.graph.transaction()

    def importing(self, source: str, *, actor: str | None = None) -> contextlib.AbstractContextManager[Any]:
        """An import as one unit that never holds the write lock for long: ``with memory.importing(
        "notes.jsonl"): …``. Its writes land in short transactions tagged with an import id; if the
        block raises (a refused file, a cancel), or the process dies, all of it is rolled back."""
        starter = getattr(self.graph, "importing", None)
        if not callable(starter):
            return self.graph.transaction()
        return starter(source, self._actor(actor))

    def _actor(self, actor: str | None) -> str:
        return actor or self.settings.actor

    # -- validation --------------------------------------------------------------------------

    def _check_name(self, value: str, where: str, kind: str = "name") -> None:
        if not value.strip():
            raise InvalidInput(f"{where}: {kind} must not be empty. Nothing was changed.")
        if len(value) > self.settings.max_name_chars:
            raise InvalidInput(
                f"{where}: {kind} is {len(value)} characters; the limit is "
                f"{self.settings.max_name_chars}. Nothing was changed."
            )
        if "\x00" in value:
            raise InvalidInput(f"{where}: {kind} contains a NUL character. Nothing was changed.")

    def _check_observation(self, value: str, where: str) -> None:
        if not value.strip():
            raise InvalidInput(f"{where}: observation must not be empty. Nothing was changed.")
        if "\x00" in value:
            raise InvalidInput(f"{where}: observation contains a NUL character. Nothing was changed.")

    def _check_request(self, texts: Iterable[str], what: str) -> None:
        """One protective limit on a whole call's size (``max_request_bytes``), the same everywhere."""
        size = sum(len(t.encode("utf-8")) for t in texts)
        if size > self.settings.max_request_bytes:
            raise InvalidInput(
                f"{what}: this request holds {size:,} bytes; the limit is {self.settings.max_request_bytes:,} "
                "(HIPOCAMPO_MAX_REQUEST_BYTES). Send it in several smaller calls. Nothing was changed."
            )

    # -- the official memory server's operations ---------------------------------------------

    def create_entities(self, entities: Any, *, actor: str | None = None) -> CreateEntitiesResult:
        """Create entities; for ones that already exist, add the new observations and report them."""
        items = _coerce(EntityInput, entities, "entities")
        for i, e in enumerate(items):
            self._check_name(e.name, f"entities[{i}].name")
            self._check_name(e.entityType, f"entities[{i}].entityType", "entityType")
            for j, o in enumerate(e.observations):
                self._check_observation(o, f"entities[{i}].observations[{j}]")
        self._check_request((t for e in items for t in (e.name, e.entityType, *e.observations)), "entities")
        created, merged = self.graph.create_entities(items, self._actor(actor))
        self._written()
        return CreateEntitiesResult(entities=created, merged=[m for m in merged if m.addedObservations])

    def create_relations(self, relations: Any, *, actor: str | None = None) -> list[Relation]:
        """Create relations; returns only the new ones. Missing ends become placeholder entities."""
        items = _coerce(Relation, relations, "relations")
        for i, r in enumerate(items):
            self._check_name(r.from_, f"relations[{i}].from", "from")
            self._check_name(r.to, f"relations[{i}].to", "to")
            self._check_name(r.relationType, f"relations[{i}].relationType", "relationType")
        self._check_request((t for r in items for t in (r.from_, r.to, r.relationType)), "relations")
        created = self.graph.create_relations(items, self._actor(actor))
        self._written()
        return created

    def add_observations(self, observations: Any, *, actor: str | None = None) -> list[AddedObservations]:
        """Add observations to existing entities; an unknown entity fails the whole batch."""
        items = _coerce(ObservationInput, observations, "observations")
        for i, item in enumerate(items):
            self._check_name(item.entityName, f"observations[{i}].entityName", "entityName")
            for j, o in enumerate(item.contents):
                self._check_observation(o, f"observations[{i}].contents[{j}]")
        self._check_request((t for i in items for t in (i.entityName, *i.contents)), "observations")
        added = self.graph.add_observations(items, self._actor(actor))
        self._written()
        return added

    def delete_entities(self, names: Any, *, actor: str | None = None) -> int:
        """Delete entities and everything attached to them; unknown names are ignored."""
        items = _coerce(_Name, [{"name": n} for n in _as_list(names, "entityNames")], "entityNames")
        return self.graph.delete_entities([n.name for n in items], self._actor(actor))

    def delete_observations(self, deletions: Any, *, actor: str | None = None) -> int:
        items = _coerce(ObservationDeletion, deletions, "deletions")
        removed = self.graph.delete_observations(items, self._actor(actor))
        self._written()
        return removed

    def delete_relations(self, relations: Any, *, actor: str | None = None) -> int:
        items = _coerce(Relation, relations, "relations")
        removed = self.graph.delete_relations(items, self._actor(actor))
        self._written()
        return removed

    def read_graph(
        self, *, limit: int | None = None, offset: int = 0, names_only: bool = False
    ) -> KnowledgeGraph:
        """The whole graph by default; ``limit``/``offset`` page it; ``names_only`` trims it."""
        self._check_page(limit, offset)
        return self.graph.read_graph(limit=limit, offset=offset, names_only=names_only)

    def read_graph_dump(
        self, *, limit: int | None = None, offset: int = 0, names_only: bool = False
    ) -> dict[str, Any]:
        """``read_graph`` as the official JSON shape, built the fastest way the backend knows."""
        self._check_page(limit, offset)
        return self.graph.read_graph_dump(limit=limit, offset=offset, names_only=names_only)

    @staticmethod
    def _check_page(limit: int | None, offset: int) -> None:
        for name, value in (("limit", limit), ("offset", offset)):
            if value is not None and not 0 <= value <= _MAX_PAGE:
                raise InvalidInput(f"{name} must be a whole number from 0 to {_MAX_PAGE:,}, got {value:,}. "
                                   "Nothing was read; omit limit to read every entity.")

    def search_nodes(self, query: str, *, limit: int | None = None) -> KnowledgeGraph:
        """Substring search, folding case and accents; every character is literal; ``""`` matches all."""
        self._check_query(query)
        return self.graph.search_nodes(query, limit=limit)

    def search_nodes_dump(self, query: str, *, limit: int | None = None) -> dict[str, Any]:
        """``search_nodes`` as the official JSON shape, built the fastest way the backend knows."""
        self._check_query(query)
        dump = getattr(self.graph, "search_nodes_dump", None)  # backends without a fast path: models
        return dump(query, limit=limit) if dump is not None else self.graph.search_nodes(query, limit=limit).dump()

    @staticmethod
    def _check_query(query: Any) -> None:
        if not isinstance(query, str):
            raise InvalidInput(f"query must be a string, got {type(query).__name__}")
        if "\x00" in query:
            raise InvalidInput("query contains a NUL character, which no name, type or observation can hold; "
                               "nothing was searched. Send the query without it.")

    def open_nodes(self, names: Any) -> KnowledgeGraph:
        """The named entities (exact names; unknown ones ignored) and the relations touching them."""
        return self.graph.open_nodes(_names(names))

    def open_nodes_dump(self, names: Any) -> dict[str, Any]:
        """``open_nodes`` as the official JSON shape, built the fastest way the backend knows."""
        dump = getattr(self.graph, "open_nodes_dump", None)  # backends without a fast path: models
        return dump(_names(names)) if dump is not None else self.graph.open_nodes(_names(names)).dump()

    # -- Engrama's graph operations ----------------------------------------------------------

    def merge_node(
        self, label: str, name: str, props: Mapping[str, Any] | None = None, *, actor: str | None = None
    ) -> Node:
        self._check_name(label, "label")
        self._check_name(name, "name")
        if props is not None and not isinstance(props, Mapping):
            raise InvalidInput(f"props must be an object, got {type(props).__name__}")
        self._check_request([name, label, json.dumps(props or {}, ensure_ascii=False, default=str)], "properties")
        node = self.graph.merge_node(label, name, dict(props or {}), self._actor(actor))
        self._written()
        return node

    def get_node(self, name: str) -> Node | None:
        return self.graph.get_node(name)

    def require_node(self, name: str) -> Node:
        node = self.graph.get_node(name)
        if node is None:
            raise NotFound(f"Entity {name!r} does not exist.")
        return node

    def delete_node(self, name: str, *, soft: bool = True, actor: str | None = None) -> bool:
        return self.graph.delete_node(name, self._actor(actor), soft=soft)

    def archive_node(self, name: str, *, actor: str | None = None) -> bool:
        return self.graph.archive_node(name, self._actor(actor))

    def list_nodes(self, **kwargs: Any) -> list[Node]:
        return self.graph.list_nodes(**kwargs)

    def merge_relation(
        self, from_name: str, rel_type: str, to_name: str,
        props: Mapping[str, Any] | None = None, *, actor: str | None = None,
    ) -> tuple[Relation, bool]:
        for value, where in ((from_name, "from"), (rel_type, "relationType"), (to_name, "to")):
            self._check_name(value, where)
        result = self.graph.merge_relation(from_name, rel_type, to_name, dict(props or {}), self._actor(actor))
        self._written()
        return result

    def get_neighbours(self, name: str, hops: int = 1, *, rel_types: Sequence[str] | None = None) -> list[Neighbour]:
        return self.graph.get_neighbours(name, hops, rel_types=rel_types)

    def get_node_with_neighbours(self, name: str, hops: int = 1) -> NodeWithNeighbours:
        return self.graph.get_node_with_neighbours(name, hops)

    def lookup_node_label(self, name: str) -> str | None:
        return self.graph.lookup_node_label(name)

    def fulltext_search(self, query: str, *, limit: int = 10, label: str | None = None) -> list[ScoredNode]:
        if limit < 1:
            raise InvalidInput(f"limit must be 1 or more, got {limit}")
        return self.graph.fulltext_search(query, limit=limit, label=label)

    def search_semantic(
        self, query: str, limit: int = 10, *, entity_type: str | None = None, include_archived: bool = False,
        record: bool = True, per_entity: int = 3, max_tokens: int | None = None,
        include_superseded: bool = False,
    ) -> list[dict[str, Any]]:
        """Search by meaning and words: facts ranked (their vectors and BM25, fused by RRF with each
        entity's own vector and words), answered as entities with their best ``per_entity`` facts,
        within ``max_tokens``; empty when nothing is a good match. Records what was recalled
        (``record=False``: a look that is no recall, such as the app's search as you type). Without
        an embedding provider it ranks by full text alone. Facts an approved supersession retired
        are left out (``include_superseded``: kept, and listed under each hit's ``superseded``)."""
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("query must be a non-empty string")
        if not isinstance(limit, int) or not 1 <= limit <= 100:
            raise InvalidInput(f"limit must be between 1 and 100, got {limit!r}")
        if not isinstance(per_entity, int) or not 0 <= per_entity <= 100:
            raise InvalidInput(f"per_entity must be between 0 and 100, got {per_entity!r}")
        if max_tokens is not None and (not isinstance(max_tokens, int) or max_tokens < 1):
            raise InvalidInput(f"max_tokens must be 1 or more, got {max_tokens!r}")
        from core.hygiene.supersede import filter_hits

        hits = self._searcher().search(query, limit, entity_type=entity_type, include_archived=include_archived,
                                       record=bool(record) and not self.settings.read_only,  # recall is a write
                                       per_entity=per_entity, max_tokens=max_tokens)
        return filter_hits(self.graph, hits, keep=include_superseded)

    def count_labels(self) -> dict[str, int]:
        return self.graph.count_labels()

    def graph_overview(
        self, *, limit: int = 300, by: str = "degree", per_type: int = 3, entity_type: str | None = None
    ) -> GraphOverview:
        """The top live entities by degree or access (``per_type`` of each type first), their relations, counts."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 5000:
            raise InvalidInput(f"limit must be between 1 and 5000, got {limit!r}")
        if by not in ("degree", "access"):
            raise InvalidInput(f"by must be 'degree' or 'access', got {by!r}")
        if isinstance(per_type, bool) or not isinstance(per_type, int) or not 0 <= per_type <= limit:
            raise InvalidInput(f"per_type must be between 0 and limit ({limit}), got {per_type!r}")
        return self.graph.graph_overview(limit=limit, by=by, per_type=per_type, entity_type=entity_type)

    def graph_communities(self, *, limit: int = 60) -> GraphCommunities:
        """The whole memory as its ``limit`` largest communities of related entities (igraph's Leiden)."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise InvalidInput(f"limit must be between 1 and 1000, got {limit!r}")
        return self.graph.graph_communities(limit=limit)

    def graph_community(self, name: str, *, limit: int = 300) -> GraphOverview:
        """The community of entity ``name``: its ``limit`` best-connected members and their relations."""
        if not isinstance(name, str) or not name:
            raise InvalidInput("name must be a non-empty string")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 5000:
            raise InvalidInput(f"limit must be between 1 and 5000, got {limit!r}")
        return self.graph.graph_community(name, limit=limit)

    def health_check(self, *, deep: bool = False) -> dict[str, Any]:
        """Counts and versions; ``deep=True`` also checks the file's integrity (slower)."""
        return self.graph.health_check(deep=deep)

    def query_at_date(self, when: datetime | str) -> KnowledgeGraph:
        return self.graph.query_at_date(when)

    def history(self, name: str | None = None, *, limit: int = 100) -> list[dict[str, Any]]:
        """change_log rows, newest first: who changed what, when, with the state before."""
        return self.graph.history(name, limit=limit)

    def changes_since(self, after_id: int, *, limit: int = 500) -> list[dict[str, Any]]:
        """change_log rows newer than ``after_id``, oldest first: what to refresh after a write."""
        if isinstance(after_id, bool) or not isinstance(after_id, int) or after_id < 0:
            raise InvalidInput(f"after_id must be a whole number ≥ 0, got {after_id!r}")
        if not 1 <= limit <= 10_000:
            raise InvalidInput(f"limit must be between 1 and 10000, got {limit!r}")
        return self.graph.changes_since(after_id, limit=limit)

    def latest_change_id(self) -> int:
        """The newest change_log id; a feed starts from here so it only reports what comes next."""
        return self.graph.latest_change_id()

    def activity(
        self, *, before_id: int | None = None, actor: str | None = None,
        since: datetime | str | None = None, until: datetime | str | None = None, limit: int = 200,
    ) -> list[dict[str, Any]]:
        """change_log rows newest first, by ``actor`` and within ``since <= at < until``; pass the
        oldest id seen as ``before_id`` for the next page."""
        if before_id is not None and (isinstance(before_id, bool) or not isinstance(before_id, int)
                                      or before_id < 1):
            raise InvalidInput(f"before_id must be a whole number ≥ 1, got {before_id!r}")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
            raise InvalidInput(f"limit must be between 1 and 10000, got {limit!r}")
        for value, what in ((since, "since"), (until, "until")):
            if value is not None and not isinstance(value, (datetime, str)):
                raise InvalidInput(f"{what} must be a date-time or ISO-8601 text, got {type(value).__name__}")
        return self.graph.activity(before_id=before_id, actor=actor, since=since, until=until, limit=limit)

    def activity_actors(self) -> list[dict[str, Any]]:
        """Everyone who has written to this memory (actor, changes, last_at), latest first."""
        return self.graph.activity_actors()

    def data_version(self) -> int:
        """A number that changes whenever another connection (another process) commits a write."""
        return self.graph.data_version()

    def metadata(self, key: str) -> str | None:
        """Bookkeeping kept in the database beside the graph (e.g. what was last synced), or None."""
        return self.graph.get_metadata(key)

    def set_metadata(self, key: str, value: str) -> None:
        """Keep a bookkeeping value in the database (not part of the graph, not in change_log)."""
        self.graph.set_metadata(key, value)

    def restore_entity(self, name: str, *, actor: str | None = None) -> Node:
        """Undo the latest deletion of ``name`` (entity, observations, relations to what exists)."""
        node = self.graph.restore_entity(name, self._actor(actor))
        self._written()
        return node

    # -- editing one entity, undo (the desktop editor, `hipocampo undo`) -----------------------

    def rename_entity(self, old: str, new: str, *, actor: str | None = None) -> bool:
        """Rename an entity, keeping its observations, relations and history; a taken name → Conflict."""
        self._check_name(old, "old", "name")
        self._check_name(new, "new", "name")
        changed = self.graph.rename_entity(old, new, self._actor(actor))
        self._written()
        return changed

    def set_entity_type(self, name: str, entity_type: str, *, actor: str | None = None) -> bool:
        """Change an entity's type (Engrama's label)."""
        self._check_name(name, "name")
        self._check_name(entity_type, "entityType", "entityType")
        changed = self.graph.set_entity_type(name, entity_type, self._actor(actor))
        self._written()
        return changed

    def replace_observation(self, name: str, old: str, new: str, *, actor: str | None = None) -> bool:
        """Edit one observation in place; an unknown ``old`` → NotFound, a duplicate ``new`` → Conflict."""
        self._check_name(name, "name")
        if not isinstance(old, str):
            raise InvalidInput("old must be the observation's exact text. Nothing was changed.")
        self._check_observation(new, "new")
        changed = self.graph.replace_observation(name, old, new, self._actor(actor))
        self._written()
        return changed

    def end_relation(
        self, from_name: str, to_name: str, relation_type: str, ended_at: datetime | str | None = None,
        *, actor: str | None = None,
    ) -> bool:
        """Mark a relation as no longer true since ``ended_at`` (default now): kept, not current."""
        for value, where in ((from_name, "from"), (to_name, "to"), (relation_type, "relationType")):
            self._check_name(value, where)
        changed = self.graph.end_relation(from_name, to_name, relation_type, self._moment(ended_at),
                                          self._actor(actor))
        self._written()
        return changed

    def _moment(self, value: datetime | str | None) -> str | None:
        """``value`` (a datetime, an ISO date or date-time) as stored timestamps are written."""
        if value is None:
            return None
        if isinstance(value, str):
            try:
                value = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
            except ValueError:
                raise InvalidInput(f"ended_at must be an ISO-8601 date or time, got {value!r}. "
                                   "Nothing was changed.") from None
        if not isinstance(value, datetime):
            raise InvalidInput(f"ended_at must be a date, got {type(value).__name__}. Nothing was changed.")
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        value = value.astimezone(UTC)
        now = (self._clock or (lambda: datetime.now(UTC)))()
        if value > now:
            raise InvalidInput(f"ended_at {value.date().isoformat()} is in the future. Nothing was changed.")
        return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"

    def save_entity(
        self, name: str, *, expected_version: int | None = None, create: bool = False,
        new_name: str | None = None, entity_type: str | None = None,
        add_observations: Sequence[str] = (), edit_observations: Sequence[Any] = (),
        delete_observations: Sequence[str] = (), add_relations: Any = (), delete_relations: Any = (),
        end_relations: Sequence[Mapping[str, Any]] = (), actor: str | None = None,
    ) -> dict[str, Any]:
        """Apply one editor Save all-or-nothing: ``create`` (a new entity) or the type, observation
        deletes, edits (``(old, new)`` pairs) and adds, relation removes, ends (``{from, to,
        relationType, ended_at?}``) and adds, then the rename to ``new_name``. Relations name this
        entity by ``name``. With ``expected_version`` (``entity_for_edit``'s ``version``), a change
        to the entity by anyone since then → Conflict naming it, and nothing is written.
        Returns ``{"name", "change_id"}`` (``change_id`` None when nothing changed)."""
        self._check_name(name, "name")
        for value, where in ((new_name, "new_name"), (entity_type, "entityType")):
            if value is not None:
                self._check_name(value, where, where)
        if expected_version is not None and (isinstance(expected_version, bool)
                                             or not isinstance(expected_version, int)):
            raise InvalidInput(f"expected_version must be a change id, got {expected_version!r}. Nothing was changed.")
        adds = list(add_observations)
        for i, o in enumerate(adds):
            self._check_observation(o, f"add_observations[{i}]")
        edits: list[tuple[str, str]] = []
        for i, pair in enumerate(edit_observations):
            old, new = (pair["old"], pair["new"]) if isinstance(pair, Mapping) else pair
            if not isinstance(old, str):
                raise InvalidInput(f"edit_observations[{i}]: old must be the observation's text. Nothing was changed.")
            self._check_observation(new, f"edit_observations[{i}].new")
            edits.append((old, new))
        self._check_request([*adds, *(new for _, new in edits)], "save_entity")
        deletes = list(delete_observations)
        if any(not isinstance(o, str) for o in deletes):
            raise InvalidInput("delete_observations must be observation texts. Nothing was changed.")
        ends = list(end_relations)
        if any(not isinstance(e, Mapping) for e in ends):
            raise InvalidInput("end_relations must be objects {from, to, relationType, ended_at?}. "
                               "Nothing was changed.")
        relations = {what: _coerce(Relation, items, what) for what, items in (
            ("add_relations", add_relations), ("delete_relations", delete_relations),
            ("end_relations", [{k: e[k] for k in ("from", "to", "relationType") if k in e} for e in ends]))}
        for what, items in relations.items():
            for i, r in enumerate(items):
                for value, where in ((r.from_, "from"), (r.to, "to"), (r.relationType, "relationType")):
                    self._check_name(value, f"{what}[{i}].{where}")
        plan = {
            "create": bool(create), "new_name": new_name if new_name != name else None,
            "entity_type": entity_type, "add_observations": adds, "edit_observations": edits,
            "delete_observations": deletes, "add_relations": relations["add_relations"],
            "delete_relations": relations["delete_relations"],
            "end_relations": [(r, self._moment(e.get("ended_at")))
                              for r, e in zip(relations["end_relations"], ends, strict=True)],
        }
        change_id = self.graph.save_entity(name, plan, expected_version, self._actor(actor))
        if change_id is not None:
            self._written()
        return {"name": plan["new_name"] or name, "change_id": change_id}

    def entity_for_edit(self, name: str) -> dict[str, Any]:
        """What the editor shows: ``{"node", "relations" (ended ones too, with created_at/ended_at),
        "version"}``; pass ``version`` back to ``save_entity`` as ``expected_version``."""
        self._check_name(name, "name")
        return self.graph.entity_for_edit(name)

    def entity_history(self, name: str, *, limit: int = 100) -> list[dict[str, Any]]:
        """change_log rows about one entity, newest first, under every name it has had, with
        relations from other entities to it."""
        if not 1 <= limit <= 10_000:
            raise InvalidInput(f"limit must be between 1 and 10000, got {limit!r}")
        return self.graph.entity_history(name, limit=limit)

    @staticmethod
    def describe_change(row: Mapping[str, Any]) -> str:
        """A short English phrase for a change_log row ("renamed Ada to Ada L.", "delete entity Bob")."""
        from core.storage.sqlite.edits import describe

        after = row.get("after")
        if row.get("op") == "undo" and isinstance(after, Mapping) and "undo_of" in after:
            op = str(after.get("op", "")).replace("_", " ")
            return f"undid change #{after['undo_of']} ({op} {row.get('entity')})"
        return describe(dict(row))

    def last_deletion(self, name: str) -> dict[str, Any] | None:
        """The change that deleted ``name`` if it is deleted now (so it can be restored), else None."""
        return self.graph.last_deletion(name)

    def relation_type_counts(self) -> dict[str, int]:
        """How many relations of each type the memory holds, most used first (for completion)."""
        return self.graph.relation_type_counts()

    def undoable_change(self, *, entity: str | None = None, by: str | None = None) -> dict[str, Any] | None:
        """The change ``undo_change()`` with the same filters would take back, or None."""
        return self.graph.undoable_change(entity, by)

    def undo_change(
        self, change_id: int | None = None, *, entity: str | None = None, by: str | None = None,
        actor: str | None = None,
    ) -> dict[str, Any]:
        """Undo one change_log row (a whole editor Save when it is one). Default: the newest change
        not yet undone, by anyone — or only those about ``entity`` / made by ``by``. Later changes
        that make it unsafe → Conflict, nothing changed. Returns the ``undo`` row recording it;
        undoing that row again redoes the change."""
        if change_id is not None and (isinstance(change_id, bool) or not isinstance(change_id, int) or change_id < 1):
            raise InvalidInput(f"change_id must be a change number ≥ 1, got {change_id!r}. Nothing was changed.")
        row = self.graph.undo_change(change_id, entity, by, self._actor(actor))
        self._written()
        return row

    # -- export and backup (appended for core/io and the CLI) ----------------------------------

    def export_relations(self, *, page: int = 2000) -> Iterable[tuple[Relation, dict[str, Any]]]:
        """Every current relation with its properties, oldest first, for exports.

        Uses the backend's ``iter_relations()`` when it has one (relation properties included);
        otherwise pages through ``read_graph`` and gives ``{}`` as the properties.
        """
        lister = getattr(self.graph, "iter_relations", None)
        if callable(lister):
            yield from lister()
            return
        offset = 0
        while True:
            graph = self.graph.read_graph(limit=page, offset=offset)
            for relation in graph.relations:
                yield relation, {}
            offset += page
            if offset >= (graph.total_entities or 0):
                return

    def backup(self, dest: Path | str | None = None) -> Path:
        """Write a consistent copy of the database while it stays in use: to ``dest``, or by
        default to a new file in the backups folder beside it. Returns the copy's path."""
        copier = getattr(self.graph, "backup", None)
        if not callable(copier):
            raise ConfigError(f"The {self.graph.backend} backend cannot be backed up to a file.")
        if dest is not None and Path(dest).exists():
            raise InvalidInput(f"{dest} already exists; choose a new file name for the backup.")
        return copier(None if dest is None else Path(dest))

    def damage(self) -> str | None:
        """Wait for the integrity check made when the file was opened: None when it is healthy,
        else what is wrong and what to do (writes are refused meanwhile)."""
        try:
            self.graph.refuse_if_damaged()  # type: ignore[attr-defined]
        except AttributeError:
            return None
        except StorageError as exc:
            return str(exc)
        return None

    def allowed_file(self, path: Path | str, what: str = "file") -> Path:
        """``path`` resolved (symlinks followed), if it lies inside a folder in ``allowed_import_dirs``;
        else InvalidInput saying how to allow it. For tools a model calls: it never reads elsewhere."""
        try:
            real = Path(path).expanduser().resolve(strict=False)
        except (OSError, RuntimeError) as exc:
            raise InvalidInput(f"{path} is not a usable path ({exc}). Nothing was read.") from None
        allowed = [Path(d).expanduser().resolve(strict=False) for d in self.settings.allowed_import_dirs]
        if any(real == d or d in real.parents for d in allowed):
            return real
        where = ", ".join(str(d) for d in allowed) or "none yet"
        raise InvalidInput(
            f"{path} is outside the folders Hipocampo may read a {what} from (allowed: {where}). Ask the user "
            "to add its folder to allowed_import_dirs (HIPOCAMPO_ALLOWED_IMPORT_DIRS, or the app's settings), "
            "or pass the content itself. Nothing was read."
        )

    def salvage(self) -> dict[str, Any]:
        """Every entity, observation and relation still readable from a damaged file, in the
        official JSON shape, plus how many rows could not be read (``unreadable``)."""
        salvager = getattr(self.graph, "salvage", None)
        if not callable(salvager):
            raise ConfigError(f"The {self.graph.backend} backend cannot salvage a damaged file.")
        return salvager()

    def auto_backup(self, reason: str) -> Path | None:
        """An automatic backup before a risky step (``reason``: "import" …), kept with the daily
        ones; None when there is nothing to back up. Refuses (StorageError) on a damaged file."""
        maker = getattr(self.graph, "auto_backup", None)
        return maker(reason) if callable(maker) else None

    @staticmethod
    def backups_of(db: Path | str) -> list[Path]:
        """The backups of the database at ``db``, newest first."""
        from core.storage.sqlite import backups

        return backups.list_backups(Path(db))

    @staticmethod
    def restore_backup(db: Path | str, backup: Path | str | None = None, *, keep: int = 7,
                       force: bool = False) -> tuple[Path, Path]:
        """Put ``backup`` (default: the newest) back as the database at ``db`` (an empty one over a
        non-empty memory only with ``force``); the file as it was is kept in the backups folder.
        Returns (the backup restored, the copy of the old file)."""
        from core.storage.sqlite import backups

        chosen = Path(backup) if backup is not None else backups.newest_backup(Path(db))
        if chosen is None:
            raise NotFound(f"There is no backup of {db} in {backups.backup_dir(Path(db))}.")
        if not chosen.is_file():
            raise NotFound(f"{chosen} does not exist.")
        return chosen, backups.restore(Path(db), chosen, keep=keep, force=force)

    # -- moving a memory to another backend --------------------------------------------------------

    def migrate_to(self, target: Settings, progress: Any = None) -> dict[str, Any]:
        """Copy this whole memory (entities, observations, relations, insights, history, vectors) into
        the backend ``target`` names; resumable; returns counts and whether counts and checksum agree."""
        from core.storage.migrate import migrate

        stores = create_stores(target.model_copy(update={"read_only": False}), clock=self._clock)
        try:
            return migrate(self.graph, stores.graph, stores.vectors, self.vectors, progress)
        finally:
            stores.graph.close()

    # -- what was recalled: the read log (core/storage/read_log.py) -------------------------------

    def _read_log(self) -> Any:
        if self._reads is None:
            from core.storage.read_log import ReadLog, path_for

            s = self.settings
            self._reads = ReadLog(path_for(s.db, s.backend, s.graph_name), s.read_log_keep)
        return self._reads

    def record_read(self, client: str, tool: str, query: str, names: Sequence[str],
                    facts: Sequence[tuple[str, str]] = (), *, total: int | None = None) -> int | None:
        """Log one read an assistant made (client, tool, query, entities and facts returned); None
        when the read log is off (``read_log`` setting) or cannot be written."""
        if not self.settings.read_log:
            return None
        now = (self._clock or (lambda: datetime.now(UTC)))()
        return self._read_log().record(now, client, tool, query, names, facts, total)

    def read_log(self, *, before_id: int | None = None, client: str | None = None,
                 since: str | None = None, until: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
        """Logged reads, newest first: ``{id, at, client, tool, query, entities, facts, total}``."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
            raise InvalidInput(f"limit must be between 1 and 10000, got {limit!r}")
        return self._read_log().recent(before_id=before_id, client=client, since=since, until=until, limit=limit)

    def read_clients(self) -> list[dict[str, Any]]:
        """Every client whose reads are in the read log (client, reads, last_at), latest first."""
        return self._read_log().clients()

    def last_recall(self, name: str) -> dict[str, Any] | None:
        """When, by which client and for what query entity ``name`` was last recalled, or None."""
        return self._read_log().last_recall(name)

    # -- reflect and insights (appended: the logic lives in core/reflect and the storage) --------

    def _insights(self) -> Any:
        """The backend's insight store; reflect needs one (the SQLite backend has it)."""
        accessor = getattr(self.graph, "insight_store", None)
        if accessor is None:
            raise ConfigError(
                f"Reflect and insights need the sqlite backend; the {self.graph.backend} backend "
                "has none. Nothing was changed.")
        return accessor()

    def _notify_written(self) -> None:
        notify = getattr(self, "_written", None)  # keeps new/changed entities' vectors in step
        if callable(notify):
            notify()

    def schema_profile(self) -> Any:
        """The merged schema profile (``core.reflect.profile.Profile``): labels, relation types,
        which labels are keyed by title, and the rules reflect reads."""
        from core.reflect.profile import load_profile

        return load_profile()

    def reflect(self, *, actor: str | None = None) -> dict[str, Any]:
        """Run Engrama's seven patterns over the graph, and memory hygiene's (a fact a newer one
        updates, two facts that disagree: ``core.hygiene.supersede``), and record what they find as
        pending insights for a person to review (supersessions approved at once only with the
        ``auto_approve_supersessions`` setting).

        Returns ``{"created", "refreshed", "stale", "held_back", "incremental", "found",
        "insights"}``: counts, whether only the clock-dependent patterns had to run (nothing was
        written since the last reflect), candidates per pattern, and up to 50 of the insights
        this run created or confirmed, best first. Running it again never duplicates an insight;
        dismissed ones never return.
        """
        from core.hygiene import supersede
        from core.reflect.engine import reflect

        detector = supersede.Detector(self.graph)
        result = reflect(self._insights(), self.schema_profile().reflect, self._actor(actor), neutral=[detector])
        detector.save()  # what each entity's facts yielded: the next reflect judges only what changed
        if result["created"]:
            self._notify_written()
        if self.settings.auto_approve_supersessions:  # off unless the user turned it on
            result["auto_approved"] = self._auto_approve(self._actor(actor))
        return result

    def _auto_approve(self, actor: str) -> int:
        from core.hygiene.supersede import SUPERSEDED

        approved = 0
        for insight in self._insights().list(limit=1000, status="pending", include_stale=False):
            if insight["pattern"] == SUPERSEDED:
                with contextlib.suppress(NotFound, Conflict):  # a fact edited since: left for a person
                    self.decide_insight(insight["title"], "approve", actor=f"{actor} (auto-approved)")
                    approved += 1
        return approved

    def surface_insights(
        self, *, limit: int = 10, title: str | None = None, query: str | None = None,
        status: str | None = "pending",
    ) -> list[dict[str, Any]]:
        """Insights to review, best first (fresh before stale, then confidence · 2^(−days/30)).

        ``status`` is pending (default), approved, dismissed, synced, or ``"all"``; ``title``
        picks one insight by its exact title; ``query`` keeps those whose title or summary
        contains it (case and accents ignored).
        """
        from core.reflect.model import STATUSES

        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise InvalidInput(f"limit must be a whole number from 1 to 1000, got {limit!r}")
        if status is not None and status != "all" and status not in STATUSES:
            raise InvalidInput(f"status must be one of {', '.join(STATUSES)} or 'all', got {status!r}")
        for value, what in ((title, "title"), (query, "query")):
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise InvalidInput(f"{what} must be a non-empty string when given")
        return self._insights().list(limit=limit, title=title, query=query,
                                     status=None if status in (None, "all") else status)

    def decide_insight(self, title: str, action: str, *, actor: str | None = None) -> dict[str, Any]:
        """Record a person's decision: ``action`` "approve" or "dismiss" a pending insight.

        Approving makes it ordinary knowledge (un-archived, linked to its evidence); dismissing
        archives it and keeps its title from ever being proposed again. Returns the insight.
        Unknown title → NotFound; any move but pending → approved | dismissed → Conflict.
        """
        if not isinstance(title, str) or not title.strip():
            raise InvalidInput("title must be the exact, non-empty title of an insight")
        if action not in ("approve", "dismiss"):
            raise InvalidInput(f"action must be 'approve' or 'dismiss', got {action!r}")
        from core.hygiene import supersede

        store = self._insights()
        target = None
        if action == "approve":  # a supersession is checked first: both facts must still be there
            found = store.list(limit=1, title=title, status=None)
            target = supersede.check(self.graph, found[0]) if found else None
        decided = store.decide(
            title, action, self._actor(actor),
            evidence_relation=self.schema_profile().reflect.insight_evidence_relation)
        if target is not None:  # the older fact kept, with an end and its successor; one undo takes it back
            supersede.mark(self.graph, *target, title, decided.get("decided_at") or self.graph.now(),
                           self._actor(actor))
        if action == "approve":
            self._notify_written()
        return decided

    def superseded_facts(self, name: str) -> dict[str, dict[str, Any]]:
        """The facts of ``name`` an approved supersession retired: ``{fact: {"by", "ended_at", "insight"}}``."""
        from core.hygiene.supersede import marks

        node = self.graph.get_node(name)
        return marks(node.props) if node is not None else {}

    def reopen_insight(self, title: str, *, actor: str | None = None) -> dict[str, Any]:
        """Put an approved or dismissed insight back to review (pending, archived again)."""
        if not isinstance(title, str) or not title.strip():
            raise InvalidInput("title must be the exact, non-empty title of an insight")
        from core.hygiene import supersede

        reopened = self._insights().decide(
            title, "reopen", self._actor(actor),
            evidence_relation=self.schema_profile().reflect.insight_evidence_relation)
        supersede.unmark(self.graph, reopened, self._actor(actor))  # back to review: the older fact is current
        self._notify_written()
        return reopened

    def mark_synced(self, title: str, *, actor: str | None = None) -> dict[str, Any]:
        """Mark an approved insight as written out (e.g. to a notes vault): approved → synced."""
        if not isinstance(title, str) or not title.strip():
            raise InvalidInput("title must be the exact, non-empty title of an insight")
        return self._insights().decide(
            title, "sync", self._actor(actor),
            evidence_relation=self.schema_profile().reflect.insight_evidence_relation)

    def decay_confidence(self, *, as_of: datetime | str | None = None, actor: str | None = None) -> int:
        """Decay every live insight's confidence to ``base · exp(−0.01 · days)`` since it was last
        confirmed, as of ``as_of`` (default: now). Idempotent: computed from the stored base, so
        running it twice for the same moment changes nothing the second time. Returns how many
        insights changed."""
        if isinstance(as_of, str):
            try:
                as_of = datetime.fromisoformat(as_of.replace("Z", "+00:00"))
            except ValueError:
                raise InvalidInput(f"as_of must be an ISO-8601 date or time, got {as_of!r}") from None
        if as_of is not None and as_of.tzinfo is None:
            as_of = as_of.replace(tzinfo=UTC)
        return self._insights().decay(as_of, self._actor(actor))

    def insight_counts(self) -> dict[str, int]:
        """How many insights are pending, approved, dismissed and synced, and how many are stale
        (for status displays: ``engrama_status``, the desktop's review pane)."""
        return {"pending": 0, "approved": 0, "dismissed": 0, "synced": 0, **self._insights().counts()}

    def adopt_insights(self, insights: list[dict[str, Any]], *, actor: str | None = None) -> int:
        """Give imported Insight entities their review state (``{title, pattern, confidence, status}``)."""
        from core.reflect.model import ALL_PATTERNS, STATUSES

        rows = []
        for item in insights:
            status = item.get("status") if item.get("status") in STATUSES else "pending"
            pattern = item.get("pattern") if item.get("pattern") in ALL_PATTERNS else "imported"
            confidence = item.get("confidence")
            confidence = float(confidence) if isinstance(confidence, (int, float)) else 0.0
            rows.append({"title": item["title"], "pattern": pattern, "status": status,
                         "confidence": min(1.0, max(0.0, confidence))})
        return self._insights().adopt(rows, self._actor(actor)) if rows else 0


class _Name(BaseModel):
    name: str

    model_config = {"strict": True}


def _as_list(values: Any, what: str) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise InvalidInput(f"{what} must be a list of names, got {type(values).__name__}")
    return list(values)


def _names(values: Any, what: str = "names") -> list[str]:
    """``values`` as a list of names; anything but a list of strings is refused, naming the item."""
    names = _as_list(values, what)
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise InvalidInput(f"{what}[{i}] must be a string, got {type(name).__name__}")
    return names
