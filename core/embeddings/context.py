"""Facts' texts in context, as they are embedded (``core.embeddings.text.fact_text``): the same rule
for the background embedder and for facts a search embeds on the fly, on every backend (each
answers the two reads it uses: whose facts they are, and those entities' names and types).

A fact's vector is kept only while the text it was embedded from is still the fact's text in
context: ``still_current`` is what each backend's ``store_facts`` asks, inside its write, of the
hash of what was embedded, so a vector computed before a rename (or retype) of its entity
committed is not stored, and the fact stays due."""

from __future__ import annotations

from collections.abc import Mapping

from core.embeddings.text import fact_text, text_hash
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
        out[fid] = in_context_of(text, *(subject or (None, None)))
    return out


def in_context_of(text: str, name: str | None, entity_type: str | None) -> str:
    """A fact's text to embed: after its entity's name and type; its bare text without an entity."""
    return fact_text(name, entity_type, text) if name is not None and entity_type is not None else text


def context_hash(text: str, name: str | None, entity_type: str | None) -> str:
    """The hash ``store_facts`` keeps and compares: of the fact's text in context, as embedded."""
    return text_hash(in_context_of(text, name, entity_type))


def still_current(embedded_hash: str, text: str, name: str | None, entity_type: str | None) -> bool:
    """Whether a vector embedded from the text hashed ``embedded_hash`` may be stored for a fact
    whose text and entity are now these: it was embedded from the fact's text in context as it is
    now, or from its bare text (an indexer given no graph embeds that; no name is in it)."""
    return embedded_hash in (context_hash(text, name, entity_type), text_hash(text))
