"""Hipocampo as a new user meets it: load a memory through MCP, then use it while the background
embedder catches up. Against the official memory server in the same run.

    .venv/bin/python bench/mcp_busy_bench.py [--entities 10000] [--repeat 20] [--no-write]

Four servers, one after the other, each started fresh over stdio and driven by the official
Python SDK client: the official ``@modelcontextprotocol/server-memory`` (node, see
``bench/official_server.py``); Hipocampo with ``HIPOCAMPO_EMBEDDINGS=none``; Hipocampo with the
local model while its embedder catches up right after the load ("catching up"); and the same
server once every entity has its vector ("idle"). A fifth, "no work", answers every call with the
answer Hipocampo gave to its first call of that kind, from memory and without the MCP SDK: its
times are this client's own share of every call, and official ÷ "no work" is the highest ratio any
server could show in the run. Calls are ``--think`` seconds apart, as an
assistant's are, so a catching-up embedder runs between them. Each loads ``--entities`` entities of
``bench/corpus.py`` and twice as many relations through ``create_entities`` (batches of 500) and
``create_relations`` (batches of 1,000), then runs the same calls; median and p95 ms per call are
printed. Start-up is spawn → first ``tools/list``, on the loaded memory, median of 5 starts.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import sqlean
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import realistic_graph  # noqa: E402
from bench.official_server import official_command, official_version  # noqa: E402

RESULTS = ROOT / "bench" / "RESULTS.md"
HEADING = "## A memory in use: loading through MCP, then calls while the embedder catches up"
COLUMNS = ("official", "catching up", "idle", "none", "no work")
TITLES = {"official": "official server", "catching up": "Hipocampo, embedder catching up",
          "idle": "Hipocampo, embedder idle", "none": "Hipocampo, `HIPOCAMPO_EMBEDDINGS=none`",
          "no work": "a server that does no work"}


def pick_broad_word(entities: list[dict[str, Any]], share: float = 0.2) -> tuple[str, int]:
    """A whole word of the corpus that is a substring of about ``share`` of the entities."""
    texts = ["\x1f".join([e["name"], e["entityType"], *e["observations"]]).casefold() for e in entities]
    words = {w.strip(".,;:()¿?¡!\"'") for t in texts[:300] for w in t.split()}
    best: tuple[float, str, int] = (2.0, "", 0)
    for word in sorted(w for w in words if len(w) >= 4 and w.isalpha()):
        hits = sum(word in t for t in texts)
        best = min(best, (abs(hits / len(texts) - share), word, hits))
    return best[1], best[2]


def selective_queries(entities: list[dict[str, Any]], k: int) -> str:
    """The k-th of 20 selective queries: an entity's name, or the tag ending one observation."""
    e = entities[(k * 7919) % len(entities)]
    return e["name"] if k % 2 == 0 else e["observations"][k % 4].rsplit(" ", 1)[1]


Calls = list[tuple[str, str, Callable[[int], dict[str, Any]]]]


