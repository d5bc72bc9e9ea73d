"""Switching from the official memory server while keeping ``MEMORY_FILE_PATH``: the real official
server writes the file, ``mcp-memory`` (started as a client would, with only that variable) serves
what it holds, and merges in what the official server adds later — never changing the file."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.e2e.conftest import ROOT
from tests.e2e.test_official_parity import official_params

pytestmark = pytest.mark.anyio
DEADLINE_S = 30.0


def hipocampo_params(official_file: Path, tmp_path: Path) -> StdioServerParameters:
    """``mcp-memory`` with the official server's configuration: no --db, no HIPOCAMPO_DB."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "core.server.transports.stdio"],
        cwd=str(ROOT),
        env={
            "MEMORY_FILE_PATH": str(official_file),
            "HIPOCAMPO_ENDPOINT_FILE": str(tmp_path / "endpoint.json"),
            "HIPOCAMPO_SETTINGS_FILE": str(tmp_path / "no-settings.json"),
            "HIPOCAMPO_EMBEDDINGS": "none",
        },
    )


def client(params: StdioServerParameters, errlog: Any = None) -> Client:
    return Client(stdio_client(params, errlog=errlog or sys.stderr),
                  client_info=types.Implementation(name="dropin-test", version="1"))


def names(graph: dict[str, Any]) -> set[str]:
    return {e["name"] for e in graph["entities"]}


async def test_memory_file_path_keeps_working(tmp_path: Path) -> None:
    params = official_params(tmp_path)
    official_file = Path(params.env["MEMORY_FILE_PATH"])
    big = "x" * 100_000
    async with client(params) as official:
        await official.call_tool("create_entities", {"entities": [
            {"name": "Ada", "entityType": "person", "observations": ["wrote the first program", big]},
            {"name": "Redis", "entityType": "technology", "observations": ["a cache"]},
        ]})
        await official.call_tool("create_relations", {"relations": [
            {"from": "Ada", "to": "Redis", "relationType": "uses"},
            {"from": "Ada", "to": "Babbage", "relationType": "works_on"},  # no such entity: kept
        ]})
        before = (await official.call_tool("read_graph", {})).structured_content
    written = official_file.read_bytes()

    log = tmp_path / "hipocampo-stderr.txt"
    with log.open("w") as errlog:
        async with client(hipocampo_params(official_file, tmp_path), errlog) as hipocampo:
            graph = (await hipocampo.call_tool("read_graph", {})).structured_content
            assert names(graph) == names(before) | {"Babbage"}  # the missing end is a placeholder
            assert sorted(map(str, graph["relations"])) == sorted(map(str, before["relations"]))
            ada = next(e for e in graph["entities"] if e["name"] == "Ada")
            assert ada["observations"] == ["wrote the first program", big]

            # a client still on the official server writes: additions arrive, deletions do not delete
            async with client(params) as official:
                await official.call_tool("create_entities", {"entities": [
                    {"name": "Babbage", "entityType": "person", "observations": ["built engines"]}]})
                await official.call_tool("add_observations", {"observations": [
                    {"entityName": "Redis", "contents": ["runs on port 6379"]}]})
                await official.call_tool("delete_entities", {"entityNames": ["Ada"]})
            with anyio.fail_after(DEADLINE_S):
                while True:
                    found = (await hipocampo.call_tool("open_nodes", {"names": ["Babbage", "Redis"]}))
                    by_name = {e["name"]: e for e in found.structured_content["entities"]}
                    if "runs on port 6379" in by_name.get("Redis", {}).get("observations", []) and \
                            by_name.get("Babbage", {}).get("entityType") == "person":
                        break
                    await anyio.sleep(0.2)
            assert by_name["Babbage"]["observations"] == ["built engines"]
            assert "Ada" in names((await hipocampo.call_tool("read_graph", {})).structured_content)

            # Hipocampo's own writes go to its database, never to the official file
            official_now = official_file.read_bytes()
            await hipocampo.call_tool("create_entities", {"entities": [{"name": "Only here", "entityType": "note"}]})
            await hipocampo.call_tool("delete_entities", {"entityNames": ["Ada"]})
    assert official_file.read_bytes() == official_now != written
    assert (official_file.parent / "official.hipocampo.db").is_file()
    said = log.read_text()
    assert "MEMORY_FILE_PATH is set" in said and str(official_file.parent / "official.hipocampo.db") in said
    assert "imported the official memory file" in said and "left as it was" in said
    assert "merged what is new" in said

    # the next start merges nothing old again: what the user deleted in Hipocampo stays deleted
    with log.open("w") as errlog:
        async with client(hipocampo_params(official_file, tmp_path), errlog) as hipocampo:
            graph = (await hipocampo.call_tool("read_graph", {})).structured_content
    assert "Ada" not in names(graph) and {"Only here", "Babbage", "Redis"} <= names(graph)
    assert "imported" not in log.read_text() and "MEMORY_FILE_PATH is set" not in log.read_text()


def test_a_nested_line_in_the_official_file_is_skipped_and_the_server_starts(tmp_path: Path) -> None:
    from tests.e2e.raw import RawStdio

    official_file = tmp_path / "memory.jsonl"
    official_file.write_text(
        '{"type":"entity","name":"Ada","entityType":"person","observations":["wrote"]}\n'
        '{"type":"entity","name":"Deep","entityType":"x","observations":' + "[" * 5000 + "]" * 5000 + "}\n",
        encoding="utf-8")
    env = {"MEMORY_FILE_PATH": str(official_file), "HIPOCAMPO_SETTINGS_FILE": str(tmp_path / "none.json")}
    for start in ("first", "second"):  # the first start imports the file; the next ones start from it again
        server = RawStdio(None, tmp_path / "endpoint.json", **env)
        try:
            assert "result" in server.handshake()
            server.request({"jsonrpc": "2.0", "id": "read", "method": "tools/call",
                            "params": {"name": "read_graph", "arguments": {}}})
            graph = server.answers_until("read", DEADLINE_S)[-1]["result"]["structuredContent"]
            assert [e["name"] for e in graph["entities"]] == ["Ada"], start
        finally:
            assert server.close() == 0, server.stderr[-2000:]
        if start == "first":
            assert "skipped line 2: not valid JSON (nested too deeply to be read)" in server.stderr
