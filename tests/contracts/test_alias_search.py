"""A merged-away name finds the entity it was merged into by meaning and by words too, on every
backend: the name is one of the entity's aliases, part of its own words and of its embedding text,
and a query naming it exactly counts as naming the entity (it comes first). Undoing the merge gives
the name back as an entity of its own."""

from __future__ import annotations

from core.memory import Memory


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
