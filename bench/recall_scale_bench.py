"""search_semantic at scale through a real ``hipocampo mcp`` (stdio, the MCP SDK client).

A memory of ``--entities`` entities with ``--facts-per-entity`` facts each is written in-process
(embeddings off), then given vectors: the real model cannot embed 500k facts in a benchmark's
time, so each fact and entity gets a synthetic unit vector shaped like multilingual-e5's (a large
common component plus noise), stored through the same store calls the embedder uses, marked
current for the real model. The server then embeds each query with the real model and searches
(the int8 fact matrix, binary pre-filter and exact re-rank past 60k facts).

Reported: p50/p95 of ``search_semantic(limit=5)`` over ``--queries`` questions, first with
everything embedded, then while the background embedder catches up on ``--due`` facts written
just before; and the bytes per fact (file size / facts, and per table from ``dbstat``).

    .venv/bin/python bench/recall_scale_bench.py                      # 100k entities, 500k facts
    .venv/bin/python bench/recall_scale_bench.py --entities 10000      # quicker
    .venv/bin/python bench/recall_scale_bench.py --falkordb            # on FalkorDB (server memory too)
    .venv/bin/python bench/recall_scale_bench.py --falkordb --graph-url redis://… --parts  # in-process parts
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
import numpy as np
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.embeddings.text import text_hash  # noqa: E402
from core.memory import Memory  # noqa: E402

TOPICS = ["budget", "kitchen", "garden", "server", "holiday", "doctor", "invoice", "concert", "bicycle", "python",
          "meeting", "recipe", "school", "football", "painting", "database", "flight", "dentist", "museum", "cat"]
QUESTIONS = [
    "When is the next dentist appointment?", "¿Qué receta le gustó a mi madre?", "Which database does the project use?",
    "who paints on weekends", "dónde fuimos de vacaciones en verano", "what did the doctor say about the knee",
    "the invoice that was paid late", "¿cuándo es el concierto?", "bicycle repair in the garage",
    "football match with the school team", "a museum visit in Madrid", "what does the cat eat",
]


def fill(db: Path, entities: int, per: int, server: dict[str, str]) -> None:
    rng = np.random.default_rng(7)
    with Memory.open(db, embeddings="none", **server) as memory:
        for start in range(0, entities, 1000):
            batch = []
            for i in range(start, min(entities, start + 1000)):
                topic = TOPICS[i % len(TOPICS)]
                batch.append({"name": f"entity-{i:06d}", "entityType": f"Type{i % 12}",
                              "observations": [f"note {k} about the {topic} of entity {i}: "
                                               f"{TOPICS[(i * 7 + k) % len(TOPICS)]} on day {int(rng.integers(1, 365))}"
                                               for k in range(per)]})
            memory.create_entities(batch, actor="bench")


def synthetic(n: int, rng: np.random.Generator, common: np.ndarray) -> np.ndarray:
    v = rng.standard_normal((n, common.shape[0]), dtype=np.float32) * 0.35 + common
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def give_vectors(db: Path, model_id: str, dims: int, server: dict[str, str],
                 between: Any = lambda: None) -> None:
    rng = np.random.default_rng(11)
    common = rng.standard_normal(dims).astype(np.float32)
    common /= np.linalg.norm(common)
    # FalkorDB: smaller writes (a 20k-entity write of float32 vectors, ~90 MB of query text, ran so
    # long inside MULTI/EXEC that FalkorDB 4.16 on Redis 8.2 failed an assertion and stopped)
    entity_batch, fact_batch = (2_000, 10_000) if server else (20_000, 50_000)
    with Memory.open(db, embeddings="none", **server) as memory:
        vectors = memory.vectors
        vectors.prepare(model_id, dims)
        while True:
            due = vectors.pending(model_id, entity_batch)
            if not due:
                break
            v = synthetic(len(due), rng, common)
            vectors.store_embedded(model_id, {i: (text_hash(t), v[k]) for k, (i, t) in enumerate(due.items())})
        between()  # the entities' vectors are in
        while True:
            due = vectors.pending_facts(model_id, fact_batch)
            if not due:
                break
            v = synthetic(len(due), rng, common)
            vectors.store_facts(model_id, {i: (text_hash(t), v[k]) for k, (i, t) in enumerate(due.items())})


def sizes(db: Path) -> dict[str, int]:
    from core.storage.sqlite.connection import connect

    conn = connect(db)
    try:
        rows = conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall()
    except Exception:  # dbstat not compiled in
        rows = []
    conn.close()
    return {name: size for name, size in rows}


async def measure(client: Client, queries: int) -> list[float]:
    times = []
    for k in range(queries):
        start = time.perf_counter()
        result = await client.call_tool("search_semantic", {"query": QUESTIONS[k % len(QUESTIONS)] + f" {k}",
                                                            "limit": 5})
        times.append((time.perf_counter() - start) * 1000)
        if result.is_error:
            raise RuntimeError(result.content[0].text)  # type: ignore[union-attr]
    return times


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def graph_memory(url: str, name: str) -> tuple[int, float]:
    """(Redis ``used_memory`` in bytes, ``GRAPH.MEMORY USAGE``'s total in MB) of a FalkorDB server."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        try:
            usage = client.execute_command("GRAPH.MEMORY", "USAGE", name)
        except redis.ResponseError:  # no graph yet
            usage = {}
        fields = dict(zip(usage[::2], usage[1::2], strict=True)) if isinstance(usage, list) else usage
        total = fields.get("total_graph_sz_mb", fields.get(b"total_graph_sz_mb", 0))
        return int(client.info("memory")["used_memory"]), float(total)
    finally:
        client.close()


def graph_exists(url: str, name: str) -> bool:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return bool(client.exists(name))
    finally:
        client.close()


def rss() -> int:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def matrix_bytes(db: Path, server: dict[str, str]) -> tuple[int, int, float]:
    """The fact matrix of a fresh process's view: (its arrays' bytes, resident growth, load seconds)."""
    import gc

    with Memory.open(db, embeddings="none", **server) as memory:
        vectors: Any = memory.vectors
        gc.collect()
        before, started = rss(), time.perf_counter()
        vectors.search_facts(np.ones(vectors.dimensions, dtype=np.float32), 10)
        seconds = time.perf_counter() - started
        gc.collect()
        grown = rss() - before
        m = vectors.facts
        arrays = sum(a.nbytes for a in (m._q, m._inv_norm, m._ids, m._codes) if a is not None)
        return arrays + sys.getsizeof(m._rows) + 28 * len(m._rows), grown, seconds


def rss_of_children() -> int:
    """Resident bytes of this process's child processes (the MCP server)."""
    total = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
        except OSError:
            continue
        if int(fields.get("PPid", "0").strip()) == os.getpid():
            total += int(fields.get("VmRSS", "0 kB").split()[0]) * 1024
    return total


def parts(db: Path, server: dict[str, str], queries: int) -> None:
    """In this process: p50/p95 of each part of a search, and of the whole, on the built memory."""
    with Memory.open(db, **server) as memory:
        vectors: Any = memory.vectors
        texts = [QUESTIONS[k % len(QUESTIONS)] + f" {k}" for k in range(queries)]
        embedded = [memory.embedder.embed_query(t) for t in texts]
        vectors.search_facts(embedded[0], 100)  # the matrix loads
        for k in range(3):
            memory.search_semantic(texts[k], 5)
        steps: list[tuple[str, Any]] = [
            ("the query's embedding", lambda k: memory.embedder.embed_query(texts[k])),
            ("search_facts(k=100): the fact vectors", lambda k: vectors.search_facts(embedded[k], 100)),
            ("search(k=25): the entity vectors", lambda k: vectors.search(embedded[k], 25)),
            ("fact_search(limit=50): the facts' words", lambda k: memory.graph.fact_search(texts[k], limit=50)),
            ("fulltext_search(own_fields): entities' own words",
             lambda k: memory.graph.fulltext_search(texts[k], limit=25, own_fields=True)),
            ("the whole search_semantic(limit=5)", lambda k: memory.search_semantic(texts[k], 5)),
        ]
        print("| part of a search, in-process | p50 ms | p95 ms |\n|---|---|---|")
        for label, step in steps:
            times = []
            for k in range(queries):
                started = time.perf_counter()
                step(k)
                times.append((time.perf_counter() - started) * 1000)
            print(f"| {label} | {statistics.median(times):.1f} | {p95(times):.1f} |")


async def main_async(args: argparse.Namespace) -> int:
    import contextlib

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="recall-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        server: dict[str, str] = {}
        if args.falkordb:  # a server of its own, nothing saved: the graph is built every run
            from tests.graph_server import falkordb_server

            url = args.graph_url or stack.enter_context(falkordb_server(work / "falkordb"))
            server = {"backend": "falkordb", "graph_url": url, "graph_name": f"scale-{args.entities}"}
        return await run(args, work, server)


async def run(args: argparse.Namespace, work: Path, server: dict[str, str]) -> int:
    db = work / f"scale-{args.entities}.db"
    falkordb = bool(server)
    memory_at: dict[str, tuple[int, float]] = {}
    built = falkordb and graph_exists(server["graph_url"], server["graph_name"])
    if falkordb and not built:  # (GRAPH.MEMORY USAGE once crashed FalkorDB 4.16 on a graph reopened later)
        memory_at["empty"] = graph_memory(server["graph_url"], server["graph_name"])
    if not built and (falkordb or not db.exists()):
        started = time.perf_counter()
        fill(db, args.entities, args.facts_per_entity, server)
        print(f"written in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        if falkordb:
            memory_at["text"] = graph_memory(server["graph_url"], server["graph_name"])
        with Memory.open(db, **server) as memory:  # the real model's id and size
            model_id, dims = memory.embedder.model_id, memory.embedder.dimensions
        started = time.perf_counter()
        give_vectors(db, model_id, dims, server, between=lambda: memory_at.__setitem__(
            "entity vectors", graph_memory(server["graph_url"], server["graph_name"])) if falkordb else None)
        print(f"vectors in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        if falkordb:
            memory_at["fact vectors"] = graph_memory(server["graph_url"], server["graph_name"])
    facts = args.entities * args.facts_per_entity
    if args.parts:
        parts(db, server, args.queries)
        return 0
    matrix = matrix_bytes(db, server)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HIPOCAMPO_EMBEDDINGS": "onnx"}
    if falkordb:
        env.update(HIPOCAMPO_BACKEND="falkordb", HIPOCAMPO_GRAPH_URL=server["graph_url"],
                   HIPOCAMPO_GRAPH_NAME=server["graph_name"])
    params = StdioServerParameters(command=sys.executable, args=["-m", "core.cli", "--db", str(db), "mcp",
                                                                 "--no-bridge"], cwd=str(ROOT), env=env)
    out: dict[str, Any] = {}
    with open(work / "server.log", "a") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            deadline = time.monotonic() + 900
            while time.monotonic() < deadline:  # idle means idle: what an earlier run added is embedded
                info = (await client.call_tool("engrama_status", {})).structured_content["embeddings"]
                if info.get("facts_embedded", 0) >= info.get("facts", 0):
                    break
                await anyio.sleep(3.0)  # a bench may poll; each poll pauses the embedder a moment
            before = rss_of_children()
            await measure(client, 3)  # warm: the model, the matrix
            out["idle"] = await measure(client, args.queries)
            rss = rss_of_children()
            # New facts the background embedder has to catch up on while the searches go on
            stamp = time.strftime("%H%M%S")
            await client.call_tool("add_observations", {"observations": [
                {"entityName": f"entity-{i:06d}", "contents": [f"fresh note {i} ({stamp}): the {TOPICS[i % 20]} again"]}
                for i in range(args.due)]})
            out["catching up"] = await measure(client, args.queries)
            status = (await client.call_tool("engrama_status", {})).structured_content["embeddings"]
    backend = "FalkorDB" if falkordb else "SQLite"
    print(f"| memory ({backend}) | search_semantic p50 ms | p95 ms |\n|---|---|---|")
    for label, values in out.items():
        print(f"| {args.entities:,} entities / {facts:,} facts, {label} | {statistics.median(values):.1f} | "
              f"{p95(values):.1f} |")
    left = int(status.get("facts", 0)) - int(status.get("facts_embedded", 0))
    print(f"\nfacts still without a vector after the second round: {left} of {args.due} new ones")
    print(f"MCP server resident: {before / 1e6:,.0f} MB before the first search, {rss / 1e6:,.0f} MB after")
    print(f"fact matrix in a process: {matrix[0] / facts:,.0f} bytes per fact in its arrays, resident "
          f"+{matrix[1] / facts:,.0f} bytes per fact once loaded ({matrix[2]:.1f} s to load)")
    if falkordb:
        if not memory_at:  # a graph built by an earlier run: measured then
            return 0
        print("| server, after | Redis used_memory, bytes per fact | GRAPH.MEMORY USAGE, MB |\n|---|---|---|")
        steps = list(memory_at.items())
        for (_, (b0, m0)), (label, (b1, m1)) in zip(steps, steps[1:], strict=False):
            print(f"| {label} | {(b1 - b0) / facts:,.0f} | {m1 - m0:,.1f} |")
        b1, m1 = steps[-1][1]
        print(f"| all | {(b1 - steps[0][1][0]) / facts:,.0f} | {m1 - steps[0][1][1]:,.1f} |")
        return 0
    size = db.stat().st_size + sum(p.stat().st_size for p in work.glob(db.name + "-wal"))
    print(f"file: {size / 1e6:,.0f} MB, {size / facts:,.0f} bytes per fact (entities, history and indexes included)")
    for name, bytes_ in sorted(sizes(db).items(), key=lambda kv: -kv[1])[:12]:
        print(f"  {name}: {bytes_ / facts:,.0f} bytes per fact")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entities", type=int, default=100_000)
    parser.add_argument("--facts-per-entity", type=int, default=5)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--due", type=int, default=2000)
    parser.add_argument("--keep", default="", help="keep (and reuse) the database in this folder")
    parser.add_argument("--falkordb", action="store_true", help="on a FalkorDB server of its own (built every run)")
    parser.add_argument("--graph-url", default="", help="with --falkordb: a running server instead (redis://…)")
    parser.add_argument("--parts", action="store_true", help="time each part of a search in this process, no MCP")
    return anyio.run(main_async, parser.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
