"""``search``, ``reflect`` (insights to review) and ``reindex`` (the embeddings)."""

from __future__ import annotations

import argparse
import sys
import time

from core.cli.common import dump, existing, say_pending, settings_of
from core.memory import Memory


def cmd_search(args: argparse.Namespace) -> int:
    """Search by meaning (or by substring with ``--substring``) and print the hits."""
    with Memory(existing(args)) as memory:
        if args.substring:
            hits = [
                {"name": e.name, "entityType": e.entityType, "observations": getattr(e, "observations", [])}
                for e in memory.search_nodes(args.query, limit=args.limit).entities
            ]
        else:
            hits = memory.search_semantic(args.query, args.limit)
            say_pending(memory.embedding_status())
    if args.json:
        dump(hits)
        return 0
    if not hits:
        print("No matches." if args.substring else "No good matches.")
    for hit in hits:
        score = f"  {hit['score']:.3f}" if "score" in hit else ""
        print(f"{hit['name']} ({hit['entityType']}){score}")
        for obs in hit["observations"][:3]:
            print(f"    {obs if len(obs) <= 100 else obs[:99] + '…'}")
        more = hit.get("other_observations", max(0, len(hit["observations"]) - 3))
        if more:
            print(f"    (+{more} more)")
    return 0


def cmd_reflect(args: argparse.Namespace) -> int:
    """Run reflect and print a short summary (``--json``: the whole result)."""
    with Memory(existing(args, writes=True)) as memory:
        result = memory.reflect(actor="cli")
        pending = memory.insight_counts().get("pending", 0)
    if args.json:
        dump(result)
        return 0
    print(f"{result['created']} new insights, {result['refreshed']} confirmed again, {result['stale']} gone stale; "
          f"{pending} waiting for review.")
    for insight in result["insights"][:10]:
        print(f"  {insight['title']}  ({insight['pattern']}, confidence {insight['confidence']:.2f})")
    if len(result["insights"]) > 10:
        print(f"  … and {len(result['insights']) - 10} more (--json lists them)")
    if pending:
        print("Review them in the app, or ask your assistant (engrama_surface_insights, engrama_approve_insight).")
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    """Embed every entity whose vector is missing, stale, or from another model; resumable."""
    with Memory(settings_of(args)) as memory:
        if memory.indexer is None:
            print(f"hipocampo: nothing to do: {memory.embedding_status()['error']}", file=sys.stderr)
            return 2
        if args.all:
            assert memory.vectors is not None and memory.embedder is not None  # an indexer has both
            memory.vectors.prepare(memory.embedder.model_id, memory.embedder.dimensions)
            memory.forget_embeddings()
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            rate = done / max(time.monotonic() - started, 1e-9)
            print(f"\r  {done:,}/{total:,} embedded ({rate:,.0f}/s)", end="", file=sys.stderr, flush=True)

        try:
            stored = memory.embed_pending(progress)
        except KeyboardInterrupt:  # progress is kept per entity: running again resumes
            print("\nInterrupted; run `hipocampo reindex` again to resume.", file=sys.stderr)
            return 130
        status = memory.embedding_status()
    print(f"\n{stored:,} vectors stored; {status['embedded']:,} of {status['entities']:,} entities and "
          f"{status.get('facts_embedded', 0):,} of {status.get('facts', 0):,} facts are current with "
          f"{status['model']}.", file=sys.stderr)
    return 0