def calls(entities: list[dict[str, Any]], broad: str) -> Calls:
    """One round of calls: every official tool. Each write is undone later in the same round (the entity,
    observation and relation a round adds, it deletes), so every round and every server sees the same graph."""
    n = len(entities)

    def named(k: int, step: int) -> str:
        return entities[(k * step) % n]["name"]

    def relation(k: int) -> dict[str, str]:
        return {"from": named(k, 17), "to": named(k + 1, 17), "relationType": f"bench_call_{k}"}

    return [
        ("create_entities (1)", "create_entities", lambda k: {"entities": [
            {"name": f"bench-{k}", "entityType": "Bench", "observations": [f"created by call {k}"]}]}),
        ("add_observations (1)", "add_observations", lambda k: {"observations": [
            {"entityName": named(k, 13), "contents": [f"bench note {k}"]}]}),
        ("create_relations (1)", "create_relations", lambda k: {"relations": [relation(k)]}),
        ("search_nodes (20 selective queries)", "search_nodes", lambda k: {"query": selective_queries(entities, k)}),
        (f"search_nodes (\"{broad}\", broad)", "search_nodes", lambda k: {"query": broad}),
        ("open_nodes (5)", "open_nodes", lambda k: {"names": [entities[(k * 11 + j) % n]["name"] for j in range(5)]}),
        ("read_graph (whole)", "read_graph", lambda k: {}),
        ("delete_observations (1)", "delete_observations", lambda k: {"deletions": [
            {"entityName": named(k, 13), "observations": [f"bench note {k}"]}]}),
        ("delete_relations (1)", "delete_relations", lambda k: {"relations": [relation(k)]}),
        ("delete_entities (1)", "delete_entities", lambda k: {"entityNames": [f"bench-{k}"]}),
    ]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def run_calls(
    client: Client, plan: Calls, repeat: int, slow_repeat: int, think: float,
    record: dict[str, Any] | None = None,
) -> dict[str, list[float]]:
    """Each call ``repeat`` times (read_graph ``slow_repeat``), ``think`` seconds apart, as an
    assistant calls tools between turns (the embedder may run in those gaps). ``record`` gets the
    first answer to each label, as JSON."""
    samples: dict[str, list[float]] = {label: [] for label, _, _ in plan}
    for k in range(repeat):
        for label, tool, args in plan:
            if tool == "read_graph" and k >= slow_repeat:
                continue
            await anyio.sleep(think)
            start = time.perf_counter()
            result = await client.call_tool(tool, args(k))
            samples[label].append((time.perf_counter() - start) * 1000)
            if result.is_error:
                raise RuntimeError(f"{label} failed: {result.content[0].text}")  # type: ignore[union-attr]
            if record is not None:
                record.setdefault(label, result.model_dump(by_alias=True, exclude_none=True, mode="json"))
            del result  # freed here, not inside the next call's timing (a broad answer takes ms)
    return samples


def canned_key(tool: str, arguments: dict[str, Any], broad: str) -> str:
    """Which recorded answer a call gets from the no-work server: one per tool, the broad search apart."""
    return f"{tool} (broad)" if tool == "search_nodes" and arguments.get("query") == broad else tool


def write_canned(path: Path, plan: Calls, broad: str, record: dict[str, Any]) -> None:
    """What ``serve_canned`` answers: each label's recorded answer under its ``canned_key``."""
    answers = {canned_key(tool, make(0), broad): record[label] for label, tool, make in plan}
    path.write_text(json.dumps({"broad": broad, "answers": answers}, ensure_ascii=False), encoding="utf-8")


def serve_canned(path: Path) -> None:
    """``--serve-canned FILE``: an MCP server on stdio that does no work. The handshake is answered as
    Hipocampo's stdio server answers it before the SDK loads (``core/server/fast/front.py``, from a thread,
    with the standard library only), and every tools/call with the recorded answer for its kind."""
    from core.server.fast.front import Front
    from core.server.fast.front_answers import ANSWERS

    recorded = json.loads(path.read_text(encoding="utf-8"))
    broad = recorded["broad"]
    answers = {**ANSWERS, **{f"call {key}": ',"result":' + json.dumps(value, ensure_ascii=False) + "}"
                             for key, value in recorded["answers"].items()}}

    class Canned(Front):
        def _key(self, method: Any, params: Any) -> str | None:
            if method != "tools/call":
                return super()._key(method, params)
            return f"call {canned_key(params['name'], params.get('arguments') or {}, broad)}"

    front = Canned((sys.stdin.fileno(), sys.stdout.fileno()), answers).start()
    front._thread.join()  # until the client closes stdin (or sends a call nothing was recorded for)


async def load(client: Client, entities: list[dict[str, Any]], relations: list[dict[str, str]]) -> float:
    start = time.perf_counter()
    for i in range(0, len(entities), 500):
        await client.call_tool("create_entities", {"entities": entities[i:i + 500]})
    for i in range(0, len(relations), 1000):
        await client.call_tool("create_relations", {"relations": relations[i:i + 1000]})
    return time.perf_counter() - start


async def startup(params: StdioServerParameters, errlog: Any, times: int = 5) -> list[float]:
    out = []
    for _ in range(times):
        start = time.perf_counter()
        async with Client(stdio_client(params, errlog=errlog)) as client:
            await client.list_tools()
            out.append(time.perf_counter() - start)
    return out


