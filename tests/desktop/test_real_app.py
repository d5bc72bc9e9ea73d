"""The real app, as a user starts it: ``hipocampo-app`` on an X server (Xvfb, Qt's xcb platform).

It opens its window, serves the MCP endpoint a real SDK client writes through, hands a second
launch over to itself, and on Ctrl-C (SIGINT) stops cleanly: the endpoint withdrawn, exit code 0.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from core.memory import Memory
from core.settings import Settings

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run (./dev installs Debian's xvfb)"),
]
APP = Path(sys.executable).with_name("hipocampo-app")


def _wait(predicate, timeout: float, what: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _endpoint(path: Path) -> dict:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


async def _write_through_hub(url: str, token: str) -> list[str]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
    async with Client(streamable_http_client(url, http_client=http),
                      client_info=types.Implementation(name="xvfb-test", version="1")) as client:
        result = await client.call_tool("create_entities", {"entities": [
            {"name": "Written while the window is open", "entityType": "Note", "observations": ["via the hub"]}]})
        assert not result.is_error, result
        return [t.name for t in (await client.list_tools()).tools]


def test_the_app_runs_on_x_serves_mcp_and_quits_cleanly(tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    hub_file = tmp_path / "endpoint.json"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HIPOCAMPO_ENDPOINT_FILE=str(hub_file), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path), QT_QPA_PLATFORM="xcb")
    log = (tmp_path / "app.log").open("w")
    xvfb = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"]
    app = subprocess.Popen([*xvfb, str(APP), "--db", str(db)], env=env, stdout=log, stderr=subprocess.STDOUT,
                           start_new_session=True)
    try:
        _wait(lambda: "port" in _endpoint(hub_file) or app.poll() is not None, 90, "the hub to start")
        assert app.poll() is None, (tmp_path / "app.log").read_text()
        info = _endpoint(hub_file)
        tools = anyio.run(_write_through_hub, info["url"], info["token"])
        assert "search_semantic" in tools

        second = subprocess.run([*xvfb, str(APP), "--db", str(db)], env=env, capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 0 and "already running" in second.stderr

        os.kill(info["pid"], signal.SIGINT)  # Ctrl-C in the terminal that ran ./dev start
        assert app.wait(timeout=30) == 0, (tmp_path / "app.log").read_text()
        assert "port" not in _endpoint(hub_file), "the hub file still names a hub that is gone"
    finally:
        if app.poll() is None:
            os.killpg(app.pid, signal.SIGKILL)
        log.close()
    with Memory(Settings(db=db, embeddings="none")) as memory:
        assert [e.name for e in memory.read_graph().entities] == ["Written while the window is open"]
        assert memory.history(limit=5)[0]["actor"] == "xvfb-test"
