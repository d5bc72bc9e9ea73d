"""Several processes sharing one memory (each MCP client spawns its own server): no write is lost, on
one SQLite file or on one FalkorDB graph."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.memory import Memory

WRITER = """
import sys
from core.memory import Memory
with Memory.open(sys.argv[1]) as m:
    for i in range(int(sys.argv[3])):
        m.create_entities([{"name": f"{sys.argv[2]}-{i}", "observations": [f"write {i}"]}],
                          actor=sys.argv[2])
        m.add_observations([{"entityName": "shared", "contents": [f"{sys.argv[2]} {i}"]}])
"""


@pytest.mark.parametrize("backend", ["sqlite", "falkordb"])
def test_concurrent_processes_lose_no_writes(tmp_path: Path, backend: str, request: pytest.FixtureRequest,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    if backend != "sqlite":  # one graph on the session's server, chosen by the environment alone
        for key, value in request.getfixturevalue("graph_settings").items():
            monkeypatch.setenv(f"HIPOCAMPO_{key.upper()}", str(value))
    db = tmp_path / "shared.db"
    with Memory.open(db) as m:
        assert m.graph.backend == backend
        m.create_entities([{"name": "shared"}])
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(db), f"proc{p}", "20"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
        for p in range(3)
    ]
    for w in writers:
        _, err = w.communicate(timeout=120)
        assert w.returncode == 0, err
    with Memory.open(db) as m:
        names = {e.name for e in m.read_graph().entities}
        assert names == {"shared"} | {f"proc{p}-{i}" for p in range(3) for i in range(20)}
        assert len(m.open_nodes(["shared"]).entities[0].observations) == 60
        assert m.health_check()["ok"]
