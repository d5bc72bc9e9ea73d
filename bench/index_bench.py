"""Indexing throughput: how close background indexing of real entity texts gets to the model's limit.

    .venv/bin/python bench/index_bench.py [--entities 2000] [--threads 2] [--rounds 3]

The model's raw rate is measured as ``bench/embed_bench.py`` measures it (its 512 short
Spanish/English sentences, ``embed_documents`` in batches of 32); the indexer's rate is
``Memory.embed_pending`` over ``--entities`` entities of ``bench/corpus.py`` (~100-token texts),
from a fresh database each round: reading due entities, building their texts, tokenising,
embedding and storing every vector. Rounds alternate the two so both see the same machine; the
best round of each is reported, as wall-clock rates and per CPU-second of the process (the
latter is what other jobs on a shared machine disturb least). Not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import realistic_graph  # noqa: E402
from bench.embed_bench import sentences  # noqa: E402
from core.embeddings.onnx_local import OnnxEmbeddingProvider  # noqa: E402
from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402


def timed(fn) -> tuple[float, float]:  # noqa: ANN001
    """(wall seconds, CPU seconds of this process, every thread) for ``fn()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entities", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    provider = OnnxEmbeddingProvider(threads=args.threads)
    provider.load()
    raw_texts = sentences(512)
    raw_tokens = sum(provider.count_tokens(raw_texts))
    entities, _ = realistic_graph(args.entities)
    raw_rates: list[tuple[float, float]] = []
    index_rates: list[tuple[float, float]] = []
    tokens = 0
    with tempfile.TemporaryDirectory(prefix="hipocampo-index-") as tmp:
        raw = OnnxEmbeddingProvider(threads=args.threads, batch_size=32, tokens_per_pass=10**9)
        raw._session, raw._tokenizer = provider._session, provider._tokenizer  # the same loaded model
        for r in range(args.rounds):
            wall, cpu = timed(lambda: [raw.embed_documents(raw_texts[i:i + 32]) for i in range(0, 512, 32)])
            raw_rates.append((raw_tokens / wall, raw_tokens / cpu))
            settings = Settings(db=Path(tmp) / f"round{r}.db", embeddings="onnx")
            with Memory(settings, embedder=provider) as memory:
                memory.create_entities(entities, actor="bench")
                due = memory.vectors.pending(provider.model_id, args.entities)
                tokens = sum(provider.count_tokens(list(due.values())))
                wall, cpu = timed(memory.embed_pending)
                assert memory.embedding_status()["embedded"] == args.entities
            index_rates.append((tokens / wall, tokens / cpu))
    raw_wall, raw_cpu = max(r[0] for r in raw_rates), max(r[1] for r in raw_rates)
    idx_wall, idx_cpu = max(r[0] for r in index_rates), max(r[1] for r in index_rates)
    per_entity = tokens / args.entities
    load = " ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(f"threads={args.threads}, {args.rounds} rounds, load average at the end {load}")
    print(f"raw: 512 sentences, {raw_tokens / 512:.1f} tokens each, batches of 32; "
          f"indexer: {args.entities} entities, {per_entity:.1f} tokens each (passage prefix and specials included)")
    print()
    print("| | raw model (embed_bench's way) | indexer, real entity texts | indexer ÷ raw |")
    print("|---|---|---|---|")
    print(f"| tokens/s (wall, best round) | {raw_wall:,.0f} | {idx_wall:,.0f} ({idx_wall / per_entity:.0f} entities/s) "
          f"| {idx_wall / raw_wall:.0%} |")
    print(f"| tokens per CPU-second (best round) | {raw_cpu:,.0f} | {idx_cpu:,.0f} | {idx_cpu / raw_cpu:.0%} |")
    print(f"| tokens/s, median round (wall) | {statistics.median(r[0] for r in raw_rates):,.0f} "
          f"| {statistics.median(r[0] for r in index_rates):,.0f} | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
