"""Merging duplicates where users are: ``hipocampo merge`` / ``hipocampo tidy`` as subprocesses,
and the merge_entities / tidy tools with the MCP SDK client over stdio, on each backend."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import ROOT, Backend, server_env, stdio_client_for


def cli(db: Path, hub_file: Path, backend: Backend, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "core.cli", "--db", str(db), *args], cwd=ROOT,
                          env={**os.environ, **server_env(hub_file, **backend.env)}, capture_output=True, text=True,
                          timeout=120, check=False)


def seed(db: Path, backend: Backend) -> None:
    with backend.open(db) as memory:
        memory.create_entities([
            {"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme"]},
            {"name": "Ana_Garcia", "entityType": "Person", "observations": ["works at acme.", "Likes tea"]},
            {"name": "Acme", "entityType": "Company"}])
        memory.create_relations([{"from": "Ana_Garcia", "to": "Acme", "relationType": "works_at"}])


def names(db: Path, backend: Backend) -> set[str]:
    with backend.open(db) as memory:
        return {e.name for e in memory.read_graph().entities}


def people(db: Path, backend: Backend) -> set[str]:
    """The names of the entities, approved insights aside (they join the graph as entities)."""
    with backend.open(db) as memory:
        return {e.name for e in memory.read_graph().entities if e.entityType != "Insight"}


def test_cli_previews_merges_refuses_and_undoes(tmp_path: Path, backend: Backend) -> None:
    db, hub_file = tmp_path / "m.db", tmp_path / "endpoint.json"
    seed(db, backend)
    preview = cli(db, hub_file, backend, "merge", "Ana_Garcia", "--into", "Ana García")
    assert preview.returncode == 0 and "Merge Ana_Garcia into Ana García:" in preview.stdout
    assert "drop 'works at acme.'" in preview.stdout and "Nothing was changed" in preview.stdout
    assert "Ana_Garcia" in names(db, backend)
    bad = cli(db, hub_file, backend, "merge", "Nobody", "--into", "Ana García", "--apply")
    assert bad.returncode == 2 and "'Nobody' does not exist" in bad.stderr
    itself = cli(db, hub_file, backend, "merge", "Ana García", "--into", "Ana García", "--apply")
    assert itself.returncode == 2 and "into itself" in itself.stderr
    assert names(db, backend) == {"Ana García", "Ana_Garcia", "Acme"}
    listed = json.loads(cli(db, hub_file, backend, "tidy", "--json").stdout)
    assert [p["id"] for p in listed["proposals"]] == ["Possible duplicates: Ana García and Ana_Garcia"]
    with backend.open(db) as memory:
        memory.reflect()  # the pair is proposed: merging it directly settles the proposal
    done = cli(db, hub_file, backend, "merge", "Ana_Garcia", "--into", "Ana García", "--apply")
    assert done.returncode == 0 and "`hipocampo undo" in done.stdout
    assert "Settled the proposal 'Possible duplicates: Ana García and Ana_Garcia'" in done.stdout
    assert people(db, backend) == {"Ana García", "Acme"}
    assert cli(db, hub_file, backend, "undo").returncode == 0
    assert people(db, backend) == {"Ana García", "Ana_Garcia", "Acme"}
    with backend.open(db) as memory:
        assert memory.surface_insights(limit=1, title="Possible duplicates: Ana García and Ana_Garcia",
                                       status="all")[0]["status"] == "pending"


@pytest.mark.anyio
async def test_tools_over_stdio(tmp_path: Path, backend: Backend) -> None:
    db, hub_file = tmp_path / "m.db", tmp_path / "endpoint.json"
    seed(db, backend)
    async with stdio_client_for(db, hub_file, "claude-code", **backend.env) as client:
        listed = await client.call_tool("tidy", {})
        assert not listed.is_error
        proposal = listed.structured_content["proposals"][0]
        assert proposal["kind"] == "duplicate_entities" and proposal["preview"]["into"] == "Ana García"
        refused = await client.call_tool("merge_entities", {"names": ["Nobody"], "into": "Ana García",
                                                            "dry_run": False})
        assert refused.is_error and "does not exist" in refused.content[0].text
        preview = await client.call_tool("merge_entities", {"names": ["Ana_Garcia"], "into": "Ana García"})
        assert preview.structured_content["dry_run"] is True
        assert "Ana_Garcia" in names(db, backend)
        applied = await client.call_tool("tidy", {"apply": [proposal["id"]]})
        assert not applied.is_error and applied.structured_content["applied"][0]["change_id"]
        opened = await client.call_tool("open_nodes", {"names": ["Ana_Garcia"]})
        assert [e["name"] for e in opened.structured_content["entities"]] == ["Ana García"]
        found = await client.call_tool("search_nodes", {"query": "ana_gar"})
        assert [e["name"] for e in found.structured_content["entities"]] == ["Ana García"]
    with backend.open(db) as memory:
        assert memory.history(limit=1)[0].actor == "claude-code"
        assert memory.history(limit=1)[0].op == "merge_entities"


@pytest.mark.anyio
async def test_undo_puts_an_approved_or_settled_proposal_back_to_review_over_stdio(tmp_path: Path,
                                                                                   backend: Backend) -> None:
    db, hub_file = tmp_path / "m.db", tmp_path / "endpoint.json"
    seed(db, backend)
    title = "Possible duplicates: Ana García and Ana_Garcia"

    async def status(client: object) -> str:
        found = await client.call_tool("engrama_surface_insights", {"title": title, "status": "all"})  # type: ignore[attr-defined]
        return str(found.structured_content["insights"][0]["status"])

    async with stdio_client_for(db, hub_file, "claude-code", **backend.env) as client:
        assert not (await client.call_tool("engrama_reflect", {})).is_error
        approved = await client.call_tool("engrama_approve_insight", {"title": title})
        assert not approved.is_error and approved.structured_content["status"] == "approved"
        assert people(db, backend) == {"Ana García", "Acme"}
        assert cli(db, hub_file, backend, "undo").returncode == 0  # one undo: the merge and the approval
        assert people(db, backend) == {"Ana García", "Ana_Garcia", "Acme"}
        assert await status(client) == "pending"
        listed = await client.call_tool("engrama_surface_insights", {})
        assert title in [i["title"] for i in listed.structured_content["insights"]]
        again = await client.call_tool("engrama_approve_insight", {"title": title})  # reapproval merges anew
        assert not again.is_error and people(db, backend) == {"Ana García", "Acme"}
        assert cli(db, hub_file, backend, "undo").returncode == 0
        # A direct merge of the proposed pair settles the proposal in the same step.
        merged = await client.call_tool("merge_entities", {"names": ["Ana_Garcia"], "into": "Ana García",
                                                           "dry_run": False})
        assert not merged.is_error and merged.structured_content["resolved_insights"] == [title]
        assert await status(client) == "approved"
        assert cli(db, hub_file, backend, "undo").returncode == 0
        assert await status(client) == "pending"
