"""A search whose result is deleted by another client meanwhile still answers.

The soak's one unexplained ``search_semantic`` error ("Error executing tool search_semantic", 1 call
in ~90,000): the hub runs calls on worker threads, and another client's ``delete_entities`` landed
between the search reading its candidates and recording what it recalled; recording an access to
an entity that no longer exists broke ``entity_access``'s foreign key. Here the deletion is made to
land at exactly those moments, through a second connection as another process would.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from core.memory import Memory
from core.search.hybrid import RECORD_TOP
from core.settings import Settings


def settings(db: Path) -> Settings:
    return Settings(db=db, embeddings="none", backup_keep=0)


def seed(m: Memory) -> None:
    m.create_entities([{"name": f"tea {i}", "entityType": "Note", "observations": [f"green tea number {i}"]}
                       for i in range(5)])


def test_an_entity_deleted_while_the_search_ranks_is_neither_returned_nor_recalled(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    other = Memory(settings(db))  # another client's process: its own connection
    armed: list[Callable[[], None]] = []

    def clock() -> datetime:
        while armed:  # the search asks the time between ranking and reading the winners
            armed.pop()()
        return datetime.now(UTC)

    with Memory(settings(db), clock=clock) as m:
        try:
            seed(m)
            armed.append(lambda: other.delete_entities(["tea 2"]))
            hits = m.search_semantic("green tea", limit=5)
            assert armed == []  # the deletion did land during the search
            assert sorted(h["name"] for h in hits) == ["tea 0", "tea 1", "tea 3", "tea 4"]
            stats = m.graph.limbic_stats(list(m.graph.ids_for(["tea 0", "tea 1", "tea 3", "tea 4"]).values()))
            assert len(stats["access"]) == min(RECORD_TOP, 4)  # the best of the others were recalled
        finally:
            other.close()


def test_recalling_an_entity_deleted_meanwhile_records_the_others(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with Memory(settings(db)) as m, Memory(settings(db)) as other:
        seed(m)
        ids = m.graph.ids_for([f"tea {i}" for i in range(5)])
        other.delete_entities(["tea 0", "tea 4"])  # after the search read them, before it records
        m.graph.record_access(list(ids.values()))
        stats = m.graph.limbic_stats(list(ids.values()))
        assert sorted(stats["access"]) == sorted(ids[f"tea {i}"] for i in (1, 2, 3))
        assert sorted(stats["cooc"]) == sorted((ids[a], ids[b]) for a, b in
                                               (("tea 1", "tea 2"), ("tea 1", "tea 3"), ("tea 2", "tea 3")))
        assert m.health_check(deep=True)["quick_check"] == "ok"
