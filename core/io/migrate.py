"""Moving a whole memory between backends (SQLite file ↔ FalkorDB graph), resumably.

Entities, relations and the change_log keep their ids, so an interrupted move resumes after the
last id the target holds; insights (review state) and vectors (with the model and text hash they
were made from, so nothing is re-embedded) follow. The move is checked by counts and by a
checksum of the graph computed the same way on both sides.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from core.errors import Conflict, InvalidInput

KINDS = ("entities", "relations", "changes", "insights", "vectors")
PAGE = 2000
Progress = Callable[[str, int, int], None]  # kind, copied so far, total


def transfer_for(graph: Any) -> Any:
    """The backend's page reader/writer (the one place a backend is named here)."""
    if graph.backend == "sqlite":
        from core.storage.sqlite.transfer import SqliteTransfer

        return SqliteTransfer(graph.db)
    if graph.backend in ("falkordb", "neo4j"):
        from core.storage.cypher.transfer import CypherTransfer

        return CypherTransfer(graph)
    raise InvalidInput(f"Cannot move a memory from or to the {graph.backend} backend.")


def checksum(transfer: Any) -> str:
    """sha256 over every entity (name, type, props, observations, times) and relation, in id order."""
    digest = hashlib.sha256()
    for kind in ("entities", "relations"):
        after = 0
        while rows := transfer.page(kind, after, PAGE):
            for r in rows:
                line = {k: v for k, v in r.items() if k != "id"}
                digest.update(json.dumps(line, sort_keys=True, ensure_ascii=False).encode("utf-8") + b"\n")
            after = rows[-1]["id"]
    return digest.hexdigest()


def migrate(source: Any, target: Any, target_vectors: Any, source_vectors: Any,
            progress: Progress | None = None) -> dict[str, Any]:
    """Copy every row of ``source`` (a graph store) into ``target``; resumes a move left half-way.

    A target holding a different memory (rows the source lacks) is refused: nothing is written.
    """
    src, dst = transfer_for(source), transfer_for(target)
    totals = src.counts()
    done = dst.counts()
    if done["entities"] and dst.last_id("entities") > src.last_id("entities"):
        raise Conflict("The target already holds another memory (it has entities the source lacks); "
                       "choose an empty target. Nothing was written.")
    if source_vectors is not None and target_vectors is not None and totals["vectors"]:
        model = source.get_metadata("embedding_model") or ""
        target_vectors.prepare(model, source_vectors.dimensions)
    for kind in KINDS:
        # entities, relations and changes resume after the target's last id; insights and vectors
        # are written again whole (both writes are idempotent)
        after = dst.last_id(kind) if kind in ("entities", "relations", "changes") else 0
        copied = 0 if kind in ("insights", "vectors") else done[kind]
        while rows := src.page(kind, after, PAGE):
            dst.write(kind, rows)
            after = rows[-1]["id"]
            copied += len(rows) if kind != "entities" else len(rows)
            if progress is not None:
                progress(kind, min(copied, totals[kind]), totals[kind])
    for key in ("embedding_dimensions", "embedding_model"):
        value = source.get_metadata(key)
        if value is not None:
            target.set_metadata(key, value)
    after_counts = dst.counts()
    sums = (checksum(src), checksum(dst))
    return {"counts": totals, "target_counts": after_counts, "checksum": sums[1],
            "verified": after_counts == totals and sums[0] == sums[1]}
