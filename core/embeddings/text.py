"""The text an entity is embedded from (seed 000's recipe), within the model's token budget, and
the text each of its facts is.

``"{name} ({type}) | {aliases} | {summary} | obs1 | obs2 … | Rel: type → target; …"``, the aliases
being the names merged into it (``core.hygiene.merge``: a former name finds it by meaning too).
When it is too long, its head and its tail are kept: the name and first facts say what the entity
is, the latest facts and relations say what it has become.

A fact is embedded after what it is about, ``"{name} ({type}): {fact}"`` ("contextual retrieval"):
"Tuvimos una caída en junio" alone says nothing of *Redis*, and a question about the key-value
store's crash finds it only with its entity named (bench/RESULTS.md, "Recall: facts in context").
The context is the entity's name and type only, never its other facts: bounded, so a write costs
the same on an entity of 5,000 facts as on one of 10. The vector stays the fact's own; the fact's
stored text hash is still that of its text alone, so a rename or a new type makes the entity's
facts due again by rule (``core.history.undo``: ``EditSession.facts_due``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

# ~480 tokens of the XLM-R vocabulary: Spanish and English average 3.5–4 characters a token.
MAX_CHARS = 1700
_HEAD_SHARE = 0.7
_MAX_RELATIONS = 24
# An entity's own vector holds its first few facts (what it is); every fact has a vector of its own,
# so facts past these leave the entity's vector be (on every backend).
HEAD_FACTS = 12


def entity_text(
    name: str,
    entity_type: str,
    observations: Sequence[str],
    relations: Sequence[tuple[str, str, str]] = (),
    summary: str | None = None,
    *,
    aliases: Sequence[str] = (),
    max_chars: int = MAX_CHARS,
) -> str:
    """Build the text to embed. ``relations`` are (direction, type, other) with direction ``→``/``←``."""
    parts = [f"{name} ({entity_type})"]
    if aliases:
        parts.append(", ".join(aliases))
    if summary:
        parts.append(summary)
    parts.extend(o for o in observations if o)
    if relations:
        rels = "; ".join(f"{rtype} {arrow} {other}" for arrow, rtype, other in relations[:_MAX_RELATIONS])
        parts.append(f"Rel: {rels}")
    return clip(" | ".join(parts), max_chars)


def fact_text(name: str, entity_type: str, fact: str) -> str:
    """The text a fact is embedded from: the fact after its entity's name and type."""
    return f"{name} ({entity_type}): {fact}"


def clip(text: str, max_chars: int = MAX_CHARS) -> str:
    """Keep the head and the tail of ``text`` when it is longer than ``max_chars``."""
    if len(text) <= max_chars:
        return text
    head = int(max_chars * _HEAD_SHARE)
    tail = max_chars - head - 3
    return text[:head] + " … " + text[-tail:]


def text_hash(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()
