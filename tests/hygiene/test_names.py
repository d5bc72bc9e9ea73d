"""How names and facts are compared for duplicates."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.hygiene import names as N
from core.memory import Memory
from core.settings import Settings


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
    for a, b in (("daniel", "daniela"), ("francisco", "francisca"), ("python3", "python2"), ("ana", "ada"),
                 ("andres", "andrea"), ("julian", "juliana")):  # a short name's last letter: another name
        assert not N.typo_match([a], [b])
    # the first letter of a surname: another family (a slip seldom hits the first letter)
    assert not N.typo_match(N.tokens("Lucía Fernández"), N.tokens("Lucía Hernández"))
    assert N.typo_match(N.tokens("Lucía Fernández"), N.tokens("Lucía Fernádez"))


def test_nicknames_of_given_names() -> None:
    from core.hygiene import glossary

    for a, b in (("Tony Russo", "Anthony Russo"), ("Chema Rubio", "José María Rubio"),
                 ("Rafa Gil", "Rafael Gil"), ("Maite Ruiz", "María Teresa Ruiz"), ("Jamie Ross", "James Ross")):
        assert glossary.nickname_match(N.tokens(a), N.tokens(b)), (a, b)
    for a, b in (("Tony Russo", "Antonia Russo"), ("Chema Rubio", "José Rubio"), ("Tony", "Anthony"),
                 ("Ana Bill", "Ana William"),  # a surname is not a nickname
                 ("Dani Vega", "Daniela Vega"), ("Sam Green", "Samantha Green")):  # a man's name or a woman's
        assert not glossary.nickname_match(N.tokens(a), N.tokens(b)), (a, b)


def test_a_company_legal_form() -> None:
    for a, b in (("Telefónica S.A.", "Telefonica"), ("Acme Inc.", "Acme"), ("Mercadona, S.L.", "Mercadona")):
        assert N.legal_form_match(N.tokens(a), N.tokens(b)), (a, b)
    for a, b in (("Acme Labs", "Acme"), ("Telefónica S.A.", "Telefónica Tech"), ("Ab Inc", "Ab")):
        assert not N.legal_form_match(N.tokens(a), N.tokens(b)), (a, b)


@pytest.mark.parametrize(("a", "b", "noted"), [
    ("Hospital del Mar", "Hospital del Mar (Barcelona)", True), ("Córdoba (Argentina)", "Córdoba", True),
    ("Carmen Lozano (madre)", "Carmen Lozano", False), ("Ana Ruiz (sister)", "Ana Ruiz (colleague)", False),
    ("Payments", "Payments (2)", False), ("Hospital del Mar", "Hospital Clínic (Barcelona)", False),
    ("Kubernetes cluster", "Kubernetes cluster (staging)", False),  # in lower case: a kind, another thing
])
def test_a_note_in_brackets(a: str, b: str, noted: bool) -> None:
    """A note in brackets on one name says which one is meant (the facts decide, ``meaning``); a
    relative in it names another person (``generation``)."""
    assert N.noted(a, b) is noted


@pytest.mark.parametrize(("name", "generation"), [
    ("Luis Romero Jr.", "jr"), ("Luis Romero Junior", "jr"), ("Richard Cole Sr.", "sr"), ("Sr. Cole", ""),
    ("Henry Ford II", "ii"), ("Manuel Soto hijo", "hijo"), ("Javier Mora padre", "padre"), ("Ana García", ""),
    ("Carmen Lozano (madre)", "madre"), ("Tom Hale (son)", "son"), ("Hospital del Mar (Barcelona)", ""),
])
def test_a_last_word_that_names_a_generation(name: str, generation: str) -> None:
    assert N.generation(name) == generation


def test_father_and_son_sequels_and_a_word_put_inside_are_not_proposed(tmp_path: Path) -> None:
    """The spelling rules through reflect: ``Jr.`` / ``Sr.`` / ``hijo`` make another person (``Sr.``
    after a name is not the title the words drop), a trailing number a sequel, a word put between
    two others another thing; the duplicates beside them still are proposed."""
    pairs = [("Luis Romero", "Luis Romero Jr.", "Person"), ("Richard Cole Sr.", "Richard Cole", "Person"),
             ("Manuel Soto hijo", "Manuel Soto", "Person"), ("Project Titan", "Project Titan 2", "Project"),
             ("Order service", "Order sync service", "Service"), ("Andrés Pardo", "Andrea Pardo", "Person"),
             ("Pablo Ibáñez Jr", "pablo_ibanez_jr.", "Person"), ("Atlas", "Project Atlas", "Project"),
             ("Lucía Fernández", "Lucía Hernández", "Person"), ("Tony Russo", "Anthony Russo", "Person"),
             ("Carmen Lozano (madre)", "Carmen Lozano", "Person"), ("Dani Vega", "Daniela Vega", "Person"),
             ("Kubernetes cluster", "Kubernetes cluster (staging)", "System"),
             ("Telefónica S.A.", "Telefonica", "Organization")]
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none")) as m:
        for n, (a, b, etype) in enumerate(pairs):
            shared = [f"Neighbour {'ABCDEFGHIJKLMNOPQ'[n]}{i}" for i in range(2)]
            m.create_entities([{"name": a, "entityType": etype, "observations": ["one fact"]},
                               {"name": b, "entityType": etype, "observations": ["another fact"]},
                               *({"name": x, "entityType": "Thing"} for x in shared)])
            m.create_relations([{"from": x, "to": y, "relationType": "related_to"} for y in shared for x in (a, b)])
        m.reflect()
        found = sorted(i["title"] for i in m.surface_insights(limit=50, status="all")
                       if i["pattern"] == "duplicate_entities")
    assert found == ["Possible duplicates: Anthony Russo and Tony Russo",
                     "Possible duplicates: Atlas and Project Atlas",
                     "Possible duplicates: Pablo Ibáñez Jr and pablo_ibanez_jr.",
                     "Possible duplicates: Telefonica and Telefónica S.A."]


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Works at Acme", "works at acme.", True), ("Vive en Málaga", "vive en malaga", True),
    ("Latency of Billing went from 544 ms to 62 ms", "Latency of Billing went from 62 ms to 240 ms", False),
    ("Has 3 children", "Has 4 children", False), ("Works at Acme", "Now works at Nubia", False),
])
def test_near_same_facts(a: str, b: str, same: bool) -> None:
    assert N.near_same_fact(a, b) is same


def test_rules_of_the_sixth_batch() -> None:
    """A surname written first is the same person, given names in another order another one; a
    role in brackets is what a person is; a company's kind beside its name; Mª is María."""
    from core.hygiene import glossary

    assert N.rotated(N.tokens("Ruiz-Gallardo, Eva"), N.tokens("Eva Ruiz Gallardo"))
    assert N.rotated(N.tokens("García, Ana"), N.tokens("Ana García"))
    assert not N.rotated(N.tokens("José María Fernández"), N.tokens("María José Fernández"))
    assert N.role_noted("Pilar Sanz (dermatóloga)", "Dra. Pilar Sanz")
    for a, b in (("Pilar Sanz (madre)", "Pilar Sanz"), ("Pilar Sanz (Madrid)", "Pilar Sanz"),
                 ("Pilar Sanz (2)", "Pilar Sanz"), ("Pilar Sanz (dermatóloga)", "Pilar Sáez")):
        assert not N.role_noted(a, b), (a, b)
    for a, b in (("Iberia Airlines", "Iberia"), ("Banco Sabadell", "Sabadell")):
        assert N.legal_form_match(N.tokens(a), N.tokens(b)), (a, b)
    for a, b in (("Iberia Express", "Iberia"), ("Google Cloud", "Google"), ("Grupo Sur", "Sur")):
        assert not N.legal_form_match(N.tokens(a), N.tokens(b)), (a, b)
    assert glossary.nickname_match(N.tokens("Mª José Fernández"), N.tokens("María José Fernández"))


