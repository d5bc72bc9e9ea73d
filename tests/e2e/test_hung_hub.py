"""A hub that stops answering (SIGSTOP: a frozen app, a swamped process) while a stdio server
forwards to it: calls get a clear answer in seconds instead of minutes; a read falls back to the
file, a write is reported as maybe-applied and never sent again, whether the hub resumes or not."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from core.memory import Memory
from tests.e2e.conftest import start_hub
from tests.e2e.raw import RawStdio

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGSTOP")
ANSWER_CAP_S = 60.0  # a cap for a loaded machine; the bridge answers after HUB_SILENCE_S + HEALTH_TIMEOUT_S


def _call(request_id: Any, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": tool, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def _create(request_id: Any, name: str) -> dict[str, Any]:
    return _call(request_id, "create_entities", {"entities": [{"name": name, "entityType": "Note"}]})


@pytest.mark.parametrize("resumes", [True, False], ids=["the hub resumes", "the hub never comes back"])
def test_a_hung_hub_gets_a_clear_answer_and_no_write_twice(tmp_path: Path, hub_file: Path, resumes: bool) -> None:
    from core.server.transports.bridge import HEALTH_TIMEOUT_S, HUB_SILENCE_S

    db = tmp_path / "m.db"
    hub = start_hub(db, hub_file)
    server = RawStdio(db, hub_file)
    try:
        assert "result" in server.handshake("hung")
        server.request(_create("a", "Before"))
        assert not server.answers_until("a", ANSWER_CAP_S)[-1]["result"]["isError"]
        os.kill(hub.process.pid, signal.SIGSTOP)
        asked = time.monotonic()
        server.request(_create("write", "During"))
        server.request(_call("read", "read_graph", {}))
        answers = {a["id"]: a for a in (server.next_answer(ANSWER_CAP_S) for _ in range(2))}
        took = time.monotonic() - asked
        print(f"\nanswered both in {took:.1f} s with the hub stopped "
              f"(bound: {HUB_SILENCE_S + HEALTH_TIMEOUT_S:.0f} s + the fallback's opening)")
        write = answers["write"]["result"]
        assert write["isError"] and "stopped answering during create_entities" in write["content"][0]["text"]
        assert "not sent again" in write["content"][0]["text"]
        read = answers["read"]["result"]  # from the file
        assert not read["isError"] and "Before" in {e["name"] for e in read["structuredContent"]["entities"]}
        if resumes:
            os.kill(hub.process.pid, signal.SIGCONT)
        else:
            hub.process.kill()
        server.request(_create("after", "After"))  # the file directly now
        assert not server.answers_until("after", ANSWER_CAP_S)[-1]["result"]["isError"]
    finally:
        if hub.process.poll() is None:
            os.kill(hub.process.pid, signal.SIGCONT)
        assert server.close() == 0, server.stderr[-2000:]
        hub.stop()
    with Memory.open(db, embeddings="none") as memory:
        made = [h.entity for h in memory.history() if h.op == "create_entity"]
    assert made.count("During") <= 1 and made.count("Before") == 1 and made.count("After") == 1, made


def test_only_tools_that_read_are_asked_again_of_the_file() -> None:
    import json

    from core.server.fast.front_answers import ANSWERS
    from core.server.transports.bridge import READ_TOOLS

    tools = json.loads('{"jsonrpc":"2.0","id":0' + ANSWERS["tools/list 2025-06-18"])["result"]["tools"]
    read_only = {t["name"] for t in tools if t["annotations"]["readOnlyHint"]}
    assert READ_TOOLS <= read_only and {"read_graph", "search_nodes", "open_nodes"} <= READ_TOOLS
