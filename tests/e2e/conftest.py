"""Real processes: ``hipocampo mcp`` over stdio, ``hipocampo mcp --http`` as the hub.

Every process gets its own database and hub file (``HIPOCAMPO_ENDPOINT_FILE``), passed in the
environment explicitly: ``stdio_client`` gives a child only HOME, LOGNAME, PATH, SHELL, TERM, USER.
Embeddings are off unless a test says otherwise: these tests are about processes and protocol.
Where the storage matters a test takes ``backend``: it runs once on a SQLite file and once on a graph
of the session's FalkorDB server (tests/graph_server.py), which the processes reach through
``backend.env``.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from core.memory import Memory
from core.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60.0


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass
class Backend:
    """Where a test's memory lives: ``settings`` is empty for SQLite (the ``--db`` file is the memory)."""

    name: str
    settings: dict[str, Any]

    @property
    def env(self) -> dict[str, str]:
        """What a server process needs to use this backend (HIPOCAMPO_BACKEND, _GRAPH_URL, _GRAPH_NAME)."""
        return {f"HIPOCAMPO_{k.upper()}": str(v) for k, v in self.settings.items()}

    def open(self, db: Path | str) -> Memory:
        """The same memory the processes use, opened in the test."""
        return Memory(Settings(db=Path(db), embeddings="none", **self.settings))

    def where(self, db: Path | str) -> str:
        """What ``engrama_status`` and ``hipocampo status`` call this memory."""
        if self.name == "sqlite":
            return str(db)
        return f"{self.settings['graph_url']} graph {self.settings['graph_name']}"


@pytest.fixture(params=["sqlite", "falkordb"])
def backend(request: pytest.FixtureRequest) -> Backend:
    settings = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    return Backend(request.param, dict(settings))


@pytest.fixture
def hub_file(tmp_path: Path) -> Path:
    return tmp_path / "config" / "endpoint.json"


def server_env(hub_file: Path, **extra: str) -> dict[str, str]:
    return {"HIPOCAMPO_ENDPOINT_FILE": str(hub_file), "HIPOCAMPO_EMBEDDINGS": "none", **extra}


def stdio_params(db: Path, hub_file: Path, *args: str, **env: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "core.cli", "--db", str(db), "mcp", *args],
        cwd=str(ROOT),
        env=server_env(hub_file, **env),
    )


def stdio_client_for(
    db: Path, hub_file: Path, name: str = "e2e-stdio", *args: str, errlog: Any = None, **env: str
) -> Client:
    """An SDK client that starts ``hipocampo mcp`` as a subprocess."""
    transport = stdio_client(stdio_params(db, hub_file, *args, **env), errlog=errlog or sys.stderr)
    return Client(transport, client_info=types.Implementation(name=name, version="1"))


@dataclass
class Hub:
    process: subprocess.Popen[str]
    info: dict[str, Any]
    token: str

    @property
    def url(self) -> str:
        return self.info["url"]

    def client(self, name: str = "e2e-http") -> Client:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {self.token}"})
        return Client(
            streamable_http_client(self.url, http_client=http),
            client_info=types.Implementation(name=name, version="1"),
        )

    def stop(self) -> int:
        """SIGTERM, as a service manager would; the exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=START_TIMEOUT_S)


def read_line(stream: Any, timeout: float) -> str:
    """The next line of ``stream``, waiting at most ``timeout`` seconds (read on a thread)."""
    box: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: box.put(stream.readline()), daemon=True).start()
    try:
        return box.get(timeout=timeout)
    except queue.Empty:
        raise TimeoutError(f"no line within {timeout} s") from None


def start_hub(db: Path, hub_file: Path, **env: str) -> Hub:
    process = subprocess.Popen(
        [sys.executable, "-m", "core.cli", "--db", str(db), "mcp", "--http"],
        cwd=ROOT,
        env={**os.environ, **server_env(hub_file, **env)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = read_line(process.stdout, START_TIMEOUT_S)
        info = json.loads(line)
    except (TimeoutError, ValueError):
        process.kill()
        raise AssertionError(f"the hub did not start: {process.stderr.read()}") from None
    return Hub(process, info, json.loads(hub_file.read_text())["token"])


@pytest.fixture
def hub(tmp_path: Path, hub_file: Path) -> Iterator[Hub]:
    running = start_hub(tmp_path / "hub.db", hub_file)
    yield running
    running.stop()
