"""search_nodes in the core: broad and selective substrings at 10k and 100k entities.

    .venv/bin/python bench/substring_bench.py [--sizes 10000 100000] [--repeat 30]

The graph is ``bench/corpus.py``'s (four ~75-character observations per entity, two relations
each). Times ``Memory.search_nodes_dump`` (what the MCP tool calls: the ids, then the entities and
the relations touching them as plain JSON-ready dicts), median and p95 ms. Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import realistic_graph  # noqa: E402
from bench.mcp_busy_bench import p95, pick_broad_word  # noqa: E402
from core.memory import Memory  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    print("| entities | query | entities found | relations | median ms | p95 ms |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="hipocampo-substr-") as tmp:
        for n in args.sizes:
            entities, relations = realistic_graph(n)
            broad, _ = pick_broad_word(entities[:10_000])
            with Memory.open(Path(tmp) / f"{n}.db", embeddings="none") as memory:
                for i in range(0, n, 5000):
                    memory.create_entities(entities[i:i + 5000], actor="bench")
                for i in range(0, len(relations), 10_000):
                    memory.create_relations(relations[i:i + 10_000], actor="bench")
                names = [entities[(k * 7919) % n]["name"] for k in range(args.repeat)]
                tags = [entities[(k * 104729) % n]["observations"][2].rsplit(" ", 1)[1] for k in range(args.repeat)]
                queries = [
                    (f'"{broad}" (a common word)', [broad] * args.repeat),
                    ("an entity's name", names),
                    ("an observation's tag, e.g. (123.2)", tags),
                    ('"sevilla" (a rare word)', ["sevilla"] * args.repeat),
                ]
                for label, texts in queries:
                    times, found = [], {}
                    for text in texts:
                        start = time.perf_counter()
                        found = memory.search_nodes_dump(text)
                        times.append((time.perf_counter() - start) * 1000)
                    print(f"| {n:,} | {label} | {len(found['entities']):,} | {len(found['relations']):,} "
                          f"| {statistics.median(times):.2f} | {p95(times):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
