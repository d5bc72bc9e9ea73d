"""The session brief at scale: its size and how long it takes to build.

    PYTHONPATH=$PWD .venv/bin/python bench/brief_bench.py [--entities 10000] [--runs 20] [--falkordb URL]

A realistic graph (bench/corpus.py) of N entities, with what a lived-in memory has: a profile
entity ("user"), 5 pinned entities and 5 pinned facts, 300 entities recalled 1–20 times, insights
waiting for review (reflect). Prints a table: budget, tokens (the estimate, and XLM-R pieces from the
local model's tokenizer when it is present), entities shown, median and worst build time. Goal: at
10k entities ≤ 900 tokens, built ≤ 100 ms. Then, on the SQLite file, the wall time of Claude Code's
hooks run as Claude Code runs them (a new process each, no hub: the file is read): goal ≤ 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import realistic_graph  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402


def load(memory: Memory, n: int) -> None:
    entities, relations = realistic_graph(n)
    with memory.transaction():
        for start in range(0, n, 1000):
            memory.create_entities(entities[start:start + 1000])
        memory.create_entities([{"name": "user", "entityType": "Person", "observations": [
            "Prefers answers in Spanish", "Lives in Madrid", "Works on Hipocampo", "Vegetarian"]}])
        for start in range(0, len(relations), 2000):
            memory.create_relations(relations[start:start + 2000])
    rng = random.Random(7)
    for e in rng.sample(entities, 5):
        memory.pin(e["name"])
    for e in rng.sample(entities, 5):
        memory.pin(e["name"], e["observations"][0])
    ids = list(memory.graph.ids_for([e["name"] for e in rng.sample(entities, 300)]).values())
    for _ in range(20):
        memory.graph.record_access(rng.sample(ids, rng.randint(1, 15)))
    memory.reflect()


def xlmr_pieces(text: str) -> int | None:
    """The brief's length in the local model's tokenizer pieces (a second opinion on the estimate)."""
    try:
        from tokenizers import Tokenizer

        from core.embeddings.model_dir import default_model_dir

        return len(Tokenizer.from_file(str(default_model_dir() / "tokenizer.json")).encode(
            text, add_special_tokens=False).ids)
    except Exception:
        return None


def time_hooks(db: Path, tmp: Path, runs: int) -> dict[str, tuple[float, float, str]]:
    """Each hook run ``runs`` times as a client runs it; (median, worst, the receipt it printed)."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root), "XDG_CACHE_HOME": str(tmp / "cache"),
           "HIPOCAMPO_ENDPOINT_FILE": str(tmp / "no-hub.json"), "HIPOCAMPO_HOOK_DEADLINE": "30"}
    out: dict[str, tuple[float, float, str]] = {}
    for event in ("session-start", "pre-compact", "stop"):
        times, receipt = [], ""
        for _ in range(max(3, runs // 4)):
            start = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "core.hooks", "--db", str(db), event], env=env,
                                  input='{"session_id": "bench"}', capture_output=True, text=True, check=True)
            times.append(time.perf_counter() - start)
            receipt = json.loads(done.stdout)["systemMessage"]
        out[event] = (statistics.median(times), max(times), receipt)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--falkordb", default=None, help="also measure on this FalkorDB server (redis://…)")
    args = parser.parse_args()
    backends = [("SQLite", {})]
    if args.falkordb:
        backends.append(("FalkorDB", {"backend": "falkordb", "graph_url": args.falkordb, "graph_name": "brief_bench"}))
    print("| backend | entities | budget | tokens (est.) | XLM-R pieces | entities shown | median ms | worst ms |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra in backends:
            with Memory(Settings(db=Path(tmp) / "brief.db", embeddings="none", **extra)) as memory:
                load(memory, args.entities)
                for budget in (800, 400, 2000):
                    memory.brief(budget)  # warm
                    times = []
                    for _ in range(args.runs):
                        start = time.perf_counter()
                        brief = memory.brief(budget)
                        times.append((time.perf_counter() - start) * 1000)
                    pieces = xlmr_pieces(brief.text)
                    print(f"| {label} | {brief.entities_total} | {budget} | {brief.tokens} | "
                          f"{pieces if pieces is not None else '–'} | {brief.entities_shown} | "
                          f"{statistics.median(times):.1f} | {max(times):.1f} |")
            if not extra:
                hooks = time_hooks(Path(tmp) / "brief.db", Path(tmp), args.runs)
    print()
    print("| hook (new process, from the file) | median s | worst s | receipt |")
    print("|---|---|---|---|")
    for event, (median, worst, receipt) in hooks.items():
        print(f"| {event} | {median:.2f} | {worst:.2f} | {receipt} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
