"""A reflect writes its new insights together (one batch of rows and one index pass, not one each):
each is whole as soon as reflect returns: readable, in its history, and found by search once approved."""

from __future__ import annotations

from core.memory import Memory
from tests.reflect.conftest import build, of_pattern

TECHS = ["SQLite", "Redis", "Kafka", "Postgres"]


def _graph(mem: Memory) -> None:
    nodes: dict[str, str] = {t: "Technology" for t in TECHS}
    nodes |= {f"Project {i}": "Project" for i in range(3)}
    build(mem, nodes, [(f"Project {i}", "USES", t) for i in range(3) for t in TECHS])


def test_every_new_insight_is_whole_right_after_reflect(mem: Memory) -> None:
    _graph(mem)
    created = mem.reflect()["created"]
    shared = of_pattern(mem, "shared_technology", status="pending")
    assert sorted(i["title"] for i in shared) == sorted(f"Shared technology: {t}" for t in TECHS)
    assert created >= len(TECHS)
    for insight in shared:
        node = mem.get_node(insight["title"])
        assert node.label == "Insight" and node.archived_at is not None  # pending: out of searches
        assert node.observations == [insight["summary"]]
        assert [h.op for h in mem.history(insight["title"])] == ["create_insight"]
    assert mem.search_nodes("Shared technology").entities == []


def test_an_approved_insight_is_found_by_every_search(mem: Memory) -> None:
    _graph(mem)
    mem.reflect()
    mem.decide_insight("Shared technology: Kafka", "approve")
    assert [e.name for e in mem.search_nodes("technology: kaf").entities] == ["Shared technology: Kafka"]
    assert [h.node.name for h in mem.fulltext_search("Kafka", label="Insight")] == ["Shared technology: Kafka"]
    assert mem.search_nodes("Shared technology: Redis").entities == []  # still pending
