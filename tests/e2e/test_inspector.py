"""The MCP Inspector's CLI (a second, independent MCP client) against ``hipocampo mcp``.

Skipped where node/npx is missing or the package cannot be fetched; ``npx -y`` caches it after
the first run.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.memory import Memory
from tests.server.test_surface import TOOL_COUNT

INSPECTOR = "@modelcontextprotocol/inspector"


def inspector(db: Path, hub_file: Path, *method: str) -> dict:
    if shutil.which("npx") is None or shutil.which("node") is None:
        pytest.skip("node/npx is not installed")
    command = [
        "npx",
        "-y",
        INSPECTOR,
        "--cli",
        "-e",
        "HIPOCAMPO_EMBEDDINGS=none",
        "-e",
        f"HIPOCAMPO_ENDPOINT_FILE={hub_file}",
        sys.executable,
        "-m",
        "core.cli",
        "--db",
        str(db),
        "mcp",
        *method,
    ]
    try:
        proc = subprocess.run(
            command, capture_output=True, text=True, timeout=300, cwd=Path(__file__).resolve().parents[2]
        )
    except subprocess.TimeoutExpired:
        pytest.skip("the MCP Inspector could not be fetched in time")
    if proc.returncode != 0 and (
        "npm ERR" in proc.stderr
        or "ENOTFOUND" in proc.stderr
        or "E404" in proc.stderr
        or "EAI_AGAIN" in proc.stderr
    ):
        pytest.skip(f"the MCP Inspector could not be fetched: {proc.stderr[-300:]}")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_inspector_lists_the_tools(tmp_path: Path, hub_file: Path) -> None:
    tools = inspector(tmp_path / "i.db", hub_file, "--method", "tools/list")["tools"]
    names = [t["name"] for t in tools]
    assert names[:9] == [
        "create_entities",
        "create_relations",
        "add_observations",
        "delete_entities",
        "delete_observations",
        "delete_relations",
        "read_graph",
        "search_nodes",
        "open_nodes",
    ]
    assert len(names) == TOOL_COUNT
    described = {t["name"]: t["description"] for t in tools}
    assert (
        not described["create_entities"].startswith((" ", "\n")) and "\n    " not in described["read_graph"]
    )


def test_inspector_calls_a_tool(tmp_path: Path, hub_file: Path) -> None:
    db = tmp_path / "i.db"
    result = inspector(
        db,
        hub_file,
        "--method",
        "tools/call",
        "--tool-name",
        "create_entities",
        "--tool-arg",
        'entities=[{"name":"Inspected","entityType":"Thing","observations":["seen"]}]',
    )
    expected = [{"name": "Inspected", "entityType": "Thing", "observations": ["seen"]}]
    assert result["isError"] is False and result["structuredContent"] == {"entities": expected}
    assert json.loads(result["content"][0]["text"]) == expected
    with Memory.open(db, embeddings="none") as memory:
        assert memory.history()[0].actor != "mcp"  # the Inspector names itself


def test_inspector_reads_the_resources_and_prompts(tmp_path: Path, hub_file: Path) -> None:
    db = tmp_path / "i.db"
    with Memory.open(db, embeddings="none") as memory:
        memory.create_entities([{"name": "user", "entityType": "Person", "observations": ["Prefers Spanish"]}])
        memory.pin("user")
    listed = inspector(db, hub_file, "--method", "resources/list")["resources"]
    assert [r["uri"] for r in listed] == ["memory://knowledge-graph", "memory://brief", "memory://entity/user"]
    templates = inspector(db, hub_file, "--method", "resources/templates/list")["resourceTemplates"]
    assert [t["uriTemplate"] for t in templates] == ["memory://entity/{name}"]
    brief = inspector(db, hub_file, "--method", "resources/read", "--uri", "memory://brief")["contents"][0]
    assert "- user (Person): Prefers Spanish" in brief["text"]
    prompts = inspector(db, hub_file, "--method", "prompts/list")["prompts"]
    assert [p["name"] for p in prompts] == ["recall", "remember-session", "review-insights"]
    got = inspector(db, hub_file, "--method", "prompts/get", "--prompt-name", "recall",
                    "--prompt-args", "topic=Spanish")
    assert "Prefers Spanish" in got["messages"][0]["content"]["text"]
