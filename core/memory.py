"""Memory: the one façade every caller uses (MCP tools, CLI, desktop app).

It validates input (types, sizes, emptiness) before anything is written, so a batch with one bad
item changes nothing, and it names the bad item in the error. Storage semantics live in the store.

The work lives in typed parts (``core/memory_parts/``): ``Editing`` (every write), ``Reading``
(reads, search, overviews), ``History`` (change_log, undo, restore), ``Insights`` (reflect and
review), ``Files`` (imports, exports, backups, damage) and ``Embedding`` (the model and the
background indexer). A method with no rule of its own (a plain read) asks the store directly.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import InvalidInput, NotFound
from core.hygiene import meaning as duplicates_by_meaning
from core.memory_parts.checks import names as names_of
from core.memory_parts.context import MemoryContext
from core.memory_parts.editing import Editing
from core.memory_parts.embedding import Embedding
from core.memory_parts.files import Files
from core.memory_parts.history import History
from core.memory_parts.insights import Insights
from core.memory_parts.reading import Reading
from core.model import (
    AddedObservations,
    Change,
    CreateEntitiesResult,
    GraphCommunities,
    GraphOverview,
    KnowledgeGraph,
    Neighbour,
    Node,
    NodeWithNeighbours,
    Relation,
    ScoredNode,
)
from core.protocols import EmbeddingProvider, GraphStore, VectorStore
from core.settings import Settings
from core.storage.factory import create_stores

if TYPE_CHECKING:
    from core.brief import Brief
    from core.embeddings.indexer import EmbeddingIndexer, Progress
    from core.io.migrate import Progress as MigrateProgress
    from core.reflect.profile import Profile
    from core.storage.read_log import ReadLog


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
        self._embedding = Embedding(self.settings, graph, vectors, embedder)
        self.embedder: EmbeddingProvider | None = self._embedding.embedder
        duplicates_by_meaning.attach(graph, self.embedder)  # reflect's duplicates by meaning embed with it
        self.indexer: EmbeddingIndexer | None = self._embedding.indexer
        self.foreground = self._embedding.foreground
        self._clock = clock
        ctx = MemoryContext(self.settings, graph, vectors, clock, self._embedding.written)
        self._ctx = ctx  # the hygiene calls below (core/hygiene) take the façade and this
        self._edit = Editing(ctx)
        self._read = Reading(ctx, self.embedder)
        self._history = History(ctx)
        self._insights = Insights(ctx)
        self._files = Files(ctx)
        self._reads: ReadLog | None = None  # the read log, opened on first use (core.storage.read_log)


    @classmethod
    def open(cls, db: Path | str | None = None, **overrides: Any) -> Memory:
        """Open the memory at ``db`` (default: settings/env), e.g. ``Memory.open(":memory:")``."""
        clock = overrides.pop("clock", None)
        if db is not None:
            overrides["db"] = db
        return cls(Settings(**overrides), clock=clock)

    def close(self) -> None:
        """Stop background embedding (releasing its lease), then close the model and the file."""
        self._embedding.close()
        if self._reads is not None:
            self._reads.close()
        self.graph.close()

    def halt_background(self) -> None:
        """Ask background embedding to stop now, without waiting (a quit's first step; ``close`` waits)."""
        self._embedding.halt()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- embeddings --------------------------------------------------------------------------

    @property
    def embedding_error(self) -> str | None:
        """Why semantic search is unavailable (the model could not be made or loaded), or None."""
        return self._embedding.error

    def start_background(self) -> None:
        """Keep vectors in step with writes from a background thread (servers and the app)."""
        self._embedding.start_background()

    def load_embedder(self) -> None:
        """Load the embedding model now (the app does so while it opens) so no later call pauses for it."""
        self._embedding.load()

    def busy(self) -> contextlib.AbstractContextManager[None]:
        """Mark a foreground call (an MCP tool, a GUI request): background embedding waits for it."""
        return self._embedding.busy()

    def embed_pending(self, progress: Progress | None = None, cancel: threading.Event | None = None) -> int:
        """Embed every entity whose vector is missing or stale, now; returns how many."""
        return self._embedding.embed_pending(progress, cancel)

    def forget_embeddings(self) -> None:
        """Mark every entity as due for embedding (``hipocampo reindex --all``)."""
        self._embedding.forget()

    def embedding_status(self) -> dict[str, Any]:
        """Provider, model, how many entities are embedded, and any error."""
        return self._embedding.status()

    def search_vectors(self, query: str, limit: int = 10) -> list[dict[str, Any]]:
        """Plain cosine KNN, nothing else (for measuring what hybrid search adds)."""
        return self._read.search_vectors(query, limit)

    # -- transactions and imports --------------------------------------------------------------

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        """All calls inside land together or not at all: ``with memory.transaction(): …``."""
        return self.graph.transaction()

    def importing(self, source: str, *, actor: str | None = None) -> contextlib.AbstractContextManager[str | None]:
        """An import as one unit that never holds the write lock for long: ``with memory.importing(
        "notes.jsonl"): …``. Its writes land in short transactions tagged with an import id; if the
        block raises (a refused file, a cancel), or the process dies, all of it is rolled back."""
        return self._files.importing(source, actor)

    # -- the official memory server's operations ---------------------------------------------

    def create_entities(self, entities: Any, *, actor: str | None = None) -> CreateEntitiesResult:
        """Create entities; for ones that already exist, add the new observations and report them."""
        return self._edit.create_entities(entities, actor)

    def create_relations(self, relations: Any, *, actor: str | None = None) -> list[Relation]:
        """Create relations; returns only the new ones. Missing ends become placeholder entities."""
        return self._edit.create_relations(relations, actor)

    def add_observations(self, observations: Any, *, actor: str | None = None) -> list[AddedObservations]:
        """Add observations to existing entities; an unknown entity fails the whole batch."""
        return self._edit.add_observations(observations, actor)

    def delete_entities(self, names: Any, *, actor: str | None = None) -> int:
        """Delete entities and everything attached to them; unknown names are ignored."""
        return self._edit.delete_entities(names, actor)

    def delete_observations(self, deletions: Any, *, actor: str | None = None) -> int:
        """Delete the given observations from their entities; returns how many went."""
        return self._edit.delete_observations(deletions, actor)

    def delete_relations(self, relations: Any, *, actor: str | None = None) -> int:
        """Delete the given relations (matched on from, to and type); returns how many went."""
        return self._edit.delete_relations(relations, actor)

    def read_graph(
        self, *, limit: int | None = None, offset: int = 0, names_only: bool = False
    ) -> KnowledgeGraph:
        """The whole graph by default; ``limit``/``offset`` page it; ``names_only`` trims it."""
        return self._read.read_graph(limit, offset, names_only)

    def read_graph_dump(
        self, *, limit: int | None = None, offset: int = 0, names_only: bool = False
    ) -> dict[str, Any]:
        """``read_graph`` as the official JSON shape, built the fastest way the backend knows."""
        return self._read.read_graph_dump(limit, offset, names_only)

    def search_nodes(self, query: str, *, limit: int | None = None) -> KnowledgeGraph:
        """Substring search, folding case and accents; every character is literal; ``""`` matches all."""
        from core.hygiene import service

        return service.search_nodes(self, query, limit, self._read.search_nodes(query, limit))

    def search_nodes_dump(self, query: str, *, limit: int | None = None) -> dict[str, Any]:
        """``search_nodes`` as the official JSON shape, built the fastest way the backend knows."""
        from core.hygiene import service

        # former names of merged entities find them too
        return service.search_nodes_dump(self, query, limit, self._read.search_nodes_dump(query, limit))

    def open_nodes(self, names: Any) -> KnowledgeGraph:
        """The named entities (exact names, or names merged into one; unknown ones ignored), relations touching them."""
        from core.hygiene import service

        wanted = names_of(names)
        return service.open_nodes(self, wanted, self._read.open_nodes(wanted))

    def open_nodes_dump(self, names: Any) -> dict[str, Any]:
        """``open_nodes`` as the official JSON shape, built the fastest way the backend knows."""
        from core.hygiene import service

        wanted = names_of(names)
        # a name merged into another opens that one
        return service.open_nodes_dump(self, wanted, self._read.open_nodes_dump(wanted))

    # -- Engrama's graph operations ----------------------------------------------------------

    def merge_node(
        self, label: str, name: str, props: Mapping[str, Any] | None = None, *, actor: str | None = None
    ) -> Node:
        """Create the node ``name`` with ``label`` and ``props``, or merge them into the one that exists."""
        return self._edit.merge_node(label, name, props, actor)

    def get_node(self, name: str) -> Node | None:
        """The entity ``name`` with its type, observations and properties, or None."""
        return self.graph.get_node(name)

    def require_node(self, name: str) -> Node:
        """The entity ``name``; NotFound when there is none."""
        return self._read.require_node(name)

    def delete_node(self, name: str, *, soft: bool = True, actor: str | None = None) -> bool:
        """Delete the entity ``name`` (``soft``: archive it, kept and readable); False when there is none."""
        return self._edit.delete_node(name, soft, actor)

    def archive_node(self, name: str, *, actor: str | None = None) -> bool:
        """Archive the entity ``name`` (kept and readable, out of current results); False when there is none."""
        return self._edit.archive_node(name, actor)

    def list_nodes(self, *, label: str | None = None, include_archived: bool = False,
                   limit: int | None = None, offset: int = 0) -> list[Node]:
        """Entities in creation order, by ``label``, with ``include_archived``, ``limit`` and ``offset``."""
        return self.graph.list_nodes(label=label, include_archived=include_archived, limit=limit, offset=offset)

    def merge_relation(
        self, from_name: str, rel_type: str, to_name: str,
        props: Mapping[str, Any] | None = None, *, actor: str | None = None,
    ) -> tuple[Relation, bool]:
        """Create the relation (or merge ``props`` into it); returns it and whether it is new."""
        return self._edit.merge_relation(from_name, rel_type, to_name, props, actor)

    def get_neighbours(self, name: str, hops: int = 1, *, rel_types: Sequence[str] | None = None) -> list[Neighbour]:
        """The entities within ``hops`` relations of ``name`` (only ``rel_types`` when given)."""
        return self._read.get_neighbours(name, hops, rel_types)

    def get_node_with_neighbours(self, name: str, hops: int = 1) -> NodeWithNeighbours:
        """The entity ``name`` and its neighbourhood within ``hops`` relations."""
        return self._read.get_node_with_neighbours(name, hops)

    def lookup_node_label(self, name: str) -> str | None:
        """The type (Engrama's label) of the entity ``name``, or None."""
        return self.graph.lookup_node_label(name)

    def fulltext_search(self, query: str, *, limit: int = 10, label: str | None = None) -> list[ScoredNode]:
        """Entities ranked by full text (BM25) alone, optionally of one ``label``."""
        return self._read.fulltext_search(query, limit, label)

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
        from core.hygiene.supersede import filter_hits

        hits = self._read.search_semantic(query, limit, entity_type=entity_type, include_archived=include_archived,
                                          record=record, per_entity=per_entity, max_tokens=max_tokens)
        return filter_hits(self.graph, hits, keep=include_superseded)

    def count_labels(self, *, include_archived: bool = True) -> dict[str, int]:
        """How many entities each type (label) has (``include_archived=False``: live ones only)."""
        return self.graph.count_labels(include_archived=include_archived)

    def graph_overview(
        self, *, limit: int = 300, by: str = "degree", per_type: int = 3, entity_type: str | None = None
    ) -> GraphOverview:
        """The top live entities by degree or access (``per_type`` of each type first), their relations, counts."""
        return self._read.graph_overview(limit, by, per_type, entity_type)

    def graph_communities(self, *, limit: int = 60) -> GraphCommunities:
        """The whole memory as its ``limit`` largest communities of related entities (igraph's Leiden)."""
        return self._read.graph_communities(limit)

    def graph_community(self, name: str, *, limit: int = 300) -> GraphOverview:
        """The community of entity ``name``: its ``limit`` best-connected members and their relations."""
        return self._read.graph_community(name, limit)

    def health_check(self, *, deep: bool = False) -> dict[str, Any]:
        """Counts and versions; ``deep=True`` also checks the file's integrity (slower)."""
        return self.graph.health_check(deep=deep)

    def query_at_date(self, when: datetime | str) -> KnowledgeGraph:
        """The graph as it stood at ``when`` (entities and relations that existed then)."""
        return self._read.query_at_date(when)

    # -- history, activity and undo ----------------------------------------------------------------

    def history(self, name: str | None = None, *, limit: int = 100) -> list[Change]:
        """change_log rows, newest first: who changed what, when, with the state before."""
        return self._history.history(name, limit)

    def changes_since(self, after_id: int, *, limit: int = 500) -> list[Change]:
        """change_log rows newer than ``after_id``, oldest first: what to refresh after a write."""
        return self._history.changes_since(after_id, limit)

    def latest_change_id(self) -> int:
        """The newest change_log id; a feed starts from here so it only reports what comes next."""
        return self.graph.latest_change_id()

    def activity(
        self, *, before_id: int | None = None, actor: str | None = None,
        since: datetime | str | None = None, until: datetime | str | None = None, limit: int = 200,
    ) -> list[Change]:
        """change_log rows newest first, by ``actor`` and within ``since <= at < until``; pass the
        oldest id seen as ``before_id`` for the next page."""
        return self._history.activity(before_id=before_id, actor=actor, since=since, until=until, limit=limit)

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
        return self._history.restore_entity(name, actor)

    # -- editing one entity, undo (the desktop editor, `hipocampo undo`) -----------------------

    def rename_entity(self, old: str, new: str, *, actor: str | None = None) -> bool:
        """Rename an entity, keeping its observations, relations and history; a taken name → Conflict."""
        return self._edit.rename_entity(old, new, actor)

    def set_entity_type(self, name: str, entity_type: str, *, actor: str | None = None) -> bool:
        """Change an entity's type (Engrama's label)."""
        return self._edit.set_entity_type(name, entity_type, actor)

    def replace_observation(self, name: str, old: str, new: str, *, actor: str | None = None) -> bool:
        """Edit one observation in place; an unknown ``old`` → NotFound, a duplicate ``new`` → Conflict."""
        return self._edit.replace_observation(name, old, new, actor)

    def end_relation(
        self, from_name: str, to_name: str, relation_type: str, ended_at: datetime | str | None = None,
        *, actor: str | None = None,
    ) -> bool:
        """Mark a relation as no longer true since ``ended_at`` (default now): kept, not current."""
        return self._edit.end_relation(from_name, to_name, relation_type, ended_at, actor)

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
        return self._edit.save_entity(
            name, expected_version=expected_version, create=create, new_name=new_name, entity_type=entity_type,
            add_observations=add_observations, edit_observations=edit_observations,
            delete_observations=delete_observations, add_relations=add_relations,
            delete_relations=delete_relations, end_relations=end_relations, actor=actor)

    def entity_for_edit(self, name: str) -> dict[str, Any]:
        """What the editor shows: ``{"node", "relations" (ended ones too, with created_at/ended_at),
        "version"}``; pass ``version`` back to ``save_entity`` as ``expected_version``."""
        try:
            return self._edit.entity_for_edit(name)
        except NotFound:
            current = self.resolve_aliases([name]).get(name)  # a name merged into another opens that one
            if current is None:
                raise
            return {**self._edit.entity_for_edit(current), "opened_as": name}

    def entity_history(self, name: str, *, limit: int = 100) -> list[Change]:
        """change_log rows about one entity, newest first, under every name it has had, with
        relations from other entities to it."""
        return self._history.entity_history(name, limit)

    @staticmethod
    def describe_change(row: Change) -> str:
        """A short English phrase for a change_log row ("renamed Ada to Ada L.", "delete entity Bob")."""
        return History.describe_change(row)

    def last_deletion(self, name: str) -> Change | None:
        """The change that deleted ``name`` if it is deleted now (so it can be restored), else None."""
        return self.graph.last_deletion(name)

    def relation_type_counts(self) -> dict[str, int]:
        """How many relations of each type the memory holds, most used first (for completion)."""
        return self.graph.relation_type_counts()

    def undoable_change(self, *, entity: str | None = None, by: str | None = None) -> Change | None:
        """The change ``undo_change()`` with the same filters would take back, or None."""
        return self.graph.undoable_change(entity, by)

    def undo_change(
        self, change_id: int | None = None, *, entity: str | None = None, by: str | None = None,
        actor: str | None = None,
    ) -> Change:
        """Undo one change_log row (a whole editor Save when it is one). Default: the newest change
        not yet undone, by anyone — or only those about ``entity`` / made by ``by``. Later changes
        that make it unsafe → Conflict, nothing changed. Returns the ``undo`` row recording it;
        undoing that row again redoes the change."""
        return self._history.undo_change(change_id, entity, by, actor)

    # -- export and backup ----------------------------------------------------------------------------

    def export_relations(self) -> Iterable[tuple[Relation, dict[str, Any]]]:
        """Every current relation with its properties, oldest first, for exports."""
        return self._files.export_relations()

    def backup(self, dest: Path | str | None = None) -> Path:
        """Write a consistent copy of the database while it stays in use: to ``dest``, or by
        default to a new file in the backups folder beside it. Returns the copy's path."""
        return self._files.backup(dest)

    def damage(self) -> str | None:
        """Wait for the integrity check made when the file was opened: None when it is healthy,
        else what is wrong and what to do (writes are refused meanwhile)."""
        return self._files.damage()

    def allowed_file(self, path: Path | str, what: str = "file") -> Path:
        """``path`` resolved (symlinks followed), if it lies inside a folder in ``allowed_import_dirs``;
        else InvalidInput saying how to allow it. For tools a model calls: it never reads elsewhere."""
        return self._files.allowed_file(path, what)

    def salvage(self) -> dict[str, Any]:
        """Every entity, observation and relation still readable from a damaged file, in the
        official JSON shape, plus how many rows could not be read (``unreadable``)."""
        return self._files.salvage()

    def auto_backup(self, reason: str) -> Path | None:
        """An automatic backup before a risky step (``reason``: "import" …), kept with the daily
        ones; None when there is nothing to back up. Refuses (StorageError) on a damaged file."""
        return self._files.auto_backup(reason)

    @staticmethod
    def backups_of(db: Path | str) -> list[Path]:
        """The backups of the database at ``db``, newest first."""
        return Files.backups_of(db)

    @staticmethod
    def restore_backup(db: Path | str, backup: Path | str | None = None, *, keep: int = 7,
                       force: bool = False) -> tuple[Path, Path]:
        """Put ``backup`` (default: the newest) back as the database at ``db`` (an empty one over a
        non-empty memory only with ``force``); the file as it was is kept in the backups folder.
        Returns (the backup restored, the copy of the old file)."""
        return Files.restore_backup(db, backup, keep, force)

    # -- moving a memory to another backend --------------------------------------------------------

    def migrate_to(self, target: Settings, progress: MigrateProgress | None = None) -> dict[str, Any]:
        """Copy this whole memory (entities, observations, relations, insights, history, vectors) into
        the backend ``target`` names; resumable; returns counts and whether counts and checksum agree."""
        return self._files.migrate_to(target, self.vectors, progress)

    # -- what was recalled: the read log (core/storage/read_log.py) -------------------------------

    def _read_log(self) -> ReadLog:
        if self._reads is None:
            from core.storage.read_log import ReadLog, path_for

            s = self.settings
            self._reads = ReadLog(path_for(s.db, s.backend, s.graph_name), s.read_log_keep)
        return self._reads

    def read_log_file(self) -> Path | None:
        """The file the read log is kept in (others write it too), or None when it is in memory."""
        from core.storage.read_log import path_for

        s = self.settings
        return path_for(s.db, s.backend, s.graph_name)

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

    # -- reflect and insights (the rules live in core/reflect, the reads and writes in the store) ------

    def schema_profile(self) -> Profile:
        """The merged schema profile (``core.reflect.profile.Profile``): labels, relation types,
        which labels are keyed by title, and the rules reflect reads."""
        return self._insights.schema_profile()

    def reflect(self, *, actor: str | None = None) -> dict[str, Any]:
        """Run every registered detector (``core.reflect.patterns.SPECS``: Engrama's seven patterns,
        then memory hygiene's: superseded and contradicting facts, duplicates), and record what they find as
        pending insights for a person to review (supersessions approved at once only with the
        ``auto_approve_supersessions`` setting).

        Returns ``{"created", "refreshed", "stale", "held_back", "incremental", "found",
        "insights"}``: counts, whether only the clock-dependent patterns had to run (nothing was
        written since the last reflect), candidates per pattern, and up to 50 of the insights
        this run created or confirmed, best first. Running it again never duplicates an insight;
        dismissed ones never return.
        """
        return self._insights.reflect(actor, self)

    def surface_insights(
        self, *, limit: int = 10, title: str | None = None, query: str | None = None,
        status: str | None = "pending",
    ) -> list[dict[str, Any]]:
        """Insights to review, best first (fresh before stale, then confidence · 2^(−days/30)).

        ``status`` is pending (default), approved, dismissed, synced, or ``"all"``; ``title``
        picks one insight by its exact title; ``query`` keeps those whose title or summary
        contains it (case and accents ignored).
        """
        return self._insights.surface(limit=limit, title=title, query=query, status=status)

    def decide_insight(self, title: str, action: str, *, actor: str | None = None) -> dict[str, Any]:
        """Record a person's decision: ``action`` "approve" or "dismiss" a pending insight.

        Approving makes it ordinary knowledge (un-archived, linked to its evidence), or, for a
        hygiene proposal, carries out what it proposes and keeps it as a record only; dismissing
        archives it and keeps its title from ever being proposed again. Returns the insight.
        Unknown title → NotFound; any move but pending → approved | dismissed → Conflict.
        """
        return self._insights.decide(title, action, actor, self)

    def superseded_facts(self, name: str) -> dict[str, dict[str, Any]]:
        """The facts of ``name`` an approved supersession retired: ``{fact: {"by", "ended_at", "insight"}}``."""
        from core.hygiene.supersede import marks

        node = self.graph.get_node(name)
        return marks(node.props) if node is not None else {}

    def reopen_insight(self, title: str, *, actor: str | None = None) -> dict[str, Any]:
        """Put an approved or dismissed insight back to review (pending, archived again)."""
        return self._insights.reopen(title, actor, self)

    def mark_synced(self, title: str, *, actor: str | None = None) -> dict[str, Any]:
        """Mark an approved insight as written out (e.g. to a notes vault): approved → synced."""
        return self._insights.mark_synced(title, actor)

    def decay_confidence(self, *, as_of: datetime | str | None = None, actor: str | None = None) -> int:
        """Decay every live insight's confidence to ``base · exp(−0.01 · days)`` since it was last
        confirmed, as of ``as_of`` (default: now). Idempotent: computed from the stored base, so
        running it twice for the same moment changes nothing the second time. Returns how many
        insights changed."""
        return self._insights.decay(as_of, actor)

    def insight_counts(self) -> dict[str, int]:
        """How many insights are pending, approved, dismissed and synced, and how many are stale
        (for status displays: ``engrama_status``, the desktop's review pane)."""
        return self._insights.counts()

    def brief(self, max_tokens: int = 800) -> Brief:
        """The session brief within ``max_tokens`` (``core.brief.Brief``: text, size, what it left out)."""
        from core.brief import build_brief

        return build_brief(self, max_tokens)

    def pin(self, name: str, fact: str | None = None, *, pinned: bool = True) -> bool:
        """Pin (``pinned=False``: unpin) an entity, or one of its facts, for the brief; True if it changed."""
        from core.brief import set_pin

        return set_pin(self.graph, name, fact, pinned)

    def pins(self) -> list[dict[str, Any]]:
        """Every pin: ``{name, fact, pinned_at}`` (fact None: the whole entity), oldest first."""
        from core.brief import list_pins

        return list_pins(self.graph)

    def adopt_insights(self, insights: list[dict[str, Any]], *, actor: str | None = None) -> int:
        """Give imported Insight entities their review state (``{title, pattern, confidence, status}``)."""
        return self._insights.adopt(insights, actor)

    # -- hygiene: duplicates, merges, aliases, tidy (the rules live in core/hygiene) ---------------

    def merge_entities(self, names: Any, *, into: str | None = None, dry_run: bool = True,
                       actor: str | None = None) -> dict[str, Any]:
        """Merge ``names`` into ``into`` (default: the first): a preview, or (dry_run=False) one undoable change."""
        from core.hygiene import service

        result = service.merge_entities(self, names, into, dry_run, self._ctx.actor(actor))
        if not dry_run:
            self._ctx.written()
        return result

    def tidy(self, *, apply: Any = None, actor: str | None = None) -> dict[str, Any]:
        """What hygiene proposes now, with previews (a dry run); ``apply``: the proposal ids to carry out."""
        from core.hygiene import service

        result = service.tidy(self, apply, self._ctx.actor(actor))
        if apply:
            self._ctx.written()
        return result

    def preview_insight(self, title: str) -> dict[str, Any] | None:
        """What approving hygiene insight ``title`` would change (a merge's preview…); None for other insights."""
        from core.hygiene import service

        return service.preview_insight(self, title)

    def resolve_aliases(self, names: Sequence[str]) -> dict[str, str]:
        """For each name no entity has but one was merged from: that entity's name now."""
        from core.hygiene import service

        return service.resolve(self, list(names))
