"""Engrama's tools (engrama_search, _remember, _relate, _context, _ingest, _reflect,
_surface_insights, _approve_insight, _status) over the same graph as the memory tools.

Engrama's own server wants every field wrapped in one ``params`` object and answers with JSON
encoded twice; these tools take either the flat fields or the ``params``-wrapped form, answer plain
structured JSON, and always report failures as isError results.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core import __version__
from core.embeddings.model_dir import default_model_dir, model_is_present
from core.errors import InvalidInput, NotFound
from core.io.engrama import key_field
from core.memory import Memory
from core.model import Node
from core.server.tools.read_log import log_read
from core.server.tools.registry import make_tool
from core.server.tools.results import tool_result
from core.server.tools.schemas import ANY_OBJECT
from core.server.tools.state import actor_of, memory_of, state_of

M = TypeVar("M", bound=BaseModel)
PARAMS = Field(
    description="Engrama's wire form: the same fields wrapped in one object. Give either "
    "the fields or params."
)


def _d(text: str) -> Any:
    """Schema description of a flat argument (all are optional so that ``params`` may carry them)."""
    return Field(description=text)


NOTE_SUFFIXES = (".md", ".markdown", ".txt")
# A relation target that does not exist yet becomes a stub; its label is a guess from the relation.
STUB_LABELS = {
    "USES": "Technology",
    "IN_DOMAIN": "Domain",
    "BELONGS_TO": "Project",
    "SOLVED_BY": "Decision",
    "CAUSED_BY": "Problem",
    "HAS": "Concept",
    "TEACHES": "Concept",
    "COVERS": "Concept",
}

READ = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
# engrama_ingest writes nothing, but reads a file from the user's disk (in an allowed folder) for the model
READ_FILES = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=True)
MERGE = ToolAnnotations(readOnlyHint=False, destructiveHint=False, idempotentHint=True, openWorldHint=False)
# engrama_remember's properties replace values already there, and a null removes one: destructive
# (the old value stays in entity_history and can be undone, as a deletion can).
REMEMBER = ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False)


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class SearchArgs(_Args):
    query: str = Field(min_length=1, max_length=500)
    limit: int = Field(10, ge=1, le=50)


class RememberArgs(_Args):
    label: str = Field(min_length=1)
    properties: dict[str, Any]
    relations: dict[str, list[str | dict[str, Any]]] = Field(default_factory=dict)


class RelateArgs(_Args):
    from_name: str = Field(min_length=1)
    from_label: str | None = None
    rel_type: str = Field(min_length=1)
    to_name: str = Field(min_length=1)
    to_label: str | None = None


class ContextArgs(_Args):
    name: str = Field(min_length=1)
    label: str | None = None
    hops: int = Field(1, ge=1, le=3)


class IngestArgs(_Args):
    source: str = Field(min_length=1)
    source_type: Literal["note", "text", "conversation"] = "note"
    context_hint: str = ""


class SurfaceArgs(_Args):
    limit: int = Field(10, ge=1, le=100)
    title: str | None = None
    query: str | None = None
    status: Literal["pending", "approved", "dismissed", "synced", "all"] = "pending"


class ApproveArgs(_Args):
    title: str = Field(min_length=1)
    action: Literal["approve", "dismiss"] = "approve"


def _args(model: type[M], params: dict[str, Any] | None, **flat: Any) -> M:
    """The call's arguments from the flat fields and/or ``params``; a flat field given wins."""
    values: dict[str, Any] = {}
    if params is not None:
        if not isinstance(params, dict):
            raise InvalidInput("params must be an object holding the tool's fields.")
        values.update(params)
    values.update({k: v for k, v in flat.items() if v is not None})
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}" for e in exc.errors()[:5]
        )
        raise InvalidInput(f"{problems}. Nothing was changed.") from None


def node_view(node: Node, *, observations: bool = True) -> dict[str, Any]:
    """A node as engrama_* tools show it: its key field, label, properties and timestamps."""
    view: dict[str, Any] = {
        key_field(node.label): node.name,
        "name": node.name,
        "label": node.label,
        "properties": node.props,
    }
    if observations:
        view["observations"] = node.observations
    view.update(created_at=node.created_at, updated_at=node.updated_at)
    if node.archived_at:
        view["archived_at"] = node.archived_at
    return view


# -- tools ------------------------------------------------------------------------------------


