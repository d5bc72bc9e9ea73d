"""The duplicate rules' words of every name, stored with the entity (SQLite: ``entity_name_tokens``,
migration 008; a graph server: the node's ``name_tokens``), kept fresh by every write path, so a
reflect in a new process reads them instead of folding every name again."""

from __future__ import annotations

import json
from pathlib import Path

from core.hygiene import names as N
from core.io.official import import_official
from core.memory import Memory
from core.storage.factory import hygiene_store


def _stored(mem: Memory) -> dict[str, str | None]:
    return {name: words for _, name, _, words in hygiene_store(mem.graph).entity_name_rows()}


def _fresh(mem: Memory) -> None:
    """Every live entity has its words stored, and they are the rules' words of its current name."""
    stored = _stored(mem)
    assert stored, "no entities"
    assert {n: w for n, w in stored.items() if w != N.stored_tokens(N.tokens(n))} == {}


def test_words_stored_on_create_and_fresh_after_a_rename_and_its_undo(mem: Memory) -> None:
    mem.create_entities([{"name": "Ana_García", "entityType": "Person", "observations": ["Works at Acme"]},
                         {"name": "NodeJS", "entityType": "Technology"},
                         {"name": "Dr. Bob Smith", "entityType": "Person"}])
    _fresh(mem)
    assert _stored(mem)["Dr. Bob Smith"] == "robert smith"
    assert mem.rename_entity("NodeJS", "Deno Runtime")
    _fresh(mem)
    assert _stored(mem)["Deno Runtime"] == "deno runtime"
    mem.undo_change()
    _fresh(mem)
    assert _stored(mem)["NodeJS"] == "node js" and "Deno Runtime" not in _stored(mem)


def test_words_fresh_after_a_merge_and_its_undo(mem: Memory) -> None:
    mem.create_entities([{"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme"]},
                         {"name": "ana_garcia", "entityType": "Person", "observations": ["Likes tea"]}])
    mem.merge_entities(["ana_garcia"], into="Ana García", dry_run=False)
    assert set(_stored(mem)) == {"Ana García"}
    _fresh(mem)
    mem.undo_change()
    assert set(_stored(mem)) == {"Ana García", "ana_garcia"}
    _fresh(mem)


def test_words_stored_for_an_import(mem: Memory, tmp_path: Path) -> None:
    source = tmp_path / "memory.jsonl"
    source.write_text("\n".join(json.dumps(x) for x in [
        {"type": "entity", "name": "Kubernetes_Cluster", "entityType": "Tool", "observations": ["k8s"]},
        {"type": "entity", "name": "José Pérez", "entityType": "Person", "observations": []},
        {"type": "relation", "from": "José Pérez", "to": "Kubernetes_Cluster", "relationType": "runs"}]),
        encoding="utf-8")
    import_official(mem, source)
    _fresh(mem)
    assert _stored(mem)["José Pérez"] == "jose perez"


def _forget_words(mem: Memory, backend: str) -> None:
    """As a memory written before the words were stored (schema 7, or an older graph)."""
    if backend == "sqlite":
        with mem.graph.db.write() as conn:
            conn.execute("DELETE FROM entity_name_tokens")
    else:
        mem.graph.write(lambda tx: tx.write("MATCH (e:Entity) SET e.name_tokens = null"))


def test_reflect_folds_the_words_not_stored_then_stores_them(mem: Memory, backend: str) -> None:
    people = [{"name": "Ana García", "entityType": "Person", "observations": ["Works at Acme"]},
              {"name": "Ana_Garcia", "entityType": "Person", "observations": ["Likes tea"]},
              {"name": "Dr. Bob Smith", "entityType": "Person"}, {"name": "Robert Smith", "entityType": "Person"}]
    mem.create_entities(people)
    _forget_words(mem, backend)
    assert set(_stored(mem).values()) == {None}
    found = sorted(i["title"] for i in mem.reflect()["insights"] if i["pattern"] == "duplicate_entities")
    assert found == ["Possible duplicates: Ana García and Ana_Garcia",
                     "Possible duplicates: Dr. Bob Smith and Robert Smith"]
    _fresh(mem)  # stored by that reflect, once its plan was written


def test_a_stored_copy_for_another_name_is_ignored(mem: Memory) -> None:
    mem.create_entities([{"name": "Ana García", "entityType": "Person"}])
    hs = hygiene_store(mem.graph)
    (eid, _, _, _), = hs.entity_name_rows()
    hs.store_name_tokens([(eid, "Someone Else", "someone else")])  # not the entity's name: not written
    _fresh(mem)
