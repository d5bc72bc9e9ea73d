"""Reflect remembers what each entity's facts yielded: unchanged entities are not judged again,
a changed one is, and damaged bookkeeping only means judging everything again."""

from __future__ import annotations

import json
from pathlib import Path

from core.hygiene import supersede
from core.memory import Memory
from core.settings import Settings


def _updates(m: Memory) -> set[str]:
    return {i["evidence"]["facts"]["older"] for i in m.surface_insights(limit=100, status="all")
            if i["pattern"] == supersede.SUPERSEDED}


def test_remembered_findings_follow_the_facts(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none")) as m:
        m.create_entities([{"name": "Payments", "entityType": "Service",
                            "observations": ["p99 latency is 310 ms", "p99 latency is 180 ms"]},
                           {"name": "Kim", "entityType": "Person", "observations": ["Lives in Madrid", "Likes tea"]}])
        first = m.reflect()
        assert first["incremental"] is False and _updates(m) == {"p99 latency is 310 ms"}
        remembered = json.loads(m.metadata(supersede.REMEMBERED_KEY))
        assert len(remembered) == 2  # one entry per entity with two facts or more
        assert m.reflect()["incremental"] is True  # remembering writes no change: nothing to redo

        m.add_observations([{"entityName": "Kim", "contents": ["Moved to Berlin"]}])
        m.reflect()
        assert _updates(m) == {"p99 latency is 310 ms", "Lives in Madrid"}  # the changed entity was judged
        assert len(json.loads(m.metadata(supersede.REMEMBERED_KEY))) == 2  # Kim's old facts forgotten

        m.set_metadata(supersede.REMEMBERED_KEY, "{not json")
        m.create_entities([{"name": "x", "entityType": "T"}])  # a write, so the next run is a full one
        assert m.reflect()["found"][supersede.SUPERSEDED] == 2
