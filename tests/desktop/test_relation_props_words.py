"""A change to an existing relation's properties (``merge_relation`` on a relation that is there) reads
as what it is in the activity pane and in the editor's history, not as the raw operation's name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings


@pytest.fixture
def memory(tmp_path: Path) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui")) as m:
        m.create_entities([{"name": "Ana", "entityType": "Person", "observations": []},
                           {"name": "Billing", "entityType": "Service", "observations": []}])
        m.merge_relation("Ana", "maintains", "Billing")
        m.merge_relation("Ana", "maintains", "Billing", {"since": 2024})
        yield m


def test_the_activity_pane_says_the_relation_changed(qapp, memory: Memory) -> None:  # noqa: ANN001
    from desktop.activity.model import describe

    row = memory.history(limit=1)[0]
    assert row.op == "update_relation"
    assert describe(row) == "changed the properties of the relation <b>Ana</b> → <b>Billing</b> (maintains)"


def test_the_history_says_the_relation_changed(qapp, memory: Memory) -> None:  # noqa: ANN001
    from desktop.shared.history_view import describe_change

    assert describe_change(memory.history(limit=1)[0]) == "changed the properties of Ana —maintains→ Billing"
