"""What the graph pane shows, read from ``core.Memory`` and laid out on a worker thread.

A :class:`GraphRequest` names a view (an entity's neighbourhood, the overview, a community, an
insight's evidence), plus the nodes the user expanded; :func:`load_graph` turns it into a
:class:`GraphSnapshot` with positions, ready for the GUI thread to draw.

The overview of a memory larger than ``OVERVIEW_LIMIT`` draws its communities
(``Memory.graph_communities``: igraph's Leiden, in the core) as labelled discs sized by their
membership, instead of a few hundred of its entities with hardly a relation among them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from core.errors import NotFound
from core.memory import Memory
from desktop.graph.items import MAX_LABEL_CHARS
from desktop.graph.layout import Point, force_layout, group_layout

MAX_SHOWN = 2000  # a neighbourhood larger than this shows its nearest nodes only
OVERVIEW_LIMIT = 300  # the overview draws at most this many entities, whatever the memory's size
OVERVIEW_PER_TYPE = 3  # …and at least this many of every type, so each type is on the picture
COMMUNITIES = 32  # the overview of a larger memory draws its largest communities, at most this many
MIN_GROUP = 3  # …of at least this many entities
LINKS_PER_GROUP = 3  # …each joined to the few it shares the most relations with
COMMUNITY_LIMIT = 300  # a community opens on its best-connected members, at most this many

Kind = Literal["entity", "overview", "subgraph", "community"]


@dataclass(frozen=True)
class GraphRequest:
    """One view of the graph: the entity, overview or subgraph, plus the nodes expanded in it."""

    kind: Kind
    name: str | None = None
    hops: int = 1
    names: tuple[str, ...] = ()
    expanded: tuple[str, ...] = ()
    entity_type: str | None = None  # the overview of one type only
    by: str = "degree"  # the overview's ranking: "degree" (most connected) or "access" (most recalled)

    def expanding(self, name: str) -> GraphRequest:
        """This view with ``name``'s neighbours added."""
        if name in self.expanded:
            return self
        return replace(self, expanded=(*self.expanded, name))


@dataclass
class GraphSnapshot:
    """Nodes (name → type), how connected each is, relations, positions, and counts for the legend."""

    request: GraphRequest
    types: dict[str, str] = field(default_factory=dict)
    degree: dict[str, int] = field(default_factory=dict)
    edges: list[tuple[str, str, str]] = field(default_factory=list)
    positions: dict[str, Point] = field(default_factory=dict)
    type_counts: dict[str, int] = field(default_factory=dict)
    total: int = 0  # how many entities the view stands for (the whole memory, for the overview)
    missing: bool = False  # the requested entity does not exist (any more)
    groups: dict[str, int] = field(default_factory=dict)  # community (named after its hub) → size
    unlinked: int = 0  # communities view: entities without any relation, not drawn
    others: tuple[int, int] = (0, 0)  # communities view: (communities, entities) too small to draw
    group_types: dict[str, dict[str, int]] = field(default_factory=dict)  # community → members by type
    palette: dict[str, int] = field(default_factory=dict)  # the memory's entities by type: the colours

    @property
    def focus(self) -> str | None:
        return self.request.name if self.request.kind in ("entity", "community") else None


def load_graph(memory: Memory, request: GraphRequest, known: Mapping[str, Point] | None = None) -> GraphSnapshot:
    """Read ``request`` from ``memory`` and lay it out, keeping ``known`` nodes where they were."""
    snap = GraphSnapshot(request)
    snap.palette = memory.count_labels()
    if request.kind == "overview" and _as_communities(request, snap.palette) and _read_communities(memory, snap):
        # The name under each disc, roughly as wide as it will be drawn (a zoom of 1 is the aim).
        widths = {n: 6.5 * min(len(n), MAX_LABEL_CHARS - 8) + 50 for n in snap.groups}
        snap.positions = group_layout(snap.groups, [(a, b) for a, b, _ in snap.edges], known=known, widths=widths)
        return snap
    if request.kind == "overview":
        _read_overview(memory, snap)
    elif request.kind == "community":
        _read_community(memory, snap, request.name or "")
    elif request.kind == "entity":
        _read_neighbourhood(memory, snap, request.name or "", request.hops, MAX_SHOWN)
    else:
        _read_subgraph(memory, snap, request.names)
    for name in request.expanded:
        if name in snap.types:
            _read_neighbourhood(memory, snap, name, 1, MAX_SHOWN)
    _finish(snap)
    # A refresh or an expansion adds to what the user is looking at: what was on screen stays
    # put, new nodes settle beside their neighbours.
    pin = bool(known)
    # Grouped by type, best-connected first: the order unrelated nodes are lined up in.
    rank = {etype: i for i, etype in enumerate(snap.type_counts)}
    order = sorted(snap.types, key=lambda n: (rank.get(snap.types[n], len(rank)), -snap.degree.get(n, 0), n))
    snap.positions = force_layout(order, [(a, b) for a, b, _ in snap.edges], known=known, pin_known=pin)
    return snap


