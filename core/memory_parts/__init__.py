"""The parts ``core.memory.Memory`` delegates its work to, one concern each.

``checks`` (input validation shared by the parts), ``context`` (what every part reads: settings,
stores, clock, actor), ``embedding`` (the model and the background indexer), ``editing`` (every
write to the graph), ``reading`` (reads, search, overviews), ``history`` (change_log, undo,
restore), ``insights`` (reflect and the review lifecycle), ``files`` (imports, exports, backups,
damage, the file's bookkeeping). Callers never import these: ``core.Memory`` is the one entry point.
"""
