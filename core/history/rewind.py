"""The graph as it stood on a past date, from what any backend's change_log says: one home for the
rewinding rules, so the SQLite and graph-server backends cannot drift apart."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from core.model import Entity, KnowledgeGraph, Relation

Entities = dict[str, dict[str, Any]]  # name → {"type", "obs": {content: created_at}}
Relations = dict[tuple[str, str, str], str]  # (from, to, type) → created_at
Change = tuple[str, str | None, str, str | None]  # op, entity, before (JSON), after (JSON)


def rewind(entities: Entities, relations: Relations, changes: Iterable[Change], when: str) -> KnowledgeGraph:
    """Undo, newest first, every ``changes`` row made after ``when`` (rows with a ``before``) over the live
    rows created by then, and return the graph as it was at ``when``."""
    for op, name, before, after in changes:
        if name is None or before is None:  # bookkeeping (reflect, decay): no entity to rewind
            continue
        snap = json.loads(before)
        if op == "delete_entity" and snap["created_at"] <= when:
            entities[name] = {"type": snap["entityType"],
                              "obs": {c: t for c, t in snap["observations"] if t <= when}}
            for rel in snap["relations"]:
                if rel["created_at"] <= when and (rel["ended_at"] is None or rel["ended_at"] > when):
                    relations[(rel["from"], rel["to"], rel["relationType"])] = rel["created_at"]
        elif op == "delete_observations" and name in entities:
            for content, created in snap["observations"]:
                if created <= when:
                    entities[name]["obs"][content] = created
        elif op == "delete_relation" and snap["created_at"] <= when:
            relations[(snap["from"], snap["to"], snap["relationType"])] = snap["created_at"]
        elif op in ("update_entity", "set_entity_type") and name in entities:
            entities[name]["type"] = snap.get("entityType", entities[name]["type"])
        elif op == "rename_entity" and name in entities:
            entities[snap["name"]] = entities.pop(name)
            relations = {(snap["name"] if s == name else s, snap["name"] if d == name else d, t): c
                         for (s, d, t), c in relations.items()}
        elif op == "replace_observation" and name in entities:
            entities[name]["obs"].pop(json.loads(after or "{}").get("observation"), None)
            if snap["created_at"] <= when:
                entities[name]["obs"][snap["observation"]] = snap["created_at"]
        elif op in ("end_relation", "reopen_relation"):
            key = (snap["from"], snap["to"], snap["relationType"])
            if snap["created_at"] <= when and (snap["ended_at"] is None or snap["ended_at"] > when):
                relations[key] = snap["created_at"]
            else:
                relations.pop(key, None)
        elif op == "restore_entity" and snap.get("deleted_at", when) <= when:
            entities.pop(name, None)  # it was deleted at `when`; restored only later

    names = set(entities)
    return KnowledgeGraph(
        entities=[Entity(name=n, entityType=e["type"],
                         observations=[c for c, _ in sorted(e["obs"].items(), key=lambda kv: kv[1])])
                  for n, e in sorted(entities.items())],
        relations=[Relation(**{"from": s, "to": d, "relationType": t})
                   for (s, d, t), _ in sorted(relations.items(), key=lambda kv: kv[1])
                   if s in names and d in names],
    )