def engrama_search(
    ctx: Context,
    query: Annotated[str | None, _d("What to look for: words or a phrase, any language")] = None,
    limit: Annotated[int | None, _d("At most this many results, 1–50 (default 10)")] = None,
    params: Annotated[dict[str, Any] | None, PARAMS] = None,
) -> CallToolResult:
    """Search the memory graph by words and meaning. Returns the best nodes with their label,
    score, properties and observations. `query`: what to look for; `limit`: at most 1–50 (10)."""
    args = _args(SearchArgs, params, query=query, limit=limit)
    memory = memory_of(ctx)
    results = []
    for hit in memory.search_semantic(args.query, args.limit):
        node = memory.get_node(hit["name"])
        if node is not None:
            results.append({**node_view(node), "score": hit["score"], "matching_observations": hit["observations"]})
    answer = {"query": args.query, "count": len(results), "results": results}
    log_read(memory, actor_of(ctx), "engrama_search", args.query, answer)
    return tool_result(answer)


def engrama_remember(
    ctx: Context,
    label: Annotated[str | None, _d("Node label, e.g. Project, Concept, Decision, Person")] = None,
    properties: Annotated[
        dict[str, Any] | None,
        _d("name (or title), summary, details, tags, source, status …; observations: [facts]"),
    ] = None,
    relations: Annotated[
        dict[str, list[str | dict[str, Any]]] | None,
        _d('Relations to create: {"REL_TYPE": ["target name" | {"name": …, "label": …}]}'),
    ] = None,
    params: Annotated[dict[str, Any] | None, PARAMS] = None,
) -> CallToolResult:
    """Create or update (merge) a node. `label`: e.g. Project, Concept, Decision, Problem,
    Technology, Person, Domain, Client. `properties`: must include `name` (`title` for Decision,
    Problem, Experiment, Vulnerability, Exercise, Photo, Insight); add `summary` (2–3 sentences),
    `details`, `tags`, `source`, `status`; a list under `observations` is stored as facts.
    `relations`: {"REL_TYPE": ["target name" | {"name": …, "label": …}]}; a missing target is
    created as a stub. Properties merge into what is there; a null value removes a property."""
    args = _args(RememberArgs, params, label=label, properties=properties, relations=relations)
    props = dict(args.properties)
    key = key_field(args.label)
    name = props.pop(key, None) or props.pop("name", None) or props.pop("title", None)
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput(
            f"properties must include {key!r} (the node's {key}) for label {args.label}. Nothing was changed."
        )
    observations = props.pop("observations", None) or []
    if not isinstance(observations, list) or not all(isinstance(o, str) for o in observations):
        raise InvalidInput("properties.observations must be a list of strings. Nothing was changed.")
    memory, actor = memory_of(ctx), actor_of(ctx)
    with memory.transaction():
        created = memory.get_node(name) is None
        memory.merge_node(args.label, name, props, actor=actor)
        if observations:
            memory.add_observations([{"entityName": name, "contents": observations}], actor=actor)
        linked = [
            _link(memory, name, rel_type, target, actor)
            for rel_type, targets in args.relations.items()
            for target in targets
        ]
        node = memory.require_node(name)
    return tool_result({"node": node_view(node), "created": created, "relations": linked})


def _link(
    memory: Memory, source: str, rel_type: str, target: str | dict[str, Any], actor: str
) -> dict[str, Any]:
    if isinstance(target, dict):
        target_name, target_label = target.get("name") or target.get("title"), target.get("label")
    else:
        target_name, target_label = target, None
    if not isinstance(target_name, str) or not target_name.strip():
        raise InvalidInput(f"relations.{rel_type}: each target needs a name. Nothing was changed.")
    existing = memory.get_node(target_name)
    stub = existing is None
    if stub:
        label = target_label or STUB_LABELS.get(rel_type.upper(), "Concept")
        memory.merge_node(label, target_name, {"stub": True}, actor=actor)
    _, created = memory.merge_relation(source, rel_type, target_name, None, actor=actor)
    return {
        "rel_type": rel_type,
        "to": target_name,
        "to_label": target_label or (existing.label if existing else label),
        "created": created,
        "stub_created": stub,
    }


