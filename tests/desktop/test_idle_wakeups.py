"""An idle app sleeps: the change feed follows the database's files instead of polling, the hub's
HTTP server does not tick, and yet what another process writes still shows at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from core.memory import Memory
from core.server.transports.http import serve_http
from core.settings import Settings
from desktop.workers import ChangeFeed

WRITE = ("import sys; from core.memory import Memory; from core.settings import Settings\n"
         "with Memory(Settings(db=sys.argv[1], embeddings='none', actor='cursor')) as m:\n"
         "    m.create_entities([{'name': sys.argv[2], 'entityType': 'Person'}])\n")


def test_the_feed_hears_another_process_without_polling(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    db = tmp_path / "shared.db"
    memory = Memory(Settings(db=db, embeddings="none"))
    feed = ChangeFeed(memory, interval_ms=3_600_000)  # a poll an hour: only a file notification can deliver
    rows: list[dict[str, Any]] = []
    feed.changed.connect(rows.extend)
    feed.start()
    try:
        assert feed.watching
        for name in ("Ada", "Grace"):  # twice: the -wal file made, then written again
            subprocess.run([sys.executable, "-c", WRITE, str(db), name], check=True, timeout=60)
            qtbot.waitUntil(lambda name=name: any(r.entity == name for r in rows), timeout=10_000)
        memory.create_entities([{"name": "Linus", "entityType": "Person"}])  # this process's writes too
        qtbot.waitUntil(lambda: any(r.entity == "Linus" for r in rows), timeout=10_000)
    finally:
        feed.stop()
        memory.close()


def test_the_feed_polls_where_there_is_no_file(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    memory = Memory(Settings(db=":memory:", embeddings="none"))
    feed = ChangeFeed(memory, interval_ms=50)
    try:
        assert not feed.watching
    finally:
        feed.stop()
        memory.close()


@pytest.mark.anyio
async def test_the_hub_does_not_tick_while_idle(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ticks: list[int] = []
    original = uvicorn.Server.on_tick

    async def counting(self: uvicorn.Server, counter: int) -> bool:
        ticks.append(counter)
        return await original(self, counter)

    monkeypatch.setattr(uvicorn.Server, "on_tick", counting)
    hub_file = tmp_path / "endpoint.json"
    ready, stop = anyio.Event(), anyio.Event()
    info: dict[str, Any] = {}

    def on_ready(record: dict[str, Any]) -> None:
        info.update(record)
        ready.set()

    with Memory(Settings(db=tmp_path / "m.db", embeddings="none")) as memory:
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: serve_http(memory, hub_file=hub_file, handle_signals=False,
                                             on_ready=on_ready, stop=stop))
            with anyio.fail_after(30):
                await ready.wait()
            token = __import__("json").loads(hub_file.read_text())["token"]
            http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
            async with Client(streamable_http_client(info["url"], http_client=http),
                              client_info=types.Implementation(name="idle-test", version="1")) as client:
                for _ in range(3):
                    assert not (await client.call_tool("read_graph", {})).is_error
            stop.set()  # and it still stops when asked
    assert ticks == [0]  # uvicorn's loop ran its tick once, at start, and then slept
    assert not hub_file.exists() or "port" not in hub_file.read_text()
