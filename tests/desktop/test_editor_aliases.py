"""The entity editor opens a name that was merged into another entity: it shows that entity, with
the names it is also known by, and a Save goes to it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings
from desktop.editor import EditorPane
from desktop.editor.pane import EDITING, EMPTY
from desktop.workers import Core

WAIT_MS = 20_000  # a deadline, not a speed claim


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as m:
        m.create_entities([{"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme"]},
                           {"name": "Ana_Garcia", "entityType": "Person", "observations": ["Likes tea"]}])
        m.merge_entities(["Ana_Garcia"], into="Ana García", dry_run=False)
        yield m


def test_a_merged_name_opens_the_entity_it_joined(qtbot, core: Core, memory: Memory) -> None:  # noqa: ANN001
    pane = EditorPane(core)
    qtbot.addWidget(pane)
    pane.resize(460, 700)
    pane.show()
    pane.open_entity("Ana_Garcia")
    qtbot.waitUntil(lambda: pane.stack.currentIndex() != EMPTY and not pane.is_busy(), timeout=WAIT_MS)
    assert pane.stack.currentIndex() == EDITING
    assert pane.page.name_edit.text() == "Ana García"
    assert [o.text for o in pane.page.observations.items()] == ["Works at Acme", "Likes tea"]
    assert "also “Ana_Garcia”" in pane.page.meta.text()
    texts = [pane.page.history.item(i).text() for i in range(pane.page.history.count())]
    assert texts[0].startswith("merged “Ana_Garcia” into Ana García\n"), texts  # one row for the whole merge
    assert not any(t.startswith("added 1 observation") for t in texts), texts


def test_the_activity_pane_says_a_merge_in_one_row(memory: Memory) -> None:
    from desktop.activity.model import describe

    row = memory.history(limit=1)[0]
    assert describe(row) == "merged <b>Ana_Garcia</b> into <b>Ana García</b>"