def engrama_relate(
    ctx: Context,
    from_name: Annotated[str | None, _d("Name (or title) of the source node")] = None,
    from_label: Annotated[str | None, _d("Its label (optional: names are unique)")] = None,
    rel_type: Annotated[str | None, _d("Relation type, e.g. USES, DEPENDS_ON, SOLVED_BY")] = None,
    to_name: Annotated[str | None, _d("Name (or title) of the target node")] = None,
    to_label: Annotated[str | None, _d("Its label (optional)")] = None,
    params: Annotated[dict[str, Any] | None, PARAMS] = None,
) -> CallToolResult:
    """Create a relation `from_name` -[rel_type]-> `to_name` between two existing nodes (e.g.
    USES, DEPENDS_ON, SOLVED_BY, BELONGS_TO, RELATED_TO). Labels are optional: names are unique.
    Idempotent: an existing relation is reported with created=false."""
    args = _args(
        RelateArgs,
        params,
        from_name=from_name,
        from_label=from_label,
        rel_type=rel_type,
        to_name=to_name,
        to_label=to_label,
    )
    memory = memory_of(ctx)
    ends = []
    for name, label in ((args.from_name, args.from_label), (args.to_name, args.to_label)):
        node = memory.get_node(name)
        if node is None:
            raise NotFound(
                f"Node {name!r} does not exist; create it with engrama_remember"
                f"{f' (label {label})' if label else ''} first. Nothing was changed."
            )
        ends.append({"name": node.name, "label": node.label})
    _, created = memory.merge_relation(args.from_name, args.rel_type, args.to_name, None, actor=actor_of(ctx))
    return tool_result({"from": ends[0], "rel_type": args.rel_type, "to": ends[1], "created": created})


def engrama_context(
    ctx: Context,
    name: Annotated[str | None, _d("Name (or title) of the node")] = None,
    label: Annotated[str | None, _d("Its label (optional: names are unique)")] = None,
    hops: Annotated[int | None, _d("How far to look: 1–3 relations (default 1)")] = None,
    params: Annotated[dict[str, Any] | None, PARAMS] = None,
) -> CallToolResult:
    """The neighbourhood of a node: the node itself, every node within `hops` (1–3, default 1)
    relations in either direction with its distance and the relation types on the way, and the
    relations among them."""
    args = _args(ContextArgs, params, name=name, label=label, hops=hops)
    found = memory_of(ctx).get_node_with_neighbours(args.name, args.hops)
    neighbours = [
        {**node_view(n.node, observations=False), "distance": n.distance, "path": n.path}
        for n in found.neighbours
    ]
    answer = {
        "node": node_view(found.node),
        "hops": args.hops,
        "neighbours": neighbours,
        "relations": [r.dump() for r in found.relations],
    }
    log_read(memory_of(ctx), actor_of(ctx), "engrama_context", args.name, answer)
    return tool_result(answer)


def engrama_ingest(
    ctx: Context,
    source: Annotated[
        str | None, _d("The content, or for source_type 'note' the path of a .md/.txt file")
    ] = None,
    source_type: Annotated[str | None, _d("'note' (default), 'text' or 'conversation'")] = None,
    context_hint: Annotated[str | None, _d("Project, domain or course it belongs to, if known")] = None,
    params: Annotated[dict[str, Any] | None, PARAMS] = None,
) -> CallToolResult:
    """Read a note, text or conversation and return it with guidance for extracting entities;
    then call engrama_remember for each entity. `source_type`: 'note' (`source` is the path of a
    .md/.txt file in a folder the user allowed), 'text' or 'conversation' (`source` is the content).
    Writes nothing; also lists entities already in memory that the content names."""
    args = _args(IngestArgs, params, source=source, source_type=source_type, context_hint=context_hint)
    source_path = None
    content = args.source
    if args.source_type == "note":
        path = memory_of(ctx).allowed_file(args.source, "note")
        if path.suffix.lower() not in NOTE_SUFFIXES or not path.is_file():
            raise InvalidInput(
                f"source_type 'note' needs the path of an existing .md or .txt file; "
                f"{args.source!r} is not one. Pass the content with source_type 'text'."
            )
        limit = memory_of(ctx).settings.max_request_bytes
        if path.stat().st_size > limit:
            raise InvalidInput(
                f"{path} is larger than {limit:,} bytes (HIPOCAMPO_MAX_REQUEST_BYTES); ingest it in parts.")
        content, source_path = path.read_text(encoding="utf-8", errors="replace"), str(path)
    known = _known_entities(memory_of(ctx), content)
    return tool_result(
        {
            "source_type": args.source_type,
            "source_path": source_path,
            "content_length": len(content),
            "content": content,
            "known_entities": known,
            "extraction_prompt": _extraction_prompt(args.context_hint, known),
        }
    )


def _known_entities(memory: Memory, content: str) -> list[dict[str, str]]:
    folded = content.casefold()
    hits = memory.fulltext_search(content[:5000], limit=50) if content.strip() else []
    return [{"name": h.node.name, "label": h.node.label} for h in hits if h.node.name.casefold() in folded][
        :20
    ]


