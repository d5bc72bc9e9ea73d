"""Hostile arguments to every MCP tool: an isError result or a valid answer, never a crash, and a
refused call changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from core.memory import Memory
from core.server.transports.app import build_server
from core.settings import Settings

FRAGMENTS = ["'; DROP TABLE entities; --", '"', "NEAR(", "a* OR b", "^", "\x00", "\ud7ff", "名前", "e\u0301",
             "-" * 600, "%_", "*", "NOT", "{}", "[]", "\\", "\n", "memory://knowledge-graph"]

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70), st.floats(allow_nan=True),
    st.text(max_size=40), st.sampled_from(FRAGMENTS), st.text(min_size=2000, max_size=5000),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)), max_leaves=12)
deep = st.integers(min_value=50, max_value=200).map(lambda n: _nest(n))


def _nest(n: int) -> Any:
    value: Any = "x"
    for _ in range(n):
        value = [value]
    return value


def arguments_for(tool: types.Tool) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts over the tool's own parameter names (and stray ones), with any kind of value."""
    names = list((tool.input_schema or {}).get("properties", {})) or ["x"]
    keys = st.one_of(st.sampled_from(names), st.text(max_size=10))
    return st.dictionaries(keys, st.one_of(values, deep), max_size=len(names) + 1)


def fingerprint(mem: Memory) -> tuple[Any, ...]:
    return mem.latest_change_id(), mem.health_check()["counts"]


def test_every_tool_survives_hostile_arguments(tmp_path: Path) -> None:
    mem = Memory(Settings(db=tmp_path / "hostile.db", embeddings="none", backup_keep=0))
    mem.create_entities([{"name": "Ada", "observations": ["first programmer"]}, {"name": "Bob"}])
    mem.create_relations([{"from": "Ada", "to": "Bob", "relationType": "knows"}])

    # One server, as the real transports run it, and a fresh session for every call (building the
    # server costs ~0.15 s: the tools' schemas; it was once built per call, most of this test's time).
    server = build_server(mem)

    async def tools() -> list[types.Tool]:
        async with Client(server) as client:
            return list((await client.list_tools()).tools)

    listed = anyio.run(tools)
    assert len(listed) >= 20

    @settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        tool = data.draw(st.sampled_from(listed))
        args = data.draw(arguments_for(tool))

        async def call() -> types.CallToolResult:
            async with Client(server) as client:
                return await client.call_tool(tool.name, args)

        before = fingerprint(mem)
        result = anyio.run(call)  # raises if the server crashed or the protocol broke
        if result.is_error:
            assert result.content and isinstance(result.content[0], types.TextContent)
            assert "Traceback" not in result.content[0].text
            assert fingerprint(mem) == before, (tool.name, args)  # refused: nothing changed
        else:
            assert result.content or result.structured_content is not None

    try:
        for _ in range(len(listed)):  # about a dozen hostile calls per tool
            check()
        assert mem.health_check(deep=True)["quick_check"] == "ok"
    finally:
        mem.close()