def test_people_by_the_order_of_their_words_and_a_role_in_brackets(tmp_path: Path) -> None:
    """Through reflect: given names swapped are two people; a surname first, a role in brackets and
    a company's kind are one."""
    pairs = [("José María Fernández", "María José Fernández", "Person"), ("Ruiz-Gallardo, Eva", "Eva Ruiz Gallardo",
                                                                          "Person"),
             ("Dra. Pilar Sanz", "Pilar Sanz (dermatóloga)", "Person"), ("Ana Soto (madre)", "Ana Soto", "Person"),
             ("Iberia Airlines", "Iberia", "Organization"),
             ("Iberia Express", "Iberia Exprés Airlines", "Organization")]
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none")) as m:
        for n, (a, b, etype) in enumerate(pairs):
            shared = f"Neighbour {'ABCDEFGH'[n]}"
            m.create_entities([{"name": a, "entityType": etype, "observations": ["one fact"]},
                               {"name": b, "entityType": etype, "observations": ["another fact"]},
                               {"name": shared, "entityType": "Thing"}])
            m.create_relations([{"from": x, "to": shared, "relationType": "related_to"} for x in (a, b)])
        m.reflect()
        found = sorted(i["title"] for i in m.surface_insights(limit=50, status="all")
                       if i["pattern"] == "duplicate_entities")
    assert [t.split(": ", 1)[1] for t in found] == ["Dra. Pilar Sanz and Pilar Sanz (dermatóloga)",
                                                     "Eva Ruiz Gallardo and Ruiz-Gallardo, Eva",
                                                     "Iberia and Iberia Airlines"]


def test_approving_every_merge_of_people_in_the_sixth_batch_loses_no_fact(tmp_path: Path) -> None:
    """Zero facts lost for people (the spelling rules' own): each person pair of the session-6 set
    in a memory of its own, every proposal approved (right or wrong), every fact on the entity
    either name opens; undo gives the graph back."""
    import json

    from bench.hygiene_bench import MEANING_HELD_OUT_6

    cases = [c for c in json.loads(MEANING_HELD_OUT_6.read_text(encoding="utf-8"))["holdout"]
             if c["a"]["type"] == "Person"]
    merged = 0
    for n, case in enumerate(cases):
        a, b = case["a"], case["b"]
        with Memory(Settings(db=tmp_path / f"p{n}.db", embeddings="none")) as m:
            shared = [f"Shared {i}" for i in range(case["shared_neighbours"])]
            m.create_entities([{"name": a["name"], "entityType": "Person", "observations": a["facts"]},
                               {"name": b["name"], "entityType": "Person", "observations": b["facts"]},
                               *({"name": x, "entityType": "Thing"} for x in shared)])
            m.create_relations([{"from": x, "to": y, "relationType": "knows"} for y in shared
                                for x in (a["name"], b["name"])])
            before = sorted((e.name, tuple(e.observations)) for e in m.read_graph().entities)
            m.reflect()
            found = [i for i in m.surface_insights(limit=20) if i["pattern"] == "duplicate_entities"]
            for insight in found:
                m.decide_insight(insight["title"], "approve")
            merged += len(found)
            for name, facts in ((a["name"], a["facts"]), (b["name"], b["facts"])):
                opened = m.open_nodes([name]).entities
                assert opened and all(f in opened[0].observations for f in facts), (name, facts)
            for _ in found:
                m.undo_change()
            assert sorted((e.name, tuple(e.observations)) for e in m.read_graph().entities) == before
    assert merged >= 10
