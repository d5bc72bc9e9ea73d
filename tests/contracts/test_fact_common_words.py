"""A word in very many facts is not ranked beside a rare one, the same on every backend: asked for
both, the facts found are the rare word's (a common word's IDF is close to nothing, and its
thousands of facts are what a search would spend its time on); asked for common words alone, the
facts holding them all."""

from __future__ import annotations

from core.memory import Memory
from core.search import bm25

COMMON = bm25.COMMON_AT_LEAST + 10  # more facts than make a word common in a small memory


def test_a_common_word_is_left_out_beside_a_rare_one(mem: Memory) -> None:
    mem.create_entities([{"name": f"Day {i}", "entityType": "Log",
                          "observations": [f"weather report {i}: rain" if i % 2 else f"weather report {i}"]}
                         for i in range(COMMON)])
    mem.create_entities([{"name": "Trip", "entityType": "Log",
                          "observations": ["a zircon crystal found on the hike", "weather report: zircon dust"]}])
    trip = mem.get_node("Trip").id
    # the common word first: each word's facts are counted on their own (FalkorDB 4.16 stops a later
    # word at an earlier one's LIMIT when they are counted in one query)
    found = mem.graph.fact_search("weather zircon", limit=50)
    assert len(found) == 2 and {eid for _, eid, _ in found} == {trip}
    # common words alone: the facts holding both of them, not every fact holding either
    both = mem.graph.fact_search("weather rain", limit=1000)
    assert len(both) == COMMON // 2
    wanted = {f for f, _, _ in both}
    texts = [text for facts in mem.graph.facts_of(list({eid for _, eid, _ in both})).values()
             for fid, text in facts if fid in wanted]
    assert len(texts) == len(both) and all("rain" in text for text in texts)
