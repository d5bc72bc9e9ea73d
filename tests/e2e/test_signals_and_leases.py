"""Stopping ``hipocampo mcp`` with SIGINT/SIGTERM while it embeds; a dead holder's lease."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from core.embeddings.indexer import LEASE_SECONDS
from core.memory import Memory
from core.settings import Settings
from core.storage.sqlite.connection import connect
from tests.e2e.conftest import ROOT, START_TIMEOUT_S, read_line, server_env
from tests.jsonrpc import initialize_request

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def lease_of(db: Path) -> dict[str, str] | None:
    conn = connect(db)
    try:
        row = conn.execute("SELECT value FROM db_metadata WHERE key = 'embedding_lease'").fetchone()
        return json.loads(row[0]) if row else None
    finally:
        conn.close()


def embedded(db: Path) -> int:
    conn = connect(db)
    try:
        return conn.execute("SELECT count(*) FROM embedding_state").fetchone()[0]
    finally:
        conn.close()


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.05)


def many_pending(db: Path, n: int = 2000) -> None:
    with Memory(Settings(db=db, embeddings="none")) as m:
        m.create_entities([{"name": f"e{i}", "observations": [f"fact number {i} about something"]}
                           for i in range(n)])


def start_server(db: Path, hub_file: Path, model_dir: Path, **extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, **server_env(hub_file, HIPOCAMPO_EMBEDDINGS="onnx", HIPOCAMPO_MODEL_DIR=str(model_dir),
                                      **extra)}
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(db), "mcp", "--no-bridge"],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(initialize_request("signals")) + "\n")
    proc.stdin.flush()
    assert '"result"' in read_line(proc.stdout, START_TIMEOUT_S)
    return proc


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_the_server_mid_embedding_and_frees_the_lease(
    tmp_path: Path, hub_file: Path, model_dir: Path, sig: signal.Signals
) -> None:
    db = tmp_path / "m.db"
    many_pending(db)
    proc = start_server(db, hub_file, model_dir)
    try:
        wait_for(lambda: embedded(db) > 0, 60, "the server starts embedding")
        assert lease_of(db) is not None
        proc.send_signal(sig)
        assert proc.wait(timeout=15) == 128 + sig  # STOP_GRACE_SECONDS bounds it; 15 s is a generous cap
        assert lease_of(db) is None
        assert embedded(db) < 2000  # it really was stopped mid-way
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_dead_holders_lease_is_taken_over_at_once(tmp_path: Path, hub_file: Path, model_dir: Path) -> None:
    db = tmp_path / "m.db"
    many_pending(db, 50)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    conn = connect(db)
    until = "9999-01-01T00:00:00.000Z"  # far beyond LEASE_SECONDS: only the dead pid can free it
    conn.execute("INSERT OR REPLACE INTO db_metadata(key, value) VALUES ('embedding_lease', ?)",
                 (json.dumps({"owner": f"{socket.gethostname()}:{gone.pid}:dead", "until": until}),))
    conn.close()
    assert LEASE_SECONDS < 3600
    proc = start_server(db, hub_file, model_dir)
    try:
        wait_for(lambda: embedded(db) == 50, 60, "the new server embeds everything")
        assert (lease_of(db) or {}).get("owner", "").split(":")[1] == str(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_killed_mid_embedding_the_next_server_resumes_at_once(
    tmp_path: Path, hub_file: Path, model_dir: Path, seed: int
) -> None:
    db = tmp_path / "m.db"
    many_pending(db, 300)
    first = start_server(db, hub_file, model_dir)
    try:
        wait_for(lambda: embedded(db) >= 40 * seed, 120, "the first server embeds")
    finally:
        first.kill()  # SIGKILL: no clean-up, the lease stays behind
        first.wait()
    assert lease_of(db) is not None
    conn = connect(db)
    try:
        assert conn.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    second = start_server(db, hub_file, model_dir)
    try:
        wait_for(lambda: embedded(db) == 300, 180, "the next server finishes the embedding")
        assert (lease_of(db) or {}).get("owner", "").split(":")[1] == str(second.pid)
    finally:
        second.send_signal(signal.SIGTERM)
        second.wait(timeout=15)


def test_on_a_graph_server_a_signal_stops_the_server_mid_embedding_and_frees_the_lease(
    tmp_path: Path, hub_file: Path, model_dir: Path, graph_settings: dict[str, object]
) -> None:
    """The same lease on FalkorDB: several servers share the graph, only the holder embeds."""
    from core.storage.factory import create_stores

    settings = Settings(db=tmp_path / "unused.db", embeddings="none", **graph_settings)  # type: ignore[arg-type]
    with Memory(settings) as m:
        m.create_entities([{"name": f"e{i}", "observations": [f"fact number {i} about something"]}
                           for i in range(2000)])
    stores = create_stores(settings)
    try:
        def embedded() -> int:
            return stores.vectors.count()

        env = {f"HIPOCAMPO_{k.upper()}": str(v) for k, v in graph_settings.items()}
        proc = start_server(tmp_path / "unused.db", hub_file, model_dir, **env)
        try:
            wait_for(lambda: embedded() > 0, 60, "the server starts embedding")
            assert stores.vectors.lease() is not None
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=15) == 128 + signal.SIGTERM
            assert stores.vectors.lease() is None
            assert embedded() < 2000  # it really was stopped mid-way
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    finally:
        stores.graph.close()
    assert not (tmp_path / "unused.db").exists()


def _busy() -> None:
    while True:
        sum(i * i for i in range(10_000))


def start_hub(db: Path, hub_file: Path, model_dir: Path) -> subprocess.Popen[str]:
    env = {**os.environ, **server_env(hub_file, HIPOCAMPO_EMBEDDINGS="onnx", HIPOCAMPO_MODEL_DIR=str(model_dir))}
    proc = subprocess.Popen([sys.executable, "-m", "core.cli", "--db", str(db), "mcp", "--http"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert '"url"' in read_line(proc.stdout, START_TIMEOUT_S)  # its ready line: it serves
    return proc


@pytest.mark.parametrize("kind", ["stdio", "hub"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_with_every_core_busy_a_signal_stops_the_server_mid_batch_and_frees_the_lease(
    tmp_path: Path, hub_file: Path, model_dir: Path, sig: signal.Signals, kind: str
) -> None:
    """At load 8 (8 busy processes on this machine's cores, for the length of the test), the
    embedder must not keep the stop waiting: its pass ends at the next operator, its threads are
    not niced (a starved thread holding the GIL delayed the handler, and a process ends only once
    each of its threads has run to die), and the process leaves without the interpreter's
    teardown. A clean exit: the signal's code, never faulthandler's, and the lease given up."""
    import multiprocessing

    db = tmp_path / "m.db"
    many_pending(db, 600)
    hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(8)]
    proc = start_server(db, hub_file, model_dir) if kind == "stdio" else start_hub(db, hub_file, model_dir)
    try:
        wait_for(lambda: embedded(db) > 0, 120, "the server starts embedding")
        for hog in hogs:
            hog.start()
        wait_for(lambda: embedded(db) > 32, 120, "the server embeds under load")  # mid-batch, under load
        proc.send_signal(sig)
        stopping = time.monotonic()
        code = proc.wait(timeout=15)
        print(f"\n{kind} {sig.name} at load 8, mid-batch: exited in {time.monotonic() - stopping:.2f} s")
        # The clean stop (the hub's: 0) or its timer (128 + the signal), both giving up the lease;
        # never faulthandler's last resort (1), which leaves a dead holder's lease behind.
        assert code == 128 + sig or (kind == "hub" and code == 0)
        assert lease_of(db) is None
        assert embedded(db) < 600  # it really was stopped mid-way
    finally:
        for hog in hogs:
            if hog.is_alive():
                hog.kill()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
