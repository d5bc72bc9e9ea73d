"""What Hipocampo costs while it runs all day: resident memory and idle CPU.

    .venv/bin/python bench/footprint_bench.py                       # app, hub and stdio server
    .venv/bin/python bench/footprint_bench.py --only app --idle 60
    .venv/bin/python bench/footprint_bench.py --code ../other-checkout   # the same, another checkout's code

Each process runs on a copy of one 10,000-entity memory whose entities are already embedded (made
once with ``scripts/demo_memory.py`` and the local model, kept in the temp folder), with the local
model loaded, and is left alone until nothing more happens (no pending embeddings, resident memory
steady). Then, over ``--idle`` seconds of doing nothing:

* **RSS**: VmRSS at the start of the idle window, and the peak (VmHWM) since the process started;
* **idle CPU**: user + system time over the window, as a percentage of one core;
* **wakeups/s**: voluntary + involuntary context switches of all its threads per second, and the
  threads that woke most (by name), which is what to look at when idle CPU is not near zero.

1. **app**: the desktop app in a fresh process (offscreen), window shown, hub serving, panes filled.
   After the idle window it also measures how late a write by another connection shows in the app
   (``live update``: from the write's commit to the change feed's signal), five times.
2. **hub**: ``hipocampo mcp --http`` with a client that searched by meaning and created a few
   entities (so the model and the indexer have both worked), then stayed connected and silent.
3. **server**: ``hipocampo mcp --no-bridge`` on stdio, the same calls.

``--search N`` instead times search on the same memory in a fresh process of the ``--code``
checkout, the model loaded and every vector in memory: the entity vector search alone
(``vectors.search``, k = 40, the query vectors of the quality set's questions) and
``search_semantic`` whole (query embedding included), N rounds over the questions; medians and
95th percentiles in ms (wall time, and for ``search_semantic`` also the process's CPU time, which
a loaded machine disturbs less), and the process's RSS after.

Figures go in ``bench/RESULTS.md`` by hand; nothing asserts on them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: The checkout whose code a child process runs (``--code``), first on its path.
CODE = Path(os.environ.get("HIPOCAMPO_BENCH_CODE") or ROOT)
if str(CODE) not in sys.path:
    sys.path.insert(0, str(CODE))

TICKS = os.sysconf("SC_CLK_TCK")


# -- measuring a process from /proc ---------------------------------------------------------------


def status(pid: int | str = "self") -> dict[str, int]:
    """VmRSS and VmHWM in KiB."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    return out


def cpu_seconds(pid: int | str = "self") -> float:
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def _python_thread_names() -> dict[int, str]:
    """This process's Python threads by native id (the OS knows them all as "python")."""
    return {t.native_id: t.name for t in threading.enumerate() if t.native_id is not None}


