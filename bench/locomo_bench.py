"""LoCoMo evidence recall through a real ``hipocampo mcp`` (stdio, the MCP SDK client), no LLM.

The published method (``../shared/data/README.md``): a fresh memory per conversation, every
observation stored, ``search_semantic(question, limit=5)`` for each question; R@5 is the share of
the question's evidence turns (dia_ids) among the first 5 FACTS returned, MRR is 1 / rank of the
first evidence fact. The memory is written in two shapes:

- ``chunk``: one entity per fact (as chunk stores hold it), named ``fact-00001``, type ``Fact``;
- ``speaker``: one entity per speaker (type ``Person``), its facts added session after session
  with ``add_observations`` (as an assistant writes a graph memory for months).

Facts map back to turns through the fact's text: each observation is ``[text, dia_id]`` in the
file, and the bench keeps ``text → {dia_id, …}`` (the same text can come from several turns). An
answer's facts are read in order: each result's observations as returned, result after result.
Answer size is the answer's JSON text in tokens, estimated as characters / 4 (no tokenizer of a
cloud model here). Latency is the wall time of ``call_tool`` (p50/p95).

    .venv/bin/python bench/locomo_bench.py                     # conversations 0–4, both shapes
    .venv/bin/python bench/locomo_bench.py --conversations 0   # the quick subset
    .venv/bin/python bench/locomo_bench.py --shape speaker --keep /tmp/locomo  # reuse databases
    .venv/bin/python bench/locomo_bench.py --falkordb --conversations 0-1   # on FalkorDB
    .venv/bin/python bench/locomo_bench.py --dated   # each fact after its session's date

The data is read from ``<repo>/../shared/data/locomo-dev.json`` (``--data`` or
``HIPOCAMPO_LOCOMO`` to point elsewhere); it is never copied into the repository.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
BATCH = 100
EMBED_DEADLINE_S = 1800.0


def default_data() -> Path:
    return Path(os.environ.get("HIPOCAMPO_LOCOMO", ROOT.parent / "shared" / "data" / "locomo-dev.json"))


DATED = False  # --dated: each fact written after its session's date, "(8 May, 2023) …"


def session_date(conv: dict[str, Any], number: int) -> str:
    """The day of session ``number`` as the data writes it ("1:56 pm on 8 May, 2023" → "8 May, 2023")."""
    stamp = str(conv.get("conversation", {}).get(f"session_{number}_date_time", ""))
    return stamp.split(" on ", 1)[-1].strip()


def facts_of(conv: dict[str, Any]) -> list[tuple[str, str, str, int]]:
    """(speaker, text, dia_id, session) for every observation, in session order."""
    out = []
    sessions = sorted(conv["observation"], key=lambda k: int(k.split("_")[1]))
    for key in sessions:
        number = int(key.split("_")[1])
        day = session_date(conv, number) if DATED else ""
        for speaker, items in conv["observation"][key].items():
            for text, dia in items:
                for d in str(dia).replace(",", ";").split(";"):
                    if d.strip():
                        out.append((speaker, f"({day}) {text.strip()}" if day else text.strip(), d.strip(), number))
    return out


def writes_for(shape: str, facts: list[tuple[str, str, str, int]]) -> list[tuple[str, dict[str, Any]]]:
    """The tool calls that store ``facts`` in ``shape``."""
    calls: list[tuple[str, dict[str, Any]]] = []
    texts = list(dict.fromkeys((s, t) for s, t, _, _ in facts))
    if shape == "chunk":
        entities = [{"name": f"fact-{i:05d}", "entityType": "Fact", "observations": [t]}
                    for i, (_, t) in enumerate(texts, start=1)]
        for start in range(0, len(entities), BATCH):
            calls.append(("create_entities", {"entities": entities[start:start + BATCH]}))
        return calls
    speakers = list(dict.fromkeys(s for s, _, _, _ in facts))
    calls.append(("create_entities", {"entities": [{"name": s, "entityType": "Person", "observations": []}
                                                   for s in speakers]}))
    by_session: dict[tuple[int, str], list[str]] = defaultdict(list)
    for s, t, _, n in facts:
        if t not in by_session[(n, s)]:
            by_session[(n, s)].append(t)
    for (_, speaker), contents in sorted(by_session.items()):
        calls.append(("add_observations", {"observations": [{"entityName": speaker, "contents": contents}]}))
    return calls


def answer_facts(structured: dict[str, Any]) -> list[str]:
    """The facts an answer holds, in the order it gives them."""
    out: list[str] = []
    for hit in structured.get("results", []):
        out.extend(hit.get("observations", []))
    return out


async def wait_embedded(client: Client, deadline: float) -> dict[str, Any]:
    """Poll engrama_status until nothing is left to embed (a bench may poll; a test may not)."""
    while True:
        result = await client.call_tool("engrama_status", {})
        info = result.structured_content["embeddings"]
        pending = info.get("pending")
        if pending is None:
            pending = info.get("entities", 0) - info.get("embedded", 0)
        if pending <= 0 or time.monotonic() > deadline:
            return info
        await anyio.sleep(3.0)  # each poll is a foreground call, which pauses the embedder


def run_direct(conv: dict[str, Any], db: Path, limit: int, extra: dict[str, Any],
               max_questions: int | None) -> list[dict[str, Any]]:
    """The same questions against a kept, embedded database, in this process (``Memory``, no MCP,
    nothing recorded): for tuning the ranking quickly. Figures for RESULTS.md come from MCP."""
    sys.path.insert(0, str(ROOT))
    from core.memory import Memory

    dia_of: dict[str, set[str]] = defaultdict(set)
    for _, text, dia, _ in facts_of(conv):
        dia_of[text].add(dia)
    rows: list[dict[str, Any]] = []
    with Memory.open(db) as memory:
        for qa in (conv["qa"][:max_questions] if max_questions else conv["qa"]):
            evidence = {e.strip() for ev in qa.get("evidence", []) for e in str(ev).replace(",", ";").split(";")
                        if e.strip()}
            if not evidence:
                continue
            start = time.perf_counter()
            hits = memory.search_semantic(qa["question"], limit, record=False, **extra)
            ms = (time.perf_counter() - start) * 1000
            rows.append(score_row(qa, evidence, answer_facts({"results": hits})[:limit], dia_of,
                                  json.dumps(hits, ensure_ascii=False), ms))
    return rows


def score_row(qa: dict[str, Any], evidence: set[str], got: list[str], dia_of: dict[str, set[str]],
              text: str, ms: float) -> dict[str, Any]:
    found: set[str] = set()
    first = 0
    for rank, fact in enumerate(got, start=1):
        hit = dia_of.get(fact, set()) & evidence
        if hit and not first:
            first = rank
        found |= hit
    return {"category": qa["category"], "recall": len(found) / len(evidence),
            "rr": 1 / first if first else 0.0, "tokens": len(text) / 4, "ms": ms}


async def run_conversation(conv: dict[str, Any], shape: str, db: Path, limit: int, extra: dict[str, Any],
                           errlog: Any, max_questions: int | None,
                           graph: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """``graph``: the server's HIPOCAMPO_* settings of a FalkorDB graph (always written afresh)."""
    facts = facts_of(conv)
    dia_of: dict[str, set[str]] = defaultdict(set)
    for _, text, dia, _ in facts:
        dia_of[text].add(dia)
    fresh = graph is not None or not db.exists()
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "core.cli", "--db", str(db), "mcp", "--no-bridge"], cwd=str(ROOT),
        env={**os.environ, "PYTHONPATH": str(ROOT),
             "HIPOCAMPO_EMBEDDINGS": os.environ.get("HIPOCAMPO_EMBEDDINGS", "onnx"), **(graph or {})},
    )
    rows: list[dict[str, Any]] = []
    async with Client(stdio_client(params, errlog=errlog)) as client:
        if fresh:
            for tool, args in writes_for(shape, facts):
                result = await client.call_tool(tool, args)
                if result.is_error:
                    raise RuntimeError(f"{tool} failed: {result.content[0].text}")  # type: ignore[union-attr]
        await wait_embedded(client, time.monotonic() + EMBED_DEADLINE_S)
        questions = conv["qa"][:max_questions] if max_questions else conv["qa"]
        for qa in questions:
            evidence = {e.strip() for ev in qa.get("evidence", []) for e in str(ev).replace(",", ";").split(";")
                        if e.strip()}
            if not evidence:
                continue
            start = time.perf_counter()
            result = await client.call_tool("search_semantic", {"query": qa["question"], "limit": limit, **extra})
            ms = (time.perf_counter() - start) * 1000
            if result.is_error:
                raise RuntimeError(f"search_semantic failed: {result.content[0].text}")  # type: ignore[union-attr]
            got = answer_facts(result.structured_content)[:limit]
            text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
            rows.append(score_row(qa, evidence, got, dia_of, text, ms))
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def figures(sel: list[dict[str, Any]]) -> dict[str, float]:
        return {"n": len(sel), "r5": statistics.fmean(r["recall"] for r in sel),
                "mrr": statistics.fmean(r["rr"] for r in sel)}

    out: dict[str, Any] = {"all": figures(rows)}
    for cat, label in CATEGORIES.items():
        sel = [r for r in rows if r["category"] == cat]
        if sel:
            out[label] = figures(sel)
    ms = sorted(r["ms"] for r in rows)
    out["tokens_median"] = statistics.median(r["tokens"] for r in rows)
    out["p50_ms"] = statistics.median(ms)
    out["p95_ms"] = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return out


