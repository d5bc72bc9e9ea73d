"""Merging duplicate entities, written once for every backend from the stores' own writes.

``plan_merge`` reads the entities and says exactly what a merge will do (the preview);
``apply_merge`` does that in one atomic write of an edit session (``core.history.undo``), ending
with one ``merge_entities`` change_log row grouping every row it wrote (and the decisions on the
proposals it carries out or settles), so one undo takes the whole merge back:

* the duplicates' observations join the kept entity's, except exact and near-exact repeats of
  one it has (``names.near_same_fact``); each dropped one is listed with the fact it repeats;
* their relations are rewired to it (an ended one stays ended), except those that would relate it
  to itself or repeat a relation it has;
* properties it lacks are taken from them; their names (and their own aliases) become its aliases,
  so ``open_nodes``, ``search_nodes`` and the editor still find it by them;
* the duplicates are deleted, their whole state kept in history (as-of reads and undo see it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import InvalidInput, NotFound
from core.hygiene import names as N
from core.hygiene.duplicates import DUPLICATES
from core.hygiene.store import ALIASES_KEY, MERGE_OP
from core.model import Relation
from core.reflect import lifecycle

MERGED_DIRECTLY = "merged directly"  # how a proposal settled by a direct merge is marked


def plan_merge(graph: Any, names: Sequence[str], into: str) -> dict[str, Any]:
    """What merging ``names`` into ``into`` would change; bad input → InvalidInput / NotFound."""
    others = list(dict.fromkeys(n for n in names if n != into))
    if into in names and not others:
        raise InvalidInput(f"Cannot merge {into!r} into itself: name at least one other entity. Nothing was changed.")
    if not others:
        raise InvalidInput("Name at least one entity to merge into the kept one. Nothing was changed.")
    target = _read(graph, into)
    sources = [_read(graph, n) for n in others]
    facts = list(target["node"].observations)
    added: list[str] = []
    dropped: list[dict[str, str]] = []
    for src in sources:
        for text in src["node"].observations:
            same = next((f for f in facts if f == text or N.near_same_fact(f, text)), None)
            if same is None:
                facts.append(text)
                added.append(text)
            else:
                dropped.append({"from": src["node"].name, "observation": text, "repeats": same})
    merged = set(others) | {into}
    have = {(r["from"], r["to"], r["relationType"]) for r in target["relations"]}
    rewired: list[dict[str, Any]] = []
    skipped: list[dict[str, Any]] = []
    for src in sources:
        for r in src["relations"]:
            new = {"from": into if r["from"] in merged else r["from"], "to": into if r["to"] in merged else r["to"],
                   "relationType": r["relationType"]}
            was = {"from": r["from"], "to": r["to"], "relationType": r["relationType"]}
            key = (new["from"], new["to"], new["relationType"])
            if new["from"] == new["to"]:
                skipped.append({**was, "why": "would relate the entity to itself"})
            elif key in have:
                skipped.append({**was, "why": "the kept entity has it already"})
            else:
                have.add(key)
                rewired.append({**new, "was": was, "ended_at": r.get("ended_at"), "props": r.get("props") or {}})
    props: dict[str, Any] = {}
    for src in sources:
        for k, v in (src["node"].props or {}).items():
            if k != ALIASES_KEY and k not in (target["node"].props or {}) and k not in props:
                props[k] = v
    former = [a for s in sources for a in (s["node"].name, *_aliases(s["node"]))]
    aliases = list(dict.fromkeys([*_aliases(target["node"]), *former]))
    return {"into": into, "merged": others, "entity_type": target["node"].label,
            "add_observations": added, "dropped_observations": dropped,
            "rewire_relations": rewired, "dropped_relations": skipped,
            "add_properties": props, "aliases": aliases, "delete_entities": others}


def _read(graph: Any, name: str) -> dict[str, Any]:
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("Entity names must be non-empty strings. Nothing was changed.")
    try:
        found: dict[str, Any] = graph.entity_for_edit(name)
        return found
    except NotFound:
        raise NotFound(f"Entity {name!r} does not exist; nothing was merged. Check the name "
                       "(open_nodes or search_nodes) and try again.") from None


def _aliases(node: Any) -> list[str]:
    found = (node.props or {}).get(ALIASES_KEY)
    return [a for a in found if isinstance(a, str)] if isinstance(found, list) else []


def apply_merge(graph: Any, plan: dict[str, Any], actor: str, *, approving: str | None = None,
                resolves: Sequence[str] = ()) -> int:
    """Carry out ``plan`` (from ``plan_merge``) as one change, in one atomic write of the backend
    (on a graph server too: only what the merge changes is written, the graph is not copied).

    ``approving``: the title of the pending insight this merge carries out (approved with it);
    ``resolves``: other pending proposals the merge settles (approved, noted as merged directly).
    Their decisions are rows of the same change: one undo takes the merge back and puts them
    back to review. Returns the change's id."""
    def work(s: Any) -> int:
        settled = []
        if approving is not None:
            lifecycle.approve_in(s, approving, actor)
            settled.append(approving)
        for title in resolves:
            state = s.insight(title)
            if title != approving and state is not None and state.status == "pending" and not state.stale:
                lifecycle.approve_in(s, title, f"{actor} ({MERGED_DIRECTLY})",
                                     {"note": f"{MERGED_DIRECTLY}: {', '.join(plan['merged'])} into {plan['into']}"})
                settled.append(title)
        write_merge(s, plan)
        extra = {"into": plan["into"], "merged": plan["merged"], **({"insights": settled} if settled else {})}
        done = s.finish(MERGE_OP, plan["into"], extra)
        assert done is not None  # a merge always writes rows
        return int(done)
    done: int = graph.run_edit(work, actor)
    return done


