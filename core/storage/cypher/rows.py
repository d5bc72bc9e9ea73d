"""Entity rows as the Cypher backend stores them, and the small pure helpers around them.

An entity is one ``:Entity`` node holding its observations as two parallel lists (text and
creation time) plus the folded copies search reads: ``folded`` (name, type and each observation,
one list item each, so a substring match never spans two fields), ``ft_name``/``ft_body`` for
the ``:Entity`` full-text index and ``ft_name``/``ft_own`` for the ``:Own`` one (every entity node
has both labels: the entity's own words apart from its facts, ``cypher.facts``).
"""

from __future__ import annotations

import json
from typing import Any

# the rules every backend shares (``core.graph_rules``), read here as ``R.…`` too
from core.graph_rules import PLACEHOLDER_KEY as PLACEHOLDER_KEY
from core.graph_rules import PLACEHOLDER_TYPE as PLACEHOLDER_TYPE
from core.graph_rules import aliases_of, own_words
from core.graph_rules import dumps as dumps
from core.graph_rules import format_ts as format_ts
from core.graph_rules import loads as loads
from core.graph_rules import merge_patch as merge_patch
from core.graph_rules import unique_relations as unique_relations
from core.graph_rules import utc_now as utc_now
from core.hygiene import names as hygiene_names
from core.model import Node, Relation
from core.search.folding import fold

# An entity node's labels: ``Own`` carries the index of its own words (``cypher.facts``).
LABELS = "Entity:Own"
ENTITY = ("e {.id, .name, .type, .props, .obs, .obs_at, .created_at, .updated_at, .archived_at}")


def row_of(found: dict[str, Any]) -> dict[str, Any]:
    """A stored entity map (``ENTITY`` projection) as a plain row with lists and decoded props."""
    return {
        "id": found["id"], "name": found["name"], "type": found["type"],
        "props": json.loads(found.get("props") or "{}"),
        "obs": list(found.get("obs") or []), "obs_at": list(found.get("obs_at") or []),
        "created_at": found["created_at"], "updated_at": found["updated_at"],
        "archived_at": found.get("archived_at"),
    }


def stored(row: dict[str, Any]) -> dict[str, Any]:
    """The node properties for ``row``, folded search copies included; the vector goes stale."""
    summary = row["props"].get("summary")
    aliases = aliases_of(row["props"])
    body = [row["type"], *row["obs"]]
    if isinstance(summary, str):
        body.append(summary)
    return {
        "id": row["id"], "name": row["name"], "type": row["type"], "props": dumps(row["props"]),
        "obs": row["obs"], "obs_at": row["obs_at"],
        "created_at": row["created_at"], "updated_at": row["updated_at"], "archived_at": row["archived_at"],
        "folded": [fold(row["name"]), fold(row["type"]), *(fold(o) for o in row["obs"])],
        "ft_name": fold(row["name"]), "ft_body": fold("\n".join(body)), "ft_own": own_text(row["type"], row["props"]),
        "emb_model": None,
        # The name as the duplicate rules fold it (core.hygiene.names): reflect reads it, never folds it again.
        "name_tokens": hygiene_names.stored_tokens(hygiene_names.tokens(row["name"])),
        # What reflect's detectors read from props (Cypher cannot look inside JSON text).
        "p_status": _lowered(row["props"].get("status")),
        "p_confidence": _number(row["props"].get("confidence")),
        "p_stub": row["props"].get("stub") in (True, 1, "true") or _lowered(row["props"].get("status")) == "stub",
        # The names merged into it, findable by name (core.hygiene.store); has_aliases (indexed, absent
        # when false) finds every entity that has some without reading the others.
        # folded_aliases: what search_nodes matches a former name against (absent when none).
        "aliases": aliases, "has_aliases": True if aliases else None,
        "folded_aliases": folded_aliases(aliases) if aliases else None,
    }


def folded_aliases(aliases: list[str]) -> list[str]:
    """The aliases as search_nodes matches a former name against them (SQLite folds its own with ``hfold``)."""
    return [fold(a) for a in aliases]


def own_text(etype: str, props: dict[str, Any]) -> str:
    """An entity's own words besides its name (its type, its text properties such as a summary, and
    its aliases: ``core.graph_rules.own_words``), folded: the ``ft_own`` field of the ``:Own``
    full-text index (``cypher.facts``' own words)."""
    return fold("\n".join([etype, *own_words(props)]))


def _lowered(value: Any) -> str | None:
    """A props value as SQLite's ``lower(json_extract(...))`` sees it."""
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "1" if value else "0"
    return str(value).lower()


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def node(row: dict[str, Any]) -> Node:
    return Node(id=row["id"], name=row["name"], label=row["type"], props=row["props"],
                observations=row["obs"], created_at=row["created_at"], updated_at=row["updated_at"],
                archived_at=row["archived_at"])


def relation(src: str, dst: str, rtype: str) -> Relation:
    return Relation.model_construct(from_=src, to=dst, relationType=rtype)


def snapshot(row: dict[str, Any], relations: list[dict[str, Any]]) -> dict[str, Any]:
    """What change_log keeps of a deleted entity (the same shape SQLite keeps)."""
    return {"name": row["name"], "entityType": row["type"], "props": row["props"],
            "created_at": row["created_at"], "updated_at": row["updated_at"], "archived_at": row["archived_at"],
            "observations": [[o, t] for o, t in zip(row["obs"], row["obs_at"], strict=True)],
            "relations": relations}
