"""One number read from an SQLite memory file without opening it as a memory: the newest change's id.

For a client's Stop hook, which must answer within a second and only needs to know whether anything
was saved since the session began: the standard library's sqlite3, read-only, no extensions, no
schema check (a file that is not a memory reads as None)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def latest_change_id(path: Path | str) -> int | None:
    """The highest change_log id in the file at ``path`` (0 when empty), or None if it cannot be read."""
    try:
        conn = sqlite3.connect(f"{Path(path).expanduser().absolute().as_uri()}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return None
    try:
        return int(conn.execute("SELECT coalesce(max(id), 0) FROM change_log").fetchone()[0])
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def brief_stamp(path: Path | str) -> str | None:
    """What the brief depends on, as one string that changes whenever it may (a write, a pin, a recall):
    a client's hook keeps the brief it built under it and reuses it while it holds. None if unreadable."""
    try:
        conn = sqlite3.connect(f"{Path(path).expanduser().absolute().as_uri()}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute(
            "SELECT (SELECT coalesce(max(id), 0) FROM change_log), (SELECT count(*) FROM pins), "
            "(SELECT coalesce(max(pinned_at), '') FROM pins), "
            "(SELECT coalesce(max(last_access), '') FROM entity_access), "
            "(SELECT count(*) FROM entity_access)").fetchone()
    except sqlite3.Error:
        return None
    finally:
        conn.close()
    return "|".join(str(v) for v in row)
