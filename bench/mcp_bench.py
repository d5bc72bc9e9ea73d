"""Latency of every MCP tool over stdio, Hipocampo vs the official memory server.

For each graph size, the same graph is loaded into a fresh Hipocampo database and into a
``memory.jsonl`` for ``@modelcontextprotocol/server-memory`` (run with ``npx``, skipped when node
is missing); then both servers are started as subprocesses and driven through the official Python
SDK client over stdio, the way an assistant drives them. Each tool is called ``--repeat`` times
(read_graph fewer) and the median wall time of ``call_tool`` is reported.

    .venv/bin/python bench/mcp_bench.py                 # 1k and 10k entities, updates its section of RESULTS.md
    .venv/bin/python bench/mcp_bench.py --sizes 1000 --repeat 10 --no-write
    .venv/bin/python bench/mcp_bench.py --sizes 10000 --backend falkordb --graph-url redis://127.0.0.1:6379

On ``--backend falkordb`` Hipocampo's servers use a fresh graph on that FalkorDB server (dropped
afterwards), the official server is not run and RESULTS.md is not rewritten: the figures go to the
FalkorDB section by hand.

The graph: entity-NNNNN, 10 types, 3 observations each (~60 characters, a few shared words), and
one relation per entity.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, TextContent

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.memory import Memory  # noqa: E402
from core.server.tools.results import dumps  # noqa: E402
from core.server.tools.schemas import GRAPH_OUT  # noqa: E402

TYPES = [
    "Person",
    "Project",
    "Technology",
    "Concept",
    "Decision",
    "Problem",
    "Domain",
    "Client",
    "Tool",
    "Course",
]
WORDS = [
    "alpha",
    "budget",
    "cache",
    "delta",
    "engine",
    "forest",
    "graph",
    "harbor",
    "index",
    "jungle",
    "kernel",
    "lantern",
    "memory",
    "network",
    "orbit",
    "python",
    "quartz",
    "river",
    "sqlite",
    "tensor",
]
OFFICIAL_PACKAGE = "@modelcontextprotocol/server-memory"


def name(i: int) -> str:
    return f"entity-{i:05d}"


def graph(n: int) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    entities = [
        {
            "name": name(i),
            "entityType": TYPES[i % len(TYPES)],
            "observations": [
                f"{name(i)} note {k}: {WORDS[(i + k) % 20]} {WORDS[(i * 3 + k) % 20]} "
                f"{WORDS[(i * 7 + k) % 20]} observed in batch {i // 100}"
                for k in range(3)
            ],
        }
        for i in range(n)
    ]
    relations = [
        {"from": name(i), "to": name((i * 7 + 1) % n), "relationType": "relates_to"} for i in range(n)
    ]
    return entities, relations


def load_hipocampo(db: Path, n: int, embeddings: str, server: dict[str, str]) -> None:
    entities, relations = graph(n)
    with Memory.open(db, embeddings=embeddings, **server) as memory:
        memory.create_entities(entities, actor="bench")
        memory.create_relations(relations, actor="bench")
        if embeddings != "none":
            memory.embed_pending()  # the steady state: every entity already has its vector


def load_official(path: Path, n: int) -> None:
    entities, relations = graph(n)
    lines = [json.dumps({"type": "entity", **e}) for e in entities]
    lines += [json.dumps({"type": "relation", **r}) for r in relations]
    path.write_text("\n".join(lines), encoding="utf-8")


Workload = list[tuple[str, str, Callable[[int], dict[str, Any]]]]  # (row label, tool, arguments of call k)
SLOW = {"read_graph"}  # rows called --slow-repeat times


def _rows(calls: list[tuple[str, Callable[[int], dict[str, Any]]]]) -> Workload:
    return [(tool, tool, args) for tool, args in calls]


# The official server's tools. Names created by the bench never collide with the graph's.
def memory_workload(n: int) -> Workload:
    return _rows(
        [
            (
                "create_entities",
                lambda k: {
                    "entities": [
                        {
                            "name": f"bench-{k}",
                            "entityType": "Bench",
                            "observations": [f"created by call {k}"],
                        }
                    ]
                },
            ),
            (
                "create_relations",
                lambda k: {
                    "relations": [{"from": f"bench-{k}", "to": name(k % n), "relationType": "bench_link"}]
                },
            ),
            (
                "add_observations",
                lambda k: {
                    "observations": [
                        {"entityName": name((k * 37) % n), "contents": [f"bench observation {k}"]}
                    ]
                },
            ),
            ("search_nodes", lambda k: {"query": f"entity-{(k * 53) % n:05d}"}),
            ("open_nodes", lambda k: {"names": [name((k * 11 + j) % n) for j in range(5)]}),
            ("read_graph", lambda k: {}),
            (
                "delete_observations",
                lambda k: {
                    "deletions": [
                        {"entityName": name((k * 37) % n), "observations": [f"bench observation {k}"]}
                    ]
                },
            ),
            (
                "delete_relations",
                lambda k: {
                    "relations": [{"from": f"bench-{k}", "to": name(k % n), "relationType": "bench_link"}]
                },
            ),
            ("delete_entities", lambda k: {"entityNames": [f"bench-{k}"]}),
        ]
    )


def extra_workload(n: int, migrate_src: Path) -> Workload:
    """Hipocampo's other tools, and read_graph's cheap forms."""
    return [
        ("read_graph names_only", "read_graph", lambda k: {"names_only": True}),
        ("read_graph limit=100", "read_graph", lambda k: {"limit": 100, "offset": (k * 100) % n}),
    ] + _rows(
        [
            ("search_semantic", lambda k: {"query": f"{WORDS[k % 20]} {WORDS[(k + 5) % 20]}", "limit": 10}),
            ("engrama_search", lambda k: {"query": WORDS[k % 20], "limit": 10}),
            (
                "engrama_remember",
                lambda k: {
                    "label": "Concept",
                    "properties": {"name": f"concept-{k}", "summary": f"bench concept {k}"},
                    "relations": {"RELATED_TO": [name(k % n)]},
                },
            ),
            (
                "engrama_relate",
                lambda k: {"from_name": f"concept-{k}", "rel_type": "USES", "to_name": name((k + 1) % n)},
            ),
            ("engrama_context", lambda k: {"name": name((k * 13) % n), "hops": 2}),
            (
                "engrama_ingest",
                lambda k: {"source": f"{name(k % n)} uses sqlite and python", "source_type": "text"},
            ),
            ("engrama_status", lambda k: {}),
            ("migrate", lambda k: {"source_path": str(migrate_src)}),
        ]
    )


async def drive(
    params: StdioServerParameters, workload: Workload, repeat: int, slow_repeat: int, errlog: Any
) -> dict[str, float]:
    """Median ms per row (plus the start-up: spawn to the first tools/list); every call must succeed."""
    started = time.perf_counter()
    async with Client(stdio_client(params, errlog=errlog)) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        startup_ms = (time.perf_counter() - started) * 1000
        rows = [(label, tool, args) for label, tool, args in workload if tool in tools]
        samples: dict[str, list[float]] = {label: [] for label, _, _ in rows}
        for k in range(max(repeat, slow_repeat)):
            for label, tool, args in rows:
                if k >= (slow_repeat if label in SLOW else repeat):
                    continue
                start = time.perf_counter()
                result = await client.call_tool(tool, args(k))
                samples[label].append((time.perf_counter() - start) * 1000)
                if result.is_error:
                    raise RuntimeError(f"{label} failed: {result.content[0].text}")  # type: ignore[union-attr]
                del result  # freed here, not inside the next call's timing (a broad answer takes ms)
    return {"start + tools/list": startup_ms, **{label: statistics.median(v) for label, v in samples.items()}}


# -- the client's share: a server that does no work -----------------------------------------------
# The same read_graph payload, precomputed, from a server that only sends it: what is left is the
# transport and the client (parsing the message, validating structuredContent against the schema).

OFFICIAL_GRAPH_SCHEMA: dict[str, Any] = {  # item by item, as the official server's zod schema
    "type": "object",
    "properties": {
        "entities": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "entityType": {"type": "string"},
                    "observations": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["name", "entityType", "observations"],
            },
        },
        "relations": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "from": {"type": "string"},
                    "to": {"type": "string"},
                    "relationType": {"type": "string"},
                },
                "required": ["from", "to", "relationType"],
            },
        },
    },
    "required": ["entities", "relations"],
}


def serve_fixed(n: int, schema: str) -> None:
    """Run an MCP server whose read_graph returns a precomputed n-entity graph (stdio)."""
    entities, relations = graph(n)
    payload = {"entities": entities, "relations": relations}
    result = CallToolResult(
        content=[TextContent(type="text", text=dumps(payload))], structured_content=payload
    )

    def read_graph() -> CallToolResult:
        return result

    tool = Tool.from_function(read_graph, structured_output=False)
    tool.fn_metadata.output_schema = OFFICIAL_GRAPH_SCHEMA if schema == "official" else GRAPH_OUT
    MCPServer("fixed", tools=[tool]).run()


async def client_floor(n: int, slow_repeat: int, errlog: Any) -> dict[str, float]:
    floors = {}
    for schema in ("official", "hipocampo"):
        params = StdioServerParameters(
            command=sys.executable,
            args=[str(Path(__file__).resolve()), "--serve-fixed", str(n), schema],
            cwd=str(ROOT),
        )
        floors[schema] = (
            await drive(params, [("read_graph", "read_graph", lambda k: {})], 1, slow_repeat, errlog)
        )["read_graph"]
    return floors


def official_available() -> bool:
    return shutil.which("npx") is not None and shutil.which("node") is not None


def warm_official() -> bool:
    """Fetch the official server into npx's cache once (outside the timed runs)."""
    try:
        subprocess.run(
            ["npx", "-y", OFFICIAL_PACKAGE, "--help"],
            input="",
            capture_output=True,
            timeout=180,
            env={**os.environ, "MEMORY_FILE_PATH": os.path.join(tempfile.gettempdir(), "warm.jsonl")},
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return True


async def bench_size(
    n: int, repeat: int, slow_repeat: int, with_official: bool, embeddings: str, workdir: Path,
    graph_url: str | None = None,
) -> dict[str, Any]:
    errlog = open(workdir / "servers.log", "a")  # noqa: SIM115 (kept open for the subprocesses)
    db = workdir / f"hipocampo-{n}.db"
    server = {} if graph_url is None else {
        "backend": "falkordb", "graph_url": graph_url, "graph_name": f"mcp-bench-{n}-{time.time_ns()}"}
    start = time.perf_counter()
    load_hipocampo(db, n, embeddings, server)
    load_s = time.perf_counter() - start
    migrate_src = workdir / "migrate.jsonl"
    load_official(migrate_src, 50)
    workload = memory_workload(n) + extra_workload(n, migrate_src)
    hip = StdioServerParameters(
        command=sys.executable,
        args=["-m", "core.cli", "--db", str(db), "mcp", "--no-bridge"],
        cwd=str(ROOT),
        env={"HIPOCAMPO_EMBEDDINGS": embeddings, "HIPOCAMPO_ALLOWED_IMPORT_DIRS": json.dumps([str(workdir)]),
             **{f"HIPOCAMPO_{k.upper()}": v for k, v in server.items()}},
    )
    try:
        out: dict[str, Any] = {
            "n": n,
            "hipocampo": await drive(hip, workload, repeat, slow_repeat, errlog),
            "hipocampo_load_s": load_s,
        }
    finally:
        if server:
            with Memory.open(db, embeddings="none", **server) as memory:
                memory.graph.db.drop()
    if with_official:
        jsonl = workdir / f"official-{n}.jsonl"
        load_official(jsonl, n)
        off = StdioServerParameters(
            command="npx", args=["-y", OFFICIAL_PACKAGE], env={"MEMORY_FILE_PATH": str(jsonl)}
        )
        out["official"] = await drive(off, memory_workload(n), repeat, slow_repeat, errlog)
    out["floor"] = await client_floor(n, slow_repeat, errlog)
    errlog.close()
    return out


def _ratio(value: float) -> str:
    return f"{value:.1f}×" if value < 10 else f"{value:.0f}×"


def table(runs: list[dict[str, Any]]) -> str:
    tools = list(runs[0]["hipocampo"])
    head = (
        "| tool | "
        + " | ".join(
            f"{r['n']:,} Hipocampo | {r['n']:,} official | ratio"
            if "official" in r
            else f"{r['n']:,} Hipocampo"
            for r in runs
        )
        + " |"
    )
    sep = "|---|" + "".join("---|---|---|" if "official" in r else "---|" for r in runs)
    rows = []
    for tool in tools:
        cells = []
        for r in runs:
            h = r["hipocampo"].get(tool)
            cells.append(f"{h:.1f}" if h is not None else "–")
            if "official" in r:
                o = r["official"].get(tool)
                cells.append(f"{o:.1f}" if o is not None else "–")
                cells.append(_ratio(o / h) if o is not None and h else "–")
        rows.append(f"| {tool} | " + " | ".join(cells) + " |")
    return "\n".join([head, sep, *rows])


def floor_table(runs: list[dict[str, Any]]) -> str:
    rows = [
        "| read_graph from a server that does no work | " + " | ".join(f"{r['n']:,}" for r in runs) + " |",
        "|---|" + "---|" * len(runs),
    ]
    for schema, label in (
        ("official", "official output schema (item by item)"),
        ("hipocampo", "Hipocampo's output schema (top level typed)"),
    ):
        rows.append(f"| {label} | " + " | ".join(f"{r['floor'][schema]:.1f}" for r in runs) + " |")
    return "\n".join(rows)


RESULTS = ROOT / "bench" / "RESULTS.md"
HEADING = "## MCP tool latency over stdio: Hipocampo vs the official memory server"
NOTES_HEADING = "### Notes"  # the section's notes are kept when the bench rewrites its tables


def write_results(
    text: str, floors: str, runs: list[dict[str, Any]], with_official: bool, load: float
) -> None:
    node = ""
    if with_official:
        node = (
            ", node " + subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
        )
    loads = "\n".join(
        f"- {r['n']:,} entities loaded into Hipocampo in {r['hipocampo_load_s']:.1f} s "
        "(Memory.create_entities + create_relations, one call each)"
        for r in runs
    )
    whole = RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else ""
    start = whole.find(HEADING)
    end = whole.find("\n## ", start + 1) if start >= 0 else -1
    old = whole[start : end if end >= 0 else len(whole)] if start >= 0 else ""
    kept = "\n" + old[old.index(NOTES_HEADING) :].rstrip() + "\n" if NOTES_HEADING in old else ""
    before = whole[:start] if start >= 0 else whole.rstrip() + "\n\n"
    after = whole[end:] if start >= 0 and end >= 0 else ""
    section = (
        f"{HEADING}\n\n"
        "Median ms per `call_tool`, measured by the official Python SDK client over stdio on "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}{node}; load average {load:.1f} when the run ended.\n"
        "ratio = official ÷ Hipocampo (higher is better; the goal is ≥ 10× at 10,000 entities). Tools the "
        "official server does not have show only Hipocampo's figure.\n\n"
        f"{text}\n\n{floors}\n\nCommand:\n\n"
        f"    .venv/bin/python bench/mcp_bench.py {' '.join(sys.argv[1:])}\n\n{loads}\n{kept}"
    )
    RESULTS.write_text(before + section + after, encoding="utf-8")  # only this section changes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=20, help="calls per tool (default 20)")
    parser.add_argument("--slow-repeat", type=int, default=7, help="calls of read_graph (default 7)")
    parser.add_argument("--no-official", action="store_true", help="skip the official server")
    parser.add_argument(
        "--embeddings",
        choices=("none", "onnx"),
        default="none",
        help="Hipocampo's embedding provider (default none: the official server has none "
        "either; onnx embeds the whole graph before timing, slowly)",
    )
    parser.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    parser.add_argument("--backend", choices=("sqlite", "falkordb"), default="sqlite")
    parser.add_argument("--graph-url", default="redis://127.0.0.1:6379", help="FalkorDB server (--backend falkordb)")
    parser.add_argument("--serve-fixed", nargs=2, metavar=("N", "SCHEMA"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_fixed:
        serve_fixed(int(args.serve_fixed[0]), args.serve_fixed[1])
        return 0
    graph_url = args.graph_url if args.backend == "falkordb" else None
    if graph_url is not None:
        args.no_official = args.no_write = True
    with_official = not args.no_official and official_available() and warm_official()
    runs = []
    with tempfile.TemporaryDirectory(prefix="hipocampo-bench-") as tmp:
        for n in args.sizes:
            print(f"{n} entities …", file=sys.stderr, flush=True)
            runs.append(
                anyio.run(
                    bench_size, n, args.repeat, args.slow_repeat, with_official, args.embeddings, Path(tmp),
                    graph_url,
                )
            )
    text = table(runs)
    floors = floor_table(runs)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(text, floors, sep="\n\n")
    if not args.no_write:
        write_results(text, floors, runs, with_official, load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
