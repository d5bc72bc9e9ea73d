"""SqliteGraphStore: the knowledge graph in one SQLite file.

The store is a façade over one ``Database`` (database.py: the connection, its lock, the clock),
put together from one mixin per concern; the vector and insight stores share the same handle.

- writes.py       creating, merging, deleting, archiving and restoring entities and relations
- search.py       ``search_nodes`` (substring, trigram index) and ``fulltext_search`` (FTS5, BM25)
- graph_reads.py  the whole graph or a page, nodes by name, id or type, counts, the overview
- neighbours.py   nodes within 1–3 hops, with the path to each
- edits.py        editing one entity in place, the editor's Save, undo
- history.py      change_log: history, the live feed, activity, the graph as of a date
- this file       opening and closing, integrity, backups, transactions and imports, status

The row-level queries they share are in reads.py; the full-text and embedding bookkeeping of a
write in touched.py.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import files
from core.errors import StorageError
from core.graph_rules import GraphRules
from core.overview import OverviewRules
from core.storage.sqlite import backups, embedding_state, imports, reads
from core.storage.sqlite.connection import DatabaseError, connect_reader
from core.storage.sqlite.database import Clock, Database, utc_now
from core.storage.sqlite.edits import EditsMixin
from core.storage.sqlite.graph_reads import GraphReads
from core.storage.sqlite.history import HistoryMixin, current_import
from core.storage.sqlite.hygiene import SqliteHygiene
from core.storage.sqlite.integrity import IntegrityGate, damaged_message
from core.storage.sqlite.neighbours import GraphNeighbours
from core.storage.sqlite.pins import GraphPins
from core.storage.sqlite.schema import SCHEMA_VERSION, open_database, open_database_read_only
from core.storage.sqlite.search import GraphSearch
from core.storage.sqlite.vector_cache import VectorCache
from core.storage.sqlite.writes import GraphWrites

if TYPE_CHECKING:
    from core.reflect.lifecycle import InsightLifecycle

log = logging.getLogger(__name__)


class SqliteGraphStore(GraphRules, GraphWrites, GraphSearch, GraphReads, GraphNeighbours, EditsMixin, HistoryMixin,
                       GraphPins, OverviewRules):
    """The default GraphStore. Thread-safe: one connection, one lock, short transactions."""

    backend = "sqlite"

    def __init__(self, path: Path | str, *, clock: Clock = utc_now, read_only: bool = False,
                 backup_keep: int = files.KEEP) -> None:
        self.path = str(path)
        self.read_only = read_only
        self.backup_keep = 0 if read_only else backup_keep
        conn = (open_database_read_only(self.path) if read_only
                else open_database(self.path, backup_keep=backup_keep))
        reader = None if self.path == ":memory:" else functools.partial(connect_reader, self.path, read_only=read_only)
        self.db = Database(conn, clock=clock, open_reader=reader)
        self.totals = reads.Totals()
        self.vector_cache = VectorCache()  # searched by SqliteVecStore; kept here for deletions
        # quick_check on a thread of its own; writes wait for it, and are refused if it finds damage
        self.integrity: IntegrityGate | None = None if self.path == ":memory:" else IntegrityGate(
            conn, self.path, self.db.lock, after_healthy=self._daily_backup, read_only=read_only)
        if not read_only and self.path != ":memory:":
            imports.recover(self)  # an import whose process died mid-way is rolled back

    # -- lifecycle ---------------------------------------------------------------------------

    def close(self) -> None:
        if self.integrity is not None:  # outside the lock: the daily backup after the check takes it
            self.integrity.close()
            self.integrity.join(30)
        self.db.close()

    def salvage(self) -> dict[str, Any]:
        """What can still be read from a damaged file, in the official JSON shape (see salvage.py)."""
        from core.storage.sqlite.salvage import salvage

        with self.db.locked() as conn:
            return salvage(conn)

    @property
    def damage(self) -> str | None:
        """What the integrity check found wrong with the file (None: healthy, or not checked yet)."""
        return self.integrity.damage if self.integrity is not None else None

    def refuse_if_damaged(self) -> None:
        """Wait for the integrity check; raise ``StorageError`` (naming the newest backup) if the
        file is damaged."""
        if self.integrity is not None:
            self.integrity.wait()
            if self.integrity.message is not None:
                raise StorageError(self.integrity.message)

    def _daily_backup(self) -> None:
        if self.backup_keep > 0 and files.daily_backup_due(Path(self.path)) and self._has_entities():
            made = backups.make_backup(Path(self.path), "daily", keep=self.backup_keep)
            log.info("Daily backup of %s: %s", self.path, made)

    def _has_entities(self) -> bool:
        with self.db.locked() as conn:
            return bool(conn.execute("SELECT EXISTS (SELECT 1 FROM entities)").fetchone()[0] == 1)

    def auto_backup(self, reason: str) -> Path | None:
        """A backup before a risky step (an import), kept with the automatic ones; None when the
        memory is empty or automatic backups are off. A damaged file is refused instead."""
        self.refuse_if_damaged()
        if self.backup_keep <= 0 or self.path == ":memory:" or not self._has_entities():
            return None
        return backups.make_backup(Path(self.path), reason, keep=self.backup_keep)

    def now(self) -> str:
        return self.db.now()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Group several calls into one all-or-nothing transaction (e.g. one imported file).

        Other threads wait for it to finish; calls inside it join it as savepoints. Inside
        ``importing()`` it groups nothing: the import's writes land in short transactions and the
        import as a whole is undone by its id instead (see imports.py).
        """
        if getattr(current_import, "id", None) is not None:
            with self.db.locked() as conn:
                chunked = not conn.in_transaction  # not inside a preview's real transaction
            if chunked:
                yield
                return
        with self.db.write():
            yield

    @contextlib.contextmanager
    def importing(self, source: str, actor: str) -> Iterator[str | None]:
        """One import as a unit without one long transaction: its writes are short transactions
        tagged with an id, and if anything inside raises (a refused file, a cancel, a crash found
        at the next open) everything it wrote is rolled back by that id. Yields the id (None when
        already inside a transaction, which then keeps its all-or-nothing meaning)."""
        current = getattr(current_import, "id", None)
        if current is not None:
            yield current  # a file of a larger import: the outer unit decides
            return
        with self.db.locked() as conn:
            in_transaction = conn.in_transaction
        if in_transaction:  # e.g. a preview that will roll everything back anyway
            with self.transaction():
                yield None
            return
        with self.db.locked() as conn:
            import_id = imports.begin(conn, source, self.db.now())
        current_import.id = import_id
        try:
            yield import_id
        except BaseException:
            current_import.id = None
            imports.rollback(self, import_id, actor)
            raise
        finally:
            current_import.id = None
        with self.db.locked() as conn:
            imports.finish(conn, import_id)

    def backup(self, dest: Path | None = None) -> Path:
        """Write a consistent copy of the database to ``dest`` (default: a new file in the
        backups folder) while it stays in use."""
        return backups.make_backup(Path(self.path), "manual", keep=max(self.backup_keep, 1), dest=dest,
                                   read_only=self.read_only)

    # -- bookkeeping beside the graph: status, metadata, limbic signals ------------------------

    def health_check(self, *, deep: bool = False) -> dict[str, Any]:
        """Versions and counts: what ``hipocampo status`` shows. ``deep`` also reads every page
        to check integrity (``PRAGMA quick_check``: ~0.1 s per 10k entities)."""
        with self.db.locked() as conn:
            report: dict[str, Any] = {
                "ok": True, "backend": self.backend, "path": self.path, "quick_check": "not run",
                "schema_version": SCHEMA_VERSION,
                "sqlite_version": conn.execute("SELECT sqlite_version()").fetchone()[0],
                "sqlite_vec_version": conn.execute("SELECT vec_version()").fetchone()[0],
                "counts": {}, "archived": 0,
            }
            try:
                if deep:
                    problems = [r[0] for r in conn.execute("PRAGMA quick_check(20)")]
                    report["quick_check"] = "ok" if problems == ["ok"] else "; ".join(problems)
                    report["ok"] = problems == ["ok"]
                report["counts"] = {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                                    for t in ("entities", "observations", "relations", "insights")}
                report["archived"] = conn.execute(
                    "SELECT count(*) FROM entities WHERE archived_at IS NOT NULL").fetchone()[0]
            except DatabaseError as exc:  # a damaged file: say so rather than crash the caller
                report["ok"] = False
                if report["quick_check"] in ("ok", "not run"):
                    report["quick_check"] = f"damaged: {exc}"
        if self.damage is not None:
            report["ok"] = False
            report["quick_check"] = self.damage
            report["damaged"] = self.integrity.message if self.integrity is not None else self.damage
        elif not report["ok"]:
            report["damaged"] = damaged_message(self.path, report["quick_check"])
        newest = files.newest_backup(Path(self.path)) if self.path != ":memory:" else None
        report["newest_backup"] = str(newest) if newest is not None else None
        return report

    def get_metadata(self, key: str) -> str | None:
        """A value kept in db_metadata (small bookkeeping beside the graph), or None."""
        with self.db.locked() as conn:
            row = conn.execute("SELECT value FROM db_metadata WHERE key = ?", (key,)).fetchone()
            return None if row is None else str(row[0])

    def set_metadata(self, key: str, value: str) -> None:
        """Keep ``value`` under ``key`` in db_metadata."""
        with self.db.write() as conn:
            conn.execute("INSERT OR REPLACE INTO db_metadata(key, value) VALUES (?, ?)", (key, value))

    def limbic_stats(self, ids: Sequence[int]) -> dict[str, Any]:
        """Access counts and last access, degree, and co-occurrence counts among ``ids``."""
        with self.db.locked() as conn:
            return embedding_state.limbic_stats(conn, ids)

    def record_access(self, ids: Sequence[int]) -> None:
        """Note that ``ids`` were recalled together now (one short write)."""
        if ids and self.damage is None:  # a damaged file is searched, never written
            with self.db.locked() as conn:
                embedding_state.record_access(conn, ids, self.db.now())

    # -- insights (reflect and the review lifecycle live in insights.py) ----------------------

    def hygiene_store(self) -> SqliteHygiene:
        """Hygiene's reads and its merge write (``core.hygiene.store``) over this database."""
        return SqliteHygiene(self.db)

    def insight_store(self) -> InsightLifecycle:
        """The insight lifecycle (``core.reflect.lifecycle``) over this database (same connection
        and lock)."""
        from core.storage.sqlite.insights import insight_store

        return insight_store(self.db)
