"""Engrama's database imports with its insights' review state on every backend (one rule, each store)."""

from __future__ import annotations

from pathlib import Path

from core.io import import_path
from core.memory import Memory
from tests.io.test_engrama_db import build_engrama_db


def test_imported_insights_keep_their_status(mem: Memory, tmp_path: Path) -> None:
    report = import_path(mem, build_engrama_db(tmp_path / "engrama.db"))
    assert report.entities_imported == 7
    found = {i["title"]: (i["status"], i["confidence"]) for i in mem.surface_insights(status="all")}
    assert found == {"Shared SQLite": ("approved", 0.85), "Maybe Rust": ("pending", 0.6),
                     "Not this": ("dismissed", 0.5)}
    assert mem.insight_counts()["pending"] == 1
    assert mem.decide_insight("Maybe Rust", "dismiss")["status"] == "dismissed"
    import_path(mem, tmp_path / "engrama.db")  # again: a decision made here is kept
    assert mem.surface_insights(title="Maybe Rust", status="all")[0]["status"] == "dismissed"
