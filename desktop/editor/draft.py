"""What the editor holds: the entity as loaded, the form as the user left it, and the difference
between them (what Save writes, what Merge re-applies on a fresher copy). No widgets here."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate  # called by this name, so lupdate finds the strings

OUT, IN = "out", "in"


@dataclass(frozen=True)
class LoadedRelation:
    """A relation as stored: ``source -type-> target``, with its dates."""

    source: str
    target: str
    type: str
    created_at: str = ""
    ended_at: str | None = None

    def key(self) -> tuple[str, str, str]:
        return self.source, self.target, self.type


@dataclass
class Loaded:
    """The entity as read from the memory, and the change_log id it was read at."""

    name: str
    entity_type: str
    observations: list[str]
    relations: list[LoadedRelation]
    version: int
    created_at: str = ""
    updated_at: str = ""

    @classmethod
    def from_core(cls, data: dict[str, Any]) -> Loaded:
        """From ``Memory.entity_for_edit``'s answer."""
        node = data["node"]
        return cls(
            name=node.name, entity_type=node.label, observations=list(node.observations),
            relations=[LoadedRelation(r["from"], r["to"], r["relationType"], r["created_at"], r["ended_at"])
                       for r in data["relations"]],
            version=data["version"], created_at=node.created_at, updated_at=node.updated_at)

    def form(self) -> Form:
        """The form showing this entity, unedited."""
        return Form(
            name=self.name, entity_type=self.entity_type,
            observations=[ObservationItem(o, o) for o in self.observations],
            relations=[RelationItem.of(r, self.name) for r in self.relations])


@dataclass
class ObservationItem:
    """One line of the observation list: the stored text it started as (None: added) and its text now."""

    original: str | None
    text: str


@dataclass
class RelationItem:
    """One row of the relation table, seen from the open entity."""

    original: LoadedRelation | None
    direction: str  # OUT: this entity → other; IN: other → this entity
    type: str
    other: str
    ended_at: str | None = None  # an end date ("YYYY-MM-DD" or a stored timestamp)
    start: tuple[str, str, str] | None = None  # (direction, type, other) as loaded

    @classmethod
    def of(cls, rel: LoadedRelation, name: str) -> RelationItem:
        direction, other = (OUT, rel.target) if rel.source == name else (IN, rel.source)
        return cls(rel, direction, rel.type, other, rel.ended_at, (direction, rel.type, other))

    def endpoints(self, name: str) -> tuple[str, str]:
        return (name, self.other) if self.direction == OUT else (self.other, name)

    def key_from(self, name: str) -> tuple[str, str, str]:
        source, target = self.endpoints(name)
        return source, target, self.type

    def changed_shape(self) -> bool:
        """New, or its direction, type or other end edited: a different relation (remove + add)."""
        return self.original is None or self.start != (self.direction, self.type, self.other)


@dataclass
class Form:
    """The editor's fields as the user left them."""

    name: str
    entity_type: str
    observations: list[ObservationItem] = field(default_factory=list)
    relations: list[RelationItem] = field(default_factory=list)


@dataclass
class Delta:
    """The user's edits, independent of the state they were made on."""

    new_name: str | None = None
    entity_type: str | None = None
    add_observations: list[str] = field(default_factory=list)
    edit_observations: list[tuple[str, str]] = field(default_factory=list)
    delete_observations: list[str] = field(default_factory=list)
    add_relations: list[RelationItem] = field(default_factory=list)
    remove_relations: list[LoadedRelation] = field(default_factory=list)
    end_relations: list[tuple[LoadedRelation, str]] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not any((self.new_name is not None, self.entity_type is not None, self.add_observations,
                        self.edit_observations, self.delete_observations, self.add_relations,
                        self.remove_relations, self.end_relations))


def delta(loaded: Loaded | None, form: Form) -> Delta:
    """What Save would write to turn ``loaded`` (None: a new entity) into ``form``."""
    if loaded is None:
        return Delta(new_name=form.name, entity_type=form.entity_type,
                     add_observations=[o.text for o in form.observations],
                     add_relations=list(form.relations))
    out = Delta(new_name=form.name if form.name != loaded.name else None,
                entity_type=form.entity_type if form.entity_type != loaded.entity_type else None)
    kept = {o.original for o in form.observations if o.original is not None}
    out.delete_observations = [o for o in loaded.observations if o not in kept]
    for item in form.observations:
        if item.original is None:
            out.add_observations.append(item.text)
        elif item.text != item.original:
            out.edit_observations.append((item.original, item.text))
    same = {r.original.key() for r in form.relations if r.original is not None and not r.changed_shape()}
    out.remove_relations = [r for r in loaded.relations if r.key() not in same]
    for item in form.relations:
        if item.changed_shape():
            out.add_relations.append(item)
        elif item.original is not None and item.original.ended_at is None and item.ended_at:
            out.end_relations.append((item.original, item.ended_at))
    return out


