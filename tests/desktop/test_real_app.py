"""The real app, as a user starts it: ``hipocampo-app`` on an X server (Xvfb, Qt's xcb platform).

It opens its window, serves the MCP endpoint a real SDK client writes through, hands a second
launch over to itself, and on Ctrl-C (SIGINT) stops cleanly: the endpoint withdrawn, exit code 0.
And a newcomer's first hour, as one test: the first-run screen, connecting an assistant, that
assistant's first write through the hub shown in the panes, a relaunch, and quitting — with no
crash dialog and no traceback in the app's log at any step.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from core.memory import Memory
from core.settings import Settings

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (./dev installs Debian's xvfb)"),
]
APP = [sys.executable, "-m", "desktop.launcher"]  # hipocampo-app, from this checkout (PYTHONPATH below)


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


ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).with_name("newcomer_driver.py")


@pytest.fixture
def x_display(tmp_path: Path) -> Iterator[str]:
    """An Xvfb server of the test's own, on a display number it picks (``-displayfd``), stopped after."""
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=(tmp_path / "xvfb.log").open("w"),
                            start_new_session=True)
    os.close(write)
    try:
        with os.fdopen(read) as fh:
            ready, _, _ = select.select([fh], [], [], 30)
            number = fh.readline().strip() if ready else ""
        assert number.isdigit(), f"Xvfb did not start: {(tmp_path / 'xvfb.log').read_text()}"
        yield f":{number}"
    finally:
        xvfb.terminate()
        try:
            xvfb.wait(timeout=10)
        except subprocess.TimeoutExpired:
            xvfb.kill()
            xvfb.wait(timeout=10)


def _steps(path: Path) -> list[dict]:
    try:
        return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except OSError:
        return []


def _step(path: Path, name: str) -> dict | None:
    return next((s for s in _steps(path) if s["step"] == name), None)


async def _assistant_writes(command: list[str], env: dict[str, str]) -> None:
    """The assistant's side: the exact command the first-run screen wrote into its config, over stdio."""
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    async with Client(stdio_client(params), client_info=types.Implementation(name="claude-ai", version="1")) as client:
        result = await client.call_tool("create_entities", {"entities": [
            {"name": "Written by the assistant", "entityType": "note", "observations": ["its first write"]}]})
        assert not result.is_error, result


