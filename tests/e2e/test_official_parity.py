"""Drop-in check: the same calls to the official memory server and to Hipocampo give the same
structured content and the same text. Skipped where node/npx is missing or the server cannot be
fetched."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.e2e.conftest import stdio_client_for

pytestmark = pytest.mark.anyio

OFFICIAL = "@modelcontextprotocol/server-memory"
A = {"name": "Ada", "entityType": "Person", "observations": ["wrote a program", "born 1815"]}
B = {"name": "Babbage", "entityType": "Person", "observations": ["built engines"]}
C = {"name": "Engine", "entityType": "Machine", "observations": []}
AB = {"from": "Ada", "to": "Babbage", "relationType": "worked with"}
BC = {"from": "Babbage", "to": "Engine", "relationType": "designed"}

# Calls whose results both servers define the same way (no in-batch duplicates, ASCII-only search).
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("create_entities", {"entities": [A, B]}),
    ("create_entities", {"entities": [A, C]}),
    ("create_relations", {"relations": [AB, BC]}),
    ("create_relations", {"relations": [AB]}),
    ("add_observations", {"observations": [{"entityName": "Ada", "contents": ["born 1815", "met Babbage"]}]}),
    ("search_nodes", {"query": "BABB"}),
    ("search_nodes", {"query": "machine"}),
    ("search_nodes", {"query": ""}),
    ("open_nodes", {"names": ["Engine", "Nobody"]}),
    ("read_graph", {}),
    ("delete_observations", {"deletions": [{"entityName": "Ada", "observations": ["born 1815"]}]}),
    ("delete_relations", {"relations": [BC]}),
    ("delete_entities", {"entityNames": ["Engine", "Nobody"]}),
    ("read_graph", {}),
    # an end that does not exist yet: the official server keeps the relation
    ("create_relations", {"relations": [{"from": "Ada", "to": "Ghost", "relationType": "haunts"}]}),
    ("open_nodes", {"names": ["Ada"]}),
]


def official_params(tmp_path: Path) -> StdioServerParameters:
    if shutil.which("npx") is None or shutil.which("node") is None:
        pytest.skip("node/npx is not installed")
    try:
        fetched = subprocess.run(
            ["npx", "-y", OFFICIAL, "--version"],
            input="",
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "MEMORY_FILE_PATH": str(tmp_path / "warm.jsonl")},
        )
    except subprocess.TimeoutExpired:
        pytest.skip("the official server could not be fetched in time")
    if "npm ERR" in fetched.stderr or "E404" in fetched.stderr:
        pytest.skip(f"the official server could not be fetched: {fetched.stderr[-300:]}")
    return StdioServerParameters(
        command="npx", args=["-y", OFFICIAL], env={"MEMORY_FILE_PATH": str(tmp_path / "official.jsonl")}
    )


async def run(client: Client) -> list[tuple[Any, str, bool]]:
    results = []
    for tool, args in SCRIPT:
        result = await client.call_tool(tool, args)
        results.append((result.structured_content, result.content[0].text, bool(result.is_error)))
    return results


async def test_same_calls_same_results(tmp_path: Path, hub_file: Path) -> None:
    params = official_params(tmp_path)
    async with Client(stdio_client(params)) as official:
        expected = await run(official)
        unknown = await official.call_tool(
            "add_observations", {"observations": [{"entityName": "Nobody", "contents": ["x"]}]}
        )
    async with stdio_client_for(tmp_path / "hipocampo.db", hub_file) as hipocampo:
        actual = await run(hipocampo)
        mine = await hipocampo.call_tool(
            "add_observations", {"observations": [{"entityName": "Nobody", "contents": ["x"]}]}
        )
    for (tool, args), want, got in zip(SCRIPT, expected, actual, strict=True):
        assert got == want, (tool, args)
    assert unknown.is_error and mine.is_error
