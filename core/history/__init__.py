"""History and undo, once for every backend: what a change_log row means, the undo of any change,
editing one entity, and the graph on a past date. A backend supplies only the reads and writes
(``undo.EditSession``, ``changes.HistoryReads``)."""
