"""History and undo where users are: ``hipocampo history`` / ``hipocampo undo`` as a subprocess,
and the entity_history / restore_entity tools over stdio with the MCP SDK client, on each backend."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import ROOT, Backend, server_env, stdio_client_for


def cli(db: Path, hub_file: Path, backend: Backend, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), *args], cwd=ROOT,
                          env={**os.environ, **server_env(hub_file, **backend.env)}, capture_output=True, text=True,
                          timeout=120, check=check)


def seed(db: Path, backend: Backend) -> None:
    with backend.open(db) as memory:
        memory.create_entities([{"name": "Ada", "entityType": "person", "observations": ["wrote notes"]},
                                {"name": "Engine", "entityType": "machine"}], actor="claude-ai")
        memory.create_relations([{"from": "Ada", "to": "Engine", "relationType": "programmed"}], actor="claude-ai")
        memory.delete_entities(["Ada"], actor="cursor")


def test_history_shows_who_did_what_and_undo_takes_it_back(tmp_path: Path, backend: Backend) -> None:
    db, hub_file = tmp_path / "h.db", tmp_path / "endpoint.json"
    seed(db, backend)
    lines = cli(db, hub_file, backend, "history", "Ada").stdout.splitlines()
    assert "cursor" in lines[0] and "delete entity Ada" in lines[0]
    assert any("claude-ai" in line and "create entity Ada" in line for line in lines)
    deletion = int(lines[0].split()[0].lstrip("#"))
    assert f"`hipocampo undo {deletion}`" in lines[-1]

    undone = cli(db, hub_file, backend, "undo").stdout  # the newest change: the deletion
    assert undone.startswith(f"Undid #{deletion}: delete entity Ada (by cursor")
    with backend.open(db) as memory:
        graph = memory.read_graph().dump()
    assert {e["name"] for e in graph["entities"]} == {"Ada", "Engine"}
    assert graph["relations"] == [{"from": "Ada", "to": "Engine", "relationType": "programmed"}]

    redo = int(undone.split("Recorded as change #")[1].split(";")[0])
    assert cli(db, hub_file, backend, "undo", str(redo)).stdout.startswith(f"Undid #{redo}: undid change #{deletion}")
    with backend.open(db) as memory:
        assert memory.get_node("Ada") is None
    assert "undid change" in cli(db, hub_file, backend, "history", "--limit", "1").stdout
    rows = json.loads(cli(db, hub_file, backend, "history", "--json").stdout)
    assert rows[0]["op"] == "undo" and rows[-1]["op"] == "create_entity"


def test_undo_of_nothing_or_an_unknown_change_is_a_clear_error(tmp_path: Path, backend: Backend) -> None:
    db, hub_file = tmp_path / "e.db", tmp_path / "endpoint.json"
    backend.open(db).close()
    assert cli(db, hub_file, backend, "history").stdout.strip() == "No changes recorded yet."
    nothing = cli(db, hub_file, backend, "undo", check=False)
    assert nothing.returncode == 2 and "no change left to undo" in nothing.stderr
    unknown = cli(db, hub_file, backend, "undo", "99", check=False)
    assert unknown.returncode == 2 and "There is no change #99" in unknown.stderr


@pytest.mark.anyio
async def test_history_and_restore_over_stdio(tmp_path: Path, backend: Backend) -> None:
    db, hub_file = tmp_path / "m.db", tmp_path / "endpoint.json"
    seed(db, backend)
    async with stdio_client_for(db, hub_file, "history-client", **backend.env) as client:
        history = (await client.call_tool("entity_history", {"name": "Ada"})).structured_content
        assert history["deleted"] is True
        assert [(c["actor"], c["op"]) for c in history["changes"]][0] == ("cursor", "delete_entity")
        assert history["changes"][0]["before"] is not None  # what it was, for the model to judge

        restored = await client.call_tool("restore_entity", {"name": "Ada"})
        assert restored.structured_content == {"restored": {
            "name": "Ada", "entityType": "person", "observations": ["wrote notes"]}}
        opened = (await client.call_tool("open_nodes", {"names": ["Ada"]})).structured_content
        assert opened["relations"] == [{"from": "Ada", "to": "Engine", "relationType": "programmed"}]
        after = (await client.call_tool("entity_history", {"name": "Ada", "limit": 1})).structured_content
        assert after["deleted"] is False and after["changes"][0]["actor"] == "history-client"

        again = await client.call_tool("restore_entity", {"name": "Ada"})
        assert again.is_error and "only a deleted entity can be restored" in again.content[0].text
        ghost = await client.call_tool("restore_entity", {"name": "Nobody"})
        assert ghost.is_error and "nothing to restore" in ghost.content[0].text
