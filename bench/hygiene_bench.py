"""Precision and recall of hygiene's proposals on the labelled set, and reflect's cost at scale.

    .venv/bin/python bench/hygiene_bench.py                       # the labelled set (tests/data/hygiene_labelled.json)
    .venv/bin/python bench/hygiene_bench.py --scale 100000        # + reflect at 100k entities with and without hygiene

Each entity case is its own small memory (the two entities, the neighbours they share, one of
their own each), reflected on through ``Memory`` like any other: a case counts as proposed when
one ``duplicate_entities`` insight names both. Each fact case is one entity holding both facts:
proposed when a ``repeated_observations`` insight drops one of them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.memory import Memory  # noqa: E402

LABELLED = Path(__file__).resolve().parents[1] / "tests" / "data" / "hygiene_labelled.json"
MEANING = Path(__file__).resolve().parents[1] / "tests" / "data" / "meaning_duplicates.json"
# Written blind on 2026-12-02 before the rules were read again or changed (issue 24 item 5).
MEANING_HELD_OUT_3 = MEANING.with_name("meaning_holdout3.json")
# Written after the rules changed, before they were run on it (a second batch).
MEANING_HELD_OUT_3B = MEANING.with_name("meaning_holdout3b.json")
# Session 4: written blind before the rules were read (4), and a second batch after the changes (4b).
MEANING_HELD_OUT_4 = MEANING.with_name("meaning_holdout4.json")
MEANING_HELD_OUT_4B = MEANING.with_name("meaning_holdout4b.json")
# Session 5: the same again (5 written blind before the rules were read, 5b after they changed).
MEANING_HELD_OUT_5 = MEANING.with_name("meaning_holdout5.json")
MEANING_HELD_OUT_5B = MEANING.with_name("meaning_holdout5b.json")
MEANING_HELD_OUT_5C = MEANING.with_name("meaning_holdout5c.json")
MEANING_HELD_OUT_5D = MEANING.with_name("meaning_holdout5d.json")
MEANING_HELD_OUT_5E = MEANING.with_name("meaning_holdout5e.json")
# Session 6: written before any rule changed that session, committed before it was run.
MEANING_HELD_OUT_6 = MEANING.with_name("meaning_holdout6.json")


def _entity_case(case: dict[str, Any], embedder: Any = None) -> bool:
    """Whether reflect proposes the case's two entities as duplicates (``embedder``: with the
    duplicates by meaning, which embed names and facts with it)."""
    a, b = case["a"], case["b"]
    with Memory.open(":memory:", embeddings="none") as mem:
        if embedder is not None:
            from core.hygiene import meaning

            meaning.attach(mem.graph, embedder)
        shared = [f"Shared {i}" for i in range(case["shared_neighbours"])]
        mem.create_entities([
            {"name": a["name"], "entityType": a["type"], "observations": a.get("facts") or ["one fact"]},
            {"name": b["name"], "entityType": b["type"], "observations": b.get("facts") or ["another fact"]},
            *({"name": n, "entityType": "Thing"} for n in [*shared, "Own of a", "Own of b"])])
        mem.create_relations([
            *({"from": x, "to": n, "relationType": "related_to"} for n in shared for x in (a["name"], b["name"])),
            {"from": a["name"], "to": "Own of a", "relationType": "related_to"},
            {"from": b["name"], "to": "Own of b", "relationType": "related_to"}])
        mem.reflect()
        found = mem.surface_insights(limit=50, query=None)
        return any(i["pattern"] == "duplicate_entities"
                   and {a["name"], b["name"]} <= {e["name"] for e in i["evidence"]["entities"]} for i in found)


def _fact_case(case: dict[str, Any]) -> bool:
    with Memory.open(":memory:", embeddings="none") as mem:
        mem.create_entities([{"name": "Holder", "entityType": "Person", "observations": [case["a"], case["b"]]}])
        mem.reflect()
        return any(i["pattern"] == "repeated_observations" for i in mem.surface_insights(limit=50))


def _scores(rows: list[tuple[bool, bool]]) -> dict[str, Any]:
    tp = sum(1 for truth, got in rows if truth and got)
    fp = sum(1 for truth, got in rows if not truth and got)
    fn = sum(1 for truth, got in rows if truth and not got)
    return {"cases": len(rows), "positives": tp + fn, "tp": tp, "fp": fp, "fn": fn,
            "precision": tp / (tp + fp) if tp + fp else 1.0, "recall": tp / (tp + fn) if tp + fn else 1.0}


def evaluate(path: Path = LABELLED) -> dict[str, Any]:
    """``{"entities": scores, "facts": scores, "misses": [...]}`` over the labelled set."""
    data = json.loads(path.read_text(encoding="utf-8"))
    ent = [(c["duplicate"], _entity_case(c)) for c in data["entities"]]
    facts = [(c["repeat"], _fact_case(c)) for c in data["facts"]]
    misses = [f"{'FP' if got else 'FN'} {c['a']['name']!r} / {c['b']['name']!r} ({c.get('why', '')})"
              for c, (truth, got) in zip(data["entities"], ent, strict=True) if truth != got]
    misses += [f"{'FP' if got else 'FN'} fact {c['a']!r} / {c['b']!r}"
               for c, (truth, got) in zip(data["facts"], facts, strict=True) if truth != got]
    return {"entities": _scores(ent), "facts": _scores(facts), "misses": misses}


def _bundled_embedder() -> Any:
    from core.embeddings.factory import create_embedder
    from core.settings import Settings

    return create_embedder(Settings(embeddings="onnx"))


def evaluate_set(path: Path, embedder: Any = None) -> dict[str, Any]:
    """Merges with the bundled model attached (or ``embedder``) on one held-out set alone."""
    embedder = embedder if embedder is not None else _bundled_embedder()
    cases = json.loads(path.read_text(encoding="utf-8"))["holdout"]
    got = [(c["duplicate"], _entity_case(c, embedder)) for c in cases]
    return {path.stem: _scores(got),
            "misses": [f"{'FP' if g else 'FN'} {c['a']['name']!r} / {c['b']['name']!r} ({c.get('why', '')})"
                       for c, (t, g) in zip(cases, got, strict=True) if t != g]}


def evaluate_meaning(labelled: Path = LABELLED, meaning_set: Path = MEANING, embedder: Any = None,
                     held_out: Path | None = MEANING_HELD_OUT_3) -> dict[str, Any]:
    """Merges with the bundled model attached (or ``embedder``): the spelling set, the by-meaning
    set's tuned part, its held-out part and the session-3 held-out set, each scored, and all together."""
    embedder = embedder if embedder is not None else _bundled_embedder()
    parts = {"spelling (hygiene_labelled)": json.loads(labelled.read_text(encoding="utf-8"))["entities"]}
    data = json.loads(meaning_set.read_text(encoding="utf-8"))
    parts["meaning, tuned on"] = data["tune"]
    parts["meaning, held out"] = data["holdout"]
    if held_out is not None and held_out.exists():
        parts["meaning, held out (session 3)"] = json.loads(held_out.read_text(encoding="utf-8"))["holdout"]
    if held_out is not None and MEANING_HELD_OUT_3B.exists():
        parts["meaning, held out (session 3, second batch)"] = json.loads(
            MEANING_HELD_OUT_3B.read_text(encoding="utf-8"))["holdout"]
    for label, path in (("meaning, held out (session 4)", MEANING_HELD_OUT_4),
                        ("meaning, held out (session 4, second batch)", MEANING_HELD_OUT_4B),
                        ("meaning, held out (session 5)", MEANING_HELD_OUT_5),
                        ("meaning, held out (session 5, second batch)", MEANING_HELD_OUT_5B),
                        ("meaning, held out (session 5, third batch)", MEANING_HELD_OUT_5C),
                        ("meaning, held out (session 5, fourth batch, adversarial)", MEANING_HELD_OUT_5D),
                        ("meaning, held out (session 5, fifth batch)", MEANING_HELD_OUT_5E),
                        ("meaning, held out (session 6)", MEANING_HELD_OUT_6)):
        if held_out is not None and path.exists():
            parts[label] = json.loads(path.read_text(encoding="utf-8"))["holdout"]
    out: dict[str, Any] = {"misses": []}
    every: list[tuple[bool, bool]] = []
    for label, cases in parts.items():
        got = [(c["duplicate"], _entity_case(c, embedder)) for c in cases]
        every += got
        out[label] = _scores(got)
        out["misses"] += [f"{label}: {'FP' if g else 'FN'} {c['a']['name']!r} / {c['b']['name']!r} ({c.get('why', '')})"
                          for c, (t, g) in zip(cases, got, strict=True) if t != g]
    out["all merges"] = _scores(every)
    return out


