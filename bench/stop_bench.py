"""How fast ``hipocampo mcp`` (stdio, and the hub) and the desktop app stop on SIGTERM/SIGINT while
they embed, quiet and with every core kept busy, and whether they give up the embedding lease.

    python bench/stop_bench.py [--runs 3] [--entities 600] [--hogs 0,8] [--kinds stdio,hub,app]
                               [--after 8] [--code CHECKOUT]

Each run: a fresh memory of N entities (nothing embedded yet), the server started as a client
would (stdin/stdout pipes, the real ONNX model; the app as ``hipocampo-app --tray`` on Qt's
offscreen platform), the signal once the first vectors are stored plus a random 0-1 s (the
embedder is inside a batch), or ``--after`` seconds after start if given,
then the time until the process has exited, its exit code and whether the lease is still in the
database.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CODE = [ROOT]  # the checkout whose servers run (--code, for a "before")

from core.memory import Memory  # noqa: E402
from core.settings import Settings  # noqa: E402
from core.storage.sqlite.connection import connect  # noqa: E402


def _hog(stop: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def _lease(db: Path) -> bool:
    conn = connect(db)
    try:
        return conn.execute("SELECT 1 FROM db_metadata WHERE key = 'embedding_lease'").fetchone() is not None
    finally:
        conn.close()


def _embedded(db: Path) -> int:
    conn = connect(db)
    try:
        return int(conn.execute("SELECT count(*) FROM embedding_state").fetchone()[0])
    finally:
        conn.close()


APP = "import sys; from desktop.launcher import main; sys.exit(main(sys.argv[1:]))"


def one_run(kind: str, sig: signal.Signals, entities: int, after: float | None) -> tuple[float, bool, int]:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "m.db"
        with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
            m.create_entities([{"name": f"e{i}", "entityType": "Note",
                                "observations": [f"fact number {i} about something rather long " * 3]}
                               for i in range(entities)])
        env = {**os.environ, "PYTHONPATH": str(CODE[0]), "HIPOCAMPO_ENDPOINT_FILE": str(Path(folder) / "ep.json"),
               "HIPOCAMPO_EMBEDDINGS": "onnx"}
        if kind == "app":  # the launcher, as hipocampo-app starts it; its settings in the temporary folder
            env.update(QT_QPA_PLATFORM="offscreen", DISPLAY=env.get("DISPLAY", ":0"), XDG_CONFIG_HOME=folder,
                       XDG_DATA_HOME=folder)
            command = [sys.executable, "-c", APP, "--db", str(db), "--tray"]
        else:
            command = [sys.executable, "-m", "core.cli", "--db", str(db), "mcp",
                       *(["--http"] if kind == "hub" else ["--no-bridge"])]
        proc = subprocess.Popen(command, cwd=CODE[0], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
        if kind == "stdio":
            init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}
            proc.stdin.write(json.dumps(init).encode() + b"\n")
            proc.stdin.flush()
        if after is not None:
            time.sleep(after)
        else:  # mid-batch: the first vectors are stored, more are being embedded
            deadline = time.monotonic() + 240
            while _embedded(db) == 0 and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(random.uniform(0.0, 1.0))
        proc.send_signal(sig)
        sent = time.monotonic()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        took = time.monotonic() - sent
        return took, _lease(db), proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--entities", type=int, default=600)
    parser.add_argument("--after", type=float, default=None, help="signal this long after start (default: mid-batch)")
    parser.add_argument("--hogs", default="0,8", help="busy processes beside the server, per row")
    parser.add_argument("--kinds", default="stdio,hub")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose servers run (for a before)")
    args = parser.parse_args()
    CODE[0] = args.code
    print("| process | signal | busy processes | runs | exit (s): each | worst | exit codes | lease left |")
    print("|---|---|---|---|---|---|---|---|")
    for hogs in (int(h) for h in args.hogs.split(",")):
        stop = multiprocessing.Event()
        workers = [multiprocessing.Process(target=_hog, args=(stop,), daemon=True) for _ in range(hogs)]
        for w in workers:
            w.start()
        try:
            for kind in args.kinds.split(","):
                for sig in (signal.SIGTERM, signal.SIGINT):
                    results = [one_run(kind, sig, args.entities, args.after) for _ in range(args.runs)]
                    times = ", ".join(f"{t:.2f}" for t, _, _ in results)
                    left = sum(1 for _, lease, _ in results if lease)
                    codes = ", ".join(str(code) for _, _, code in results)
                    print(f"| {kind} | {sig.name} | {hogs} | {args.runs} | {times} | "
                          f"{max(t for t, _, _ in results):.2f} | {codes} | {left} |", flush=True)
        finally:
            stop.set()
            for w in workers:
                with contextlib.suppress(Exception):
                    w.join(5)


if __name__ == "__main__":
    main()
