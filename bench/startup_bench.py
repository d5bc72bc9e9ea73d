"""Start-up of the stdio server: process spawn → first ``tools/list`` answered, through the MCP SDK's
stdio client (``initialize``, ``notifications/initialized``, ``tools/list``), as an assistant starts it.

    .venv/bin/python bench/startup_bench.py [--runs 10] [--entities 10000] [--embeddings onnx]
    .venv/bin/python bench/startup_bench.py --compare <git-rev>   # that commit and this tree, alternately

The memory is made once (``--entities`` entities through ``core.Memory``, no vectors); every run starts
a fresh ``python -m core.cli --db … mcp --no-bridge``. With ``--compare`` a worktree of the given
revision is checked out in a temporary folder and the two are started in turn, so both see the same load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import realistic_graph  # noqa: E402


def make_memory(db: Path, entities: int) -> None:
    from core.memory import Memory
    from core.settings import Settings

    ents, rels = realistic_graph(entities)
    with Memory(Settings(db=db, embeddings="none")) as memory:
        memory.create_entities(ents)
        memory.create_relations(rels)


def params(tree: Path, db: Path, embeddings: str) -> StdioServerParameters:
    env = {"HIPOCAMPO_EMBEDDINGS": embeddings, "PYTHONPATH": str(tree), "PATH": os.environ.get("PATH", "")}
    return StdioServerParameters(command=sys.executable, args=["-m", "core.cli", "--db", str(db), "mcp", "--no-bridge"],
                                 cwd=str(tree), env=env)


async def one_start(p: StdioServerParameters, errlog: object) -> float:
    start = time.perf_counter()
    async with Client(stdio_client(p, errlog=errlog)) as client:  # type: ignore[arg-type]
        tools = await client.list_tools()
        took = time.perf_counter() - start
        assert tools.tools, "no tools listed"
    return took


async def run(args: argparse.Namespace, work: Path) -> None:
    db = work / "memory.db"
    make_memory(db, args.entities)
    trees: dict[str, Path] = {"this tree": ROOT}
    if args.compare:
        other = work / "compare"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(other), args.compare],
                       check=True, capture_output=True)
        models = ROOT / "resources" / "models"
        if models.exists():
            target = other / "resources" / "models"
            if target.exists() or target.is_symlink():
                subprocess.run(["rm", "-rf", str(target)], check=True)
            target.symlink_to(models.resolve())
        trees = {args.compare: other, "this tree": ROOT}
    times: dict[str, list[float]] = {name: [] for name in trees}
    errlog = open(work / "servers.log", "a")  # noqa: SIM115
    try:
        for tree in trees.values():  # one start each first: page cache, .pyc files
            await one_start(params(tree, db, args.embeddings), errlog)
        for _ in range(args.runs):
            for name, tree in trees.items():
                times[name].append(await one_start(params(tree, db, args.embeddings), errlog))
    finally:
        errlog.close()
        if args.compare:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(work / "compare")],
                           check=False, capture_output=True)
    load = os.getloadavg()
    print(f"spawn → first tools/list, {args.runs} runs each, {args.entities:,} entities, "
          f"HIPOCAMPO_EMBEDDINGS={args.embeddings}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    print("| | median | min | max |\n|---|---|---|---|")
    for name, values in times.items():
        print(f"| {name} | {statistics.median(values):.3f} s | {min(values):.3f} s | {max(values):.3f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--entities", type=int, default=10000)
    parser.add_argument("--embeddings", default="onnx", choices=("onnx", "none"))
    parser.add_argument("--compare", default="", help="a git revision to start alternately with this tree")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        anyio.run(run, args, Path(work))


if __name__ == "__main__":
    main()
