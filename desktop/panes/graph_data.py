"""What the graph pane shows, read from ``core.Memory`` and laid out on a worker thread.

A :class:`GraphRequest` names a view (an entity's neighbourhood, the overview, an insight's
evidence), plus the nodes the user expanded; :func:`load_graph` turns it into a
:class:`GraphSnapshot` with positions, ready for the GUI thread to draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from core.errors import NotFound
from core.memory import Memory
from desktop.panes.graph_layout import Point, force_layout

MAX_SHOWN = 2000  # a neighbourhood larger than this shows its nearest nodes only
OVERVIEW_LIMIT = 300  # the overview draws at most this many entities, whatever the memory's size
OVERVIEW_PER_TYPE = 3  # …and at least this many of every type, so each type is on the picture

Kind = Literal["entity", "overview", "subgraph"]


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

    @property
    def focus(self) -> str | None:
        return self.request.name if self.request.kind == "entity" else None


def load_graph(memory: Memory, request: GraphRequest, known: Mapping[str, Point] | None = None) -> GraphSnapshot:
    """Read ``request`` from ``memory`` and lay it out, keeping ``known`` nodes where they were."""
    snap = GraphSnapshot(request)
    if request.kind == "overview":
        _read_overview(memory, snap)
    elif request.kind == "entity":
        _read_neighbourhood(memory, snap, request.name or "", request.hops, MAX_SHOWN)
    else:
        _read_subgraph(memory, snap, request.names)
    for name in request.expanded:
        if name in snap.types:
            _read_neighbourhood(memory, snap, name, 1, MAX_SHOWN)
    _finish(snap)
    # An expansion adds around a node the user is looking at: what was on screen stays put.
    pin = bool(known) and bool(request.expanded) and any(n not in (known or {}) for n in snap.types)
    # Grouped by type, best-connected first: the order unrelated nodes are lined up in.
    rank = {etype: i for i, etype in enumerate(snap.type_counts)}
    order = sorted(snap.types, key=lambda n: (rank.get(snap.types[n], len(rank)), -snap.degree.get(n, 0), n))
    snap.positions = force_layout(order, [(a, b) for a, b, _ in snap.edges], known=known, pin_known=pin)
    return snap


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
    if snap.request.kind != "overview" or snap.request.expanded:
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
