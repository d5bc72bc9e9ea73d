"""FalkorDB ranks facts on the server as ``core.search.bm25`` does: the scores ``fact_search`` gives
are the reference's, over the same facts (each word's document count, each fact's length)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.memory import Memory
from core.search import bm25
from core.search.folding import content_words, fold
from core.settings import Settings
from core.storage.cypher import facts


def test_server_scores_are_the_reference_bm25(tmp_path: Path, graph_settings: dict[str, object]) -> None:
    texts = ["the pottery class on monday", "pottery", "a long story about a kiln, glazes and pottery wheels",
             "monday again", "kiln repairs", "nothing to see here at all"]
    with Memory(Settings(db=tmp_path / "unused.db", embeddings="none", **graph_settings)) as mem:
        mem.create_entities([{"name": f"E{i}", "entityType": "Note", "observations": [t]} for i, t in enumerate(texts)])
        found = mem.graph.fact_search("pottery kiln monday", limit=10)
        ids = {e: mem.graph.facts_of([e])[e][0] for _, e, _ in found}
        hits = {w: [fid for fid, text in ids.values() if w in content_words(text)]
                for w in ("pottery", "kiln", "monday")}
        lengths = {fid: max(1, len(fold(text)) // facts.CHARS_PER_WORD) for fid, text in ids.values()}
        expected = bm25.score(hits, lengths, total=len(texts))
        assert len(found) == 5
        assert {f: s for f, _, s in found} == pytest.approx(expected)
        assert [s for _, _, s in found] == sorted((s for _, _, s in found), reverse=True)


def test_a_query_whose_every_word_is_in_a_tenth_of_a_large_memorys_facts_is_not_ranked_by_words(
        tmp_path: Path, graph_settings: dict[str, object], monkeypatch: pytest.MonkeyPatch) -> None:
    # (As a memory of 50k facts or more has it: the floors brought down to this one's size, a word
    # in 4 facts common, in 8 too common to rank.)
    monkeypatch.setattr(bm25, "COMMON_AT_LEAST", 4)
    monkeypatch.setattr(facts, "VERY_COMMON_AT_LEAST", 8)
    notes = [f"weekly standup number {i}" + (" with the ledger" if i < 3 else "") for i in range(40)]
    notes += [f"kiln repair {i}" for i in range(4)] + [f"weekly kiln firing {i}" for i in range(6)]
    with Memory(Settings(db=tmp_path / "unused.db", embeddings="none", **graph_settings)) as mem:
        mem.create_entities([{"name": f"E{i}", "entityType": "Note", "observations": [t]} for i, t in enumerate(notes)])
        texts = {fid: text for eid, items in mem.graph.facts_of(
            [mem.get_node(f"E{i}").id for i in range(len(notes))]).items() for fid, text in items}

        def found(query: str) -> set[str]:
            return {texts[f] for f, _, _ in mem.graph.fact_search(query, limit=100)}

        assert found("ledger") == {n for n in notes if "ledger" in n}  # in 3: rare, ranked
        assert found("repair") == {n for n in notes if "repair" in n}  # in 4: common, ranked
        assert found("kiln") == set()  # in 10: too common
        assert found("weekly kiln") == set()  # each too common
        assert found("kiln repair") == {n for n in notes if "kiln repair" in n}  # one less common: all held, as before
        assert found("kiln ledger") == found("ledger")  # a rare word: only it ranked, as before
