"""Clients writing while a big import runs: does any write fail, does any wait more than a second?

Creates a memory, starts ``--clients`` MCP servers on it (``hipocampo mcp --no-bridge`` over stdio,
each driven by the official SDK client), then runs ``hipocampo import`` of an ``--entities``-entity
memory.jsonl (one observation each, a relation for every second entity) in its own process. While
the import runs every client writes, alternating ``create_entities`` and ``add_observations``,
with ``--pause`` seconds between writes. Every write's latency and outcome is recorded; the table
gives, for the writes that started while the import was running, how many failed and how long they
waited (p50, p99, max, how many over 1 s). Afterwards it checks that the import landed whole and
that every acknowledged write is there.

``--embeddings onnx`` runs the servers as a user does: the local model embeds in the background
(the imported entities too, while the import is still running). A server embeds only after 0.3 s
without calls, so one more server (``--idle``) is connected and left idle: it takes the embedding
lease and embeds throughout, as a client that is open but not in use does.

    .venv/bin/python bench/import_writers_bench.py                       # 100k entities, embeddings off
    .venv/bin/python bench/import_writers_bench.py --embeddings onnx
    .venv/bin/python bench/import_writers_bench.py --entities 20000 --clients 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.memory import Memory  # noqa: E402 - after the path is set, as the other benches do
from core.settings import Settings  # noqa: E402


@dataclass
class Write:
    client: int
    tool: str
    started: float  # seconds since the import started (negative: before)
    seconds: float
    ok: bool
    text: str


def memory_jsonl(path: Path, n: int) -> Path:
    """An official-server memory.jsonl: ``n`` entities with one observation, a relation per pair."""
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            fh.write(json.dumps({"type": "entity", "name": f"imported {i}", "entityType": "Note",
                                 "observations": [f"imported fact number {i} about topic {i % 97}"]}) + "\n")
        for i in range(0, n - 1, 2):
            fh.write(json.dumps({"type": "relation", "from": f"imported {i}", "to": f"imported {i + 1}",
                                 "relationType": "next"}) + "\n")
    return path


def server_params(db: Path, tmp: Path, embeddings: str) -> StdioServerParameters:
    env = {"HIPOCAMPO_ENDPOINT_FILE": str(tmp / "endpoint.json"), "HIPOCAMPO_EMBEDDINGS": embeddings,
           "PYTHONPATH": str(ROOT), "HIPOCAMPO_BACKUP_KEEP": "0"}
    return StdioServerParameters(command=sys.executable, args=["-m", "core.cli", "--db", str(db), "mcp",
                                                               "--no-bridge"], cwd=str(ROOT), env=env)


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    db = tmp / "memory.db"
    source = memory_jsonl(tmp / "big.jsonl", args.entities)
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        m.create_entities([{"name": "before the import", "observations": ["here first"]}])
    writes: list[Write] = []
    acked: dict[str, set[str]] = {}
    state: dict[str, Any] = {"t0": None, "done": False, "ready": 0}
    importer: subprocess.Popen[str] | None = None
    logs = [(tmp / f"server{c}.log").open("w", encoding="utf-8") for c in range(args.clients + args.idle)]

    def now() -> float:
        return time.monotonic() - state["t0"] if state["t0"] is not None else -1.0

    async def client_loop(me: int) -> None:
        transport = stdio_client(server_params(db, tmp, args.embeddings), errlog=logs[me])
        async with Client(transport, client_info=types.Implementation(name=f"writer-{me}", version="1")) as client:
            await client.call_tool("search_nodes", {"query": "before"})  # started and answering
            state["ready"] += 1
            if me >= args.clients:  # idle: connected, embedding in the background
                while not state["done"]:
                    await anyio.sleep(0.2)
                state["embedded"] = (await client.call_tool("engrama_status", {})).content[0].text[:400]
                return
            mine: list[str] = []
            i = 0
            while not state["done"]:
                if i % 2 == 0 or not mine:
                    name = f"client {me} entity {i}"
                    tool, arg = "create_entities", {"entities": [{"name": name, "entityType": "Note",
                                                                  "observations": [f"client {me} wrote {i}"]}]}
                else:
                    name = mine[(i // 2) % len(mine)]
                    tool, arg = "add_observations", {"observations": [{"entityName": name,
                                                                       "contents": [f"client {me} added {i}"]}]}
                started = now()
                t = time.perf_counter()
                result = await client.call_tool(tool, arg)
                seconds = time.perf_counter() - t
                text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
                writes.append(Write(me, tool, started, seconds, not result.is_error, text[:300]))
                if not result.is_error:
                    if tool == "create_entities":
                        mine.append(name)
                        acked.setdefault(name, set()).add(arg["entities"][0]["observations"][0])
                    else:
                        acked.setdefault(name, set()).add(arg["observations"][0]["contents"][0])
                i += 1
                await anyio.sleep(args.pause)

    async def conductor() -> None:
        nonlocal importer
        while state["ready"] < args.clients + args.idle:
            await anyio.sleep(0.1)
        await anyio.sleep(args.lead)  # some writes before the import, to compare with
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HIPOCAMPO_EMBEDDINGS": args.embeddings,
               "HIPOCAMPO_BACKUP_KEEP": "0"}
        state["load_start"] = os.getloadavg()
        state["t0"] = time.monotonic()
        importer = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(db), "import", str(source)],
                                    cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        while importer.poll() is None:
            await anyio.sleep(0.05)
        state["import_s"] = now()
        state["load_end"] = os.getloadavg()
        state["import_rc"] = importer.returncode
        state["import_out"] = (importer.stdout.read() + importer.stderr.read()).strip()  # type: ignore[union-attr]
        await anyio.sleep(args.lead)
        state["done"] = True

    try:
        async with anyio.create_task_group() as tg:
            for me in range(args.clients + args.idle):
                tg.start_soon(client_loop, me)
            tg.start_soon(conductor)
    finally:
        if importer is not None and importer.poll() is None:
            importer.kill()
        for fh in logs:
            fh.close()
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        count = m.health_check()["counts"]["entities"]
        found = {e.name: set(e.observations) for e in m.open_nodes(list(acked)).entities}
        missing = sum(len(obs - found.get(n, set())) for n, obs in acked.items())
        quick = m.health_check(deep=True)["quick_check"]
    created = sum(1 for w in writes if w.ok and w.tool == "create_entities")
    return {**state, "writes": writes, "entities_after": count, "expected": args.entities + 1 + created,
            "missing": missing, "quick_check": quick,
            "server_errors": [line for c in range(args.clients)
                              for line in (tmp / f"server{c}.log").read_text(encoding="utf-8").splitlines()
                              if "locked" in line or "Error" in line][:10]}


def figures(writes: list[Write]) -> dict[str, Any]:
    secs = sorted(w.seconds for w in writes)
    if not secs:
        return {"writes": 0}
    return {"writes": len(secs), "failed": sum(not w.ok for w in writes),
            "p50_ms": 1000 * statistics.median(secs), "p99_ms": 1000 * secs[int(0.99 * (len(secs) - 1))],
            "max_ms": 1000 * secs[-1], "over_1s": sum(s > 1.0 for s in secs)}


def table(result: dict[str, Any]) -> str:
    writes: list[Write] = result["writes"]
    end = result["import_s"]
    rows = [("before the import", [w for w in writes if w.started < 0]),
            ("during the import", [w for w in writes if 0 <= w.started <= end]),
            ("  create_entities", [w for w in writes if 0 <= w.started <= end and w.tool == "create_entities"]),
            ("  add_observations", [w for w in writes if 0 <= w.started <= end and w.tool == "add_observations"]),
            ("after the import", [w for w in writes if w.started > end])]
    out = ["| writes | n | failed | p50 ms | p99 ms | max ms | > 1 s |", "|---|---|---|---|---|---|---|"]
    for label, chosen in rows:
        f = figures(chosen)
        if f["writes"]:
            out.append(f"| {label} | {f['writes']} | {f['failed']} | {f['p50_ms']:.0f} | {f['p99_ms']:.0f} | "
                       f"{f['max_ms']:.0f} | {f['over_1s']} |")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.1, help="seconds between one client's writes")
    parser.add_argument("--lead", type=float, default=3.0, help="seconds of writes before and after the import")
    parser.add_argument("--idle", type=int, help="idle servers (default: 1 with embeddings, else 0)")
    parser.add_argument(
        "--embeddings", default="none", help="none, or onnx (a user's default): the servers embed in the background")
    args = parser.parse_args()
    if args.idle is None:
        args.idle = 0 if args.embeddings == "none" else 1
    with tempfile.TemporaryDirectory() as tmp:
        result = anyio.run(run, args, Path(tmp))
    during = figures([w for w in result["writes"] if 0 <= w.started <= result["import_s"]])
    print(f"\n{args.entities:,} entities imported by `hipocampo import` in {result['import_s']:.1f} s "
          f"(exit {result['import_rc']}) while {args.clients} MCP stdio servers wrote, embeddings "
          f"{args.embeddings} ({args.idle} idle server{'s' * (args.idle != 1)}); "
          f"load average {result['load_start'][0]:.1f} at the start, "
          f"{result['load_end'][0]:.1f} at the end\n")
    print(table(result))
    failures = [w for w in result["writes"] if not w.ok]
    for w in failures[:5]:
        print(f"failed: client {w.client} {w.tool} at {w.started:.1f} s after {w.seconds:.2f} s: {w.text}")
    slow = sorted((w for w in result["writes"] if w.seconds > 1.0), key=lambda w: -w.seconds)
    for w in slow[:5]:
        print(f"slow: client {w.client} {w.tool} at {w.started:.1f} s waited {w.seconds:.2f} s")
    for line in result["server_errors"]:
        print(f"server: {line}")
    if "embedded" in result:
        print(f"the idle server's status at the end: {' '.join(result['embedded'].split())[:300]}")
    print(f"\nentities after: {result['entities_after']:,} (expected {result['expected']:,}); acknowledged "
          f"writes missing: {result['missing']}; quick_check: {result['quick_check']}; import said: "
          f"{result['import_out'][-300:]}")
    ok = (not during.get("failed") and not during.get("over_1s") and result["missing"] == 0
          and result["entities_after"] == result["expected"] and result["import_rc"] == 0)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
