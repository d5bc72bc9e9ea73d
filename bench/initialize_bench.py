"""Time from starting ``hipocampo mcp`` to its answer to ``initialize``: a server that opens the
memory itself, and one that forwards to a running hub, quiet and with every core kept busy.

    python bench/initialize_bench.py [--runs 5] [--hogs 0,8]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}}


def _hog(stop: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    while not stop.is_set():
        sum(i * i for i in range(10_000))


def _time_to_initialize(db: Path, env: dict[str, str], *args: str) -> float:
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(db), "mcp", *args], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    proc.stdin.write(json.dumps(INIT).encode() + b"\n")
    proc.stdin.flush()
    line = proc.stdout.readline()
    took = time.monotonic() - started
    assert b'"result"' in line, line
    proc.stdin.close()
    proc.wait(timeout=60)
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hogs", default="0,8")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db, hub_file = Path(folder) / "m.db", Path(folder) / "endpoint.json"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HIPOCAMPO_ENDPOINT_FILE": str(hub_file),
               "HIPOCAMPO_EMBEDDINGS": "none"}
        hub = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(db), "mcp", "--http"], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        hub.stdout.readline()
        print("| busy processes | server | initialize answered after (s): median | worst |")
        print("|---|---|---|---|")
        try:
            for hogs in (int(h) for h in args.hogs.split(",")):
                stop = multiprocessing.Event()
                workers = [multiprocessing.Process(target=_hog, args=(stop,), daemon=True) for _ in range(hogs)]
                for w in workers:
                    w.start()
                try:
                    for kind, extra in (("opens the memory", ("--no-bridge",)), ("forwards to the hub", ())):
                        times = [_time_to_initialize(db, env, *extra) for _ in range(args.runs)]
                        print(f"| {hogs} | {kind} | {statistics.median(times):.2f} | {max(times):.2f} |", flush=True)
                finally:
                    stop.set()
                    for w in workers:
                        with contextlib.suppress(Exception):
                            w.join(5)
        finally:
            hub.terminate()
            hub.wait(timeout=30)


if __name__ == "__main__":
    main()
