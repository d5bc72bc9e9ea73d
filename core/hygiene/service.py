"""Hygiene as ``core.Memory`` offers it: merges, tidy, previews, and the
alias fallback of the official reads. ``Memory`` keeps one-line methods that call these."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import InvalidInput, NotFound
from core.hygiene import merge as M
from core.hygiene import tidy as T
from core.model import KnowledgeGraph
from core.search.folding import fold
from core.storage.factory import hygiene_store


def merge_entities(memory: Any, names: Any, into: str | None, dry_run: bool, actor: str, *,
                   approving: str | None = None) -> dict[str, Any]:
    """The merge's preview, or (``dry_run=False``) the merge itself with the preview it followed.

    A merge settles the pending duplicate proposals it covers (every name they would merge is
    among the merged ones): they are approved in the same change, marked as merged directly,
    and one undo puts them back to review. ``approving``: the proposal being approved (its
    approval carries the merge out)."""
    if isinstance(names, str) or not isinstance(names, Sequence) or not names:
        raise InvalidInput("names must be a non-empty list of entity names. Nothing was changed.")
    if any(not isinstance(n, str) or not n.strip() for n in names):
        raise InvalidInput("Every name must be a non-empty string. Nothing was changed.")
    if into is None:
        into = names[0]
    if not isinstance(into, str) or not into.strip():
        raise InvalidInput("into must be the name of the entity to keep. Nothing was changed.")
    plan = M.plan_merge(memory.graph, list(names), into)
    if dry_run:
        return {"dry_run": True, "preview": plan, "text": M.describe_plan(plan)}
    return M.carry_out(memory, plan, actor, approving=approving)


def proposals(memory: Any) -> list[dict[str, Any]]:
    """What every hygiene kind proposes now, best first (nothing is written)."""
    hs = hygiene_store(memory.graph)
    out = []
    for pattern, drafts in T.detect_all(hs, memory.graph).items():
        for d in drafts:
            out.append({"id": d.title, "kind": pattern, "label": T.KINDS[pattern].label,
                        "confidence": d.confidence, "summary": d.summary, "evidence": d.evidence})
    return sorted(out, key=lambda p: (-p["confidence"], p["id"]))


def tidy(memory: Any, apply: Any, actor: str) -> dict[str, Any]:
    """List the proposals (``apply`` None or empty: a dry run) or carry out the ones ``apply`` names."""
    found = proposals(memory)
    if not apply:
        for p in found:
            p["preview"] = T.KINDS[p["kind"]].preview(memory, p["evidence"])
        return {"dry_run": True, "proposals": found, "kinds": {k: v.label for k, v in T.KINDS.items()}}
    if isinstance(apply, str) or not isinstance(apply, Sequence) or any(not isinstance(a, str) for a in apply):
        raise InvalidInput("apply must be a list of proposal ids (from a dry run). Nothing was changed.")
    by_id = {p["id"]: p for p in found}
    missing = [a for a in apply if a not in by_id]
    if missing:
        raise NotFound(f"No current proposal has the id {missing[0]!r}; run tidy without apply to list them. "
                       "Nothing was changed.")
    done: list[dict[str, Any]] = []
    # Each proposal is one change of its own (on a graph server a merge writes only what it
    # changes, never copying the graph); if one fails, those applied before it are undone, newest
    # first, so the call lands whole or leaves the memory as it was.
    try:
        for a in dict.fromkeys(apply):
            done.append({"id": a, "kind": by_id[a]["kind"], **_carry_out(memory, by_id[a], actor)})
    except Exception:
        for applied in reversed(done):
            if applied.get("change_id"):
                memory.undo_change(applied["change_id"], actor=actor)
        raise
    return {"dry_run": False, "applied": done}


def _carry_out(memory: Any, proposal: dict[str, Any], actor: str) -> dict[str, Any]:
    """Apply one proposal; a pending insight of the same title is marked approved with it."""
    stored = memory.surface_insights(limit=1, title=proposal["id"], status="all")
    if stored and stored[0]["status"] == "pending" and not stored[0]["stale"]:
        applied: dict[str, Any] = memory.decide_insight(proposal["id"], "approve", actor=actor)["applied"]
        return applied
    done: dict[str, Any] = T.KINDS[proposal["kind"]].apply(memory, proposal["evidence"], actor)
    return done


def preview_insight(memory: Any, title: str) -> dict[str, Any] | None:
    """What approving the hygiene insight ``title`` would change (None for other insights)."""
    found = memory.surface_insights(limit=1, title=title, status="all")
    if not found or not is_hygiene(found[0]["pattern"]):
        return None
    return {"pattern": found[0]["pattern"], **T.KINDS[found[0]["pattern"]].preview(memory, found[0]["evidence"])}


def is_hygiene(pattern: str | None) -> bool:
    """Whether insights of ``pattern`` are carried out when approved."""
    return pattern in T.KINDS


# -- the official reads, by alias ---------------------------------------------------------------

def resolve(memory: Any, names: Sequence[str]) -> dict[str, str]:
    """For names no entity has that one was merged from: the entity's name now."""
    return hygiene_store(memory.graph).resolve_aliases(names)


