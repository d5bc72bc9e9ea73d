"""Write speed with the per-fact index, through a real ``hipocampo mcp`` (stdio, the MCP SDK client).

1. Bulk load: 10,000 entities (3 observations each) and 20,000 relations in batches of 100, with
   embeddings off (``HIPOCAMPO_EMBEDDINGS=none``): the wall time of the whole load.
2. Growing entities: ``add_observations`` (one new observation per call) to an entity that
   already has 10 observations and to one that has 5,000, alternating; median and p95 of each,
   with embeddings off and on (the background embedder running, as in a real server).

    .venv/bin/python bench/write_bench.py
    .venv/bin/python bench/write_bench.py --entities 2000 --calls 50   # quicker
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
BATCH = 100


def server(db: Path, embeddings: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "core.cli", "--db", str(db), "mcp", "--no-bridge"], cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT), "HIPOCAMPO_EMBEDDINGS": embeddings})


async def call(client: Client, tool: str, args: dict[str, Any]) -> None:
    result = await client.call_tool(tool, args)
    if result.is_error:
        raise RuntimeError(f"{tool}: {result.content[0].text}")  # type: ignore[union-attr]


async def bulk_load(db: Path, n: int, errlog: Any) -> float:
    entities = [{"name": f"entity-{i:05d}", "entityType": f"Type{i % 10}",
                 "observations": [f"observation {k} of entity {i}: memory graph index {i % 97}" for k in range(3)]}
                for i in range(n)]
    relations = [{"from": f"entity-{i:05d}", "to": f"entity-{(i * 7 + k + 1) % n:05d}", "relationType": "relates_to"}
                 for i in range(n) for k in range(2)]
    async with Client(stdio_client(server(db, "none"), errlog=errlog)) as client:
        start = time.perf_counter()
        for s in range(0, len(entities), BATCH):
            await call(client, "create_entities", {"entities": entities[s:s + BATCH]})
        for s in range(0, len(relations), BATCH):
            await call(client, "create_relations", {"relations": relations[s:s + BATCH]})
        return time.perf_counter() - start


async def growing(db: Path, embeddings: str, calls: int, errlog: Any) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"10": [], "5000": []}
    async with Client(stdio_client(server(db, embeddings), errlog=errlog)) as client:
        await call(client, "create_entities", {"entities": [
            {"name": "small", "entityType": "Person", "observations": [f"small fact {k}" for k in range(10)]},
            {"name": "big", "entityType": "Person", "observations": []}]})
        for s in range(0, 5000, 500):
            await call(client, "add_observations", {"observations": [
                {"entityName": "big", "contents": [f"big fact {k}: a day of notes about the project" for k in
                                                   range(s, s + 500)]}]})
        for k in range(calls):
            for name, label in (("small", "10"), ("big", "5000")):
                start = time.perf_counter()
                await call(client, "add_observations", {"observations": [
                    {"entityName": name, "contents": [f"new fact {k} for {name}: met the team about the budget"]}]})
                times[label].append((time.perf_counter() - start) * 1000)
    return times


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


async def main_async(args: argparse.Namespace) -> int:
    work = Path(tempfile.mkdtemp(prefix="write-bench-"))
    with open(work / "servers.log", "a") as errlog:
        load_s = await bulk_load(work / "bulk.db", args.entities, errlog)
        print(f"| bulk load, {args.entities:,} entities + {2 * args.entities:,} relations, batches of {BATCH}, "
              f"embeddings off | {load_s:.2f} s |")
        print("\n| add_observations (1 new) | embeddings | median ms | p95 ms |\n|---|---|---|---|")
        for embeddings in ("none", "onnx"):
            times = await growing(work / f"grow-{embeddings}.db", embeddings, args.calls, errlog)
            for label, values in times.items():
                print(f"| entity with {label} observations | {embeddings} | {statistics.median(values):.2f} | "
                      f"{p95(values):.2f} |")
            ratio = statistics.median(times["5000"]) / statistics.median(times["10"])
            print(f"| ratio 5,000 / 10 | {embeddings} | {ratio:.2f}× | |")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=100)
    return anyio.run(main_async, parser.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
