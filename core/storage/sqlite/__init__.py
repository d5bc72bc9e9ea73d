"""The default backend: the whole graph in one SQLite file (FTS5 + sqlite-vec).

Three stores share one ``Database`` (database.py: the connection, its lock, the clock):

- ``SqliteGraphStore`` (store.py) — the graph; its methods live by concern in writes.py,
  search.py (substring and full-text search), graph_reads.py, neighbours.py, edits.py and
  history.py (store.py's docstring has the map)
- ``SqliteVecStore`` (vectors.py) — entity vectors, searched through vector_cache.py
- ``SqliteInsightRows`` (insights.py) — the reads and writes of the one insight lifecycle
  (``core.reflect.lifecycle``); the detectors' SQL is reflect_queries.py, one reflect's reading of
  the graph detection.py
- edits.py — the ``EditSession`` the editing and undo rules (``core.history.undo``) run on

Opening, creating and upgrading the file: connection.py, schema.py, migrations/.
"""

from core.storage.sqlite.store import SqliteGraphStore

__all__ = ["SqliteGraphStore"]
