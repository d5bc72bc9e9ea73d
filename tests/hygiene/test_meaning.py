"""Duplicates by meaning (core.hygiene.meaning): the vetoes on the words, and reflect proposing a
translated name with shared neighbours, its evidence in the insight, on both backends, with the
bundled model; near misses never; the labelled set's goals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from core.hygiene import glossary, meaning
from core.hygiene.name_index import tokens_many
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.mark.parametrize(("a", "b", "why"), [
    ("Sprint 41", "Sprint 42", "their numbers differ"),
    ("Payments API v1", "Payments API v2", "their numbers differ"),
    ("Project Apollo", "Project Artemis", "one word differs"),
    ("Frontend team", "Backend team", "one word differs"),
    ("Frontend", "Backend", "two different words"),
    ("React", "React Native", "one name inside the other"),
    ("Billing service", "Servicio de facturación", None),
    ("Proyecto Atlas", "Project Atlas", None),
    ("Inventory", "Inventario", None),
    ("K8s cluster", "Kubernetes cluster", None),  # digits inside a word: a short form, not a number
    ("Q3 roadmap", "Q4 roadmap", "their numbers differ"),
    ("Sprint 12 review", "Sprint review", "their numbers differ"),
    ("Payments svc", "Payments service v2", "their numbers differ"),  # a version on one side only
    ("Auth service", "Authentication service", None),  # a word's short form
    ("Data Lake", "Data Lakehouse", "one word differs"),  # a compound, not a short form
    ("Madrid office", "Oficina de Madrid", None),  # one word apart in two languages: the translation
    ("Servicio de facturación", "Servicio de pagos", "one word differs"),
    ("Stats service", "Status service", "one word differs"),  # short words one letter apart inside
    ("Lista de tareas", "Task list", None),  # a cognate differs at its end
])
def test_vetoes_on_the_words(a: str, b: str, why: str | None) -> None:
    ta, tb = tokens_many([a, b])
    assert meaning.veto(ta, tb) == why


@pytest.mark.parametrize(("a", "b", "read"), [
    ("Prod DB", "Production database", "same"), ("QA env", "QA environment", "same"),
    ("Infra team", "Infrastructure team", "same"), ("Valencia office", "Oficina de Valencia", "same"),
    ("Customer portal", "Portal de clientes", "same"), ("Invoicing system", "Billing system", "same"),
    ("Q2 OKRs", "OKRs for Q2", "same"), ("Backup policy", "Política de copias de seguridad", "same"),
    ("Staging DB", "Production database", "apart"), ("Dev env", "Prod environment", "apart"),
    ("Auth API", "Authz API", "apart"), ("Informe trimestral", "Annual report", "apart"),
    ("Madrid office", "Oficina de Málaga", None), ("Project Apollo", "Project Artemis", None),
    ("Help desk", "Service desk", "same"), ("Support inbox", "Help desk inbox", "same"),
    ("Shipping costs", "Delivery costs", "same"), ("Registro de cambios", "Changelog", "same"),
    ("Help desk", "Help center", None), ("Shipping costs", "Shipping price", "apart"),
    ("Login page", "Sign-in page", "same"), ("Login page", "Logout page", None),
    ("Summer party", "Fiesta de verano", "same"), ("Summer party", "Christmas party", None),
])
def test_names_read_plainly(a: str, b: str, read: str | None) -> None:
    """Short forms written out, common words of both languages and synonyms read as one word: the
    same name, or two words the glossary knows apart (``None``: the model judges)."""
    ta, tb = tokens_many([a, b])
    got = "same" if glossary.same(ta, tb) else "apart" if glossary.known_apart(ta, tb) else None
    assert got == read


def test_short_forms_and_translated_types_are_proposed_and_known_words_apart_are_not(mem: Memory) -> None:
    _pair(mem, "Dev DB", ["Postgres 16 on the dev VPC"], "Development database",
          ["Postgres 16 instance used for development"], "System", 1)
    _pair(mem, "Staging DB", ["Postgres copy refreshed weekly"], "Production database",
          ["Primary Postgres serving customers"], "System", 2)
    _pair(mem, "Auth API", ["Issues login tokens"], "Authz API", ["Checks permissions for each request"], "System", 2)
    mem.create_entities([{"name": "Oficina de Valencia", "entityType": "Oficina", "observations": ["Abrió en 2023"]},
                         {"name": "Valencia office", "entityType": "Office", "observations": ["Opened in 2023"]},
                         {"name": "Valencia hub", "entityType": "Team"}])
    mem.create_relations([{"from": x, "to": "Valencia hub", "relationType": "in"}
                          for x in ("Oficina de Valencia", "Valencia office")])
    mem.reflect()
    assert sorted(i["title"] for i in _duplicates(mem)) == [
        "Possible duplicates: Dev DB and Development database",
        "Possible duplicates: Oficina de Valencia and Valencia office"]


@pytest.fixture(params=["sqlite", "falkordb"])
def mem(tmp_path: Path, clock: SteppingClock, request: pytest.FixtureRequest,
        local_embedder: Any) -> Iterator[Memory]:
    server = request.getfixturevalue("graph_settings") if request.param != "sqlite" else {}
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none", **server), clock=clock) as m:
        meaning.attach(m.graph, local_embedder)
        yield m


def _pair(mem: Memory, a: str, fa: list[str], b: str, fb: list[str], etype: str, shared: int) -> None:
    neighbours = [f"{a} neighbour {i}" for i in range(shared)]
    mem.create_entities([{"name": a, "entityType": etype, "observations": fa},
                         {"name": b, "entityType": etype, "observations": fb},
                         *({"name": n, "entityType": "Team"} for n in neighbours)])
    mem.create_relations([{"from": x, "to": n, "relationType": "owned_by"} for n in neighbours for x in (a, b)])


def _duplicates(mem: Memory) -> list[dict[str, Any]]:
    return [i for i in mem.surface_insights(limit=100, status="all") if i["pattern"] == "duplicate_entities"]


def test_a_translated_name_with_shared_neighbours_is_proposed_with_its_evidence(mem: Memory) -> None:
    _pair(mem, "Billing service", ["Sends the monthly invoices"],
          "Servicio de facturación", ["Envía las facturas mensuales"], "Service", 2)
    _pair(mem, "Project Apollo", ["Rewrite of the mobile app"], "Project Artemis", ["Rewrite of the web app"],
          "Project", 2)
    _pair(mem, "Marketing plan", ["For the spring launch"], "Plan de ventas", ["Para el lanzamiento"], "Document", 0)
    mem.reflect()
    found = _duplicates(mem)
    assert [i["title"] for i in found] == ["Possible duplicates: Billing service and Servicio de facturación"]
    insight = found[0]
    shared = ["Billing service neighbour 0", "Billing service neighbour 1"]
    assert insight["evidence"]["rule"] == "close in meaning"
    assert insight["evidence"]["meaning"]["shared"] == shared
    assert insight["evidence"]["meaning"]["names"] >= meaning.NAME_MIN
    assert "close in meaning: names 0." in insight["summary"] and "facts 0." in insight["summary"]
    assert all(f"“{n}”" in insight["summary"] for n in shared)
    # Approving it merges them, like any duplicate proposal.
    mem.decide_insight(insight["title"], "approve")
    kept = {e.name for e in mem.open_nodes(["Billing service", "Servicio de facturación"]).entities}
    assert len(kept) == 1


def test_a_note_in_brackets_is_proposed_when_the_facts_agree(mem: Memory) -> None:
    """``Hospital del Mar`` / ``Hospital del Mar (Barcelona)``: the note says which one; with facts
    that say the same it is one place, with facts apart two places of one name."""
    _pair(mem, "Hospital del Mar", ["Where Ana had her knee surgery"], "Hospital del Mar (Barcelona)",
          ["Ana's knee operation was there"], "Place", 1)
    _pair(mem, "Córdoba", ["In Andalusia, where Luis was born"], "Córdoba (Argentina)",
          ["Where the supplier is"], "City", 1)
    # the other's facts name the note: they say which one
    _pair(mem, "Hotel Miramar (Málaga)", ["Stayed there for the wedding"], "Hotel Miramar",
          ["Our hotel for the wedding in Málaga"], "Place", 1)
    # a common word shared, proper names apart: two of a kind, whatever the model says of them
    _pair(mem, "Museo del Prado", ["Saw the Velázquez room"], "Museo Reina Sofía", ["Saw the Guernica"], "Place", 2)
    mem.reflect()
    assert sorted(i["title"] for i in _duplicates(mem)) == [
        "Possible duplicates: Hospital del Mar and Hospital del Mar (Barcelona)",
        "Possible duplicates: Hotel Miramar and Hotel Miramar (Málaga)"]


def test_a_pair_is_judged_again_only_when_one_of_them_is_written(mem: Memory) -> None:
    _pair(mem, "Price list", ["Updated every January"], "Lista de precios", [], "Document", 1)
    mem.reflect()
    assert _duplicates(mem) == []  # one neighbour in common and no facts to compare: not enough
    mem.create_entities([{"name": "Sales team", "entityType": "Team"}])
    mem.create_relations([{"from": x, "to": "Sales team", "relationType": "owned_by"}
                          for x in ("Price list", "Lista de precios")])
    mem.reflect()
    assert [i["title"] for i in _duplicates(mem)] == ["Possible duplicates: Lista de precios and Price list"]


def test_merges_meet_the_goals_with_the_model(local_embedder: Any) -> None:
    from bench.hygiene_bench import evaluate_meaning

    result = evaluate_meaning(embedder=local_embedder)
    # The goal holds on the sets of sessions 1-3 (the rules were tuned with them in view); the
    # later held-out sets are held to what they measured after session 5's rules (bench/RESULTS.md),
    # so a rule change that makes them worse fails here.
    older = [s for label, s in result.items() if label not in ("misses", "all merges") and "session 4" not in label
             and "session 5" not in label]
    tp, fp, fn = (sum(s[k] for s in older) for k in ("tp", "fp", "fn"))
    assert tp / (tp + fp) >= 0.95 and tp / (tp + fn) >= 0.8, result["misses"]
    every = result["all merges"]  # session 5: the goal holds on every set together
    assert every["precision"] >= 0.95 and every["recall"] >= 0.8, result["misses"]
    for label, least in (("meaning, held out (session 4)", (0.95, 0.9)),
                         ("meaning, held out (session 4, second batch)", (0.9, 0.8)),
                         ("meaning, held out (session 5)", (0.95, 0.9)),
                         ("meaning, held out (session 5, second batch)", (0.94, 0.85)),
                         ("meaning, held out (session 6)", (0.95, 0.9))):
        assert result[label]["precision"] >= least[0] and result[label]["recall"] >= least[1], result["misses"]
    assert result["meaning, held out"]["recall"] >= 0.8, result["misses"]
    held_out = result["meaning, held out (session 3)"]
    assert held_out["cases"] >= 60 and held_out["precision"] >= 0.9 and held_out["recall"] >= 0.8, result["misses"]


def test_siblings_with_no_word_in_common_are_not_proposed_and_short_forms_are(mem: Memory) -> None:
    _pair(mem, "Input sanitization", ["Strip or reject unexpected characters in user input",
                                      "Part of the security checklist"],
          "Output escaping", ["Escape data before rendering it into HTML", "Part of the security checklist"],
          "Concept", 2)
    _pair(mem, "Python SDK", ["Published on PyPI as acme-sdk"], "JavaScript SDK", ["Published on npm as @acme/sdk"],
          "Library", 2)
    _pair(mem, "SSO", ["Employees log in once with their Google Workspace account"],
          "Single sign-on", ["Login with Google Workspace for all internal tools"], "Feature", 2)
    mem.reflect()
    assert [i["title"] for i in _duplicates(mem)] == ["Possible duplicates: Single sign-on and SSO"]


def test_without_a_model_reflect_still_runs_and_proposes_nothing_by_meaning(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="onnx", model_dir=tmp_path / "nowhere")) as m:
        _pair(m, "Billing service", ["Sends the monthly invoices"],
              "Servicio de facturación", ["Envía las facturas mensuales"], "Service", 2)
        m.reflect()
        assert _duplicates(m) == []


@pytest.mark.parametrize(("name", "least"), [("meaning_holdout3.json", 20), ("meaning_holdout4.json", 10),
                                             ("meaning_holdout4b.json", 5), ("meaning_holdout5.json", 15),
                                             ("meaning_holdout5b.json", 8), ("meaning_holdout5c.json", 12),
                                             ("meaning_holdout5d.json", 6), ("meaning_holdout5e.json", 6),
                                             ("meaning_holdout6.json", 12)])
def test_approving_every_merge_of_the_held_out_set_loses_no_fact(tmp_path: Path, clock: SteppingClock,
                                                                  local_embedder: Any, name: str, least: int) -> None:
    """Zero facts lost: after approving each proposal by meaning on a held-out set (sessions 3 to 6; right
    or wrong), every fact is on the entity either name opens, or in the past as it was; undo brings
    back the graph exactly."""
    import json

    from bench.hygiene_bench import MEANING_HELD_OUT_3

    cases = json.loads(MEANING_HELD_OUT_3.with_name(name).read_text(encoding="utf-8"))["holdout"]
    with Memory(Settings(db=tmp_path / "m.db", embeddings="none"), clock=clock) as m:
        meaning.attach(m.graph, local_embedder)
        for n, case in enumerate(cases):  # each pair in a memory of its own would cost a memory each
            a, b = dict(case["a"], name=f"{case['a']['name']} #{n}"), dict(case["b"], name=f"{case['b']['name']} #{n}")
            if a["type"].lower() == "person":
                continue  # people are the spelling rules' (the suffix changes their names)
            _pair(m, a["name"], a["facts"], b["name"], b["facts"], a["type"], case["shared_neighbours"])
        before = {(e.name, o) for e in m.read_graph().entities for o in e.observations}
        graph_before = m.read_graph()
        clock.advance(seconds=10)
        moment = clock.now
        clock.advance(seconds=10)
        m.reflect()
        found = _duplicates(m)
        assert len(found) >= least
        for insight in found:
            m.decide_insight(insight["title"], "approve")
        past = {(e.name, o) for e in m.query_at_date(moment).entities for o in e.observations}
        for name, fact in before:
            opened = m.open_nodes([name]).entities  # a merged name opens the entity it joined
            assert any(fact in e.observations for e in opened) or (name, fact) in past, (name, fact)
        for _ in found:
            m.undo_change()
        after = m.read_graph()
        assert sorted((e.name, e.entityType, tuple(e.observations)) for e in after.entities) == \
            sorted((e.name, e.entityType, tuple(e.observations)) for e in graph_before.entities)
        assert sorted((r.from_, r.to, r.relationType) for r in after.relations) == \
            sorted((r.from_, r.to, r.relationType) for r in graph_before.relations)