def embedded(db: Path) -> tuple[int, int]:
    """(entities with a current vector, entities), read from the file without asking the server."""
    conn = sqlean.connect(str(db))
    try:
        done = conn.execute("SELECT count(*) FROM embedding_state").fetchone()[0]
        total = conn.execute("SELECT count(*) FROM entities").fetchone()[0]
    finally:
        conn.close()
    return done, total


def hipocampo(db: Path, embeddings: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "core.cli", "--db", str(db), "mcp", "--no-bridge"],
                                 cwd=str(ROOT), env={"HIPOCAMPO_EMBEDDINGS": embeddings})


async def session(params: StdioServerParameters, errlog: Any, body: Callable[[Client], Awaitable[None]]) -> None:
    async with Client(stdio_client(params, errlog=errlog)) as client:
        await client.list_tools()
        await body(client)


async def bench(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    entities, relations = realistic_graph(args.entities)
    broad, broad_hits = pick_broad_word(entities)
    plan = calls(entities, broad)
    errlog = open(workdir / "servers.log", "a")  # noqa: SIM115 (shared by the subprocesses)
    out: dict[str, Any] = {"samples": {}, "load": {}, "startup": {}, "broad": (broad, broad_hits), "notes": []}

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    command = official_command() if not args.no_official else None
    if command is not None:
        jsonl = workdir / "official.jsonl"
        params = StdioServerParameters(command=command[0], args=command[1:], env={"MEMORY_FILE_PATH": str(jsonl)})

        async def official(client: Client) -> None:
            out["load"]["official"] = await load(client, entities, relations)
            log(f"official: loaded in {out['load']['official']:.1f} s")
            out["samples"]["official"] = await run_calls(client, plan, args.repeat, args.slow_repeat, args.think)

        await session(params, errlog, official)
        out["startup"]["official"] = await startup(params, errlog)

    none_db = workdir / "none.db"

    record: dict[str, Any] = {}

    async def plain(client: Client) -> None:
        out["load"]["none"] = await load(client, entities, relations)
        log(f"none: loaded in {out['load']['none']:.1f} s")
        out["samples"]["none"] = await run_calls(client, plan, args.repeat, args.slow_repeat, args.think, record)

    await session(hipocampo(none_db, "none"), errlog, plain)
    out["startup"]["none"] = await startup(hipocampo(none_db, "none"), errlog)

    canned = workdir / "canned.json"
    write_canned(canned, plan, broad, record)
    record.clear()  # the recorded read_graph is megabytes
    no_work = StdioServerParameters(command=sys.executable, args=[str(Path(__file__).resolve()), "--serve-canned",
                                                                  str(canned)], cwd=str(ROOT))

    async def floor(client: Client) -> None:
        out["samples"]["no work"] = await run_calls(client, plan, args.repeat, args.slow_repeat, args.think)

    await session(no_work, errlog, floor)  # its start-up is this file's imports: not measured

    onnx_db = workdir / "onnx.db"

    async def busy(client: Client) -> None:
        out["load"]["catching up"] = await load(client, entities, relations)
        before = embedded(onnx_db)
        log(f"catching up: loaded in {out['load']['catching up']:.1f} s; {before[0]} of {before[1]} embedded")
        out["samples"]["catching up"] = await run_calls(client, plan, args.repeat, args.slow_repeat, args.think)
        after = embedded(onnx_db)
        out["notes"].append(f"catching up: {before[0]:,} of {before[1]:,} entities had vectors when the calls "
                            f"began, {after[0]:,} when they ended")
        # No calls now: how fast the background embedder catches up on its own.
        start, first = time.perf_counter(), after[0]
        deadline = start + args.catch_up_timeout
        while embedded(onnx_db)[0] < embedded(onnx_db)[1] and time.perf_counter() < deadline:
            await anyio.sleep(2)
        done, total = embedded(onnx_db)
        seconds = time.perf_counter() - start
        out["catch_up"] = (done - first, seconds, done, total)
        log(f"caught up: {done - first} entities in {seconds:.0f} s ({done} of {total})")
        out["samples"]["idle"] = await run_calls(client, plan, args.repeat, args.slow_repeat, args.think)

    await session(hipocampo(onnx_db, "onnx"), errlog, busy)
    out["startup"]["idle"] = await startup(hipocampo(onnx_db, "onnx"), errlog)
    errlog.close()
    return out


async def paired(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    """Embeddings off and a catching-up embedder, both servers up at once and called in turn (each first in
    every other round, ``think`` seconds apart), so both columns see the same moments of a shared machine's load."""
    entities, relations = realistic_graph(args.entities)
    broad, _ = pick_broad_word(entities)
    plan = calls(entities, broad)
    columns = ("none", "catching up")
    samples: dict[str, dict[str, list[float]]] = {c: {label: [] for label, _, _ in plan} for c in columns}
    onnx_db = workdir / "onnx.db"
    with open(workdir / "servers.log", "a") as errlog:
        async with Client(stdio_client(hipocampo(workdir / "none.db", "none"), errlog=errlog)) as none:
            await none.list_tools()
            await load(none, entities, relations)
            async with Client(stdio_client(hipocampo(onnx_db, "onnx"), errlog=errlog)) as busy:
                await busy.list_tools()
                await load(busy, entities, relations)
                before = embedded(onnx_db)
                for k in range(args.repeat):
                    for label, tool, make in plan:
                        if tool == "read_graph" and k >= args.slow_repeat:
                            continue
                        turn = (("none", none), ("catching up", busy))
                        for column, client in turn if k % 2 == 0 else turn[::-1]:  # each goes first half the time
                            await anyio.sleep(args.think)
                            start = time.perf_counter()
                            result = await client.call_tool(tool, make(k))
                            samples[column][label].append((time.perf_counter() - start) * 1000)
                            if result.is_error:
                                raise RuntimeError(f"{label} failed: {result.content[0].text}")  # type: ignore
                            del result  # freed here, not inside the next call's timing (a broad answer takes ms)
                after = embedded(onnx_db)
    return {"samples": samples, "embedded": (before, after)}


def paired_table(out: dict[str, Any], n: int) -> str:
    none, busy = out["samples"]["none"], out["samples"]["catching up"]
    lines = [f"| tool at {n:,} entities, ms | `HIPOCAMPO_EMBEDDINGS=none`: median (p95) | embedder catching up: "
             "median (p95) | catching up ÷ none: median, p95 |", "|---|---|---|---|"]
    for label in none:
        lines.append(f"| {label} | {cell(none[label])} | {cell(busy[label])} | "
                     f"{statistics.median(busy[label]) / statistics.median(none[label]):.2f}, "
                     f"{p95(busy[label]) / p95(none[label]):.2f} |")
    (b0, total), (b1, _) = out["embedded"]
    lines.append(f"\nThe catching-up server had vectors for {b0:,} of {total:,} entities when the calls began and "
                 f"{b1:,} when they ended.")
    return "\n".join(lines)


def cell(values: list[float] | None) -> str:
    if not values:
        return "–"
    return f"{statistics.median(values):.1f} (p95 {p95(values):.1f})"


def table(out: dict[str, Any], n: int) -> str:
    cols = [c for c in COLUMNS if c in out["samples"]]
    lines = [f"| tool at {n:,} entities, ms: median (p95) | " + " | ".join(TITLES[c] for c in cols) + " |",
             "|---|" + "---|" * len(cols)]
    for label in next(iter(out["samples"].values())):
        lines.append(f"| {label} | " + " | ".join(cell(out["samples"][c].get(label)) for c in cols) + " |")
    lines.append(f"| load {n:,} entities + {2 * n:,} relations in batches, s | "
                 + " | ".join(f"{out['load'][c]:.1f}" if c in out["load"] else "(same load)" if c == "idle" else "–"
                              for c in cols) + " |")
    lines.append("| process start → first tools/list, s: median (min–max of 5) | " + " | ".join(
        f"{statistics.median(out['startup'][c]):.2f} ({min(out['startup'][c]):.2f}–{max(out['startup'][c]):.2f})"
        if c in out["startup"] else "(same server)" if c == "catching up" else "–" for c in cols) + " |")
    return "\n".join(lines)


def ratios(out: dict[str, Any]) -> str:
    if "official" not in out["samples"]:
        return ""
    lines = ["| tool | official ÷ Hipocampo (catching up) | official ÷ Hipocampo (idle) "
             "| official ÷ no work: the most any server could show | catching up ÷ none (median, p95) |",
             "|---|---|---|---|---|"]
    for label, off in out["samples"]["official"].items():
        busy, idle, none, floor = (out["samples"][c][label] for c in ("catching up", "idle", "none", "no work"))
        lines.append(f"| {label} | {statistics.median(off) / statistics.median(busy):.1f}× "
                     f"| {statistics.median(off) / statistics.median(idle):.1f}× "
                     f"| {statistics.median(off) / statistics.median(floor):.1f}× "
                     f"| {statistics.median(busy) / statistics.median(none):.2f}, {p95(busy) / p95(none):.2f} |")
    return "\n".join(lines)


def write_results(run: str) -> None:
    """Put this run in ``RESULTS.md`` as the first subsection of its section: earlier runs, the paired
    runs and the notes written by hand below it are kept."""
    whole = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    start = whole.find(HEADING)
    if start < 0:
        RESULTS.write_text(whole.rstrip() + "\n\n" + HEADING + " (`bench/mcp_busy_bench.py`)\n\n" + run + "\n",
                           encoding="utf-8")
        return
    end = whole.find("\n## ", start + 1)
    end = len(whole) if end < 0 else end
    first = whole.find("\n### ", start, end)
    at = first + 1 if first >= 0 else end
    RESULTS.write_text(whole[:at].rstrip("\n") + "\n\n" + run + "\n\n" + whole[at:].lstrip("\n"),
                       encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=20, help="calls per tool (default 20)")
    parser.add_argument("--slow-repeat", type=int, default=7, help="read_graph calls (default 7)")
    parser.add_argument("--catch-up-timeout", type=float, default=1800.0, help="seconds to wait for the embedder")
    parser.add_argument("--think", type=float, default=0.5, help="seconds between calls (default 0.5)")
    parser.add_argument("--no-official", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    parser.add_argument("--paired", action="store_true",
                        help="only embeddings off against catching up, both servers up and called in turn; prints only")
    parser.add_argument("--serve-canned", type=Path, help=argparse.SUPPRESS)  # the no-work server's process
    args = parser.parse_args()
    if args.serve_canned is not None:
        serve_canned(args.serve_canned)
        return 0
    if args.paired:
        with tempfile.TemporaryDirectory(prefix="hipocampo-busy-") as tmp:
            load_start = os.getloadavg()[0]
            out = anyio.run(paired, args, Path(tmp))
        print(f"load average {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at the end\n")
        print(paired_table(out, args.entities))
        return 0
    load_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    with tempfile.TemporaryDirectory(prefix="hipocampo-busy-") as tmp:
        out = anyio.run(bench, args, Path(tmp))
    load_end = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    broad, hits = out["broad"]
    moved, seconds, done, total = out.get("catch_up", (0, 0.0, 0, 0))
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip() or "?"
    text = "\n".join([
        f"### Run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n",
        f"`.venv/bin/python bench/mcp_busy_bench.py {' '.join(sys.argv[1:])}`".rstrip() + "\n",
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"node {node}, official server {official_version()}; load average {load_start:.1f} at the start and "
        f"{load_end:.1f} at the end (other jobs shared the cores). The broad query \"{broad}\" is a substring of "
        f"{hits:,} of {len(realistic_graph(args.entities)[0]):,} entities.\n",
        table(out, args.entities), "", ratios(out), "",
        *[f"- {note}" for note in out["notes"]],
        f"- with no calls, the background embedder then embedded {moved:,} entities in {seconds:.0f} s "
        f"({moved / seconds if seconds else 0:.1f} entities/s; {done:,} of {total:,} done)",
    ])
    print(text)
    if not args.no_write:
        write_results(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
