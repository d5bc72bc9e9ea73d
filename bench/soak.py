"""Soak: mixed MCP traffic from 4 clients against one hub for a long time; does it stay flat?

Starts ``hipocampo mcp --http`` (the hub the desktop app runs, with the local model embedding in
the background) on a fresh database, then 4 clients (the official SDK over Streamable HTTP) call a
mix of tools as fast as they are answered: creating entities, adding and deleting observations,
relating, substring and semantic search, opening nodes, paging read_graph, deleting entities. Every
``--sample`` seconds it records the hub's resident memory (VmRSS) and the latencies of the calls
since the last sample. At the end it prints, per window, calls, p50 and p99, and RSS, and checks:

- resident memory grows at most 10% from the end of the warm-up (the first window) to the end;
- p99 of the last window is within 2x of the first window's (stable, not creeping up).

    .venv/bin/python bench/soak.py                    # 30 minutes, appends to bench/RESULTS.md
    .venv/bin/python bench/soak.py --minutes 5 --no-write
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = 4
WORDS = ("tea coffee budget design kernel river jazz chess garden paper window orbit signal "
         "harbor lantern meadow copper velvet").split()


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` (Linux: /proc/<pid>/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_hub(db: Path, hub_file: Path, errlog: Any) -> tuple[subprocess.Popen[str], str, str]:
    env = {**os.environ, "HIPOCAMPO_ENDPOINT_FILE": str(hub_file), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(db), "mcp", "--http"], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=errlog, text=True)
    assert proc.stdout is not None
    info = json.loads(proc.stdout.readline())
    return proc, info["url"], json.loads(hub_file.read_text())["token"]


async def one_call(client: Client, rng: random.Random, me: int, n: int) -> str:
    """One call of the mix; returns the tool's name."""
    word = rng.choice(WORDS)
    name = f"c{me}-{rng.randrange(max(n, 1))}"
    roll = rng.random()
    if roll < 0.25:
        entity = {"name": f"c{me}-{n}", "entityType": rng.choice(["Note", "Person"]),
                  "observations": [f"{word} note {n} from client {me}"]}
        tool, args = "create_entities", {"entities": [entity]}
    elif roll < 0.40:
        tool, args = "add_observations", {"observations": [{"entityName": name, "contents": [f"{word} {time.time()}"]}]}
    elif roll < 0.50:
        other = f"c{rng.randrange(CLIENTS)}-{rng.randrange(max(n, 1))}"
        tool, args = "create_relations", {"relations": [{"from": name, "to": other, "relationType": "mentions"}]}
    elif roll < 0.65:
        tool, args = "search_nodes", {"query": word}
    elif roll < 0.75:
        tool, args = "search_semantic", {"query": f"{word} {rng.choice(WORDS)}", "limit": 10}
    elif roll < 0.85:
        tool, args = "open_nodes", {"names": [name]}
    elif roll < 0.92:
        tool, args = "read_graph", {"names_only": True, "limit": 50, "offset": rng.randrange(max(n, 1))}
    elif roll < 0.97:
        tool, args = "delete_observations", {"deletions": [{"entityName": name, "observations": [f"{word} x"]}]}
    else:
        tool, args = "delete_entities", {"entityNames": [name]}
    result = await client.call_tool(tool, args)
    if result.is_error and tool not in ("add_observations", "create_relations"):  # those may name a deleted one
        raise RuntimeError(f"{tool} failed: {result.content[0].text}")  # type: ignore[union-attr]
    return tool


