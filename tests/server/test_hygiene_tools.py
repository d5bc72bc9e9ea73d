"""merge_entities, tidy and engrama_approve_insight on a possible-duplicates insight, through the
MCP SDK client, on each backend: previews change nothing, errors come back as isError results."""

from __future__ import annotations

import pytest
from mcp import Client

from core.memory import Memory
from tests.server.conftest import fails, ok

pytestmark = pytest.mark.anyio


def seed(mem: Memory) -> None:
    mem.create_entities([{"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme"]},
                         {"name": "ana garcia", "entityType": "Person", "observations": ["Likes tea"]}])


async def test_approving_a_duplicates_insight_merges(client: Client, mem: Memory) -> None:
    seed(mem)
    await ok(client, "engrama_reflect", {})
    title = "Possible duplicates: Ana García and ana garcia"
    listed = await ok(client, "tidy", {})
    assert [p["id"] for p in listed["proposals"]] == [title]
    decided = await ok(client, "engrama_approve_insight", {"title": title})
    assert decided["status"] == "approved" and decided["applied"]["preview"]["merged"] == ["ana garcia"]
    graph = await ok(client, "open_nodes", {"names": ["ana garcia"]})
    assert graph["entities"] == [{"name": "Ana García", "entityType": "Person",
                                  "observations": ["Works at Acme", "Likes tea"]}]


async def test_bad_merges_are_errors_and_change_nothing(client: Client, mem: Memory) -> None:
    seed(mem)
    version = mem.latest_change_id()
    assert "into itself" in await fails(client, "merge_entities", {"names": ["Ana García"], "into": "Ana García",
                                                                   "dry_run": False})
    assert "does not exist" in await fails(client, "merge_entities", {"names": ["Nobody"], "into": "Ana García",
                                                                      "dry_run": False})
    assert "run tidy without apply" in await fails(client, "tidy", {"apply": ["nothing like it"]})
    preview = await ok(client, "merge_entities", {"names": ["ana garcia"], "into": "Ana García"})
    assert preview["dry_run"] is True and preview["preview"]["add_observations"] == ["Likes tea"]
    assert mem.latest_change_id() == version
