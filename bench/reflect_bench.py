"""Reflect on a realistic Engrama-labelled graph: cold, warm (nothing changed) and incremental.

    .venv/bin/python bench/reflect_bench.py                  # 100k entities (≈ 1 min to build)
    .venv/bin/python bench/reflect_bench.py --entities 10000 --db /tmp/r.db --keep

The graph is built through ``Memory`` (``create_entities`` / ``create_relations`` in large batches,
``merge_node`` for props) the way an import would. Its shape follows how people use Engrama:
projects using technologies, problems tied to concepts and solved by decisions, courses covering
concepts, techniques in domains, notes loosely attached, a few stubs and archived nodes, and 40 %
of it last touched 200 days ago. Link targets are drawn Zipf-like, so a few concepts and
technologies are very popular, as in real notes.
"""

from __future__ import annotations

import argparse
import bisect
import gc
import itertools
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402

# Share of the graph per label at 100k entities (Domain is fixed at 40); "Note" (a label outside
# the profile, as MCP clients write) takes the rest.
SHARES: dict[str, int] = {
    "Project": 1500, "Client": 500, "Person": 6000, "Technology": 1500, "Concept": 12000,
    "Problem": 15000, "Decision": 10000, "Course": 800, "Exercise": 4000, "Technique": 2500,
    "Tool": 3000, "Vulnerability": 2500, "Experiment": 5000, "Model": 1200, "Dataset": 1200,
}
DOMAINS = 40


class BenchClock:
    """A clock the builder moves: the old part of the graph is written 200 days in the past."""

    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


class Zipf:
    """Draw items with weight 1/(rank+1): a few very popular, a long tail."""

    def __init__(self, items: Sequence[str], rng: random.Random) -> None:
        self.items = list(items)
        self.rng = rng
        self.cum = list(itertools.accumulate(1.0 / (i + 1) for i in range(len(self.items))))

    def pick(self, k: int = 1) -> list[str]:
        total = self.cum[-1]
        return list(dict.fromkeys(
            self.items[bisect.bisect_left(self.cum, self.rng.random() * total)] for _ in range(k)))


