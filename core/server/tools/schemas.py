"""The tool-facing shapes: what ``tools/list`` advertises as input and output schemas.

Field names and descriptions follow the official memory server, so a model that learned that
server's tools reads the same thing here. Validation of content (empty names, sizes …) is
``core.memory``'s job; these models only give the JSON schema its shape.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Shape(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


# -- inputs -----------------------------------------------------------------------------------


class EntityArg(_Shape):
    name: str = Field(description="The name of the entity")
    # Required, as in the official server: an entity without a type is refused, not stored as a guess.
    # (The official server requires observations too; an empty list by default accepts more, never less.)
    entityType: str = Field(description="The type of the entity")
    observations: list[str] = Field(
        default_factory=list, description="An array of observation contents associated with the entity"
    )


class RelationArg(_Shape):
    from_: str = Field(alias="from", description="The name of the entity where the relation starts")
    to: str = Field(description="The name of the entity where the relation ends")
    relationType: str = Field(description="The type of the relation")

    def dump(self) -> dict[str, str]:
        return {"from": self.from_, "to": self.to, "relationType": self.relationType}


class ObservationArg(_Shape):
    entityName: str = Field(description="The name of the entity to add the observations to")
    contents: list[str] = Field(description="An array of observation contents to add")


class DeletionArg(_Shape):
    entityName: str = Field(description="The name of the entity containing the observations")
    observations: list[str] = Field(description="An array of observations to delete")


# -- outputs ---------------------------------------------------------------------------------
# Output schemas type the top level only and describe the items in words. Clients validate
# structuredContent against the schema (the Python SDK with jsonschema, item by item): for a
# 10,000-entity read_graph that alone costs ~0.9 s, more than everything else the call does.
# Typing the top level keeps the contract and costs O(1). The data is identical either way.

ENTITY_ITEMS = "objects {name, entityType, observations: [string]}"
RELATION_ITEMS = "objects {from, to, relationType}"


def _object(
    required: dict[str, dict[str, Any]], optional: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {"type": "object", "properties": {**required, **(optional or {})}, "required": list(required)}


def _array(description: str) -> dict[str, Any]:
    return {"type": "array", "description": description}


CREATE_ENTITIES_OUT = _object(
    {"entities": _array(f"Entities that did not exist before this call: {ENTITY_ITEMS}")},
    {
        "merged": _array(
            "Entities that already existed, with the observations this call added to them: "
            "objects {entityName, addedObservations: [string]}"
        )
    },
)
CREATE_RELATIONS_OUT = _object(
    {"relations": _array(f"Relations that did not exist before: {RELATION_ITEMS}")}
)
ADD_OBSERVATIONS_OUT = _object(
    {"results": _array("objects {entityName, addedObservations: [string]}: only observations that were new")}
)
SUCCESS_OUT = _object({"success": {"type": "boolean"}, "message": {"type": "string"}})
GRAPH_OUT = _object(
    {
        "entities": _array(f"{ENTITY_ITEMS} (names-only reads: {{name, entityType}})"),
        "relations": _array(RELATION_ITEMS),
    },
    {
        "total_entities": {"type": "integer", "description": "present on paged or names-only reads"},
        "total_relations": {"type": "integer", "description": "present on paged or names-only reads"},
    },
)
SEMANTIC_OUT = _object(
    {
        "results": _array(
            "best first: objects {name, entityType, observations (its matching facts, best first), "
            "other_observations, score}; with explain also limbic_score, scoring: {importance, "
            "temporal_factor, cooc_boost, limbic_lift}, distance, rrf_score, match_quality, entity, facts"
        )
    },
    {"no_good_match": {"type": "boolean", "description": "true when nothing matched well (results is empty)"}},
)
MIGRATE_OUT = _object(
    {
        "entities_imported": {"type": "integer"},
        "relations_imported": {"type": "integer"},
        "errors": {"type": "integer", "description": "records that could not be read or stored"},
        "skipped": {"type": "integer", "description": "records already present"},
    },
    {"error_details": _array("where and why, e.g. 'line 12: not valid JSON'")},
)
ANY_OBJECT: dict[str, Any] = {"type": "object"}
