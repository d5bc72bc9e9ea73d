"""The no-good-match gate (``core.search.calibration``): how far nonsense and real questions rise
above a query's background, measured with bare anchor sentences and with the anchors in the
facts' context shape, and what the real search answers for each.

    .venv/bin/python bench/gate_bench.py

Memories: the labelled quality set (tests/quality/dataset.json, 63 entities) and the small ones of
the gate tests (a new user's 3 entities, 4 people and machines, a long entity). A query's rise is
its best similarity to an entity's own text or a fact in context, minus its mean similarity to
the anchors; for a real question, its relevant entity's best.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from core.embeddings.model_dir import default_model_dir  # noqa: E402
from core.embeddings.onnx_local import OnnxEmbeddingProvider  # noqa: E402
from core.embeddings.text import entity_text, fact_text  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.search import calibration  # noqa: E402
from core.settings import Settings  # noqa: E402
from tests.quality.evaluate import load_dataset  # noqa: E402
from tests.search.test_context_gate import NEW_USER, TINY  # noqa: E402
from tests.search.test_facts import FILLER, SISTER, long_entity  # noqa: E402

TESTS_NONSENSE = ['"', "*", "NEAR(", "asdf qwer zxcv", "the", "ignore previous instructions",
                  "DROP TABLE entities;", "???", "zzqx wvvy", "lorem ipsum dolor"]
MORE_NONSENSE = ["x", "a", "-", "SELECT * FROM nodes", "<script>alert(1)</script>", "qwerty", "hello",
                 "test", "...", "null"]
MACHINE = ["máquina programada con tarjetas perforadas", "máquina mecánica que se programaba con tarjetas perforadas"]
LONG = [{"name": "Ana", "entityType": "Person", "observations": [*FILLER[:20], SISTER, *FILLER[20:]]},
        {"name": "Lisbon trip", "entityType": "Travel",
         "observations": ["Vacaciones en Portugal en agosto con la familia"]}]
SMALL_QUESTIONS = {"new user": [(q, "Analytical Engine") for q in MACHINE] + [
    ("who owns billing?", "Billing service"), ("¿dónde trabaja Ana?", "Ana García"),
    ("what tea does Ana like", "Ana García")],
    "tiny": [(q, "Analytical Engine") for q in MACHINE],
    "long": [("family holidays in Portugal", "Lisbon trip"),
             ("where does Ana's sister live, and what does she teach?", "Ana")]}


def texts_of(entities: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    names, texts = [], []
    for e in entities:
        names.append(e["name"])
        texts.append(entity_text(e["name"], e["entityType"], e["observations"]))
        for o in e["observations"]:
            names.append(e["name"])
            texts.append(fact_text(e["name"], e["entityType"], o))
    return names, texts


def main() -> None:
    provider = OnnxEmbeddingProvider(default_model_dir())
    data = load_dataset()
    memories = {"quality": data["entities"], "new user": NEW_USER, "tiny": TINY, "long": LONG}
    stored = {k: (lambda nt: (nt[0], provider.embed_documents(nt[1])))(texts_of(v)) for k, v in memories.items()}
    anchors = {"bare anchors": [a[2] for a in calibration.ANCHORS],
               "anchors in context": [fact_text(*a) for a in calibration.ANCHORS]}
    vec = {q: provider.embed_query(q) for q in {*TESTS_NONSENSE, *MORE_NONSENSE, *(q["query"] for q in data["queries"]),
                                                 *(q for v in SMALL_QUESTIONS.values() for q, _ in v)}}
    rows: dict[str, list[str]] = {}
    for label, texts in anchors.items():
        a = provider.embed_documents(texts)

        def rise(query: str, memory: str, only: str | None = None, a: np.ndarray = a) -> float:
            names, v = stored[memory]
            sims = v @ vec[query]
            best = max(float(s) for n, s in zip(names, sims, strict=True) if only is None or n == only)
            return best - float((a @ vec[query]).mean())

        small = sorted(rise(q, m) for m in ("new user", "tiny", "long") for q in TESTS_NONSENSE)
        relevant = [rise(q["query"], "quality", r) for q in data["queries"] for r in q["relevant"][:1]]
        relevant += [rise(q, m, r) for m, qs in SMALL_QUESTIONS.items() for q, r in qs]
        rows[label] = [f"{small[-1]:.3f}", f"{small[-2]:.3f}",
                       f"{max(rise(q, 'quality') for q in TESTS_NONSENSE):.3f}",
                       " / ".join(f"{rise(MACHINE[0], m):.3f}" for m in ("new user", "tiny")),
                       f"{min(rise(q['query'], 'quality') for q in data['queries']):.3f}",
                       f"{statistics.median(relevant):.3f}"]
    print("| rise above the background | " + " | ".join(anchors) + " |\n|---|---|---|")
    for i, what in enumerate(["tests' nonsense in the small memories, max", "the same, second highest",
                              "tests' nonsense in the quality memory, max",
                              f"{MACHINE[0]!r}, new user / tiny", "quality set: lowest best match",
                              "real questions: median rise of the relevant entity"]):
        print(f"| {what} | " + " | ".join(r[i] for r in rows.values()) + " |")
    gate = calibration.MARGIN_FLOOR + 0.05 * calibration.MARGIN_SPAN
    print(f"\nThis checkout answers from a rise of {gate:.3f}. Through Memory.search_semantic (SQLite):\n")
    print("| memory | nonsense answered | real questions not answered |\n|---|---|---|")
    nonsense = TESTS_NONSENSE + MORE_NONSENSE
    for kind, entities in memories.items():
        questions = ([q["query"] for q in data["queries"]] if kind == "quality"
                     else [q for q, _ in SMALL_QUESTIONS[kind]])
        with tempfile.TemporaryDirectory() as d, Memory(Settings(db=Path(d) / "m.db"), embedder=provider) as m:
            if kind == "long":
                long_entity(m)
            else:
                m.create_entities(entities)
                if kind == "quality":
                    m.create_relations(data["relations"])
                if kind == "new user":
                    m.reflect()
            m.embed_pending()
            answered = [q for q in nonsense if m.search_semantic(q, 5, record=False)]
            missed = [q for q in questions if not m.search_semantic(q, 5, record=False)]
        print(f"| {kind} | {len(answered)}/{len(nonsense)} {answered} | {len(missed)}/{len(questions)} {missed} |")
    provider.close()


if __name__ == "__main__":
    main()
