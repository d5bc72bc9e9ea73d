"""Facts' texts in context, as they are embedded (``core.embeddings.text.fact_text``): the same rule
for the background embedder and for facts a search embeds on the fly, on every backend (each
answers the two reads it uses: whose facts they are, and those entities' names and types)."""

from __future__ import annotations

from collections.abc import Mapping

from core.embeddings.text import fact_text
from core.protocols import FactText, FactVectors, GraphStore


def in_context(texts: Mapping[int, str], vectors: object, graph: GraphStore | None) -> dict[int, str]:
    """fact id → the text to embed for it (its text after its entity's name and type); a fact
    whose entity is gone (or a store that cannot say whose it is) keeps its bare text."""
    if graph is None or not texts or not isinstance(vectors, FactVectors):
        return dict(texts)
    owners = vectors.fact_owners(list(texts))
    ids = sorted({eid for eid, _ in owners.values()})
    heads = graph.entity_heads(ids) if isinstance(graph, FactText) else graph.nodes_by_id(ids)
    subjects = {n.id: (n.name, n.label) for n in heads}
    out: dict[int, str] = {}
    for fid, text in texts.items():
        owner = owners.get(fid)
        subject = subjects.get(owner[0]) if owner else None
        out[fid] = fact_text(subject[0], subject[1], text) if subject else text
    return out
