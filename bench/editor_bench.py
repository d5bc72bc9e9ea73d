"""What the entity editor reads and writes, timed on a memory with a long change_log.

    .venv/bin/python bench/editor_bench.py                     # 20,000 entities, 40,000 relations
    .venv/bin/python bench/editor_bench.py --entities 100000

Every open of an entity in the editor reads ``entity_for_edit``, ``entity_history``,
``undoable_change``, ``count_labels`` and ``relation_type_counts`` (``desktop/editor/reads.py``);
every Save is one ``save_entity`` with its optimistic-concurrency check. Figures go in
``bench/RESULTS.md`` by hand (with the command and the date); nothing asserts on time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402


def build(memory: Memory, entities: int, batch: int = 2000) -> float:
    """``entities`` entities with 2 observations and 2 outgoing relations each; returns seconds."""
    start = time.perf_counter()
    for first in range(0, entities, batch):
        span = range(first, min(first + batch, entities))
        memory.create_entities([{"name": f"E{i}", "entityType": "Thing", "observations": [f"fact {i}", f"note {i}"]}
                                for i in span], actor="import")
        memory.create_relations(
            [{"from": f"E{i}", "to": f"E{(i * 7 + 1) % entities}", "relationType": "rel"} for i in span]
            + [{"from": f"E{i}", "to": f"E{(i * 13 + 5) % entities}", "relationType": "uses"} for i in span],
            actor="import")
    return time.perf_counter() - start


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """(median, p95) milliseconds of ``fn`` over ``repeat`` runs after one warm-up."""
    fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.95))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, \
            Memory(Settings(db=Path(tmp) / "bench.db", embeddings="none", actor="gui")) as memory:
        seconds = build(memory, args.entities)
        print(f"built {args.entities:,} entities, {memory.latest_change_id():,} change_log rows in {seconds:.1f} s")
        name = f"E{args.entities // 2}"
        version = memory.entity_for_edit(name)["version"]

        def save() -> None:
            nonlocal version
            memory.save_entity(name, expected_version=version, add_observations=[f"x {time.perf_counter()}"])
            version = memory.entity_for_edit(name)["version"]

        rows = [
            ("entity_for_edit", lambda: memory.entity_for_edit(name)),
            ("entity_history (200)", lambda: memory.entity_history(name, limit=200)),
            ("undoable_change(entity=…)", lambda: memory.undoable_change(entity=name)),
            ("count_labels", memory.count_labels),
            ("relation_type_counts", memory.relation_type_counts),
            ("save_entity (1 observation, version checked) + reload", save),
        ]
        print("| operation | median ms | p95 ms |\n|---|---|---|")
        for label, fn in rows:
            median, p95 = timed(fn, args.repeat)
            print(f"| {label} | {median:.2f} | {p95:.2f} |")


if __name__ == "__main__":
    main()
