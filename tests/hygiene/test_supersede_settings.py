"""Supersession is never automatic unless the user turns it on; then the older fact is still kept."""

from __future__ import annotations

from pathlib import Path

from core.hygiene.supersede import CONTRADICTING, SUPERSEDED
from core.memory import Memory
from core.settings import Settings

FACTS = ["Works at Acme", "Is vegetarian", "Now works at Nubia", "Is not vegetarian"]


def _run(tmp_path: Path, **settings: object) -> tuple[Memory, dict]:
    m = Memory(Settings(db=tmp_path / "m.db", embeddings="none", **settings))
    m.create_entities([{"name": "Ana", "entityType": "Person", "observations": FACTS}])
    return m, m.reflect(actor="cli")


def test_off_by_default(tmp_path: Path) -> None:
    m, result = _run(tmp_path)
    with m:
        assert "auto_approved" not in result
        assert m.superseded_facts("Ana") == {}
        assert {i["pattern"]: i["status"] for i in m.surface_insights(limit=50, status="all")
                if i["pattern"] in (SUPERSEDED, CONTRADICTING)} == {SUPERSEDED: "pending", CONTRADICTING: "pending"}


def test_auto_approval_marks_updates_only_and_keeps_the_fact(tmp_path: Path) -> None:
    m, result = _run(tmp_path, auto_approve_supersessions=True)
    with m:
        assert result["auto_approved"] == 1
        assert list(m.superseded_facts("Ana")) == ["Works at Acme"]  # the contradiction waits for a person
        assert m.open_nodes(["Ana"]).entities[0].observations == FACTS
        assert m.history("Ana")[0].actor == "cli (auto-approved)"
        m.undo_change()
        assert m.superseded_facts("Ana") == {}
