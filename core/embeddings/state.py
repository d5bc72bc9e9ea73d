"""The embedding state's rules, once for every vector store: what an entity is embedded from (its
current rows), that a vector is kept only while that text is still current, the shapes a store
takes, and the one background embedder per memory (the lease). A store supplies the reads and
writes: its rows, one metadata value and an atomic update of it, its clock.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from core.embeddings.text import HEAD_FACTS, entity_text, text_hash
from core.errors import InvalidInput
from core.graph_rules import aliases_of, current_relation, format_ts

if TYPE_CHECKING:  # numpy loads with the first vector, not with the server
    import numpy as np

DEFAULT_DIMENSIONS = 384
LEASE_KEY = "embedding_lease"
V = TypeVar("V")


def text_of(name: str, etype: str, props: dict[str, Any], facts: Sequence[str],
            outgoing: Sequence[tuple[str, str]], incoming: Sequence[tuple[str, str]]) -> str:
    """An entity's embedding text from its current rows: name, type, aliases, summary, first ``HEAD_FACTS``
    facts (what it is; every fact has a vector of its own) and its current relations ((type, other),
    oldest first), outgoing ones superseded by a newer one (``current_relation``) left out. A relation
    to itself is one relation: listed once, as outgoing, however a store reads its two ends."""
    summary = props.get("summary")
    rels = [("→", t, o) for t, o in outgoing if current_relation(props, t, o)] + [
        ("←", t, o) for t, o in incoming if o != name]
    return entity_text(name, etype, list(facts[:HEAD_FACTS]), rels, summary if isinstance(summary, str) else None,
                       aliases=aliases_of(props))


def current_vectors(embedded: Mapping[int, tuple[str, V]], current: Mapping[int, str]) -> dict[int, tuple[str, V]]:
    """The vectors (id → (text hash, vector)) embedded from what is still the entity's ``current``
    text: an entity edited while its vector was computed stays due; a deleted one is skipped."""
    return {i: (h, v) for i, (h, v) in embedded.items() if i in current and text_hash(current[i]) == h}


def vectors_of(ids: Sequence[int], vectors: Any, dimensions: int) -> np.ndarray:
    """``vectors`` as float32, one row of ``dimensions`` per id, or InvalidInput."""
    import numpy as np

    found = np.asarray(vectors, dtype=np.float32)
    if found.ndim != 2 or found.shape != (len(ids), dimensions):
        raise InvalidInput(f"expected {len(ids)} vectors of {dimensions} floats, got shape {found.shape}")
    return found


def query_of(vector: Any, dimensions: int) -> np.ndarray:
    """A query vector as float32 of ``dimensions``, or InvalidInput."""
    import numpy as np

    query = np.asarray(vector, dtype=np.float32).reshape(-1)
    if query.shape != (dimensions,):
        raise InvalidInput(f"expected a vector of {dimensions} floats, got {query.shape}")
    return query


class Lease:
    """The background-embedding lease: one process embeds for the memory; several MCP servers on one
    file would otherwise embed everything once each. Mixed into a vector store, which supplies
    ``_meta`` (one value), ``_update_meta`` (an atomic read, decide, write) and ``_clock``."""

    def _meta(self, key: str) -> str | None:
        raise NotImplementedError

    def _update_meta(self, key: str, update: Callable[[str | None], str | None]) -> str | None:
        """Set ``key`` to ``update(its value)`` (None: removed) in one write; returns the new value."""
        raise NotImplementedError

    def _clock(self) -> datetime:
        raise NotImplementedError

    def take_lease(self, owner: str, seconds: float,
                   holder_gone: Callable[[str], bool] = lambda _owner: False) -> bool:
        """Hold the lease for ``seconds`` (renewing it if ours); False while another live process holds
        it. One whose time ran out, or whose holder ``holder_gone`` says is dead, is taken at once."""
        now = self._clock()
        mine = json.dumps({"owner": owner, "until": format_ts(now + timedelta(seconds=seconds))})

        def update(old: str | None) -> str | None:
            held = json.loads(old) if old else None
            if held and held["owner"] != owner and held["until"] > format_ts(now) and not holder_gone(held["owner"]):
                return old
            return mine

        return self._update_meta(LEASE_KEY, update) == mine

    def lease(self) -> dict[str, str] | None:
        """Who holds the background-embedding lease (``owner``), and ``until`` when."""
        value = self._meta(LEASE_KEY)
        return json.loads(value) if value else None

    def drop_lease(self, owner: str) -> None:
        """Give the lease up, if ``owner`` holds it."""
        self._update_meta(LEASE_KEY, lambda old: None if old and json.loads(old)["owner"] == owner else old)
