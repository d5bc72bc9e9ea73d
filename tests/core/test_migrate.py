"""Moving a whole memory between a SQLite file and a FalkorDB graph, and back: nothing lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from core.embeddings.text import text_hash
from core.errors import Conflict
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock

ROOT = Path(__file__).resolve().parents[2]


def fill(m: Memory, clock: SteppingClock) -> None:
    m.create_entities([{"name": f"E{i}", "entityType": "Note", "observations": [f"fact {i}", "shared ñ"]}
                       for i in range(30)])
    m.create_relations([{"from": f"E{i}", "to": f"E{i + 1}", "relationType": "next"} for i in range(29)])
    m.merge_node("Concept", "Idea", {"summary": "a thought", "tags": ["x"]})
    m.create_relations([{"from": n, "to": "Idea", "relationType": "about"} for n in ("A", "B", "C")])
    clock.advance(hours=1)
    m.delete_entities(["E29"])
    m.archive_node("E28")
    m.reflect()
    ids = m.graph.ids_for(["E0", "E1"])
    m.vectors.prepare("test-model", 384)
    texts = m.vectors.texts(list(ids.values()))
    vectors = np.random.default_rng(3).random((2, 384), dtype=np.float32)
    m.vectors.store_embedded("test-model", {ids[n]: (text_hash(texts[ids[n]]), vectors[k])
                                            for k, n in enumerate(["E0", "E1"])})


def snapshot(m: Memory) -> dict[str, Any]:
    return {
        "graph": m.read_graph().dump(), "archived": m.get_node("E28").archived_at,  # type: ignore[union-attr]
        "history": [(h.id, h.op, h.entity, h.before, h.after) for h in m.history(limit=1000)],
        "insights": sorted((i["title"], i["status"], i["confidence"])
                           for i in m.surface_insights(status="all", limit=100)),
        "idea": m.get_node("Idea").model_dump(),  # type: ignore[union-attr]
        "as_of": m.query_at_date("2026-01-01T12:00:00.000Z").dump(),
    }


def test_a_memory_moves_to_falkordb_and_back_unchanged(tmp_path: Path, clock: SteppingClock,
                                                       graph_settings: dict[str, object]) -> None:
    server = Settings(embeddings="none", **graph_settings)  # type: ignore[arg-type]
    with Memory(Settings(db=tmp_path / "source.db", embeddings="none"), clock=clock) as m:
        fill(m, clock)
        before = snapshot(m)
        nearest = m.vectors.search(np.ones(384, dtype=np.float32), 2)
        report = m.migrate_to(server)
    assert report["verified"], report
    assert report["counts"]["vectors"] == 2 and report["counts"]["insights"] >= 1
    with Memory(server, clock=clock) as g:
        assert g.graph.backend == "falkordb"
        assert snapshot(g) == before
        assert [i for i, _ in g.vectors.search(np.ones(384, dtype=np.float32), 2)] == [i for i, _ in nearest]
        assert g.vectors.progress("test-model")[0] == 2  # nothing to re-embed
        g.create_entities([{"name": "Written on the server"}])  # ids go on after the moved ones
        assert g.history(limit=1)[0].id == before["history"][0][0] + 1
        back = g.migrate_to(Settings(db=tmp_path / "back.db", embeddings="none"))
        assert back["verified"], back
        with Memory(Settings(db=tmp_path / "other.db", embeddings="none")) as other:
            other.create_entities([{"name": f"x{i}"} for i in range(200)])
        with pytest.raises(Conflict, match="another memory"):  # never into a memory holding other rows
            g.migrate_to(Settings(db=tmp_path / "other.db", embeddings="none"))
    with Memory(Settings(db=tmp_path / "back.db", embeddings="none"), clock=clock) as b:
        assert b.open_nodes(["Written on the server"]).entities
        assert b.read_graph().dump()["relations"] == before["graph"]["relations"]
        assert [e.name for e in b.search_nodes("SHARED N").entities][:2] == ["E0", "E1"]  # indexes built
        assert b.restore_entity("E29", actor="test").name == "E29"  # the history came along


def test_migrate_command_is_resumable_and_verified(tmp_path: Path, graph_settings: dict[str, object]) -> None:
    db = tmp_path / "cli.db"
    with Memory(Settings(db=db, embeddings="none")) as m:
        m.create_entities([{"name": f"N{i}", "observations": ["o"]} for i in range(50)])
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HIPOCAMPO_EMBEDDINGS": "none",
           **{f"HIPOCAMPO_{k.upper()}": str(v) for k, v in graph_settings.items() if k != "backend"}}
    command = [sys.executable, "-m", "core.cli", "--db", str(db), "migrate", "--to", "falkordb"]
    first = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert first.returncode == 0, first.stderr
    assert "entities: 50/50" in first.stderr and json.loads(first.stdout)["verified"] is True
    again = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert again.returncode == 0, again.stderr  # a second run finds everything there and adds nothing
    assert json.loads(again.stdout)["target_counts"]["entities"] == 50
    same = subprocess.run([*command[:-1], "sqlite"], env=env, capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert same.returncode == 2 and "the memory itself" in same.stderr