def _as_communities(request: GraphRequest, counts: Mapping[str, int]) -> bool:
    """The whole memory by connection, too large to draw every entity: its communities."""
    return request.entity_type is None and request.by == "degree" and not request.expanded \
        and sum(counts.values()) > OVERVIEW_LIMIT


def _read_communities(memory: Memory, snap: GraphSnapshot) -> bool:
    """The communities into ``snap``; False (``snap`` untouched) if every live entity fits on the
    picture after all (the type counts include archived entities)."""
    view = memory.graph_communities(limit=COMMUNITIES)
    if view.total_entities <= OVERVIEW_LIMIT:
        return False
    small = [g for g in view.communities if g.size < MIN_GROUP]
    for group in view.communities:
        if group.size < MIN_GROUP:
            continue
        snap.types[group.name] = group.entityType
        snap.groups[group.name] = group.size
        snap.group_types[group.name] = dict(group.types)
        snap.degree[group.name] = group.size
    # Each community joined to the few it shares most relations with (all of them is a hairball).
    per: dict[str, int] = {}
    for link in view.links:  # strongest first
        if link.a not in snap.groups or link.b not in snap.groups:
            continue
        if per.get(link.a, 0) < LINKS_PER_GROUP or per.get(link.b, 0) < LINKS_PER_GROUP:
            per[link.a] = per.get(link.a, 0) + 1
            per[link.b] = per.get(link.b, 0) + 1
            snap.edges.append((link.a, link.b, str(link.weight)))
    snap.type_counts = dict(view.types)
    snap.total = view.total_entities
    snap.unlinked = view.unlinked
    snap.others = (view.others[0] + len(small), view.others[1] + sum(g.size for g in small))
    return True


def _read_community(memory: Memory, snap: GraphSnapshot, name: str) -> None:
    try:
        view = memory.graph_community(name, limit=COMMUNITY_LIMIT)
    except NotFound:
        snap.missing = True
        return
    for node in view.entities:
        snap.types[node.name] = node.entityType
        snap.degree[node.name] = node.degree
    snap.edges = [(r.from_, r.to, r.relationType) for r in view.relations]
    snap.total = view.total_entities


def _read_overview(memory: Memory, snap: GraphSnapshot) -> None:
    view = memory.graph_overview(limit=OVERVIEW_LIMIT, per_type=OVERVIEW_PER_TYPE,
                                 entity_type=snap.request.entity_type, by=snap.request.by)
    for node in view.entities:
        snap.types[node.name] = node.entityType
        snap.degree[node.name] = node.degree
    snap.edges = [(r.from_, r.to, r.relationType) for r in view.relations]
    snap.type_counts = dict(view.types)
    snap.total = view.total_entities


def _read_neighbourhood(memory: Memory, snap: GraphSnapshot, name: str, hops: int, cap: int) -> None:
    """Add ``name`` and its neighbours within ``hops``, nearest first, until ``cap`` nodes are shown."""
    try:
        found = memory.get_node_with_neighbours(name, hops)
    except NotFound:
        if name == snap.request.name:
            snap.missing = True
        return
    snap.types.setdefault(found.node.name, found.node.label)
    for neighbour in found.neighbours:  # nearest first: a cap drops the farthest
        if len(snap.types) >= cap and neighbour.node.name not in snap.types:
            break
        snap.types.setdefault(neighbour.node.name, neighbour.node.label)
    snap.total = max(snap.total, len(found.neighbours) + 1)
    snap.edges.extend((r.from_, r.to, r.relationType) for r in found.relations)


def _read_subgraph(memory: Memory, snap: GraphSnapshot, names: tuple[str, ...]) -> None:
    graph = memory.open_nodes(list(names))
    for entity in graph.entities:
        snap.types[entity.name] = entity.entityType
    snap.edges = [(r.from_, r.to, r.relationType) for r in graph.relations]


def _finish(snap: GraphSnapshot) -> None:
    """Keep relations between shown nodes, once each; local degree where no global one was read."""
    seen: set[tuple[str, str, str]] = set()
    edges = []
    for edge in snap.edges:
        if edge not in seen and edge[0] in snap.types and edge[1] in snap.types:
            seen.add(edge)
            edges.append(edge)
    snap.edges = edges
    if snap.request.kind not in ("overview", "community") or snap.request.expanded:
        local: dict[str, int] = dict.fromkeys(snap.types, 0)
        for a, b, _ in edges:
            local[a] += 1
            local[b] += 1
        snap.degree = {n: max(local[n], snap.degree.get(n, 0)) for n in snap.types}
    if snap.request.kind != "overview":
        counts: dict[str, int] = {}
        for etype in snap.types.values():
            counts[etype] = counts.get(etype, 0) + 1
        snap.type_counts = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    snap.total = max(snap.total, len(snap.types))
