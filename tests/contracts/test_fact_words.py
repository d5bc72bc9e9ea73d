"""Facts found by their words, the same on every backend: an archived entity's facts are left out
(unless asked for), even when they outrank every live one, and a type keeps only its entities' facts."""

from __future__ import annotations

from core.memory import Memory

LIVE = "Among many other minerals in the long survey of the valley, a zircon crystal was found"


def test_archived_facts_never_crowd_out_a_live_one(mem: Memory) -> None:
    mem.create_entities([{"name": f"Old {i}", "entityType": "Rock", "observations": [f"zircon {i}"]}
                         for i in range(60)])
    mem.create_entities([{"name": "Survey", "entityType": "Report", "observations": [LIVE]}])
    for i in range(60):
        mem.archive_node(f"Old {i}")
    survey = mem.get_node("Survey").id
    assert [eid for _, eid, _ in mem.graph.fact_search("zircon", limit=5)] == [survey]
    everything = mem.graph.fact_search("zircon", limit=100, include_archived=True)
    assert len(everything) == 61 and everything[-1][1] == survey  # the short facts rank first
    assert mem.graph.fact_search("zircon", label="Rock") == []
    assert [eid for _, eid, _ in mem.graph.fact_search("zircon", label="Report")] == [survey]
