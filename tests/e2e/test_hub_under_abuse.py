"""The hub (``hipocampo mcp --http``) under a connection flood from a local process without the
token: a real hub process started with a low descriptor limit, 2,000 sockets held open against
it (half of them sending headers that never end), loopback only."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest

from core.server.transports.connections import connection_cap
from tests.e2e.conftest import ROOT, START_TIMEOUT_S, Hub, read_line, server_env

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc (Linux)")

HUB_FD_LIMIT = 256  # low, so the flood is ~8 times what the hub may open
FLOOD = 2000
PARTIAL = b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "  # headers that never end
WAIT_S = 30.0  # a cap for a loaded machine (the figures are in bench/RESULTS.md)


def _own_fds_for_the_flood() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FLOOD + 500
    if soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.skip(f"the test needs {wanted} descriptors; the hard limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _start_limited_hub(db: Path, hub_file: Path) -> Hub:
    def lower_limit() -> None:  # in the child, before it execs: the hub runs under this limit
        resource.setrlimit(resource.RLIMIT_NOFILE, (HUB_FD_LIMIT, HUB_FD_LIMIT))

    process = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--db", str(db), "mcp", "--http"], cwd=ROOT,
        env={**os.environ, **server_env(hub_file)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lower_limit,
    )
    info = json.loads(read_line(process.stdout, START_TIMEOUT_S))
    return Hub(process, info, json.loads(hub_file.read_text())["token"])


@contextlib.contextmanager
def _flood(port: int, n: int = FLOOD) -> Iterator[list[socket.socket]]:
    held: list[socket.socket] = []
    try:
        for i in range(n):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.connect_ex(("127.0.0.1", port))
            held.append(sock)
            if i % 2:
                with contextlib.suppress(OSError):
                    sock.send(PARTIAL)
        yield held
    finally:
        for sock in held:
            sock.close()


def _descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _health(hub: Hub) -> dict[str, object]:
    response = httpx2.get(f"http://127.0.0.1:{hub.info['port']}/health",
                          headers={"Authorization": f"Bearer {hub.token}"}, timeout=WAIT_S)
    response.raise_for_status()
    return response.json()


def _tools_call(hub: Hub) -> dict[str, object]:
    """One whole MCP session with the SDK's own client: connect, read_graph."""

    async def call() -> dict[str, object]:
        with anyio.fail_after(WAIT_S):
            async with hub.client("flooded") as client:
                result = await client.call_tool("read_graph", {})
                return dict(result.structured_content or {})

    return anyio.run(call)


def test_a_flood_of_sockets_without_the_token_cannot_keep_an_assistant_out(tmp_path: Path, hub_file: Path) -> None:
    _own_fds_for_the_flood()
    hub = _start_limited_hub(tmp_path / "hub.db", hub_file)
    try:
        with _flood(hub.info["port"]):
            started = time.monotonic()
            assert _health(hub)["ok"] is True
            graph = _tools_call(hub)
            print(f"\nanswered under a flood of {FLOOD} sockets in {time.monotonic() - started:.3f} s")
            assert graph == {"entities": [], "relations": []}
            # The hub keeps its connections under the cap, far from its descriptor limit.
            assert _descriptors(hub.process.pid) < HUB_FD_LIMIT - 32
            assert connection_cap(HUB_FD_LIMIT) < HUB_FD_LIMIT // 2
            # Held open, the flood costs the hub nothing: no spinning on a descriptor it cannot get.
            before, at = _cpu_seconds(hub.process.pid), time.monotonic()
            while time.monotonic() - at < 2.0:
                time.sleep(0.2)
            assert _cpu_seconds(hub.process.pid) - before < 0.5 * (time.monotonic() - at)
            hub.process.send_signal(signal.SIGTERM)
            stopping = time.monotonic()
            assert hub.process.wait(timeout=WAIT_S) == 0
            print(f"SIGTERM under the flood: exited in {time.monotonic() - stopping:.2f} s")
        errors = hub.process.stderr.read()
        assert "Too many open files" not in errors and "Invalid file descriptor" not in errors, errors[-2000:]
        assert "port" not in json.loads(hub_file.read_text())  # withdrawn on the way out
    finally:
        if hub.process.poll() is None:
            hub.process.kill()
            hub.process.wait()


def test_sockets_that_never_finish_their_headers_are_closed(tmp_path: Path, hub_file: Path) -> None:
    from core.server.transports.connections import HEADER_TIMEOUT_S

    hub = _start_limited_hub(tmp_path / "hub.db", hub_file)
    try:
        with _flood(hub.info["port"], 20) as held:
            for sock in held:
                sock.setblocking(True)
                sock.settimeout(HEADER_TIMEOUT_S + WAIT_S)
            assert _health(hub)["ok"] is True  # served meanwhile
            for sock in held:  # each one is closed by the hub (end of stream, or reset)
                try:
                    assert sock.recv(1024) == b""
                except ConnectionResetError:
                    pass
    finally:
        hub.stop()
