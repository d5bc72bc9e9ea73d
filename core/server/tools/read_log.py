"""Logging what an assistant recalled: one call after each MCP read, from the SDK's tools and the
express lane alike, naming the client, the tool, the query and what the answer held.

The express lane (core/server/fast) logs after its answer is written: inside ``reads_deferred()``
``log_read`` keeps the read, and the lane logs it (``DeferredReads.log``) once the line is out, or
drops it when it leaves the call to the SDK (whose tool logs it then)."""

from __future__ import annotations

import contextlib
import contextvars
import logging
from collections.abc import Iterator, Mapping
from typing import Any

from core.memory import Memory

log = logging.getLogger(__name__)

# Where an answer lists entities (official reads: entities; search_semantic: results; engrama
# reads: results, node, neighbours), and which field holds the facts returned with each.
_LISTS = ("entities", "results", "neighbours")
_FACTS = ("observations", "matching_observations")


def what_was_returned(answer: Mapping[str, Any]) -> tuple[list[str], list[tuple[str, str]], int]:
    """(entity names, (name, fact) pairs, how many entities) in a read's structured answer."""
    items: list[Mapping[str, Any]] = []
    if isinstance(answer.get("node"), Mapping):
        items.append(answer["node"])
    for key in _LISTS:
        value = answer.get(key)
        if isinstance(value, list):
            items += [v for v in value if isinstance(v, Mapping)]
    names: list[str] = []
    facts: list[tuple[str, str]] = []
    for item in items:
        name = item.get("name") or item.get("title")
        if not isinstance(name, str):
            continue
        names.append(name)
        for key in _FACTS:
            values = item.get(key)
            if isinstance(values, list):
                facts += [(name, f) for f in values if isinstance(f, str)]
                break
    total = answer.get("total_entities")
    return names, facts, total if isinstance(total, int) and not answer.get("names_only") else len(names)


class DeferredReads:
    """Reads kept by ``log_read`` inside ``reads_deferred()``, to log once the answer is out."""

    def __init__(self) -> None:
        self.reads: list[tuple[Memory, str, str, str, Mapping[str, Any]]] = []

    def log(self) -> None:
        """Log the kept reads now (the same rows ``log_read`` writes), and forget them."""
        reads, self.reads = self.reads, []
        for read in reads:
            _log_now(*read)


_DEFERRED: contextvars.ContextVar[DeferredReads | None] = contextvars.ContextVar("hipocampo_reads", default=None)


@contextlib.contextmanager
def reads_deferred() -> Iterator[DeferredReads]:
    """Inside it, ``log_read`` keeps each read instead of writing it; the caller logs them."""
    kept = DeferredReads()
    token = _DEFERRED.set(kept)
    try:
        yield kept
    finally:
        _DEFERRED.reset(token)


def log_read(memory: Memory, client: str, tool: str, query: str, answer: Any) -> None:
    """Record one read in the memory's read log (a no-op when the user turned the log off); inside
    ``reads_deferred()``, kept to be logged once the answer is written."""
    if not isinstance(answer, Mapping):
        return
    deferred = _DEFERRED.get()
    if deferred is not None:
        deferred.reads.append((memory, client, tool, query, answer))
        return
    _log_now(memory, client, tool, query, answer)


def _log_now(memory: Memory, client: str, tool: str, query: str, answer: Mapping[str, Any]) -> None:
    try:
        names, facts, total = what_was_returned(answer)
        memory.record_read(client, tool, query, names, facts, total=max(total, len(names)))
    except Exception:  # noqa: BLE001 - a log that fails must never fail the assistant's read
        log.warning("could not log a %s read", tool, exc_info=True)
