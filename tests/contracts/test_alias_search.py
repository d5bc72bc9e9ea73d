"""A merged-away name finds the entity it was merged into by meaning and by words too, on every
backend: the name is one of the entity's aliases, part of its own words and of its embedding text,
and a query naming it exactly counts as naming the entity (it comes first). Undoing the merge gives
the name back as an entity of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.search.folding import name_key
from core.search.hybrid import FRESH_AT_MOST
from core.settings import Settings
from tests.conftest import SteppingClock
from tests.contracts.conftest import SERVER_SETTINGS


def _seed(mem: Memory) -> None:
    mem.create_entities([
        {"name": "Pepe Ruiz", "entityType": "person",
         "observations": ["Works on the billing team", "Lives in Sevilla"]},
        {"name": "José Ruiz", "entityType": "person", "observations": ["Billing team lead"]},
        {"name": "José Ruiz Jr.", "entityType": "person", "observations": ["Student in Madrid", "Son of José Ruiz"]},
        {"name": "Billing", "entityType": "team", "observations": ["Owns invoices"]},
    ])


def _names(mem: Memory, query: str) -> list[str]:
    return [h["name"] for h in mem.search_semantic(query, limit=5, record=False)]


def test_a_merged_name_finds_the_entity_it_was_merged_into(mem: Memory) -> None:
    _seed(mem)
    mem.embed_pending()
    mem.merge_entities(["Pepe Ruiz"], into="José Ruiz", dry_run=False)
    assert mem.embed_pending() >= 1  # the merge made José Ruiz's vector due
    assert _names(mem, "Pepe Ruiz")[0] == "José Ruiz"
    assert _names(mem, "pepe_RUIZ")[0] == "José Ruiz"  # folded as aliases are
    assert "José Ruiz" in _names(mem, "Pepe")
    mem.undo_change()
    mem.embed_pending()
    assert _names(mem, "Pepe Ruiz")[0] == "Pepe Ruiz"
    assert _names(mem, "Pepe")[0] == "Pepe Ruiz"


def test_a_merged_name_is_named_before_the_vectors_catch_up(mem: Memory) -> None:
    _seed(mem)
    mem.embed_pending()
    mem.merge_entities(["Pepe Ruiz"], into="José Ruiz", dry_run=False)
    assert _names(mem, "Pepe Ruiz")[0] == "José Ruiz"
    assert "José Ruiz" in _names(mem, "Pepe")


def test_an_entity_merged_into_before_gets_its_aliases_words_and_a_new_vector(
        backend: str, tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest,
        local_embedder: OnnxEmbeddingProvider) -> None:
    """A memory whose merges were written before aliases were part of an entity's own words and
    embedding text: opened, the merged entity's vector is due again (and on a graph server its own
    words are rewritten), so its former name finds it by meaning and by words."""
    server = request.getfixturevalue(SERVER_SETTINGS[backend]) if backend != "sqlite" else {}
    settings = Settings(db=tmp_path / "old.db", **{"backend": backend, **server})
    with Memory(settings, clock=clock, embedder=local_embedder) as mem:
        _seed(mem)
        mem.merge_entities(["Pepe Ruiz"], into="José Ruiz", dry_run=False)
        mem.embed_pending()
        if backend == "sqlite":  # as before migration 010 (its vectors current, whatever their text)
            with mem.graph.db.write() as conn:
                conn.execute("PRAGMA user_version = 9")
        else:  # as before: ft_own without the aliases, no mark
            from core.storage.cypher.hygiene import ALIAS_WORDS_KEY

            mem.graph.db.write(lambda tx: tx.write(
                "MATCH (e:Entity {name: 'José Ruiz'}) SET e.ft_own = 'person'"))
            mem.graph.db.write(lambda tx: tx.write(
                "MATCH (m:Meta) WHERE m.key STARTS WITH $k DELETE m", {"k": ALIAS_WORDS_KEY}))
    with Memory(settings, clock=clock, embedder=local_embedder) as mem:
        assert mem.embed_pending() == 1  # José Ruiz, the entity merged into
        assert "José Ruiz" in _names(mem, "Pepe")
    with Memory(settings, clock=clock, embedder=local_embedder) as mem:
        assert mem.embed_pending() == 0  # done once


def test_a_merged_name_no_list_brings_is_still_named(mem: Memory) -> None:
    """An alias with no words (an emoji) and the entity's vector not embedded yet (too many pending
    to embed with the query): the name still finds the entity it was merged into."""
    mem.create_entities([{"name": "Zorro", "entityType": "Pet", "observations": ["the kids' fox"]},
                         {"name": "🦊", "entityType": "Pet", "observations": ["the fox emoji"]}])
    mem.merge_entities(["🦊"], into="Zorro", dry_run=False)
    mem.create_entities([{"name": f"Pending {i}", "entityType": "Note", "observations": ["imported"]}
                         for i in range(FRESH_AT_MOST + 1)])
    assert _names(mem, "🦊")[:1] == ["Zorro"]
    mem.archive_node("Zorro")
    assert "Zorro" not in _names(mem, "🦊")


def test_a_name_is_named_separators_aside_other_signs_kept() -> None:
    assert name_key(" pepe_RUIZ ") == name_key("Pepe  Ruiz") == name_key("pepe-ruiz.") == "pepe ruiz"
    assert name_key("C++") != name_key("C") != name_key("C#")
