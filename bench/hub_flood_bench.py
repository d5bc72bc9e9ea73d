"""The hub under a connection flood from a local process without the token.

    python bench/hub_flood_bench.py [--sockets 2000] [--fd-limit 256,1024] [--runs 3]

Starts ``hipocampo mcp --http`` with the given descriptor limit, opens ``--sockets`` sockets to it
(half send headers that never end) and holds them, then times an authenticated ``/health`` and
counts the hub's descriptors and its CPU share while the flood is held; then SIGTERM and the time
to exit.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parents[1]
PARTIAL = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(sockets: int, fd_limit: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        hub_file = Path(folder) / "endpoint.json"
        env = {**os.environ, "PYTHONPATH": str(ROOT), "HIPOCAMPO_ENDPOINT_FILE": str(hub_file),
               "HIPOCAMPO_EMBEDDINGS": "none"}

        def lower() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

        proc = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(Path(folder) / "h.db"), "mcp",
                                 "--http"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, preexec_fn=lower)
        info = json.loads(proc.stdout.readline())
        token = json.loads(hub_file.read_text())["token"]
        held = []
        try:
            for i in range(sockets):
                sock = socket.socket()
                sock.setblocking(False)
                sock.connect_ex(("127.0.0.1", info["port"]))
                held.append(sock)
                if i % 2:
                    with contextlib.suppress(OSError):
                        sock.send(PARTIAL)
            started = time.monotonic()
            response = httpx2.get(f"http://127.0.0.1:{info['port']}/health",
                                  headers={"Authorization": f"Bearer {token}"}, timeout=60)
            answered = time.monotonic() - started
            assert response.status_code == 200
            fds = len(os.listdir(f"/proc/{proc.pid}/fd"))
            before, at = _cpu(proc.pid), time.monotonic()
            time.sleep(2.0)
            cpu = (_cpu(proc.pid) - before) / (time.monotonic() - at)
            proc.send_signal(signal.SIGTERM)
            stopping = time.monotonic()
            proc.wait(timeout=60)
            return {"answer": answered, "fds": fds, "cpu": cpu, "exit": time.monotonic() - stopping}
        finally:
            for sock in held:
                sock.close()
            if proc.poll() is None:
                proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--fd-limit", default="256,1024")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, args.sockets + 1000), hard))
    print("| hub descriptor limit | sockets held | authenticated /health (s), each | hub fds | hub CPU share "
          "while held | SIGTERM to exit (s) |")
    print("|---|---|---|---|---|---|")
    for limit in (int(x) for x in args.fd_limit.split(",")):
        runs = [one_run(args.sockets, limit) for _ in range(args.runs)]
        answers = ", ".join(f"{r['answer']:.3f}" for r in runs)
        print(f"| {limit} | {args.sockets} | {answers} | "
              f"{max(r['fds'] for r in runs):.0f} | {max(r['cpu'] for r in runs):.2f} | "
              f"{max(r['exit'] for r in runs):.2f} |", flush=True)


if __name__ == "__main__":
    main()