def save_arguments(loaded: Loaded | None, form: Form, d: Delta) -> dict[str, Any]:
    """``Memory.save_entity``'s keyword arguments for ``d`` (relations name the entity as loaded)."""
    name = loaded.name if loaded is not None else form.name

    def rel(source: str, target: str, rtype: str) -> dict[str, str]:
        return {"from": source, "to": target, "relationType": rtype}

    args: dict[str, Any] = {
        "name": name, "create": loaded is None,
        "expected_version": loaded.version if loaded is not None else None,
        "new_name": d.new_name if loaded is not None else None,
        "entity_type": d.entity_type,
        "add_observations": d.add_observations, "edit_observations": d.edit_observations,
        "delete_observations": d.delete_observations,
        "add_relations": [rel(*r.key_from(name)) for r in d.add_relations],
        "delete_relations": [rel(*r.key()) for r in d.remove_relations],
        # Ended today means now (a local date's midnight may still be ahead of UTC).
        "end_relations": [{**rel(*r.key()), "ended_at": None if when == date.today().isoformat() else when}
                          for r, when in d.end_relations],
    }
    return args


def rebase(d: Delta, fresh: Loaded) -> Form:
    """Merge: the user's edits re-applied on top of the fresher ``fresh`` state. Edits whose target
    is gone are kept as additions (an edited observation someone deleted comes back edited)."""
    form = fresh.form()
    if d.new_name is not None:
        form.name = d.new_name
    if d.entity_type is not None:
        form.entity_type = d.entity_type
    by_text = {o.original: o for o in form.observations}
    for text in d.delete_observations:
        item = by_text.get(text)
        if item is not None:
            form.observations.remove(item)
    for old, new in d.edit_observations:
        item = by_text.get(old)
        if item is not None and item in form.observations:
            item.text = new
        elif new not in by_text:
            form.observations.append(ObservationItem(None, new))
    present = {o.text for o in form.observations}
    for text in d.add_observations:
        if text not in present:
            form.observations.append(ObservationItem(None, text))
            present.add(text)
    removed = {r.key() for r in d.remove_relations}
    ended = {r.key(): when for r, when in d.end_relations}
    kept: list[RelationItem] = []
    for item in form.relations:
        assert item.original is not None
        if item.original.key() in removed:
            continue
        if item.original.key() in ended and item.original.ended_at is None:
            item.ended_at = ended[item.original.key()]
        kept.append(item)
    have = {r.key_from(fresh.name) for r in kept}
    for item in d.add_relations:
        if item.key_from(fresh.name) not in have:
            kept.append(RelationItem(None, item.direction, item.type, item.other, None))
    form.relations = kept
    return form


def validate(form: Form, *, max_name_chars: int) -> dict[str, str]:
    """Problems to show next to their field, keyed "name", "type", "obs:<row>", "rel:<row>"."""
    problems: dict[str, str] = {}
    for key, value, what in (("name", form.name, "name"), ("type", form.entity_type, "type")):
        if not value.strip():
            problems[key] = (translate("EntityEditor", "The name must not be empty.") if what == "name"
                             else translate("EntityEditor", "The type must not be empty."))
        elif len(value) > max_name_chars:
            problems[key] = translate("EntityEditor", "{n} characters is too long: at most {limit} fit.").format(
                n=len(value), limit=max_name_chars)
    seen: set[str] = set()
    for row, item in enumerate(form.observations):
        if not item.text.strip():
            problems[f"obs:{row}"] = translate("EntityEditor",
                                               "An observation must not be empty: write it or delete it.")
        elif item.text in seen:
            problems[f"obs:{row}"] = translate("EntityEditor", "This observation is already in the list.")
        seen.add(item.text)
    for row, item in enumerate(form.relations):
        if not item.type.strip():
            problems[f"rel:{row}"] = translate("EntityEditor", "Give the relation a type.")
        elif not item.other.strip():
            problems[f"rel:{row}"] = translate("EntityEditor", "Name the entity at the other end.")
    return problems