def open_nodes(memory: Any, names: list[str], graph: KnowledgeGraph) -> KnowledgeGraph:
    """``graph`` (open_nodes of ``names``) with the entities that missing names are aliases of."""
    have = {e.name for e in graph.entities}
    missing = [n for n in names if n not in have]
    found = resolve(memory, missing) if missing else {}
    if not found:
        return graph
    opened: KnowledgeGraph = memory.graph.open_nodes(list(dict.fromkeys([*(n for n in names if n in have),
                                                                          *found.values()])))
    return opened


def open_nodes_dump(memory: Any, names: list[str], dump: dict[str, Any]) -> dict[str, Any]:
    have = {e["name"] for e in dump["entities"]}
    missing = [n for n in names if n not in have]
    found = resolve(memory, missing) if missing else {}
    if not found:
        return dump
    opened: dict[str, Any] = memory.graph.open_nodes(list(dict.fromkeys([*(n for n in names if n in have),
                                                                          *found.values()]))).dump()
    return opened


def alias_hits(memory: Any, query: str) -> list[str]:
    """Entities one of whose former names holds ``query`` (folded), in the order they were made:
    one read of the folds each backend stores (``core.hygiene.store``); only the query is folded."""
    q = fold(query) if query else ""
    return hygiene_store(memory.graph).alias_matches(q) if q else []


def search_nodes(memory: Any, query: str, limit: int | None, graph: KnowledgeGraph) -> KnowledgeGraph:
    """``graph`` (search_nodes' answer) with entities found by a former name added after it."""
    have = {e.name for e in graph.entities}
    extra = [n for n in alias_hits(memory, query) if n not in have]
    if not extra or (limit is not None and len(have) >= limit):
        return graph
    if limit is not None:
        extra = extra[: limit - len(have)]
    opened = memory.graph.open_nodes(extra)
    seen = {r.key() for r in graph.relations}
    relations = [*graph.relations, *(r for r in opened.relations if r.key() not in seen)]
    return graph.model_copy(update={"entities": [*graph.entities, *opened.entities], "relations": relations})


def search_nodes_dump(memory: Any, query: str, limit: int | None, dump: dict[str, Any]) -> dict[str, Any]:
    have = {e["name"] for e in dump["entities"]}
    extra = [n for n in alias_hits(memory, query) if n not in have]
    if not extra or (limit is not None and len(have) >= limit):
        return dump
    if limit is not None:
        extra = extra[: limit - len(have)]
    opened = memory.graph.open_nodes(extra).dump()
    seen = {(r["from"], r["to"], r["relationType"]) for r in dump["relations"]}
    relations = [*dump["relations"], *(r for r in opened["relations"]
                                       if (r["from"], r["to"], r["relationType"]) not in seen)]
    return {**dump, "entities": [*dump["entities"], *opened["entities"]], "relations": relations}
