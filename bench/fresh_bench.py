"""Meaning search under CPU pressure (issue 23, point 9): entities written through MCP while every
core is busy, then a client that searches by meaning every few seconds. How long until the
background embedder has stored every vector, and what the searches find meanwhile.

    python bench/fresh_bench.py [--hogs 12] [--entities 28] [--every 2.5] [--duration 120]
                                [--kinds stdio,hub] [--code CHECKOUT]

Each run: an empty memory; the server started as a client starts it (``hipocampo mcp`` over stdio,
the real ONNX model; "hub": a hub ``hipocampo mcp --http`` holds the memory and the client's stdio
server forwards to it); one ``search_semantic`` so the model is loaded; ``--hogs`` CPU-bound
processes started; the labelled set's first ``--entities`` entities that paraphrase queries ask
for written in one ``create_entities`` call; then one ``search_semantic`` of those queries (round
robin, limit 5) every ``--every`` seconds for ``--duration`` seconds. Printed: seconds until
every written entity had its vector (polled read-only in the file), the recall@5 of the searches
made before that and of those after, and the recall@5 of one pass over every query at the end.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.storage.sqlite.connection import connect  # noqa: E402

DATASET = ROOT / "tests" / "quality" / "dataset.json"


def _hog() -> None:
    while True:
        sum(i * i for i in range(10_000))


def workload(entities: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The first ``entities`` entities that paraphrase queries ask for, and those queries."""
    data = json.loads(DATASET.read_text())
    by_name = {e["name"]: e for e in data["entities"]}
    chosen: dict[str, dict[str, Any]] = {}
    queries = []
    for q in data["queries"]:
        if q["kind"] != "paraphrase":
            continue
        wanted = [n for n in q["relevant"] if n not in chosen]
        if len(chosen) + len(wanted) > entities:
            continue
        for name in wanted:
            chosen[name] = by_name[name]
        queries.append(q)
    for e in data["entities"]:  # the rest up to ``entities``: written, asked for by no query
        if len(chosen) < entities:
            chosen.setdefault(e["name"], e)
    return list(chosen.values()), queries


def _embedded(db: Path) -> int:
    conn = connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM embedding_state").fetchone()[0])
    finally:
        conn.close()


async def one_run(kind: str, hogs: int, entities: int, every: float, duration: float,
                  code: Path) -> dict[str, Any]:
    written, queries = workload(entities)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "m.db"
        env = {**os.environ, "PYTHONPATH": str(code), "HIPOCAMPO_ENDPOINT_FILE": str(Path(folder) / "ep.json"),
               "HIPOCAMPO_EMBEDDINGS": "onnx"}
        hub = None
        if kind == "hub":
            hub = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(db), "mcp", "--http"],
                                   cwd=code, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            assert hub.stdout is not None
            hub.stdout.readline()  # the hub's ready line: it accepts connections
        args = ["-m", "core.cli", "--db", str(db), "mcp", *([] if kind == "hub" else ["--no-bridge"])]
        params = StdioServerParameters(command=sys.executable, args=args, cwd=str(code), env=env)
        workers: list[multiprocessing.Process] = []
        out: dict[str, Any] = {"kind": kind, "hogs": hogs, "entities": len(written), "queries": len(queries)}
        try:
            with open(os.devnull, "w") as errlog:
                async with Client(stdio_client(params, errlog=errlog),
                                  client_info=types.Implementation(name="fresh-bench", version="1")) as client:
                    await client.call_tool("search_semantic", {"query": "warm up the model"})
                    workers = [multiprocessing.Process(target=_hog, daemon=True) for _ in range(hogs)]
                    for w in workers:
                        w.start()
                    await anyio.sleep(2.0)  # the hogs are running
                    began = time.monotonic()
                    created = await client.call_tool("create_entities", {"entities": written})
                    assert not created.is_error, created
                    hits: list[tuple[float, bool]] = []
                    all_in = None
                    n = 0
                    while time.monotonic() - began < duration:
                        q = queries[n % len(queries)]
                        n += 1
                        result = await client.call_tool("search_semantic", {"query": q["query"], "limit": 5})
                        names = [r["name"] for r in (result.structured_content or {}).get("results", [])]
                        hits.append((time.monotonic() - began, any(r in names for r in q["relevant"])))
                        if all_in is None and _embedded(db) >= len(written):
                            all_in = time.monotonic() - began
                        if all_in is not None and time.monotonic() - all_in - began > 4 * every:
                            break  # caught up, and searched a little after
                        await anyio.sleep(every)
                    final = 0
                    for q in queries:
                        result = await client.call_tool("search_semantic", {"query": q["query"], "limit": 5})
                        names = [r["name"] for r in (result.structured_content or {}).get("results", [])]
                        final += any(r in names for r in q["relevant"])
            before = [ok for t, ok in hits if all_in is None or t < all_in]
            after = [ok for t, ok in hits if all_in is not None and t >= all_in]
            out.update(all_in=all_in, searches=len(hits),
                       before=sum(before) / len(before) if before else None,
                       after=sum(after) / len(after) if after else None,
                       final=final / len(queries), load=os.getloadavg()[0])
        finally:
            for w in workers:
                w.kill()
            if hub is not None:
                hub.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    hub.wait(15)
                if hub.poll() is None:
                    hub.kill()
        return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hogs", type=int, default=12)
    parser.add_argument("--entities", type=int, default=28)
    parser.add_argument("--every", type=float, default=2.5, help="seconds between searches")
    parser.add_argument("--duration", type=float, default=120.0)
    parser.add_argument("--kinds", default="stdio,hub")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose server runs (for a before)")
    args = parser.parse_args()
    print("| server | busy processes | entities written | every vector stored after (s) | searches "
          "| recall@5 before that | after | final pass recall@5 | load average |")
    print("|---|---|---|---|---|---|---|---|---|")

    def cell(value: float | None, fmt: str = ".2f") -> str:
        return "–" if value is None else format(value, fmt)

    for kind in args.kinds.split(","):
        for _ in range(args.runs):
            r = anyio.run(one_run, kind, args.hogs, args.entities, args.every, args.duration, args.code)
            stored = cell(r["all_in"], ".1f") if r["all_in"] is not None else f"not in {args.duration:.0f}"
            print(f"| {kind} | {r['hogs']} | {r['entities']} | {stored} | {r['searches']} | {cell(r['before'])} "
                  f"| {cell(r['after'])} | {cell(r['final'])} | {r['load']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