def scale(n: int, db: Path, pairs: int) -> None:
    """Reflect at ``n`` entities (the reflect bench's graph plus ``pairs`` duplicates written
    differently), cold and after one write, with hygiene and without it, and hygiene alone."""
    import tempfile
    from datetime import UTC, datetime

    from bench import reflect_bench as rb
    from core.hygiene import supersede, tidy
    from core.reflect import patterns
    from core.reflect.engine import reflect
    from core.settings import Settings
    from core.storage.factory import hygiene_store

    clock = rb.BenchClock()
    with tempfile.TemporaryDirectory() as tmp, \
            Memory(Settings(db=db if db else Path(tmp) / "h.db", embeddings="none"), clock=clock) as memory:
        rb.build_graph(memory, n, clock=clock, log=lambda s: print("  build", s))
        memory.create_entities([{"name": f"person_{i:06d}", "entityType": "person", "observations": [f"dup {i}"]}
                                for i in range(pairs)], actor="bench")
        memory.create_entities([{"name": f"Note {i:06d}", "entityType": "Note",
                                 "observations": [f"note fact {i}", f"Note fact {i}."]} for i in range(pairs)],
                               actor="bench")
        clock.now = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
        counts = memory.health_check()["counts"]
        print(f"graph: {counts['entities']} entities, {counts['relations']} relations")
        hs = hygiene_store(memory.graph)
        rules = memory.schema_profile().reflect

        def plain() -> dict[str, Any]:
            # reflect with the seven patterns only: hygiene's kinds (and supersession) left out of the registry
            registered = dict(patterns.SPECS)
            patterns.SPECS.clear()
            patterns.SPECS.update({p: s for p, s in registered.items() if p not in {*tidy.KINDS, *supersede.PATTERNS}})
            try:
                return reflect(memory.graph.insight_store(), rules, "bench", memory.graph)
            finally:
                patterns.SPECS.clear()
                patterns.SPECS.update(registered)

        def cold(fn: Any) -> Any:
            def run() -> Any:
                memory.set_metadata("reflect_fingerprint", "")  # as if never reflected: every pattern runs
                return fn()
            return run

        def write() -> None:
            memory.create_relations([{"from": "Project 000001", "to": "Technology 000002",
                                      "relationType": f"USES_{time.perf_counter_ns()}"}])

        rows = []
        for label, fn in (("hygiene detection alone (both kinds)", lambda: tidy.detect_all(hs, memory.graph)),
                          ("reflect without hygiene, cold", cold(plain)),
                          ("reflect with hygiene, cold", cold(memory.reflect)),
                          ("reflect with hygiene, after one write", lambda: (write(), memory.reflect())[1]),
                          ("reflect without hygiene, after one write", lambda: (write(), plain())[1]),
                          ("reflect with hygiene, nothing changed", memory.reflect)):
            wall, cpu = time.perf_counter(), time.process_time()
            out = fn()
            rows.append((label, time.perf_counter() - wall, time.process_time() - cpu, out))
        print("\n| run | wall s | CPU s | found |\n|---|---|---|---|")
        for label, wall, cpu, out in rows:
            found = ({k: len(v) for k, v in out.items()} if label.startswith("hygiene")
                     else {k: v for k, v in out.get("found", {}).items() if k in tidy.KINDS})
            print(f"| {label} | {wall:.3f} | {cpu:.3f} | {found} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--labelled", type=Path, default=LABELLED)
    parser.add_argument("--scale", type=int, default=0, help="also time reflect at this many entities")
    parser.add_argument("--pairs", type=int, default=200, help="duplicates added to the scale graph")
    parser.add_argument("--db", type=Path, default=None, help="the scale graph's file (default: a temp file)")
    parser.add_argument("--meaning", action="store_true",
                        help="merges with the bundled model, by meaning too (tests/data/meaning_duplicates.json)")
    parser.add_argument("--set", type=Path, default=None,
                        help="with --meaning: one held-out set alone (e.g. tests/data/meaning_holdout6.json)")
    args = parser.parse_args()
    if args.meaning:
        found = evaluate_set(args.set) if args.set else evaluate_meaning(args.labelled)
        print("| merges | cases | true | TP | FP | FN | precision | recall |\n|---|---|---|---|---|---|---|---|")
        for label, s in found.items():
            if label != "misses":
                print(f"| {label} | {s['cases']} | {s['positives']} | {s['tp']} | {s['fp']} | {s['fn']} | "
                      f"{s['precision']:.3f} | {s['recall']:.3f} |")
        for miss in found["misses"]:
            print("-", miss)
        return
    if args.scale:
        scale(args.scale, args.db, args.pairs)
        return
    start = time.perf_counter()
    result = evaluate(args.labelled)
    print("| proposals | cases | true | TP | FP | FN | precision | recall |")
    print("|---|---|---|---|---|---|---|---|")
    for what, key in (("duplicate entities (merge)", "entities"), ("repeated observations", "facts")):
        s = result[key]
        print(f"| {what} | {s['cases']} | {s['positives']} | {s['tp']} | {s['fp']} | {s['fn']} | "
              f"{s['precision']:.3f} | {s['recall']:.3f} |")
    for miss in result["misses"]:
        print("-", miss)
    print(f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
