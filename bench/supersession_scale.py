"""Reflect's time at scale with the supersession detector, against the same reflect without it.

    python bench/supersession_scale.py --entities 100000

The graph is ``reflect_bench.build_graph``'s (the figures of "Reflect at 100k entities"), plus facts
that look like updates: 2,000 entities get a changed number, an employer and a place (one real
update each), 20,000 get four unrelated facts each (look-alikes the rules must read and reject).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402


def _reflect_bench():  # noqa: ANN202 - the sibling bench, loaded by path
    spec = importlib.util.spec_from_file_location("reflect_bench", ROOT / "bench" / "reflect_bench.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _add_facts(memory: Memory, entities: int) -> int:
    notes = [n.name for n in memory.list_nodes(label="Note", limit=min(22_000, entities))]
    updates, noise = notes[:2_000], notes[2_000:22_000]
    items = [{"entityName": n, "contents": [f"Latency is {100 + i % 50} ms", "Works at Acme",
                                           "Uses PostgreSQL", f"Latency is {200 + i % 50} ms",
                                           "Now works at Nubia"]} for i, n in enumerate(updates)]
    items += [{"entityName": n, "contents": ["Uses Redis", f"Has {i % 9 + 1} owners", "Speaks English",
                                            "Depends on Payments"]} for i, n in enumerate(noise)]
    for start in range(0, len(items), 5_000):
        memory.add_observations(items[start : start + 5_000], actor="bench")
    return len(updates)


def time_reflect(entities: int, repeat: int = 3) -> None:
    bench = _reflect_bench()
    with tempfile.TemporaryDirectory() as tmp:
        clock = bench.BenchClock()
        with Memory(Settings(db=Path(tmp) / "scale.db", embeddings="none"), clock=clock) as memory:
            started = time.perf_counter()
            bench.build_graph(memory, entities, clock=clock)
            clock.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
            planted = _add_facts(memory, entities)
            counts = memory.health_check()["counts"]
            print(f"\ngraph: {counts['entities']} entities, {counts['observations']} observations, "
                  f"{counts['relations']} relations (built in {time.perf_counter() - started:.0f} s); "
                  f"{planted} entities with planted updates")
            from core.hygiene import supersede, tidy
            from core.reflect import patterns
            from core.reflect.engine import reflect

            rules, store = memory.schema_profile().reflect, memory.graph.insight_store()
            registered = dict(patterns.SPECS)
            n = [0]

            def full(with_detector: bool) -> tuple[float, float, dict]:
                n[0] += 1  # a write first, so the run is a full one (not incremental)
                memory.create_entities([{"name": f"bench write {n[0]}", "entityType": "Note", "observations": []}])
                left_out = {*tidy.KINDS, *([] if with_detector else supersede.PATTERNS)}
                patterns.SPECS.clear()
                patterns.SPECS.update({p: s for p, s in registered.items() if p not in left_out})
                try:
                    wall, cpu = time.perf_counter(), time.process_time()
                    out = reflect(store, rules, "bench", memory.graph)  # the detector remembers its findings
                    return time.perf_counter() - wall, time.process_time() - cpu, out
                finally:
                    patterns.SPECS.clear()
                    patterns.SPECS.update(registered)

            def cold() -> bool:
                memory.set_metadata(supersede.REMEMBERED_KEY, "{}")  # nothing remembered: every entity judged
                return True

            load = os.getloadavg()[0]
            rows = []
            for label, make in (("without the detector", lambda: False), ("with the detector, cold", cold),
                                ("with the detector, remembering unchanged entities", lambda: True)):
                rows.append((label, [full(make()) for _ in range(repeat)]))
            scan_wall = time.perf_counter()
            found = supersede.find_rows(memory.graph)
            scan_wall = time.perf_counter() - scan_wall
            print(f"load average before: {load:.2f} (2 cores, shared)\n")
            print("| full reflect (after a write) | wall s (median) | wall s (min) | CPU s (median) |")
            print("|---|---|---|---|")
            for label, runs in rows:
                print(f"| {label} | {statistics.median(r[0] for r in runs):.3f} | {min(r[0] for r in runs):.3f} | "
                      f"{statistics.median(r[1] for r in runs):.3f} |")
            print(f"\nthe detector alone (cold): {scan_wall:.3f} s; proposals: "
                  f"{ {k: len(v) for k, v in found.items()} }")
            print("found per pattern (last run):", rows[-1][1][-1][2]["found"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    time_reflect(args.entities, args.repeat)