def carry_out(memory: Any, plan: dict[str, Any], actor: str, *, approving: str | None = None) -> dict[str, Any]:
    """Merge as ``plan`` says (``apply_merge``), settling the pending duplicate proposals it covers;
    what ``Memory.merge_entities`` answers (with ``resolved_insights`` when it settled any)."""
    settles = covered_proposals(memory, [plan["into"], *plan["merged"]])
    change_id = apply_merge(memory.graph, plan, actor, approving=approving, resolves=settles)
    done = {"dry_run": False, "preview": plan, "text": describe_plan(plan), "change_id": change_id}
    settled = [t for t in settles if t != approving]
    return {**done, "resolved_insights": settled} if settled else done


def covered_proposals(memory: Any, merged: Sequence[str]) -> list[str]:
    """Titles of the pending (not stale) duplicate proposals a merge of ``merged`` carries out:
    each of their names is one of ``merged``."""
    wanted = set(merged)
    out = []
    for insight in memory.surface_insights(limit=1000, query="Possible duplicates", status="pending"):
        proposal = (insight.get("evidence") or {}).get("merge") or {}
        names = {proposal.get("into"), *(proposal.get("names") or [])}
        if insight["pattern"] == DUPLICATES and not insight["stale"] and None not in names and names <= wanted:
            out.append(insight["title"])
    return out


def write_merge(s: Any, plan: dict[str, Any]) -> None:
    """The merge's writes on one ``core.history.undo.EditSession`` (each records its own row)."""
    into = plan["into"]
    for name in (into, *plan["delete_entities"]):
        if s.entity(name) is None:
            raise NotFound(f"Entity {name!r} no longer exists (changed since the preview); nothing was merged.")
    for r in plan["rewire_relations"]:
        for end in (r["from"], r["to"]):
            if s.entity(end) is None:
                raise NotFound(f"Entity {end!r} (in a relation to rewire) no longer exists; nothing was merged. "
                               "Preview the merge again.")
    if plan["add_observations"]:
        s.add_observations(into, list(plan["add_observations"]))
    if plan["rewire_relations"]:
        s.create_relations([_relation(r) for r in plan["rewire_relations"]])
    for r in plan["rewire_relations"]:
        if r["props"]:
            s.set_relation_state(r["from"], r["to"], r["relationType"], dict(r["props"]), None)
        if r["ended_at"]:
            s.set_relation_end(r["from"], r["to"], r["relationType"], r["ended_at"])
    kept = s.entity(into)
    props = {**plan["add_properties"], **kept.props, ALIASES_KEY: plan["aliases"]}
    s.update_entity(into, {"entityType": kept.type, "props": kept.props}, {"entityType": kept.type, "props": props})
    for name in plan["delete_entities"]:
        s.delete_entity(name)


def _relation(r: dict[str, Any]) -> Relation:
    return Relation(**{"from": r["from"], "to": r["to"], "relationType": r["relationType"]})


def describe_plan(plan: dict[str, Any]) -> str:
    """The preview in a few English lines (the CLI prints it; the desktop words its own)."""
    lines = [f"Merge {', '.join(plan['merged'])} into {plan['into']}:"]
    lines.append(f"  add {len(plan['add_observations'])} observation(s); "
                 f"drop {len(plan['dropped_observations'])} repeat(s)")
    for d in plan["dropped_observations"]:
        lines.append(f"    - drop {d['observation']!r} (from {d['from']}; repeats {d['repeats']!r})")
    lines.append(f"  rewire {len(plan['rewire_relations'])} relation(s); drop {len(plan['dropped_relations'])}")
    for r in plan["rewire_relations"]:
        w = r["was"]
        lines.append(f"    - {w['from']} -{w['relationType']}-> {w['to']}  becomes  "
                     f"{r['from']} -{r['relationType']}-> {r['to']}")
    for r in plan["dropped_relations"]:
        lines.append(f"    - drop {r['from']} -{r['relationType']}-> {r['to']} ({r['why']})")
    lines.append(f"  aliases: {', '.join(plan['aliases'])}")
    lines.append(f"  delete: {', '.join(plan['delete_entities'])} (kept in history; one undo brings all back)")
    return "\n".join(lines)
