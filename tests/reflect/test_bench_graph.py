"""Reflect over the benchmark's realistic graph, small: consistent, bounded, idempotent (no timing)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from core.memory import Memory
from core.reflect.model import PATTERNS
from core.settings import Settings

BENCH = Path(__file__).resolve().parents[2] / "bench" / "reflect_bench.py"


def load_bench():  # noqa: ANN201 (a module)
    spec = importlib.util.spec_from_file_location("reflect_bench", BENCH)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules.setdefault("reflect_bench", module)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_reflect_on_the_bench_graph(tmp_path: Path) -> None:
    bench = load_bench()
    clock = bench.BenchClock()
    with Memory(Settings(db=tmp_path / "bench.db", embeddings="none"), clock=clock) as m:
        bench.build_graph(m, 3000, clock=clock)
        first = m.reflect()
        assert all(first["found"][p] > 0 for p in PATTERNS), first["found"]
        insights = m.surface_insights(status="all", limit=1000)
        titles = [i["title"] for i in insights]
        assert len(titles) == len(set(titles)) == first["created"]
        counts = {p: sum(i["pattern"] == p for i in insights) for p in PATTERNS}
        assert all(0 < n <= 200 for n in counts.values()), counts  # the review-queue cap holds
        # Every piece of evidence names an entity that exists, by its current name.
        for insight in insights:
            for e in insight["evidence"]["entities"]:
                node = m.get_node(e["name"])
                assert node is not None and node.id == e["id"] and node.label == e["label"], e
            assert len(insight["evidence"]["path"]) <= 3
        again = m.reflect()
        assert again["incremental"] and again["created"] == 0 and again["stale"] == 0
        m.create_relations([{"from": "Project 000001", "to": "Technology 000002", "relationType": "USES"}])
        full = m.reflect()
        assert not full["incremental"] and full["created"] <= 1
        after = [i["title"] for i in m.surface_insights(status="all", limit=1000)]
        assert len(after) == len(set(after)) == len(titles) + full["created"]
