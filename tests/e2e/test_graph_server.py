"""Several MCP servers, each its own process (as each assistant starts one), on one FalkorDB graph."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from core.memory import Memory
from core.settings import Settings
from tests.e2e.conftest import stdio_client_for

pytestmark = pytest.mark.anyio

SERVERS = 3
WRITES = 15


def graph_env(graph_settings: dict[str, object]) -> dict[str, str]:
    return {f"HIPOCAMPO_{k.upper()}": str(v) for k, v in graph_settings.items()}


async def test_many_servers_on_one_graph_lose_no_writes(tmp_path: Path, hub_file: Path,
                                                        graph_settings: dict[str, object]) -> None:
    env = graph_env(graph_settings)
    with Memory(Settings(embeddings="none", **graph_settings)) as m:  # type: ignore[arg-type]
        m.create_entities([{"name": "shared"}])

    async def assistant(n: int) -> None:
        # each server is told a different --db: on a graph server the file is not used at all
        async with stdio_client_for(tmp_path / f"unused-{n}.db", hub_file, f"assistant-{n}", **env) as client:
            async with anyio.create_task_group() as calls:  # concurrent calls inside one session too
                for i in range(WRITES):
                    calls.start_soon(client.call_tool, "create_entities",
                                     {"entities": [{"name": f"a{n}-{i}", "entityType": "Note",
                                                    "observations": [f"note {i}"]}]})
                    calls.start_soon(client.call_tool, "add_observations",
                                     {"observations": [{"entityName": "shared", "contents": [f"a{n} {i}"]}]})
            status = await client.call_tool("engrama_status", {})
            assert status.structured_content["database"].endswith(f"graph {graph_settings['graph_name']}")

    async with anyio.create_task_group() as servers:
        for n in range(SERVERS):
            servers.start_soon(assistant, n)

    with Memory(Settings(embeddings="none", **graph_settings)) as m:  # type: ignore[arg-type]
        names = {e.name for e in m.read_graph().entities}
        assert names == {"shared"} | {f"a{n}-{i}" for n in range(SERVERS) for i in range(WRITES)}
        assert sorted(m.open_nodes(["shared"]).entities[0].observations) == sorted(
            f"a{n} {i}" for n in range(SERVERS) for i in range(WRITES))
        actors = {h.actor for h in m.history(limit=1000) if h.op == "create_entity"}
        assert actors == {"cli"} | {f"assistant-{n}" for n in range(SERVERS)}
        log = m.changes_since(0, limit=1000)
        assert [c.id for c in log] == list(range(1, len(log) + 1))  # one history, no id lost or reused
    assert not any(tmp_path.glob("unused-*.db"))