def thread_switches(pid: int | str = "self") -> dict[str, int]:
    """Context switches per thread name (threads of one name added up)."""
    out: dict[str, int] = {}
    names = _python_thread_names() if pid == "self" else {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = names.get(int(task.name)) or (task / "comm").read_text().strip()
            switches = 0
            for line in (task / "status").read_text().splitlines():
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    switches += int(line.split()[1])
        except OSError:  # the thread ended meanwhile
            continue
        out[name] = out.get(name, 0) + switches
    return out


def top_mappings(pid: int | str = "self", n: int = 8) -> str:
    """The largest resident mappings (MiB): the heap, anonymous memory, each library and file."""
    sizes: dict[str, int] = {}
    current = "[anon]"
    with open(f"/proc/{pid}/smaps") as fh:
        for line in fh:
            head = line.split()
            if "-" in head[0] and len(head) >= 5 and ":" in head[3]:
                current = Path(head[5]).name if len(head) > 5 else "[anon]"
            elif head[0] == "Rss:":
                sizes[current] = sizes.get(current, 0) + int(head[1])
    top = sorted(sizes.items(), key=lambda kv: -kv[1])[:n]
    return ", ".join(f"{name} {kib / 1024:.0f}" for name, kib in top)


def snapshot(pid: int | str) -> tuple[float, dict[str, int], float]:
    return cpu_seconds(pid), thread_switches(pid), time.perf_counter()


def figures(pid: int | str, rss_kib: int, before: tuple[float, dict[str, int], float]) -> dict[str, Any]:
    """RSS, CPU % of a core, wakeups/s and the top wakers since ``before`` (a :func:`snapshot`)."""
    cpu0, sw0, t0 = before
    cpu1, sw1, t1 = snapshot(pid)
    elapsed = t1 - t0
    per_thread = {name: (sw1.get(name, 0) - sw0.get(name, 0)) / elapsed for name in sw1}
    top = sorted(per_thread.items(), key=lambda kv: -kv[1])[:5]
    return {
        "rss_mib": round(rss_kib / 1024, 1),
        "peak_mib": round(status(pid)["VmHWM"] / 1024, 1),
        "idle_cpu_pct": round(100 * (cpu1 - cpu0) / elapsed, 3),
        "wakeups_per_s": round(sum(per_thread.values()), 1),
        "top_wakers": ", ".join(f"{name} {rate:.1f}" for name, rate in top if rate >= 0.05),
    }


def idle_window(pid: int | str, seconds: float) -> dict[str, Any]:
    """Watch ``pid`` doing nothing for ``seconds``."""
    rss = status(pid)["VmRSS"]
    before = snapshot(pid)
    time.sleep(seconds)
    return figures(pid, rss, before)


def settle(pid: int | str, *, quiet_s: float = 4.0, limit_s: float = 240.0) -> None:
    """Until the process used < 2 % of a core over ``quiet_s`` (done loading and embedding)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        time.sleep(quiet_s)
        if (cpu_seconds(pid) - before) / quiet_s < 0.02:
            return


async def settle_async(pid: int | str, *, quiet_s: float = 4.0, limit_s: float = 240.0) -> None:
    """:func:`settle` on an event loop that must keep running meanwhile."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        await asyncio.sleep(quiet_s)
        if (cpu_seconds(pid) - before) / quiet_s < 0.02:
            return


# -- the memory ---------------------------------------------------------------------------------------


def embedded_memory(entities: int, code: Path) -> Path:
    """A memory of ``entities`` entities, all embedded with the local model (made once, then reused)."""
    path = Path(tempfile.gettempdir()) / f"hipocampo-footprint-{entities}.db"
    if not path.exists():
        print(f"making {path} (once; embeds every entity)…", file=sys.stderr)
        partial = path.with_suffix(".partial.db")
        partial.unlink(missing_ok=True)
        subprocess.run([sys.executable, str(code / "scripts" / "demo_memory.py"), str(partial), "--entities",
                        str(entities), "--embeddings", "onnx"], check=True, cwd=code, env=child_env(code))
        partial.rename(path)
    return path


def copy_of(db: Path, folder: Path) -> Path:
    target = folder / "memory.db"
    shutil.copy(db, target)
    return target


def child_env(code: Path, **extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(code), "HIPOCAMPO_BENCH_CODE": str(code), "QT_QPA_PLATFORM": "offscreen",
            "HIPOCAMPO_EMBEDDINGS": "onnx", **extra}


# -- 1. the app -------------------------------------------------------------------------------------


def child_app(db: Path, idle: float) -> None:
    """Run in a fresh process: the app with its hub; settle, watch it idle, then time live updates."""
    from core import processes

    if hasattr(processes, "share_malloc_arenas"):  # as desktop.app.main does, before any thread
        processes.share_malloc_arenas()
    from core.memory import Memory
    from core.settings import Settings
    from desktop.app import HipocampoApp, make_qapplication

    app = make_qapplication()
    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    hipocampo = HipocampoApp(Settings(db=db, actor="gui", close_to_tray=False), first_run=False,
                             hub_file=db.with_suffix(".endpoint.json"))
    hipocampo.finished.connect(app.quit)
    result: dict[str, Any] = {}

    async def scenario() -> None:
        hipocampo.start()
        while hipocampo.hub is None or not hipocampo.hub.running or hipocampo.memory is None:
            await asyncio.sleep(0.1)
        while not hipocampo.memory.embedder.loaded:
            await asyncio.sleep(0.1)
        await settle_async("self")
        if os.environ.get("HIPOCAMPO_BENCH_TRIM"):
            from core.processes import release_freed_memory

            release_freed_memory()
        rss = status("self")["VmRSS"]
        before = snapshot("self")
        await asyncio.sleep(idle)  # the loop runs on: every timer fires as it would
        result.update(figures("self", rss, before))
        result["mappings"] = top_mappings("self")
        result["live_update_ms"] = await live_updates(hipocampo, db, Memory, Settings)
        hipocampo.quit(force=True)

    asyncio.ensure_future(scenario())
    with loop:
        loop.run_forever()
    print(json.dumps(result))


async def live_updates(hipocampo: Any, db: Path, memory_cls: Any, settings_cls: Any) -> float:
    """Worst of five: a write by another connection until the app's change feed reports it (ms)."""
    seen: dict[str, float] = {}
    hipocampo.feed.changed.connect(
        lambda rows: [seen.setdefault(str(r.entity), time.perf_counter()) for r in rows])
    worst = 0.0
    other = memory_cls(settings_cls(db=db, embeddings="none", actor="other"))
    try:
        for i in range(5):
            name = f"live update {i} {time.time()}"
            written: list[float] = []

            def write(name: str = name, written: list[float] = written) -> None:
                other.create_entities([{"name": name, "entityType": "note", "observations": ["x"]}])
                written.append(time.perf_counter())

            thread = threading.Thread(target=write)
            thread.start()
            while name not in seen or not written:
                await asyncio.sleep(0.005)
            thread.join()
            worst = max(worst, (seen[name] - written[0]) * 1000)
            await asyncio.sleep(1.3)  # apart, so each one meets the feed idle
    finally:
        other.close()
    return round(worst, 1)


def bench_app(db: Path, code: Path, idle: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        copy = copy_of(db, Path(tmp))
        env = child_env(code, HIPOCAMPO_SETTINGS_FILE=str(Path(tmp) / "settings.json"),
                        XDG_CONFIG_HOME=str(Path(tmp) / "config"))
        out = subprocess.run([sys.executable, __file__, "--child-app", str(copy), "--idle", str(idle)],
                             capture_output=True, text=True, env=env, timeout=900, cwd=code)
        if out.returncode != 0:
            raise SystemExit(f"the app child failed:\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])


# -- 2./3. hub and stdio server ------------------------------------------------------------------------


async def _calls(client: Any) -> None:
    for query in ("¿quién trabaja en el proyecto?", "database decisions", "viaje a Valencia"):
        result = await client.call_tool("search_semantic", {"query": query, "limit": 5})
        assert not result.is_error, result
    result = await client.call_tool("create_entities", {"entities": [
        {"name": f"footprint note {i}", "entityType": "note", "observations": [f"written by the bench, {i}"]}
        for i in range(20)]})
    assert not result.is_error, result


def bench_server(db: Path, code: Path, idle: float, *, http: bool) -> dict[str, Any]:
    import anyio
    import mcp_types as types
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        copy = copy_of(db, Path(tmp))
        env = child_env(code, HIPOCAMPO_ENDPOINT_FILE=str(Path(tmp) / "endpoint.json"))
        if not http:
            params = StdioServerParameters(command=sys.executable, cwd=str(code), env=env,
                                           args=["-m", "core.cli", "--db", str(copy), "mcp", "--no-bridge"])

            async def run_stdio() -> None:
                async with Client(stdio_client(params),
                                  client_info=types.Implementation(name="footprint", version="1")) as client:
                    await _calls(client)
                    pid = _server_pid(copy)
                    await anyio.to_thread.run_sync(settle, pid)
                    result.update(await anyio.to_thread.run_sync(idle_window, pid, idle))
                    result["mappings"] = top_mappings(pid)

            anyio.run(run_stdio)
            return result
        proc = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(copy), "mcp", "--http"], cwd=code,
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            info = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
            token = json.loads((Path(tmp) / "endpoint.json").read_text())["token"]

            async def run_http() -> None:
                import httpx2
                from mcp.client.streamable_http import streamable_http_client

                http_client = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
                async with Client(streamable_http_client(info["url"], http_client=http_client),
                                  client_info=types.Implementation(name="footprint", version="1")) as client:
                    await _calls(client)
                    await anyio.to_thread.run_sync(settle, proc.pid)
                    result.update(await anyio.to_thread.run_sync(idle_window, proc.pid, idle))

            anyio.run(run_http)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    return result


def _server_pid(db: Path) -> int:
    """The stdio server the client started: the python process whose command line names ``db``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if str(db).encode() in cmdline and b"mcp" in cmdline:
            return int(entry.name)
    raise RuntimeError(f"no server process for {db}")


# -- search latency ------------------------------------------------------------------------------------


def child_search(db: Path, rounds: int) -> None:
    """Run in a fresh process: time vector search and search_semantic on ``db`` (a copy)."""
    from core.memory import Memory
    from core.settings import Settings

    queries = [q["query"] for q in json.loads((ROOT / "tests" / "quality" / "dataset.json").read_text())["queries"]]
    with Memory(Settings(db=db, embeddings="onnx", actor="bench")) as mem:
        mem.search_semantic(queries[0], 10, record=False)  # the model and every vector load
        assert mem.embedder is not None
        vectors = [mem.embedder.embed_query(q) for q in queries]
        knn: list[float] = []
        whole: list[float] = []
        whole_cpu: list[float] = []
        for _ in range(rounds):
            for qv in vectors:
                start = time.perf_counter()
                mem.vectors.search(qv, 40)
                knn.append((time.perf_counter() - start) * 1000)
            for query in queries:
                start, cpu = time.perf_counter(), time.process_time()
                mem.search_semantic(query, 10, record=False)
                whole.append((time.perf_counter() - start) * 1000)
                whole_cpu.append((time.process_time() - cpu) * 1000)

        def cut(values: list[float]) -> dict[str, float]:
            values = sorted(values)
            if not values:
                return {}
            return {"median": round(values[len(values) // 2], 2), "p95": round(values[int(len(values) * 0.95)], 2)}

        print(json.dumps({"vector_search_ms": cut(knn), "search_semantic_ms": cut(whole),
                          "search_semantic_cpu_ms": cut(whole_cpu),
                          "rss_mib": round(status("self")["VmRSS"] / 1024, 1), "queries": len(queries)}))


def bench_search(db: Path, code: Path, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        copy = copy_of(db, Path(tmp))
        out = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child-search", str(copy),
                              "--search", str(rounds)],
                             capture_output=True, text=True, env=child_env(code), timeout=900, cwd=code)
        if out.returncode != 0:
            raise SystemExit(f"the search child failed:\n{out.stderr[-3000:]}")
        return json.loads(out.stdout.strip().splitlines()[-1])


# -- main -------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["app", "hub", "server"], action="append")
    parser.add_argument("--entities", type=int, default=10_000)
    parser.add_argument("--db", type=Path, help="an embedded memory to use instead of the generated one")
    parser.add_argument("--idle", type=float, default=30.0, help="seconds of idleness to watch")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code runs (default: this one)")
    parser.add_argument("--search", type=int, metavar="N", help="time search instead (N rounds of the questions)")
    parser.add_argument("--child-app", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--child-search", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_app:
        child_app(args.child_app, args.idle)
        return 0
    if args.child_search:
        child_search(args.child_search, args.search)
        return 0
    code = args.code.resolve()
    db = args.db or embedded_memory(args.entities, code)
    if args.search:
        print(json.dumps({"code": str(code), **bench_search(db, code, args.search)}))
        return 0
    rows = []
    for what in args.only or ["app", "hub", "server"]:
        if what == "app":
            measured = bench_app(db, code, args.idle)
        else:
            measured = bench_server(db, code, args.idle, http=what == "hub")
        rows.append((what, measured))
        print(f"{what}: {json.dumps(measured)}", file=sys.stderr, flush=True)
    print(f"\ncode: {code}   memory: {db.name}   idle window: {args.idle:.0f} s\n")
    print("| process | RSS (MiB) | peak (MiB) | idle CPU (% of a core) | wakeups/s | top wakers (per s) "
          "| live update (ms) |")
    print("|---|---|---|---|---|---|---|")
    for what, f in rows:
        print(f"| {what} | {f['rss_mib']} | {f['peak_mib']} | {f['idle_cpu_pct']} | {f['wakeups_per_s']} | "
              f"{f['top_wakers']} | {f.get('live_update_ms', '')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