def test_a_newcomers_first_hour(tmp_path: Path, x_display: str) -> None:
    """Issue 22, deliverable 5: first-run screen → Connect an assistant → its MCP write through the hub →
    shown in the panes → relaunch → quit; any crash dialog or traceback fails it."""
    db = tmp_path / "data" / "memory.db"
    hub_file = tmp_path / "endpoint.json"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY",
                                                            "HIPOCAMPO_SETTINGS_FILE", "HIPOCAMPO_FIRST_RUN_DONE")}
    env.update(HIPOCAMPO_ENDPOINT_FILE=str(hub_file), XDG_CONFIG_HOME=str(tmp_path / ".config"),
               XDG_DATA_HOME=str(tmp_path / "data-home"), XDG_STATE_HOME=str(tmp_path / "state"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), HOME=str(tmp_path), QT_QPA_PLATFORM="xcb",
               DISPLAY=x_display, LANG="C.UTF-8", LC_ALL="C.UTF-8", HIPOCAMPO_EMBEDDINGS="none",
               PYTHONPATH=str(ROOT))
    logs: list[Path] = []

    def launch(mode: str) -> tuple[subprocess.Popen, Path]:
        steps = tmp_path / f"steps-{mode}.jsonl"
        log = tmp_path / f"app-{mode}.log"
        logs.append(log)
        proc = subprocess.Popen([sys.executable, str(DRIVER), str(steps), mode, "--db", str(db)], env=env,
                                stdout=log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)
        return proc, steps

    def follow(proc: subprocess.Popen, steps: Path, step: str, log: Path) -> dict:
        _wait(lambda: _step(steps, step) is not None or proc.poll() is not None, 120, step)
        found = _step(steps, step)
        assert found is not None, f"{step} not reached: {_steps(steps)}\n{log.read_text()}"
        return found

    app, steps = launch("first")
    try:
        assert follow(app, steps, "painted", logs[-1])["platform"] == "xcb"
        connected = follow(app, steps, "connected", logs[-1])
        assert connected["result"].startswith("Added to ~/.config/Claude/claude_desktop_config.json")
        follow(app, steps, "ready", logs[-1])
        config = json.loads((tmp_path / ".config" / "Claude" / "claude_desktop_config.json").read_text())
        entry = config["mcpServers"]["memory"]
        anyio.run(_assistant_writes, [entry["command"], *entry["args"]], env)
        shown = follow(app, steps, "shown", logs[-1])
        assert shown["observations"] == ["its first write"] and shown["count"] == "1 entity"
        assert app.wait(timeout=30) == 0, logs[-1].read_text()  # File → Quit
        assert "port" not in _endpoint(hub_file)

        app, steps = launch("again")  # the relaunch: the memory is shown, no first-run screen
        follow(app, steps, "shown", logs[-1])
        info = _endpoint(hub_file)
        os.kill(info["pid"], signal.SIGINT)
        assert app.wait(timeout=30) == 0, logs[-1].read_text()
        assert "port" not in _endpoint(hub_file), "the hub file still names a hub that is gone"
    finally:
        if app.poll() is None:
            os.killpg(app.pid, signal.SIGKILL)
            app.wait(timeout=10)
    for log in logs:
        text = log.read_text()
        assert "Traceback" not in text and "already deleted" not in text, text
    crash_logs = list((tmp_path / "state").rglob("*.log"))
    assert not [p for p in crash_logs if "CRASH" in p.read_text()], [p.read_text() for p in crash_logs]
    with Memory(Settings(db=db, embeddings="none")) as memory:
        assert memory.history(limit=5)[0].actor == "claude-ai"


def test_the_app_runs_on_x_serves_mcp_and_quits_cleanly(tmp_path: Path, x_display: str) -> None:
    db = tmp_path / "memory.db"
    hub_file = tmp_path / "endpoint.json"
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HIPOCAMPO_ENDPOINT_FILE=str(hub_file), XDG_CONFIG_HOME=str(tmp_path / "config"),
               XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path), QT_QPA_PLATFORM="xcb", DISPLAY=x_display,
               PYTHONPATH=str(ROOT))
    log = (tmp_path / "app.log").open("w")
    app = subprocess.Popen([*APP, "--db", str(db)], env=env, stdout=log, stderr=subprocess.STDOUT,
                           start_new_session=True)
    try:
        _wait(lambda: "port" in _endpoint(hub_file) or app.poll() is not None, 90, "the hub to start")
        assert app.poll() is None, (tmp_path / "app.log").read_text()
        info = _endpoint(hub_file)
        tools = anyio.run(_write_through_hub, info["url"], info["token"])
        assert "search_semantic" in tools

        second = subprocess.run([*APP, "--db", str(db)], env=env, capture_output=True, text=True,
                                timeout=60)
        assert second.returncode == 0 and "already running" in second.stderr

        os.kill(info["pid"], signal.SIGINT)  # Ctrl-C in the terminal that ran ./dev start
        assert app.wait(timeout=30) == 0, (tmp_path / "app.log").read_text()
        assert "port" not in _endpoint(hub_file), "the hub file still names a hub that is gone"
        # The process ends without the interpreter's teardown (desktop.app.leave): the window's
        # layout is written out all the same.
        saved = [p.read_text(errors="replace") for p in (tmp_path / "config").rglob("*.conf")]
        assert any("geometry" in text for text in saved), saved
    finally:
        if app.poll() is None:
            os.killpg(app.pid, signal.SIGKILL)
        log.close()
    with Memory(Settings(db=db, embeddings="none")) as memory:
        assert [e.name for e in memory.read_graph().entities] == ["Written while the window is open"]
        assert memory.history(limit=5)[0].actor == "xvfb-test"
