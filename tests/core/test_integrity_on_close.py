"""Closing a memory while its integrity check still runs is no damage.

``close()`` interrupts the check (its own connection would keep the file busy); SQLite then answers
the check with "interrupted", which was taken for damage: every short-lived process on a large
memory (`hipocampo status`, a bench's last look) logged "The memory file … is damaged
(interrupted), so Hipocampo will not write to it".
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings


def test_a_check_interrupted_by_close_reports_no_damage(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "m.db"
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        for start in range(0, 20_000, 2_000):  # large enough that the check takes a while
            m.create_entities([{"name": f"e {i}", "observations": [f"fact {i} " * 8]}
                               for i in range(start, start + 2_000)])
    caplog.set_level(logging.WARNING)
    for _ in range(5):
        m = Memory(Settings(db=db, embeddings="none", backup_keep=0))
        m.close()  # at once: the check is still running
        assert m.graph.integrity is not None and m.graph.integrity.damage is None
    assert not [r for r in caplog.records if "damaged" in r.getMessage()]
    with Memory(Settings(db=db, embeddings="none", backup_keep=0)) as m:
        m.create_entities([{"name": "still writable"}])
        assert m.health_check(deep=True)["quick_check"] == "ok"