def table(results: dict[str, dict[str, Any]]) -> str:
    labels = ["all", *CATEGORIES.values()]
    lines = ["| shape | " + " | ".join(f"{c} R@5 / MRR" for c in labels) + " | answer tokens (median) | p50 / p95 ms |",
             "|---" * (len(labels) + 3) + "|"]
    for shape, s in results.items():
        cells = [f"{s[c]['r5']:.3f} / {s[c]['mrr']:.3f}" if c in s else "–" for c in labels]
        lines.append(f"| {shape} | " + " | ".join(cells)
                     + f" | {s['tokens_median']:,.0f} | {s['p50_ms']:.1f} / {s['p95_ms']:.1f} |")
    return "\n".join(lines)


def parse_range(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        out.extend(range(int(a), int(b or a) + 1))
    return out


async def main_async(args: argparse.Namespace) -> int:
    global DATED
    DATED = args.dated
    data = json.loads(Path(args.data).read_text(encoding="utf-8"))
    convs = [data[i] for i in parse_range(args.conversations)]
    shapes = ["chunk", "speaker"] if args.shape == "both" else [args.shape]
    extra = json.loads(args.extra) if args.extra else {}
    workdir = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="locomo-"))
    workdir.mkdir(parents=True, exist_ok=True)
    results: dict[str, dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        url = None
        if args.falkordb:
            sys.path.insert(0, str(ROOT))
            from tests.graph_server import falkordb_server

            url = stack.enter_context(falkordb_server(workdir / "falkordb"))
        errlog = stack.enter_context(open(workdir / "servers.log", "a"))
        for shape in shapes:
            rows: list[dict[str, Any]] = []
            for k, conv in zip(parse_range(args.conversations), convs, strict=True):
                started = time.perf_counter()
                db = workdir / f"{shape}-{k}.db"
                graph = {"HIPOCAMPO_BACKEND": "falkordb", "HIPOCAMPO_GRAPH_URL": url,
                         "HIPOCAMPO_GRAPH_NAME": f"{shape}-{k}"} if url else None
                if args.direct:
                    rows += run_direct(conv, db, args.limit, extra, args.max_questions)
                else:
                    rows += await run_conversation(conv, shape, db, args.limit, extra, errlog, args.max_questions,
                                                   graph)
                print(f"{shape} conversation {k}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
            results[shape] = summary(rows)
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=str(default_data()), help="locomo-dev.json (default: ../shared/data/)")
    parser.add_argument("--conversations", default="0-4", help="e.g. 0 or 0-4 or 0,2")
    parser.add_argument("--shape", choices=["chunk", "speaker", "both"], default="both")
    parser.add_argument("--limit", type=int, default=5)
    parser.add_argument("--max-questions", type=int, default=None, help="at most this many per conversation")
    parser.add_argument("--extra", default="", help="more search_semantic arguments, as JSON")
    parser.add_argument("--keep", default="", help="keep (and reuse) the databases in this folder")
    parser.add_argument("--json", default="", help="also write the figures here")
    parser.add_argument("--falkordb", action="store_true",
                        help="on a FalkorDB server started for the bench (each memory written afresh)")
    parser.add_argument("--dated", action="store_true",
                        help="write each fact after its session's date, as dated observations are written")
    parser.add_argument("--direct", action="store_true",
                        help="query kept databases in this process (no MCP, nothing recorded): for tuning")
    return anyio.run(main_async, parser.parse_args())


if __name__ == "__main__":
    raise SystemExit(main())
