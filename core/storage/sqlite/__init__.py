"""The default backend: the whole graph in one SQLite file (FTS5 + sqlite-vec).

Three stores share one ``Database`` (database.py: the connection, its lock, the clock):

- ``SqliteGraphStore`` (store.py) — the graph; its methods live by concern in writes.py,
  search.py (substring and full-text search), graph_reads.py, neighbours.py, edits.py and
  history.py (store.py's docstring has the map)
- ``SqliteVecStore`` (vectors.py) — entity vectors, searched through vector_cache.py
- ``SqliteInsightRows`` (insights.py) — the reads and writes of the one insight lifecycle
  (``core.reflect.lifecycle``); the plain reads the detectors (``core.reflect.patterns``) ask for are
  reflect_queries.py, one reflect's reading of the graph detection.py
- edits.py — the ``EditSession`` the editing and undo rules (``core.history.undo``) run on

Opening, creating and upgrading the file: connection.py, schema.py, migrations/.

The package itself imports nothing: a module of it (connection.py, foreign.py) is imported without
the whole store, and two threads importing different modules of it (the app opens its memory on a
thread while the first-run screen imports the readers of other memories) never meet in a circle.
"""
