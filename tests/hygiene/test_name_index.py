"""The duplicate detector's name index: folded in bulk exactly as one name at a time, and kept
between runs with the same proposals as a fresh pass after any write."""

from __future__ import annotations

import random

from core.hygiene import duplicates as D
from core.hygiene import name_index as NI
from core.hygiene import names as N
from core.memory import Memory
from core.storage.factory import hygiene_store


def test_bulk_folding_gives_every_name_its_own_words() -> None:
    rng = random.Random(3)
    alphabet = list("aAbBzZ _-.,'ÁéñÑüßðøæœłÅ0129\t\nﬁİıǅ\u0301") + ["Dr.", "bob", "Sra ", "x\x00y", "Pepe"]
    names = ["", "Ana_Garcia", "García, Ana", "Dr. Bob Smith", "NodeJS", "nodeJs", "Åse Ødegård", "x\x00y"]
    names += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10))) for _ in range(3000)]
    assert NI.tokens_many(names) == [N.tokens(n) for n in names]
    assert NI.tokens_many([]) == []


def _groups(memory: Memory, index: NI.NameIndex) -> list[tuple[list[str], str]]:
    hs = hygiene_store(memory.graph)
    rows = hs.entity_rows()
    names = {i: n for i, n, _ in rows}
    return sorted((sorted(names[i] for i in ids), rule) for ids, rule, _ in D.find_duplicate_groups(rows, hs, index))


def test_a_kept_index_proposes_what_a_fresh_one_does_after_every_write(memory: Memory) -> None:
    memory.create_entities([
        {"name": n, "entityType": t} for n, t in (
            ("Ana García", "Person"), ("Ana_Garcia", "Person"), ("Kubernetes", "Tool"), ("Kuberentes", "Tool"),
            ("Billing", "Team"), ("Shared", "Thing"), ("García, Ana", "Person"), ("Bob Smith", "Person"))])
    memory.create_relations([{"from": x, "to": "Shared", "relationType": "uses"} for x in ("Kubernetes", "Kuberentes")])
    kept = NI.NameIndex()
    steps = [
        lambda: None,
        lambda: memory.create_entities([{"name": "robert smith", "entityType": "Person"}]),
        lambda: memory.delete_entities(["Ana_Garcia"]),
        lambda: memory.rename_entity("Kuberentes", "Prometheus"),
        lambda: memory.rename_entity("Prometheus", "Kuberentes"),
        lambda: memory.archive_node("García, Ana"),
        lambda: memory.delete_entities(["Kubernetes", "Kuberentes", "Ana García", "Bob Smith", "robert smith",
                                        "Billing", "Shared"]),
        lambda: memory.create_entities([{"name": "ana garcia", "entityType": "Person"},
                                        {"name": "Ana García", "entityType": "unknown"}]),
    ]
    seen = []
    for step in steps:
        step()
        got = _groups(memory, kept)
        assert got == _groups(memory, NI.NameIndex())
        seen.append(got)
    assert seen[0] == [(["Ana García", "Ana_Garcia"], "same name"),
                       (["Kuberentes", "Kubernetes"], "a slip in the name")]
    assert any(g == (["Bob Smith", "robert smith"], "same name") for g in seen[1])
    assert seen[-1] == [(["Ana García", "ana garcia"], "same name")]


def test_the_drafts_follow_the_change_log_as_a_full_read_does(memory: Memory) -> None:
    """Between runs only the entities written since are read again (by the change log); after
    every kind of write the proposals equal those of a first run."""
    memory.create_entities([{"name": n, "entityType": t} for n, t in (
        ("Ana García", "Person"), ("Ana_Garcia", "Person"), ("Kubernetes", "Tool"), ("Kuberentes", "Tool"),
        ("Shared", "Thing"), ("Bob Smith", "Person"))])
    memory.create_relations([{"from": x, "to": "Shared", "relationType": "uses"} for x in ("Kubernetes", "Kuberentes")])
    hs = hygiene_store(memory.graph)

    def drafts() -> list[tuple[str, str]]:
        return sorted((d.title, d.summary) for d in D.duplicate_drafts(hs, memory.graph))

    steps = [
        lambda: None,
        lambda: memory.create_entities([{"name": "robert smith", "entityType": "Person"}]),
        lambda: memory.rename_entity("Kuberentes", "Prometheus"),
        lambda: memory.rename_entity("Prometheus", "Kuberentes"),
        lambda: memory.archive_node("Ana_Garcia"),
        lambda: memory.set_entity_type("robert smith", "Robot"),
        lambda: memory.delete_entities(["Bob Smith"]),
        lambda: memory.create_entities([{"name": "ana garcia", "entityType": "Person"}]),
    ]
    for step in steps:
        step()
        kept = drafts()
        NI.forget(memory.graph)
        assert kept == drafts()