def build_graph(memory: Memory, entities: int = 100_000, *, seed: int = 7,
                clock: BenchClock | None = None, log: Callable[[str], None] = lambda s: None) -> None:
    """Fill ``memory`` with about ``entities`` Engrama-labelled entities and ≈ 3 relations each."""
    rng = random.Random(seed)
    scale = entities / 100_000
    counts = {label: max(3, round(n * scale)) for label, n in SHARES.items()}
    counts["Domain"] = DOMAINS
    counts["Note"] = max(0, entities - sum(counts.values()))
    names = {label: [f"{label} {i:06d}" for i in range(n)] for label, n in counts.items()}
    for label in names:  # popularity must not follow creation order
        rng.shuffle(names[label])

    started = time.perf_counter()
    old_cut = {label: int(len(ns) * 0.4) for label, ns in names.items()}
    for phase in ("old", "new"):
        if clock is not None:
            clock.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC) - (
                timedelta(days=200) if phase == "old" else timedelta(0))
        batch = []
        for label, ns in names.items():
            part = ns[: old_cut[label]] if phase == "old" else ns[old_cut[label]:]
            batch += [{"name": n, "entityType": label, "observations": [f"{label.lower()} note on {n}"]}
                      for n in part]
        for start in range(0, len(batch), 20_000):
            memory.create_entities(batch[start : start + 20_000], actor="bench")
    log(f"entities: {sum(counts.values())} in {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    props = _props(names, rng)
    with memory.transaction():
        for (label, name), p in props.items():
            memory.merge_node(label, name, p, actor="bench")
    log(f"props: {len(props)} merge_node calls in {time.perf_counter() - started:.1f} s")

    started = time.perf_counter()
    relations = _relations(names, props, rng)
    for start in range(0, len(relations), 20_000):
        memory.create_relations(relations[start : start + 20_000], actor="bench")
    archived = rng.sample(names["Note"] + names["Concept"] + names["Person"], k=int(500 * scale) or 1)
    with memory.transaction():
        for name in archived:
            memory.archive_node(name, actor="bench")
    log(f"relations: {len(relations)} in {time.perf_counter() - started:.1f} s")


def _props(names: dict[str, list[str]], rng: random.Random) -> dict[tuple[str, str], dict]:
    props: dict[tuple[str, str], dict] = {}
    for name in names["Problem"]:
        roll = rng.random()
        status = "open" if roll < 0.4 else "resolved" if roll < 0.8 else "closed"
        props[("Problem", name)] = {"status": status}
    for label in ("Project", "Course"):
        for name in names[label]:
            roll = rng.random()
            if roll < 0.6:
                props[(label, name)] = {"status": "active"}
            elif roll < 0.85:
                props[(label, name)] = {"status": "done"}
    for label in ("Note", "Technology"):
        for name in rng.sample(names[label], k=len(names[label]) // 50):
            props[(label, name)] = {"stub": True}
    for label in ("Concept", "Note"):
        for name in rng.sample(names[label], k=len(names[label]) // 20):
            props[(label, name)] = {"confidence": round(rng.uniform(0.05, 0.95), 2)}
    return props


def _relations(names: dict[str, list[str]], props: dict, rng: random.Random) -> list[dict[str, str]]:
    z = {label: Zipf(ns, rng) for label, ns in names.items()}
    out: list[dict[str, str]] = []

    def rel(src: str, rtype: str, targets: list[str]) -> None:
        out.extend({"from": src, "to": t, "relationType": rtype} for t in targets if t != src)

    def some(label: str, lo: int, hi: int) -> list[str]:
        return z[label].pick(rng.randint(lo, hi)) if hi > 0 else []

    for p in names["Project"]:
        if rng.random() < 0.7:
            rel(p, "BELONGS_TO", some("Client", 1, 1))
        rel(p, "USES", some("Technology", 2, 6))
        rel(p, "IN_DOMAIN", some("Domain", 1, 1))
        rel(p, "INFORMED_BY", some("Decision", 0, 3))
    for person in names["Person"]:
        rel(person, "BELONGS_TO", some("Project", 1, 2))
        if rng.random() < 0.3:
            rel(person, "USES", some("Technology", 1, 1))
    for prob in names["Problem"]:
        if rng.random() < 0.9:
            rel(prob, "BELONGS_TO", some("Project", 1, 1))
        rel(prob, "INSTANCE_OF", some("Concept", 1, 3))
        if props.get(("Problem", prob), {}).get("status") == "resolved":
            rel(prob, "SOLVED_BY", some("Decision", 1, 1))
    for d in names["Decision"]:
        rel(d, "INSTANCE_OF", some("Concept", 0, 2))
        if rng.random() < 0.8:
            rel(d, "BELONGS_TO", some("Project", 1, 1))
    for c in names["Concept"]:
        if rng.random() < 0.6:
            rel(c, "IN_DOMAIN", some("Domain", 1, 1))
        if rng.random() < 0.2:
            rel(c, "RELATED_TO", some("Concept", 1, 1))
    for course in names["Course"]:
        rel(course, "COVERS", some("Concept", 2, 5))
        rel(course, "TEACHES", some("Technology", 1, 3))
        rel(course, "IN_DOMAIN", some("Domain", 1, 1))
    for ex in names["Exercise"]:
        rel(ex, "BELONGS_TO", some("Course", 1, 1))
        if rng.random() < 0.5:
            rel(ex, "APPLIES", some("Technique", 1, 1))
    for t in names["Technique"]:
        rel(t, "IN_DOMAIN", some("Domain", 1, 2))
        rel(t, "APPLIES", some("Concept", 1, 4))
    for tool in names["Tool"]:
        rel(tool, "USES", some("Technology", 1, 2))
        if rng.random() < 0.5:
            rel(tool, "IN_DOMAIN", some("Domain", 1, 1))
    for v in names["Vulnerability"]:
        rel(v, "INSTANCE_OF", some("Concept", 1, 2))
        rel(v, "RELATED_TO", some("Technology", 1, 1))
    for e in names["Experiment"]:
        rel(e, "USES", some("Dataset", 1, 1) + some("Model", 1, 1))
        rel(e, "INSTANCE_OF", some("Concept", 1, 2))
        if rng.random() < 0.5:
            rel(e, "BELONGS_TO", some("Project", 1, 1))
        rel(e, "IN_DOMAIN", some("Domain", 1, 1))
    for m in names["Model"]:
        rel(m, "COMPOSED_OF", some("Technology", 1, 1))
        rel(m, "IN_DOMAIN", some("Domain", 1, 1))
    for ds in names["Dataset"]:
        if rng.random() < 0.7:
            rel(ds, "IN_DOMAIN", some("Domain", 1, 1))
    everything = Zipf([n for ns in names.values() for n in ns], rng)
    for note in names["Note"]:
        rel(note, "RELATED_TO", everything.pick(rng.choice((0, 1, 1, 2, 3))))
    return out


class CollectorClock:
    """CPU seconds the garbage collector spends, from its own start/stop callbacks (exact, unlike
    a difference of two noisy totals on a loaded machine)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self._started = 0.0
        self.listening = False

    def listen(self) -> None:
        if not self.listening:  # on first use, not at import (the tests import this module)
            gc.callbacks.append(self._note)
            self.listening = True

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.spent += time.process_time() - self._started


COLLECTOR = CollectorClock()


def timed(fn: Callable[[], dict], repeat: int) -> tuple[list[float], list[float], dict]:
    """Wall and CPU seconds of ``repeat`` calls (CPU time shows the cost when other work shares
    the cores: SQLite runs reflect on one thread, so on an idle machine wall ≈ CPU); the
    collector's CPU seconds of each call go in the result as ``"gc"``."""
    walls, cpus, result = [], [], {}
    gcs: list[float] = []
    COLLECTOR.listen()
    for _ in range(repeat):
        wall, cpu, spent = time.perf_counter(), time.process_time(), COLLECTOR.spent
        result = fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        gcs.append(COLLECTOR.spent - spent)
    if isinstance(result, dict):
        result = {**result, "gc": statistics.median(gcs) if gcs else 0.0}
    return walls, cpus, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--db", type=Path, default=None, help="database file (default: a temp file)")
    parser.add_argument("--keep", action="store_true", help="reuse --db if it exists")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each warm measurement")
    args = parser.parse_args()

    tmp = tempfile.TemporaryDirectory()
    db = args.db or Path(tmp.name) / "reflect_bench.db"
    clock = BenchClock()
    fresh = not (args.keep and db.exists())
    if fresh and db.exists():
        db.unlink()
    with Memory(Settings(db=db, embeddings="none"), clock=clock) as memory:
        if fresh:
            build_graph(memory, args.entities, clock=clock, log=lambda s: print("  build", s))
        clock.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
        counts = memory.health_check()["counts"]
        print(f"graph: {counts['entities']} entities, {counts['relations']} relations, "
              f"{counts['insights']} insights already")

        rows: list[tuple[str, list[float], list[float], dict]] = []
        load_before = os.getloadavg()[0]
        rows.append(("cold (first reflect)", *timed(memory.reflect, 1)))
        rows.append(("warm (nothing changed)", *timed(memory.reflect, args.repeat)))

        def one_change() -> dict:
            memory.create_relations([{"from": "Project 000001", "to": "Technology 000002",
                                      "relationType": f"USES_{time.perf_counter_ns()}"}])
            return memory.reflect()

        rows.append(("after one write (full run)", *timed(one_change, args.repeat)))
        # An app restart: a new store on the same, already reflected memory (nothing kept in-process:
        # the detectors start from what the memory stores), after one write.
        with Memory(Settings(db=db, embeddings="none"), clock=clock) as restarted:
            def restart() -> dict:
                restarted.create_relations([{"from": "Project 000001", "to": "Technology 000002",
                                             "relationType": f"USES_{time.perf_counter_ns()}"}])
                return restarted.reflect()
            rows.append(("a new process, after one write", *timed(restart, 1)))
        clock.now += timedelta(days=1)
        rows.append(("next day, no write", *timed(memory.reflect, 1)))
        clock.now += timedelta(days=30)
        decay_wall, decay_cpu, decayed = timed(memory.decay_confidence, 1)  # type: ignore[arg-type]
        surface_wall, _, top = timed(lambda: memory.surface_insights(limit=10), 1)  # type: ignore[arg-type]

        print(f"\nload average before: {load_before:.2f} (2 cores here; other work inflates wall time)\n")
        print("| run | wall s (median) | wall s (min) | CPU s (median) | of it GC s | created | refreshed "
              "| stale | incremental |")
        print("|---|---|---|---|---|---|---|---|---|")
        for label, walls, cpus, r in rows:
            print(f"| {label} | {statistics.median(walls):.3f} | {min(walls):.3f} | "
                  f"{statistics.median(cpus):.3f} | {r['gc']:.3f} | {r['created']} | {r['refreshed']} | "
                  f"{r['stale']} | {r['incremental']} |")
        print()
        print(f"decay_confidence: {decayed} insights in {decay_wall[0]:.3f} s (CPU {decay_cpu[0]:.3f} s); "
              f"surface_insights(limit=10): {surface_wall[0] * 1000:.1f} ms")
        print("candidates per pattern:", rows[0][3].get("found"))
        print("held back (review queue full):", rows[0][3].get("held_back"))
        print("top insight:", top[0]["title"] if top else None)


if __name__ == "__main__":
    main()
