"""An existing SQLite memory gains the stored words of its names (migration 008) without anything
else changing: the first reflect folds the names it finds without words and stores them; a name
changed by another tool (bypassing Hipocampo's writes) is folded again, never matched by its old words."""

from __future__ import annotations

from pathlib import Path

from core.hygiene import names as N
from core.memory import Memory
from core.settings import Settings
from core.storage.factory import hygiene_store
from core.storage.sqlite.connection import connect
from core.storage.sqlite.inspection import SCHEMA_VERSION
from tests.conftest import SteppingClock
from tests.older_schema import without_name_tokens

PEOPLE = [{"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme"]},
          {"name": "Marta Ruiz", "entityType": "Person", "observations": ["Likes tea"]},
          {"name": "Billing", "entityType": "Service"}]


def _words(mem: Memory) -> dict[str, str | None]:
    return {name: words for _, name, _, words in hygiene_store(mem.graph).entity_name_rows()}


def _duplicates(mem: Memory) -> list[str]:
    return sorted(i["title"] for i in mem.reflect()["insights"] if i["pattern"] == "duplicate_entities")


def test_an_older_database_is_upgraded_and_its_first_reflect_stores_the_words(
        tmp_path: Path, clock: SteppingClock) -> None:
    db = tmp_path / "old.db"
    with Memory(Settings(db=db, embeddings="none"), clock=clock) as mem:
        mem.create_entities(PEOPLE)
    conn = connect(db)
    # As schema 7 left it, and a name another tool changed (no index rows rewritten).
    without_name_tokens(conn)
    conn.execute("UPDATE entities SET name = 'ana_garcia' WHERE name = 'Marta Ruiz'")
    conn.commit()
    conn.close()
    with Memory(Settings(db=db, embeddings="none", backup_keep=0), clock=clock) as mem:
        assert mem.graph.db.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert set(_words(mem).values()) == {None}
        assert _duplicates(mem) == ["Possible duplicates: Ana García and ana_garcia"]
        assert _words(mem) == {n: N.stored_tokens(N.tokens(n)) for n in ("Ana García", "ana_garcia", "Billing")}


def test_words_stored_for_an_old_name_are_not_used(tmp_path: Path, clock: SteppingClock) -> None:
    db = tmp_path / "m.db"
    with Memory(Settings(db=db, embeddings="none"), clock=clock) as mem:
        mem.create_entities(PEOPLE)
    conn = connect(db)
    conn.execute("UPDATE entities SET name = 'ana_garcia' WHERE name = 'Marta Ruiz'")  # another tool
    conn.commit()
    conn.close()
    with Memory(Settings(db=db, embeddings="none"), clock=clock) as mem:
        assert _words(mem)["ana_garcia"] is None  # "marta ruiz" is stored, for a name it no longer has
        assert _duplicates(mem) == ["Possible duplicates: Ana García and ana_garcia"]
        assert _words(mem)["ana_garcia"] == "ana garcia"
