"""The read log: bounded (oldest dropped), private (0600), off with a setting, and every MCP read
logged with the client's name, the tool, the query and what it returned (SQLite and FalkorDB)."""

from __future__ import annotations

import stat
import sys
from datetime import UTC, datetime
from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client

from core.memory import Memory
from core.server.transports.app import build_server
from core.settings import Settings
from core.storage.read_log import ReadLog, path_for
from tests.conftest import SteppingClock

AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_oldest_reads_go_past_the_cap(tmp_path: Path) -> None:
    log = ReadLog(tmp_path / "m.reads.db", keep=100)
    for i in range(300):
        log.record(AT, "claude-code", "search_nodes", f"q{i}", [f"E{i}"], [])
    log.trim()
    rows = log.recent(limit=1000)
    assert len(rows) == 100 and rows[0]["query"] == "q299" and rows[-1]["query"] == "q200"
    assert log.last_recall("E299")["client"] == "claude-code"
    assert log.last_recall("E5") is None  # dropped with its read
    log.close()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_the_log_is_private_and_beside_the_memory(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "memory.db", embeddings="none")) as m:
        m.create_entities([{"name": "Billing service", "entityType": "Service", "observations": ["x"]}])
        assert m.read_log() == [] and not (tmp_path / "memory.reads.db").exists()  # reading creates nothing
        m.record_read("cursor", "open_nodes", "Billing service", ["Billing service"])
    path = tmp_path / "memory.reads.db"
    assert path == path_for(tmp_path / "memory.db", "sqlite", "hipocampo")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path_for(tmp_path / "memory.db", "falkordb", "team").name == "memory.reads-team.db"


def test_a_log_that_cannot_be_written_never_fails_the_read(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("a file where the log's folder should be")
    log = ReadLog(tmp_path / "taken" / "m.reads.db", keep=100)
    assert log.record(AT, "c", "search_nodes", "q", ["A"], []) is None
    assert log.record(AT, "c", "search_nodes", "q", ["A"], []) is None  # and it stops trying


@pytest.fixture(params=["sqlite", "falkordb"])
def mem(tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest) -> Memory:
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "server.db", embeddings="none", **server), clock=clock) as m:
        m.create_entities([
            {"name": "Billing service", "entityType": "Service", "observations": ["facturas duplicadas en enero"]},
            {"name": "Payments", "entityType": "Service", "observations": ["cobra facturas"]},
            {"name": "Kim", "entityType": "Person", "observations": ["likes tea"]},
        ])
        yield m


@pytest.mark.anyio
async def test_every_mcp_read_is_logged_with_the_client(mem: Memory) -> None:
    info = types.Implementation(name="claude-code", version="1")
    async with Client(build_server(mem), client_info=info) as client:
        await client.call_tool("search_nodes", {"query": "facturas"})
        await client.call_tool("open_nodes", {"names": ["Kim"]})
        await client.call_tool("search_semantic", {"query": "facturas duplicadas"})
        await client.call_tool("read_graph", {"names_only": True})
        await client.call_tool("engrama_search", {"query": "facturas"})
        await client.call_tool("engrama_context", {"name": "Kim"})
        await client.call_tool("create_entities", {"entities": [{"name": "Z", "entityType": "T", "observations": []}]})
    reads = mem.read_log()
    assert [r["tool"] for r in reads] == ["engrama_context", "engrama_search", "read_graph", "search_semantic",
                                          "open_nodes", "search_nodes"]  # writes are not reads
    assert {r["client"] for r in reads} == {"claude-code"}
    by_tool = {r["tool"]: r for r in reads}
    assert by_tool["search_nodes"]["query"] == "facturas"
    assert set(by_tool["search_nodes"]["entities"]) == {"Billing service", "Payments"}
    assert ["Billing service", "facturas duplicadas en enero"] in by_tool["search_semantic"]["facts"]
    assert by_tool["open_nodes"]["entities"] == ["Kim"] and by_tool["open_nodes"]["query"] == "Kim"
    assert by_tool["read_graph"]["total"] == 3
    assert mem.last_recall("Kim")["tool"] == "engrama_context"
    assert mem.last_recall("Nobody") is None


@pytest.mark.anyio
async def test_the_setting_turns_the_log_off(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "off.db", embeddings="none", read_log=False)) as m:
        m.create_entities([{"name": "Kim", "entityType": "Person", "observations": ["likes tea"]}])
        async with Client(build_server(m), client_info=types.Implementation(name="cursor", version="1")) as client:
            await client.call_tool("search_nodes", {"query": "tea"})
        assert m.read_log() == []
    assert not (tmp_path / "off.reads.db").exists()
