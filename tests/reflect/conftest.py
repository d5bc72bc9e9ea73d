"""Fixtures for reflect: a real memory of each backend on a stepping clock, and a tiny graph builder."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock

NodeSpec = str | tuple[str, Mapping[str, Any]]


@pytest.fixture(params=["sqlite", "falkordb"])
def mem(tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest) -> Iterator[Memory]:
    """A real store of each backend (FalkorDB on the session's server); no embedding model (reflect
    does not need one)."""
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "reflect.db", embeddings="none", **server), clock=clock) as m:
        yield m


def build(mem: Memory, nodes: Mapping[str, NodeSpec], relations: Sequence[tuple[str, str, str]] = ()) -> None:
    """Create ``nodes`` ({name: label} or {name: (label, props)}) and ``(from, TYPE, to)`` relations."""
    for name, spec in nodes.items():
        label, props = (spec, {}) if isinstance(spec, str) else spec
        mem.merge_node(label, name, dict(props))
    if relations:
        mem.create_relations([{"from": a, "relationType": r, "to": b} for a, r, b in relations])


def of_pattern(mem: Memory, pattern: str, status: str = "all") -> list[dict[str, Any]]:
    return [i for i in mem.surface_insights(status=status, limit=1000) if i["pattern"] == pattern]


def one(mem: Memory, title: str) -> dict[str, Any]:
    found = mem.surface_insights(title=title, status="all")
    assert len(found) == 1, [i["title"] for i in mem.surface_insights(status="all", limit=1000)]
    return found[0]


def evidence_names(insight: Mapping[str, Any], role: str | None = None) -> set[str]:
    return {e["name"] for e in insight["evidence"]["entities"] if role is None or e["role"] == role}
