"""Pins and the brief's other sources on SQLite: what the user pinned, the entities changed last and
the ones recalled most. The rules (what may be pinned, what the brief shows) are in ``core/brief.py``;
this only reads and writes."""

from __future__ import annotations

from typing import Any


class GraphPins:
    """Mixin of ``SqliteGraphStore``: the ``pins`` table (schema 6) and two short ranked reads."""

    db: Any

    def set_pin(self, name: str, fact: str | None, pinned: bool) -> bool:
        """Pin (or unpin) entity ``name`` itself (``fact`` None) or one of its facts; True if it changed."""
        with self.db.write() as conn:
            row = conn.execute("SELECT id FROM entities WHERE name = ?", (name,)).fetchone()
            if row is None:
                return False
            if pinned:
                cur = conn.execute("INSERT OR IGNORE INTO pins(entity_id, fact, pinned_at) VALUES (?, ?, ?)",
                                   (row[0], fact or "", self.db.now()))
            else:
                cur = conn.execute("DELETE FROM pins WHERE entity_id = ? AND fact = ?", (row[0], fact or ""))
            return bool(cur.rowcount > 0)

    def pins(self) -> list[tuple[int, str | None, str]]:
        """Every pin, oldest first: (entity id, the fact's text or None for the entity, when)."""
        with self.db.locked() as conn:
            return [(r[0], r[1] or None, r[2]) for r in conn.execute(
                "SELECT p.entity_id, p.fact, p.pinned_at FROM pins p JOIN entities e ON e.id = p.entity_id "
                "WHERE e.archived_at IS NULL ORDER BY p.pinned_at, p.entity_id, p.fact")]

    def brief_sources(self, limit: int) -> dict[str, list[int]]:
        """Entity ids for the brief: ``recent`` (changed last) and ``recalled`` (recalled most), ``limit`` each."""
        with self.db.locked() as conn:
            recent = [r[0] for r in conn.execute(
                "SELECT id FROM entities WHERE archived_at IS NULL ORDER BY updated_at DESC, id DESC LIMIT ?",
                (limit,))]
            recalled = [r[0] for r in conn.execute(
                "SELECT a.entity_id FROM entity_access a JOIN entities e ON e.id = a.entity_id "
                "WHERE e.archived_at IS NULL ORDER BY a.access_count DESC, a.last_access DESC LIMIT ?", (limit,))]
        return {"recent": recent, "recalled": recalled}
