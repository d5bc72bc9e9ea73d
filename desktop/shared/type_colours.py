"""One colour per entity type, the same in every pane (the graph, its legend, the search list)."""

from __future__ import annotations

import zlib

from PySide6.QtGui import QColor

# Twelve colours for the twelve most used types of the open memory, in order of use: Okabe & Ito's
# colour-blind-safe set (without its black) first, then Paul Tol's "muted" colours that stay apart
# from them. Every other type is grey. Ranked by use, not by name, so "person" and "organization"
# (or "Person" and "person") never share a colour when both are among the twelve.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#882255", "#999933", "#AA4499", "#44AA99", "#DDCC77")
OTHER_COLOUR = "#9a9a9a"

_ranked: dict[str, int] = {}  # type → its place among the open memory's most used types


def rank_types(counts: dict[str, int]) -> bool:
    """Give the ``counts`` (type → entities) most used types their colours; True if any changed.
    Shared by every pane, so a type has one colour in the graph, its legend and the search list."""
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[: len(PALETTE)]
    ranked = {etype: i for i, (etype, _) in enumerate(order)}
    if ranked == _ranked:
        return False
    _ranked.clear()
    _ranked.update(ranked)
    return True


def type_colour(entity_type: str) -> QColor:
    """The colour of ``entity_type``: one of twelve for the most used types, grey for the rest
    (before the memory's types are known, a stable one of the twelve)."""
    if not _ranked:
        return QColor(PALETTE[zlib.crc32(entity_type.encode("utf-8")) % len(PALETTE)])
    place = _ranked.get(entity_type)
    return QColor(PALETTE[place] if place is not None else OTHER_COLOUR)
