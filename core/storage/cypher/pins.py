"""Pins and the brief's other sources on a Cypher server: what the user pinned (the entity node's
``pins`` list, ``""`` for the entity itself, with ``pins_at`` beside it), the entities changed last
and the ones recalled most. The rules are in ``core/brief.py``; this only reads and writes."""

from __future__ import annotations

from typing import Any

from core.storage.cypher.seams import Graph


class PinsMixin:
    """Mixin of ``CypherGraphStore``; what it uses of the store is ``seams.Graph``."""

    def set_pin(self: Graph, name: str, fact: str | None, pinned: bool) -> bool:
        """Pin (or unpin) entity ``name`` itself (``fact`` None) or one of its facts; True if it changed."""
        key, now = fact or "", self.now()

        def write(tx: Any) -> bool:
            found = tx.read("MATCH (e:Entity {name: $n}) RETURN coalesce(e.pins, []), coalesce(e.pins_at, [])",
                            {"n": name})
            if not found:
                return False
            keys, stamps = list(found[0][0]), list(found[0][1])
            if pinned == (key in keys):
                return False
            if pinned:
                keys.append(key)
                stamps.append(now)
            else:
                at = keys.index(key)
                del keys[at], stamps[at]
            tx.write("MATCH (e:Entity {name: $n}) SET e.pins = $k, e.pins_at = $s", {"n": name, "k": keys, "s": stamps})
            return True

        return bool(self.write(write))

    def pins(self: Graph) -> list[tuple[int, str | None, str]]:
        """Every pin, oldest first: (entity id, the fact's text or None for the entity, when)."""
        rows = self.db.read("MATCH (e:Entity) WHERE e.archived_at IS NULL AND size(coalesce(e.pins, [])) > 0 "
                            "RETURN e.id, e.pins, e.pins_at")
        found = [(int(i), k or None, str(at)) for i, keys, stamps in rows for k, at in zip(keys, stamps, strict=False)]
        return sorted(found, key=lambda p: (p[2], p[0], p[1] or ""))

    def brief_sources(self: Graph, limit: int) -> dict[str, list[int]]:
        """Entity ids for the brief: ``recent`` (changed last) and ``recalled`` (recalled most), ``limit`` each."""
        recent = [int(r[0]) for r in self.db.read(
            "MATCH (e:Entity) WHERE e.archived_at IS NULL RETURN e.id ORDER BY e.updated_at DESC, e.id DESC "
            "LIMIT $n", {"n": limit})]
        recalled = [int(r[0]) for r in self.db.read(
            "MATCH (e:Entity) WHERE e.archived_at IS NULL AND e.access_count > 0 RETURN e.id "
            "ORDER BY e.access_count DESC, e.last_access DESC LIMIT $n", {"n": limit})]
        return {"recent": recent, "recalled": recalled}
