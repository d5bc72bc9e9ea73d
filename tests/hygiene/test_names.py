"""How names and facts are compared for duplicates."""

from __future__ import annotations

import pytest

from core.hygiene import names as N


@pytest.mark.parametrize(("a", "b"), [
    ("Ana_Garcia", "Ana García"), ("ana garcia", "ANA GARCÍA"), ("Node.js", "NodeJS"),
    ("BillingService", "billing-service"),
    ("Dr. Ana García", "Ana García"), ("Bob Smith", "Robert Smith"), ("Pepe Martínez", "José Martínez"),
    ("Bjork Gudmundsdottir", "Björk Guðmundsdóttir"),
])
def test_same_name_written_differently(a: str, b: str) -> None:
    assert N.name_key(a) == N.name_key(b)


@pytest.mark.parametrize(("a", "b"), [("Ana García", "Ana Gardner"), ("Project Atlas", "Atlas Copco"),
                                      ("Python 2", "Python 3"), ("John Smith", "Jane Smith")])
def test_near_misses_differ(a: str, b: str) -> None:
    assert N.name_key(a) != N.name_key(b) and N.order_key(a) != N.order_key(b)


def test_initials_and_slips() -> None:
    assert N.initial_match(N.tokens("A. García"), N.tokens("Ana García"))
    assert not N.initial_match(N.tokens("B. García"), N.tokens("Ana García"))
    assert N.typo_match(["kuberentes"], ["kubernetes"])
    for a, b in (("daniel", "daniela"), ("francisco", "francisca"), ("python3", "python2"), ("ana", "ada")):
        assert not N.typo_match([a], [b])


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Works at Acme", "works at acme.", True), ("Vive en Málaga", "vive en malaga", True),
    ("Latency of Billing went from 544 ms to 62 ms", "Latency of Billing went from 62 ms to 240 ms", False),
    ("Has 3 children", "Has 4 children", False), ("Works at Acme", "Now works at Nubia", False),
])
def test_near_same_facts(a: str, b: str, same: bool) -> None:
    assert N.near_same_fact(a, b) is same
