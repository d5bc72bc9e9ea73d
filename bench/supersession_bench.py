"""Precision and recall of supersession proposals on the labelled set, and reflect's time with them.

    python bench/supersession_bench.py                 # the labelled set (tests/data/supersession_cases.json)
    python bench/supersession_bench.py --reflect 100000  # also: reflect at 100k entities, with and without

A case is two facts of one entity, older first, labelled ``update`` (the newer supersedes the
older), ``contradiction`` (flag for a person) or ``none`` (look-alikes that both stay true). A
proposal is an ``update`` finding between them; precision and recall are of those.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.hygiene.supersede_rules import scan  # noqa: E402

CASES = ROOT / "tests" / "data" / "supersession_cases.json"


def predict(facts: list[str]) -> str:
    found = [f for f in scan(facts) if (f.older, f.newer) == (0, len(facts) - 1)]
    return found[0].kind if found else "none"


def evaluate(cases: list[dict]) -> dict:
    """Confusion counts and the misses, for the labelled ``cases``."""
    confusion: Counter[tuple[str, str]] = Counter()
    wrong = []
    for case in cases:
        got = predict(case["facts"])
        confusion[(case["label"], got)] += 1
        if got != case["label"]:
            wrong.append((case["id"], case["label"], got, case["facts"]))
    out = {"confusion": confusion, "wrong": wrong}
    for label in ("update", "contradiction"):
        tp = confusion[(label, label)]
        proposed = sum(v for (_, g), v in confusion.items() if g == label)
        actual = sum(v for (t, _), v in confusion.items() if t == label)
        out[label] = (tp / proposed if proposed else 1.0, tp / actual if actual else 1.0, proposed, actual)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=Path, default=CASES)
    parser.add_argument("--reflect", type=int, default=0, help="also time reflect on a graph of N entities")
    args = parser.parse_args()
    cases = json.loads(args.cases.read_text(encoding="utf-8"))["cases"]
    result = evaluate(cases)
    print(f"{len(cases)} cases: {dict(Counter(c['label'] for c in cases))}")
    print("| proposals | precision | recall | proposed | labelled |")
    print("|---|---|---|---|---|")
    for label in ("update", "contradiction"):
        p, r, proposed, actual = result[label]
        print(f"| {label} | {p:.3f} | {r:.3f} | {proposed} | {actual} |")
    print("\nlabel → predicted:", dict(result["confusion"]))
    for cid, label, got, facts in result["wrong"]:
        print(f"  #{cid} {label} → {got}: {facts}")
    if args.reflect:
        from bench.supersession_scale import time_reflect

        time_reflect(args.reflect)


if __name__ == "__main__":
    main()
