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
