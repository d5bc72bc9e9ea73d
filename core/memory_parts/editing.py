"""Every write to the graph: the official server's operations, Engrama's merges, and the editor's
one-entity edits (``save_entity`` is one editor Save, all or nothing)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from core.errors import InvalidInput
from core.memory_parts import checks
from core.memory_parts.checks import Limits, coerce
from core.memory_parts.context import MemoryContext
from core.model import (
    AddedObservations,
    CreateEntitiesResult,
    EntityInput,
    EntityPlan,
    Node,
    ObservationDeletion,
    ObservationInput,
    Relation,
)


class Editing:
    """Checks every write whole before the store sees it, so a bad item changes nothing."""

    def __init__(self, ctx: MemoryContext) -> None:
        self.ctx = ctx
        self.graph = ctx.graph
        self.check = Limits(ctx.settings)

    def _moment(self, value: datetime | str | None) -> str | None:
        return checks.moment(value, self.ctx.now())

    # -- the official memory server's operations ---------------------------------------------

    def create_entities(self, entities: Any, actor: str | None) -> CreateEntitiesResult:
        items = coerce(EntityInput, entities, "entities")
        for i, e in enumerate(items):
            self.check.name(e.name, f"entities[{i}].name")
            self.check.name(e.entityType, f"entities[{i}].entityType", "entityType")
            for j, o in enumerate(e.observations):
                checks.check_observation(o, f"entities[{i}].observations[{j}]")
        self.check.request((t for e in items for t in (e.name, e.entityType, *e.observations)), "entities")
        created, merged = self.graph.create_entities(items, self.ctx.actor(actor))
        self.ctx.written()
        return CreateEntitiesResult(entities=created, merged=[m for m in merged if m.addedObservations])

    def create_relations(self, relations: Any, actor: str | None) -> list[Relation]:
        items = coerce(Relation, relations, "relations")
        for i, r in enumerate(items):
            self.check.name(r.from_, f"relations[{i}].from", "from")
            self.check.name(r.to, f"relations[{i}].to", "to")
            self.check.name(r.relationType, f"relations[{i}].relationType", "relationType")
        self.check.request((t for r in items for t in (r.from_, r.to, r.relationType)), "relations")
        created = self.graph.create_relations(items, self.ctx.actor(actor))
        self.ctx.written()
        return created

    def add_observations(self, observations: Any, actor: str | None) -> list[AddedObservations]:
        items = coerce(ObservationInput, observations, "observations")
        for i, item in enumerate(items):
            self.check.name(item.entityName, f"observations[{i}].entityName", "entityName")
            for j, o in enumerate(item.contents):
                checks.check_observation(o, f"observations[{i}].contents[{j}]")
        self.check.request((t for i in items for t in (i.entityName, *i.contents)), "observations")
        added = self.graph.add_observations(items, self.ctx.actor(actor))
        self.ctx.written()
        return added

    def delete_entities(self, names: Any, actor: str | None) -> int:
        items = coerce(checks.Name, [{"name": n} for n in checks.as_list(names, "entityNames")], "entityNames")
        return self.graph.delete_entities([n.name for n in items], self.ctx.actor(actor))

    def delete_observations(self, deletions: Any, actor: str | None) -> int:
        items = coerce(ObservationDeletion, deletions, "deletions")
        removed = self.graph.delete_observations(items, self.ctx.actor(actor))
        self.ctx.written()
        return removed

    def delete_relations(self, relations: Any, actor: str | None) -> int:
        items = coerce(Relation, relations, "relations")
        removed = self.graph.delete_relations(items, self.ctx.actor(actor))
        self.ctx.written()
        return removed

    # -- Engrama's graph operations ----------------------------------------------------------

    def merge_node(self, label: str, name: str, props: Mapping[str, Any] | None, actor: str | None) -> Node:
        self.check.name(label, "label")
        self.check.name(name, "name")
        if props is not None and not isinstance(props, Mapping):
            raise InvalidInput(f"props must be an object, got {type(props).__name__}")
        self.check.request([name, label, json.dumps(props or {}, ensure_ascii=False, default=str)], "properties")
        node = self.graph.merge_node(label, name, dict(props or {}), self.ctx.actor(actor))
        self.ctx.written()
        return node

    def merge_relation(self, from_name: str, rel_type: str, to_name: str, props: Mapping[str, Any] | None,
                       actor: str | None) -> tuple[Relation, bool]:
        for value, where in ((from_name, "from"), (rel_type, "relationType"), (to_name, "to")):
            self.check.name(value, where)
        result = self.graph.merge_relation(from_name, rel_type, to_name, dict(props or {}), self.ctx.actor(actor))
        self.ctx.written()
        return result

    def delete_node(self, name: str, soft: bool, actor: str | None) -> bool:
        return self.graph.delete_node(name, self.ctx.actor(actor), soft=soft)

    def archive_node(self, name: str, actor: str | None) -> bool:
        return self.graph.archive_node(name, self.ctx.actor(actor))

    # -- editing one entity (the desktop editor) -----------------------------------------------

    def rename_entity(self, old: str, new: str, actor: str | None) -> bool:
        self.check.name(old, "old", "name")
        self.check.name(new, "new", "name")
        changed = self.graph.rename_entity(old, new, self.ctx.actor(actor))
        self.ctx.written()
        return changed

    def set_entity_type(self, name: str, entity_type: str, actor: str | None) -> bool:
        self.check.name(name, "name")
        self.check.name(entity_type, "entityType", "entityType")
        changed = self.graph.set_entity_type(name, entity_type, self.ctx.actor(actor))
        self.ctx.written()
        return changed

    def replace_observation(self, name: str, old: str, new: str, actor: str | None) -> bool:
        self.check.name(name, "name")
        if not isinstance(old, str):
            raise InvalidInput("old must be the observation's exact text. Nothing was changed.")
        checks.check_observation(new, "new")
        changed = self.graph.replace_observation(name, old, new, self.ctx.actor(actor))
        self.ctx.written()
        return changed

    def end_relation(self, from_name: str, to_name: str, relation_type: str, ended_at: datetime | str | None,
                     actor: str | None) -> bool:
        for value, where in ((from_name, "from"), (to_name, "to"), (relation_type, "relationType")):
            self.check.name(value, where)
        changed = self.graph.end_relation(from_name, to_name, relation_type, self._moment(ended_at),
                                          self.ctx.actor(actor))
        self.ctx.written()
        return changed

    def entity_for_edit(self, name: str) -> dict[str, Any]:
        self.check.name(name, "name")
        return self.graph.entity_for_edit(name)

    def save_entity(
        self, name: str, *, expected_version: int | None, create: bool, new_name: str | None,
        entity_type: str | None, add_observations: Sequence[str], edit_observations: Sequence[Any],
        delete_observations: Sequence[str], add_relations: Any, delete_relations: Any,
        end_relations: Sequence[Mapping[str, Any]], actor: str | None,
    ) -> dict[str, Any]:
        plan = self.plan(name, create=create, new_name=new_name, entity_type=entity_type,
                         expected_version=expected_version, add_observations=add_observations,
                         edit_observations=edit_observations, delete_observations=delete_observations,
                         add_relations=add_relations, delete_relations=delete_relations,
                         end_relations=end_relations)
        change_id = self.graph.save_entity(name, plan, expected_version, self.ctx.actor(actor))
        if change_id is not None:
            self.ctx.written()
        return {"name": plan["new_name"] or name, "change_id": change_id}

    def plan(
        self, name: str, *, create: bool, new_name: str | None, entity_type: str | None,
        expected_version: int | None, add_observations: Sequence[str], edit_observations: Sequence[Any],
        delete_observations: Sequence[str], add_relations: Any, delete_relations: Any,
        end_relations: Sequence[Mapping[str, Any]],
    ) -> EntityPlan:
        """One editor Save checked whole (InvalidInput naming the bad item, nothing written) as the
        plan the store applies."""
        self.check.name(name, "name")
        for value, where in ((new_name, "new_name"), (entity_type, "entityType")):
            if value is not None:
                self.check.name(value, where, where)
        if expected_version is not None and (isinstance(expected_version, bool)
                                             or not isinstance(expected_version, int)):
            raise InvalidInput(f"expected_version must be a change id, got {expected_version!r}. Nothing was changed.")
        adds = list(add_observations)
        for i, o in enumerate(adds):
            checks.check_observation(o, f"add_observations[{i}]")
        edits: list[tuple[str, str]] = []
        for i, pair in enumerate(edit_observations):
            old, new = (pair["old"], pair["new"]) if isinstance(pair, Mapping) else pair
            if not isinstance(old, str):
                raise InvalidInput(f"edit_observations[{i}]: old must be the observation's text. Nothing was changed.")
            checks.check_observation(new, f"edit_observations[{i}].new")
            edits.append((old, new))
        self.check.request([*adds, *(new for _, new in edits)], "save_entity")
        deletes = list(delete_observations)
        if any(not isinstance(o, str) for o in deletes):
            raise InvalidInput("delete_observations must be observation texts. Nothing was changed.")
        ends = list(end_relations)
        if any(not isinstance(e, Mapping) for e in ends):
            raise InvalidInput("end_relations must be objects {from, to, relationType, ended_at?}. "
                               "Nothing was changed.")
        relations = {what: coerce(Relation, items, what) for what, items in (
            ("add_relations", add_relations), ("delete_relations", delete_relations),
            ("end_relations", [{k: e[k] for k in ("from", "to", "relationType") if k in e} for e in ends]))}
        for what, items in relations.items():
            for i, r in enumerate(items):
                for value, where in ((r.from_, "from"), (r.to, "to"), (r.relationType, "relationType")):
                    self.check.name(value, f"{what}[{i}].{where}")
        return EntityPlan(
            create=bool(create), new_name=new_name if new_name != name else None,
            entity_type=entity_type, add_observations=adds, edit_observations=edits,
            delete_observations=deletes, add_relations=relations["add_relations"],
            delete_relations=relations["delete_relations"],
            end_relations=[(r, self._moment(e.get("ended_at")))
                           for r, e in zip(relations["end_relations"], ends, strict=True)],
        )
