"""Where each node of the graph pane goes: igraph's Fruchterman–Reingold layout (a C core; 2,000
nodes in ≈ 0.2 s), run on a worker thread. No Qt here, so it runs anywhere.

Positions are in scene units. Nodes that are already on screen can be kept where they are
(``pin_known``) or only nudged, so expanding or refreshing the view never shuffles the picture.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence

# np.median loads numpy.ma lazily; doing that on a worker thread under PySide6's import hook
# recursed without end (seen at 10k entities), so it is loaded here, on the importing thread.
import igraph
import numpy as np
import numpy.ma  # noqa: F401

Point = tuple[float, float]

UNIT = 40.0  # scene units per igraph layout unit: room between discs even round a busy hub
_GRID_FROM = 1000  # igraph's own threshold for its faster grid-based repulsion
SPACING = 42.0  # scene units from a node to its nearest neighbour, typically
# A few nodes (one entity and its neighbours) spread further apart, up to SPREAD_AT_MOST × SPACING,
# so the view has room for every name (labels are ~100 px wide; a crowd is labelled selectively).
SPREAD_BELOW = 60
SPREAD_AT_MOST = 2.2
LONER_GAP = 56.0  # scene units between nodes that have no relation on screen


def force_layout(
    names: Sequence[str],
    edges: Sequence[tuple[str, str]],
    *,
    known: Mapping[str, Point] | None = None,
    pin_known: bool = False,
    seed: int = 7,
) -> dict[str, Point]:
    """Positions for ``names`` joined by ``edges``; ``known`` positions seed the layout (and stay
    put with ``pin_known``), new nodes start beside a known neighbour. Separate groups are packed
    in rows under the largest, and nodes without a relation on screen in a grid under those, in
    the order given, instead of drifting round the edge."""
    if not names:
        return {}
    known = known or {}
    spacing = SPACING * min(SPREAD_AT_MOST, max(1.0, math.sqrt(SPREAD_BELOW / len(names))))
    positions: dict[str, Point] = {}
    fresh: list[dict[str, Point]] = []
    loners: list[str] = []
    for part in _components(names, edges):
        if len(part) == 1:
            loners.append(part[0])
        elif any(n in known for n in part):  # already on screen: settles where it is
            positions.update(_force(part, edges, known, pin_known, seed, spacing))
        else:
            fresh.append(_force(part, edges, {}, False, seed, spacing))
    # Each new group of related nodes is laid out on its own and packed beside the others: one
    # force layout over all of them pushes small groups far out and shrinks the picture.
    if fresh and not positions:
        positions.update(fresh.pop(0))  # the largest stays where its layout put it
    if fresh:
        positions.update(_shelves(fresh, list(positions.values())))
    positions.update({n: known[n] for n in loners if n in known})
    new = [n for n in loners if n not in known]
    if new:
        positions.update(_rows(new, list(positions.values())))
    return positions


def _components(names: Sequence[str], edges: Sequence[tuple[str, str]]) -> list[list[str]]:
    """``names`` split into groups connected by ``edges``, largest first, each in the order given."""
    index = {name: i for i, name in enumerate(names)}
    pairs = [(index[s], index[t]) for s, t in edges if s in index and t in index and s != t]
    members = igraph.Graph(n=len(names), edges=pairs).connected_components().membership
    groups: dict[int, list[str]] = {}
    for name, group in zip(names, members, strict=True):
        groups.setdefault(group, []).append(name)
    return sorted(groups.values(), key=len, reverse=True)


def _shelves(parts: Sequence[Mapping[str, Point]], placed: Sequence[Point]) -> dict[str, Point]:
    """Small laid-out groups packed in rows under ``placed``, each keeping its own shape."""
    gap = LONER_GAP
    boxes = []
    for part in parts:
        xs, ys = [p[0] for p in part.values()], [p[1] for p in part.values()]
        boxes.append((min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)))
    if placed:
        xs, ys = [p[0] for p in placed], [p[1] for p in placed]
        left, top, width = min(xs), max(ys) + 2 * gap, max(xs) - min(xs)
    else:
        left, top, width = 0.0, 0.0, 0.0
    width = max(width, math.sqrt(sum((w + gap) * (h + gap) for _, _, w, h in boxes)) * 1.5)
    out: dict[str, Point] = {}
    x, y, shelf = left, top, 0.0
    for part, (bx, by, w, h) in zip(parts, boxes, strict=True):
        if x > left and x + w > left + width:
            x, y, shelf = left, y + shelf + gap, 0.0
        out.update({n: (px - bx + x, py - by + y) for n, (px, py) in part.items()})
        x += w + gap
        shelf = max(shelf, h)
    return out


def _rows(names: Sequence[str], placed: Sequence[Point]) -> dict[str, Point]:
    """``names`` in a grid centred under ``placed`` (or round the origin), as wide as the picture."""
    gap = LONER_GAP
    if placed:
        xs, ys = [p[0] for p in placed], [p[1] for p in placed]
        width = max(xs) - min(xs)
        columns = max(int(width / gap) + 1, math.ceil(math.sqrt(len(names))))
        left, top = (min(xs) + max(xs)) / 2, max(ys) + 2 * gap
    else:
        columns = math.ceil(math.sqrt(len(names) * 1.6))
        left, top = 0.0, -gap * (math.ceil(len(names) / columns) - 1) / 2
    columns = min(columns, len(names))
    left -= gap * (columns - 1) / 2
    return {name: (left + gap * (i % columns), top + gap * (i // columns)) for i, name in enumerate(names)}


def _force(names: Sequence[str], edges: Sequence[tuple[str, str]], known: Mapping[str, Point],
           pin_known: bool, seed: int, spacing: float = SPACING) -> dict[str, Point]:
    """Fruchterman–Reingold over ``names`` (each has a relation among them)."""
    index = {name: i for i, name in enumerate(names)}
    pairs = sorted({(min(a, b), max(a, b)) for a, b in ((index.get(s), index.get(t)) for s, t in edges)
                    if a is not None and b is not None and a != b})
    graph = igraph.Graph(n=len(names), edges=pairs)
    known = {n: p for n, p in known.items() if n in index}
    if len(names) == 1:
        return {names[0]: known.get(names[0], (0.0, 0.0))}
    if pin_known and len(known) == len(names):
        return dict(known)  # nothing new: nothing moves
    start = _start_positions(names, pairs, known, random.Random(seed))
    kwargs: dict[str, object] = {"seed": start, "grid": "grid" if len(names) >= _GRID_FROM else "nogrid"}
    if known:
        # Everything is already close to where it belongs: a cool start only settles the new nodes.
        kwargs["start_temp"] = max(0.5, math.sqrt(len(names)) / 40)
        kwargs["niter"] = 300
    if known and pin_known:
        free = 1e9  # igraph wants a bound for every node: the unpinned ones get a far one
        bounds = {k: [sign * free] * len(names) for k, sign in (("minx", -1), ("maxx", 1), ("miny", -1), ("maxy", 1))}
        for name, (x, y) in known.items():
            i = index[name]
            bounds["minx"][i] = bounds["maxx"][i] = x / UNIT
            bounds["miny"][i] = bounds["maxy"][i] = y / UNIT
        kwargs.update(bounds)
    coords = np.asarray(graph.layout_fruchterman_reingold(**kwargs).coords, dtype=float)
    if known and pin_known:
        scaled = coords * UNIT
    else:
        # FR's own scale depends on the graph (2,000 related nodes end up a tenth as far apart as
        # 300): scale so that nodes sit ``spacing`` apart from their nearest neighbour, whatever the shape.
        nearest = float(np.median(_nearest_distances(coords)))
        scaled = coords * (spacing / nearest if nearest > 0 else UNIT)
        if known:  # a refresh: keep the picture where it was on screen
            rows = [index[n] for n in known]
            scaled += np.asarray([known[n] for n in known]).mean(axis=0) - scaled[rows].mean(axis=0)
    return {name: (float(scaled[i][0]), float(scaled[i][1])) for name, i in index.items()}


def _nearest_distances(points: np.ndarray) -> np.ndarray:
    """Each point's distance to its nearest other point (in blocks, so 2,000 points stay cheap)."""
    out = np.empty(len(points))
    for start in range(0, len(points), 512):
        block = points[start : start + 512]
        d = np.sqrt(((block[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
        d[np.arange(len(block)), np.arange(start, start + len(block))] = np.inf
        out[start : start + len(block)] = d.min(axis=1)
    return out


def _start_positions(names: Sequence[str], pairs: Sequence[tuple[int, int]], known: Mapping[str, Point],
                     rng: random.Random) -> list[list[float]]:
    """Known nodes where they are; a new node next to a known neighbour if it has one, else
    anywhere within the current picture (layout units)."""
    spread = math.sqrt(len(names)) * 2.0
    if known:
        xs = [p[0] / UNIT for p in known.values()]
        ys = [p[1] / UNIT for p in known.values()]
        box = (min(xs) - 2, max(xs) + 2, min(ys) - 2, max(ys) + 2)
    else:
        box = (-spread, spread, -spread, spread)
    neighbours: dict[int, list[int]] = {}
    for a, b in pairs:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    start: list[list[float] | None] = [
        [known[n][0] / UNIT, known[n][1] / UNIT] if n in known else None for n in names
    ]
    for i, point in enumerate(start):
        if point is not None:
            continue
        anchor = next((start[j] for j in neighbours.get(i, []) if j < len(start) and start[j] is not None), None)
        if anchor is not None and known:
            angle = rng.uniform(0, 2 * math.pi)
            start[i] = [anchor[0] + 2.5 * math.cos(angle), anchor[1] + 2.5 * math.sin(angle)]
        else:
            start[i] = [rng.uniform(box[0], box[1]), rng.uniform(box[2], box[3])]
    return [p for p in start if p is not None]


def group_radius(size: int) -> float:
    """The disc of a community of ``size`` entities (scene units)."""
    return 6.0 + 2.2 * max(size, 1) ** 0.45


GROUP_GAP = 18.0  # scene units between two communities' boxes (disc and the name under it)
LABEL_BELOW = 22.0  # a name's height under its disc (scene units at a zoom of 1)


def group_layout(groups: Mapping[str, int], edges: Sequence[tuple[str, str]], *,
                 known: Mapping[str, Point] | None = None, widths: Mapping[str, float] | None = None,
                 seed: int = 7) -> dict[str, Point]:
    """Positions for communities (name → size), drawn as discs of ``group_radius(size)`` with their
    name (``widths`` wide) under them: related ones near each other, no two boxes overlapping.
    ``known`` ones stay where they are; new ones start beside a related one and only they move."""
    names = list(groups)
    if not names:
        return {}
    known = {n: p for n, p in (known or {}).items() if n in groups}
    if len(known) == len(names):
        return dict(known)
    index = {n: i for i, n in enumerate(names)}
    radius = np.asarray([group_radius(groups[n]) for n in names])
    half_w = np.maximum(radius, np.asarray([(widths or {}).get(n, 100.0) / 2 for n in names]))
    half_h = radius + LABEL_BELOW / 2
    pairs = sorted({(min(a, b), max(a, b)) for a, b in ((index.get(s), index.get(t)) for s, t in edges)
                    if a is not None and b is not None and a != b})
    rng = random.Random(seed)
    if known:
        pos = np.asarray(_start_positions(names, pairs, known, rng), dtype=float) * UNIT
        fixed = np.asarray([n in known for n in names])
    else:
        graph = igraph.Graph(n=len(names), edges=pairs)
        # Kamada–Kawai, then each unrelated group on a ring round the related ones, largest first.
        pos = np.asarray(graph.layout_kamada_kawai(seed=[[math.cos(i), math.sin(i)] for i in range(len(names))],
                                                    maxiter=50 * len(names)).coords, dtype=float)
        linked = np.asarray(graph.degree()) > 0
        typical = float(np.median(half_w)) * 2 + GROUP_GAP
        if linked.sum() > 1:
            nearest = float(np.median(_nearest_distances(pos[linked])))
            pos *= typical / nearest if nearest > 0 else typical
        else:
            pos[:] = 0.0
        alone = np.flatnonzero(~linked)
        if len(alone) and linked.any():
            centre = pos[linked].mean(axis=0)
            ring = float(np.sqrt(((pos[linked] - centre) ** 2).sum(axis=1)).max()) + typical
            for k, i in enumerate(alone):
                angle = 2 * math.pi * k / len(alone) + 0.3
                pos[i] = centre + ring * np.asarray([math.cos(angle), math.sin(angle)])
        fixed = np.zeros(len(names), dtype=bool)
    pos = _separate(pos, half_w, half_h, fixed)
    return {n: (float(pos[i][0]), float(pos[i][1])) for n, i in index.items()}


def _separate(pos: np.ndarray, half_w: np.ndarray, half_h: np.ndarray, fixed: np.ndarray,
              rounds: int = 300) -> np.ndarray:
    """Push overlapping boxes (centred ``half_h - radius`` below each point: the disc and the name
    under it) apart along the axis where they overlap least; ``fixed`` ones do not move."""
    pos = pos.copy()
    if len(pos) < 2:
        return pos
    jitter = np.random.default_rng(3).normal(0, 1e-3, pos.shape)
    pos += np.where(fixed[:, None], 0.0, jitter)
    need_x = half_w[:, None] + half_w[None, :] + GROUP_GAP
    need_y = half_h[:, None] + half_h[None, :] + GROUP_GAP
    eye = np.eye(len(pos), dtype=bool)
    for _ in range(rounds):
        dx = pos[:, None, 0] - pos[None, :, 0]
        dy = pos[:, None, 1] - pos[None, :, 1]
        over_x = need_x - np.abs(dx)
        over_y = need_y - np.abs(dy)
        clash = (over_x > 0) & (over_y > 0) & ~eye
        if not clash.any():
            break
        # Each pair moves apart along its smaller overlap; a fixed partner pushes the other the whole way.
        share = np.where(fixed[None, :], 1.0, 0.5) * clash
        along_x = over_x < over_y
        push_x = np.where(along_x, np.sign(dx + 1e-9) * over_x, 0.0) * share
        push_y = np.where(~along_x, np.sign(dy + 1e-9) * over_y, 0.0) * share
        push = np.stack([push_x.sum(axis=1), push_y.sum(axis=1)], axis=1) * 0.5
        push[fixed] = 0
        pos += push
    return pos