def _extraction_prompt(hint: str, known: list[dict[str, str]]) -> str:
    reuse = ", ".join(k["name"] for k in known) or "(none)"
    return (
        "Extract the entities and relations in the content above that are worth remembering.\n"
        "For each entity call engrama_remember with its label and rich properties: 'summary' "
        "(2–3 sentences: what it is, why it matters), 'details' (decisions, approaches, "
        "alternatives, examples), 'tags', and 'source': 'ingest'. Put relations inline "
        '({"USES": ["…"]}) and prefer specific types (USES, DEPENDS_ON, SOLVED_BY, COMPOSED_OF, '
        "TEACHES, COVERS …) over RELATED_TO.\n"
        "Labels: Person, Project, Technology, Concept, Decision (keyed by title), Problem (keyed by "
        "title), Domain, Client.\n"
        f"Already in memory (reuse these exact names): {reuse}\n"
        f"Context hint: {hint or '(none provided)'}\n"
    )


def engrama_reflect(ctx: Context) -> CallToolResult:
    """Look for patterns across the graph (shared technology, solutions that transfer between
    projects, concept clusters, stale or under-connected knowledge …) and record them as pending
    Insights for a human to approve. Dismissed insights are never proposed again."""
    summary = memory_of(ctx).reflect(actor=actor_of(ctx))
    return tool_result(dict(summary))


def engrama_surface_insights(
    ctx: Context,
    limit: Annotated[int | None, _d("At most this many insights (default 10)")] = None,
    title: Annotated[str | None, _d("Exact title of one insight")] = None,
    query: Annotated[str | None, _d("Only insights mentioning these words")] = None,
    status: Annotated[str | None, _d("pending (default), approved, dismissed, synced or all")] = None,
    params: Annotated[dict[str, Any] | None, PARAMS] = None,
) -> CallToolResult:
    """Pending Insights (from engrama_reflect), best first, to present to the user. `title` picks
    one insight; `query` filters by words; `status` shows decided ones instead."""
    args = _args(SurfaceArgs, params, limit=limit, title=title, query=query, status=status)
    insights = memory_of(ctx).surface_insights(
        limit=args.limit, title=args.title, query=args.query, status=args.status
    )
    return tool_result({"count": len(insights), "insights": list(insights)})


def engrama_approve_insight(
    ctx: Context,
    title: Annotated[str | None, _d("Exact title of the insight")] = None,
    action: Annotated[str | None, _d("'approve' (default) or 'dismiss'")] = None,
    params: Annotated[dict[str, Any] | None, PARAMS] = None,
) -> CallToolResult:
    """Record the user's decision on an Insight: action 'approve' or 'dismiss' (by its exact
    title). Only do this when the user has said so."""
    args = _args(ApproveArgs, params, title=title, action=action)
    decided = memory_of(ctx).decide_insight(args.title, args.action, actor=actor_of(ctx))
    return tool_result(dict(decided))


def engrama_status(ctx: Context) -> CallToolResult:
    """What this memory server is: version, database, counts by label, embeddings, whether
    reflect is available, and the HTTP endpoint when it is the desktop hub."""
    state = state_of(ctx)
    memory = state.memory
    health = memory.health_check()
    return tool_result(
        {
            "server": "hipocampo",
            "version": __version__,
            "backend": health.get("backend"),
            "database": health.get("path"),
            "ok": health.get("ok"),
            "counts": health.get("counts", {}),
            "labels": memory.count_labels(),
            "embeddings": embeddings_info(memory),
            "insights": memory.insight_counts(),
            "upgrading": health.get("upgrading") or None,
            "endpoint": state.endpoint or None,
        }
    )


def embeddings_info(memory: Memory) -> dict[str, Any]:
    """The embedding provider, how much of the graph is embedded, and where the local model is."""
    info = dict(memory.embedding_status())
    if memory.settings.embeddings == "onnx":
        folder = memory.settings.model_dir or default_model_dir()
        info.update(model_dir=str(folder), model_present=model_is_present(folder))
    return info


def tools() -> list[Tool]:
    """The engrama_* tools."""
    return [
        make_tool(fn, title=title, annotations=annotations, output_schema=ANY_OBJECT)
        for fn, title, annotations in (
            (engrama_search, "Search Memory", READ),
            (engrama_remember, "Remember", REMEMBER),
            (engrama_relate, "Relate", MERGE),
            (engrama_context, "Context", READ),
            (engrama_ingest, "Ingest Content", READ_FILES),
            (engrama_reflect, "Reflect", MERGE),
            (engrama_surface_insights, "Surface Insights", READ),
            (engrama_approve_insight, "Approve or Dismiss Insight", MERGE),
            (engrama_status, "Status", READ),
        )
    ]
