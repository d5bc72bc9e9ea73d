"""Precision and recall of superseded-relation proposals on the labelled set, and what finding
them costs at scale.

    python bench/supersession_relations_bench.py                    # tests/data/supersession_relations.json
    python bench/supersession_relations_bench.py --entities 100000 [--backend falkordb]  # the detector's reads at scale
    # at scale: a full read, then reflect's Detector (its first run in a process, then after one write)

A case is one entity's current relations and facts with when each was written, labelled with the
relations a newer relation or fact of a single-valued kind replaces (``update``) or with none (a
near miss: many-valued kinds, the same target restated, someone else's job, the past, a wish …).
A proposal is one (type, target) the detector says is superseded.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.hygiene.supersede_relations import fold_type, judge, kind_of  # noqa: E402

CASES = ROOT / "tests" / "data" / "supersession_relations.json"


def evaluate(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Proposals right, proposed, expected, and the cases got wrong."""
    right = proposed = expected = 0
    wrong = []
    for case in cases:
        # the graph's evidence a case gives: a kind → how many entities hold it, how many hold several
        evidence = {kind_of(t) or fold_type(t): (g["holders"], g["several"]) for t, g in case.get("graph", {}).items()}
        got = {(t, to) for t, to, *_ in judge([tuple(r) for r in case["relations"]],
                                              [tuple(f) for f in case["facts"]], evidence=evidence)}
        want = {tuple(e) for e in case["expect"]}
        right += len(got & want)
        proposed += len(got)
        expected += len(want)
        if got != want:
            wrong.append((case["id"], case["note"], sorted(got), sorted(want)))
    return {"precision": right / proposed if proposed else 1.0, "recall": right / expected if expected else 1.0,
            "proposed": proposed, "expected": expected, "wrong": wrong}


def time_detector(n: int, backend: str, every: int = 10) -> None:
    """Reflect's read for this detector on a graph of ``n`` people, one in ``every`` with a second
    employer and one in ``every`` with a newer fact naming one (``backend``: sqlite, or falkordb on
    a server of its own)."""
    import contextlib

    from core.hygiene.supersede_relations import Detector, find_rows, save
    from core.memory import Memory
    from core.settings import Settings

    with contextlib.ExitStack() as stack:
        tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        extra: dict[str, Any] = {}
        if backend == "falkordb":
            from tests.graph_server import falkordb_server

            extra = {"backend": "falkordb", "graph_url": stack.enter_context(falkordb_server(tmp / "server")),
                     "graph_name": "relations-bench"}
        mem = stack.enter_context(Memory(Settings(db=tmp / "b.db", embeddings="none", **extra)))
        companies = [f"Company {i}" for i in range(200)]
        mem.create_entities([{"name": c, "entityType": "Company"} for c in companies])
        for start in range(0, n, 5000):
            people = range(start, min(n, start + 5000))
            mem.create_entities([{"name": f"Person {i}", "entityType": "Person",
                                  "observations": [f"Fact {i}", f"Likes topic {i % 97}"]} for i in people])
            mem.create_relations([{"from": f"Person {i}", "to": companies[i % 200], "relationType": "works_at"}
                                  for i in people] + [{"from": f"Person {i}", "to": f"Person {i + 1}",
                                                       "relationType": "knows"} for i in people if i + 1 < n])
        mem.create_relations([{"from": f"Person {i}", "to": companies[(i + 1) % 200], "relationType": "WORKS_AT"}
                              for i in range(0, n, every)])
        mem.add_observations([{"entityName": f"Person {i}", "contents": [f"Now works at Company {(i + 7) % 200}"]}
                              for i in range(every // 2, n, every)])
        t0 = time.perf_counter()
        rows = find_rows(mem.graph)
        cold = time.perf_counter() - t0
        print(f"\n| backend | entities | relations read | proposals | find_rows (s) |\n|---|---|---|---|---|\n"
              f"| {backend} | {n:,} | {n + n // every:,} | {len(rows):,} | {cold:.3f} |")
        # Reflect's reading: a first run in the process reads everything; the next, after one write
        # (a person's new employer), reads that person and its neighbours again.
        t0 = time.perf_counter()
        first = Detector(mem.graph).rows()
        first_s = time.perf_counter() - t0
        mem.create_relations([{"from": "Person 1", "to": companies[3], "relationType": "works_for"}])
        t0 = time.perf_counter()
        after = Detector(mem.graph).rows()
        one_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        nothing = Detector(mem.graph).rows()
        none_s = time.perf_counter() - t0
        assert first == rows and after == find_rows(mem.graph) and nothing == after
        # A new process (a new store on the same memory) after one more write: it starts from the
        # findings the last run stored (core.hygiene.supersede_relations.save) and reads what was written since.
        save(mem.graph)
        mem.create_relations([{"from": "Person 2", "to": companies[5], "relationType": "works_for"}])
        other = stack.enter_context(Memory(Settings(db=tmp / "b.db", embeddings="none", **extra)))
        t0 = time.perf_counter()
        restarted = Detector(other.graph).rows()
        restart_s = time.perf_counter() - t0
        assert restarted == find_rows(other.graph)
        print(f"\n| backend | entities | EVERY | Detector: first run (s) | after one write (s) | after none (s) | "
              f"proposals after |\n|---|---|---|---|---|---|---|\n"
              f"| {backend} | {n:,} | {every} | {first_s:.3f} | {one_s:.4f} | {none_s:.4f} | {len(after):,} |")
        print(f"\n| backend | a new process, one write since the stored findings (s) | proposals |\n|---|---|---|\n"
              f"| {backend} | {restart_s:.4f} | {len(restarted):,} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--entities", type=int, default=0, help="also time the detector on N entities")
    parser.add_argument("--backend", choices=("sqlite", "falkordb"), default="sqlite")
    parser.add_argument("--every", type=int, default=10, help="one person in EVERY changes employer (twice)")
    args = parser.parse_args()
    cases = json.loads(args.cases.read_text(encoding="utf-8"))["cases"]
    result = evaluate(cases)
    updates = sum(c["label"] == "update" for c in cases)
    print(f"{len(cases)} cases: {updates} updates, {len(cases) - updates} near misses")
    print("| proposals | precision | recall | proposed | labelled |\n|---|---|---|---|---|")
    print(f"| superseded relations | {result['precision']:.3f} | {result['recall']:.3f} | {result['proposed']} "
          f"| {result['expected']} |")
    for cid, note, got, want in result["wrong"]:
        print(f"  #{cid} ({note}): got {got}, want {want}")
    if args.entities:
        time_detector(args.entities, args.backend, args.every)


if __name__ == "__main__":
    main()