async def run(minutes: float, sample: float, db: Path, hub_file: Path, errlog: Path) -> dict[str, Any]:
    with errlog.open("w", encoding="utf-8") as fh:  # the hub's stderr: where a failed call's cause is told
        proc, url, token = start_hub(db, hub_file, fh)
    windows: list[dict[str, Any]] = []
    latencies: list[float] = []
    errors: list[str] = []
    deadline = time.monotonic() + minutes * 60

    async def client_loop(me: int) -> None:
        rng = random.Random(me)
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(60.0))
        async with Client(streamable_http_client(url, http_client=http),
                          client_info=types.Implementation(name=f"soak-{me}", version="1")) as client:
            n = 0
            while time.monotonic() < deadline:
                start = time.perf_counter()
                try:
                    if await one_call(client, rng, me, n) == "create_entities":
                        n += 1
                except Exception as exc:  # noqa: BLE001 - counted and reported, the soak goes on
                    errors.append(repr(exc)[:2000])
                    print(f"ERROR at {time.strftime('%H:%M:%S')}: {exc!r}", flush=True)
                latencies.append(time.perf_counter() - start)

    async def sampler() -> None:
        started = time.monotonic()
        while time.monotonic() < deadline:
            await anyio.sleep(min(sample, max(0.1, deadline - time.monotonic())))
            taken, latencies[:] = list(latencies), []
            taken.sort()
            windows.append({
                "t_min": round((time.monotonic() - started) / 60, 1), "calls": len(taken),
                "p50_ms": round(1000 * statistics.median(taken), 1) if taken else None,
                "p99_ms": round(1000 * taken[int(0.99 * (len(taken) - 1))], 1) if taken else None,
                "rss_mib": round(rss_kib(proc.pid) / 1024, 1),
            })
            print(json.dumps(windows[-1]), flush=True)

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(sampler)
            for me in range(CLIENTS):
                tg.start_soon(client_loop, me)
    finally:
        proc.terminate()
        proc.wait(30)
    first, last = windows[0], windows[-1]
    return {
        "minutes": minutes, "windows": windows, "errors": len(errors), "error_examples": errors[:5],
        "rss_growth": round(last["rss_mib"] / first["rss_mib"] - 1, 3),
        "p99_ratio": round(last["p99_ms"] / first["p99_ms"], 2) if first["p99_ms"] else None,
    }


def report(result: dict[str, Any]) -> str:
    rows = "\n".join(f"| {w['t_min']} | {w['calls']} | {w['p50_ms']} | {w['p99_ms']} | {w['rss_mib']} |"
                     for w in result["windows"])
    flat = "yes" if result["rss_growth"] <= 0.10 else "NO"
    stable = "yes" if result["p99_ratio"] is not None and result["p99_ratio"] <= 2 else "NO"
    return (
        f"\n## Soak: 4 clients, mixed MCP traffic, {result['minutes']} minutes\n\n"
        f"`bench/soak.py --minutes {result['minutes']}` on {platform.machine()}, {os.cpu_count()} cores "
        f"(shared with other work), Python {platform.python_version()}; one hub (`hipocampo mcp --http`, "
        "local model embedding in the background), 4 SDK clients over Streamable HTTP calling as fast as "
        "answered.\n\n"
        "| minute | calls | p50 ms | p99 ms | hub RSS MiB |\n|---|---|---|---|---|\n"
        f"{rows}\n\n"
        f"Resident memory from the first window to the last: {100 * result['rss_growth']:+.1f}% (flat, "
        f"≤ 10%: {flat}); p99 last/first window: {result['p99_ratio']}x (stable, ≤ 2x: {stable}); "
        f"errors: {result['errors']}"
        + (f" (e.g. {'; '.join(result['error_examples'][:2])})" if result["errors"] else "") + ".\n"
    )


def tracebacks(log: str) -> list[str]:
    """The tracebacks in the hub's stderr, each from its first line to the exception it ends with."""
    found: list[str] = []
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Traceback"):
            end = i + 1
            while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
                end += 1
            found.append("\n".join(lines[max(0, i - 2): end + 1]))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--sample", type=float, default=60.0, help="seconds per window")
    parser.add_argument("--no-write", action="store_true", help="do not append to bench/RESULTS.md")
    parser.add_argument("--hub-log", type=Path, help="keep the hub's stderr in this file (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        hub_log = args.hub_log or Path(tmp) / "hub.log"
        result = anyio.run(run, args.minutes, args.sample, Path(tmp) / "soak.db", Path(tmp) / "endpoint.json",
                           hub_log)
        causes = tracebacks(hub_log.read_text(encoding="utf-8", errors="replace"))
    text = report(result)
    for cause in causes[:5]:  # what the hub logged for the failed calls: the client sees only their message
        print(cause)
    print(text)
    if not args.no_write:
        with (ROOT / "bench" / "RESULTS.md").open("a", encoding="utf-8") as fh:
            fh.write(text)
    return 0 if result["rss_growth"] <= 0.10 and result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
