"""Tool-call latency while the background embedder catches up, for comparing its scheduling.

    python bench/calls_while_embedding_bench.py [--code CHECKOUT] [--entities 3000] [--calls 40]

A fresh memory of ``--entities`` entities with nothing embedded; ``hipocampo mcp`` started as a
client starts it (the MCP SDK over stdio, the real ONNX model); 8 s for the model to load and the
embedder to get going; then ``--calls`` rounds of one ``create_entities`` (one entity) and one
``search_nodes``, 0.5 s apart, as an assistant's calls are. Median, p95 and worst ms per tool.
``--code``: the checkout whose server runs (for a "before").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402


async def run(code: Path, entities: int, calls: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "m.db"
        with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
            m.create_entities([{"name": f"e{i}", "entityType": "Note",
                                "observations": [f"fact number {i} about something rather long " * 3]}
                               for i in range(entities)])
        env = {**os.environ, "PYTHONPATH": str(code), "HIPOCAMPO_ENDPOINT_FILE": str(Path(folder) / "ep.json"),
               "HIPOCAMPO_EMBEDDINGS": "onnx"}
        params = StdioServerParameters(command=sys.executable, cwd=str(code), env=env,
                                       args=["-m", "core.cli", "--db", str(db), "mcp", "--no-bridge"])
        times: dict[str, list[float]] = {"create_entities": [], "search_nodes": []}
        with open(os.devnull, "w") as errlog:
            async with Client(stdio_client(params, errlog=errlog),
                              client_info=types.Implementation(name="calls-bench", version="1")) as client:
                await client.call_tool("search_nodes", {"query": "e1"})
                await anyio.sleep(8)  # the model loads; the embedder is busy from here on
                for i in range(calls):
                    for tool, arguments in (
                        ("create_entities", {"entities": [{"name": f"n{i}", "entityType": "Note",
                                                           "observations": ["x"]}]}),
                        ("search_nodes", {"query": f"number {i * 7}"}),
                    ):
                        began = time.perf_counter()
                        await client.call_tool(tool, arguments)
                        times[tool].append((time.perf_counter() - began) * 1000)
                    await anyio.sleep(0.5)
        return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--code", type=Path, default=ROOT)
    parser.add_argument("--entities", type=int, default=3000)
    parser.add_argument("--calls", type=int, default=40)
    args = parser.parse_args()
    times = anyio.run(run, args.code, args.entities, args.calls)
    print("| tool | median ms | p95 ms | worst ms |")
    print("|---|---|---|---|")
    for tool, values in times.items():
        values.sort()
        p95 = values[max(0, int(len(values) * 0.95) - 1)]
        print(f"| {tool} | {statistics.median(values):.1f} | {p95:.1f} | {values[-1]:.1f} |")


if __name__ == "__main__":
    main()
