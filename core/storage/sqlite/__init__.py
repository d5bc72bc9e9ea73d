"""The default backend: the whole graph in one SQLite file (FTS5 + sqlite-vec)."""

from core.storage.sqlite.store import SqliteGraphStore

__all__ = ["SqliteGraphStore"]
