"""Bad input gets a typed error naming the item, and a batch with one bad item changes nothing."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput
from core.memory import Memory


@pytest.fixture
def seeded(mem: Memory) -> Memory:
    mem.create_entities([{"name": "Seed", "observations": ["first"]}])
    return mem


BAD_ENTITY_BATCHES = [
    ([{"name": "ok"}, {"name": ""}], r"entities\[1\]\.name: name must not be empty"),
    ([{"name": "ok"}, {"name": "   "}], r"entities\[1\]\.name"),
    ([{"name": "x" * 513}], r"entities\[0\]\.name: name is 513 characters; the limit is 512"),
    ([{"name": 42}], r"entities\[0\]\.name: Input should be a valid string"),
    ([{"name": "ok", "observations": "not a list"}], r"entities\[0\]\.observations"),
    ([{"name": "ok", "observations": ["fine", 3]}], r"entities\[0\]\.observations\[1\]"),
    ([{"entityType": "T"}], r"entities\[0\]\.name: Field required"),
    ([{"name": "ok", "entityType": ""}], r"entities\[0\]\.entityType"),
    ([{"name": "nul\x00byte"}], r"NUL"),
    ("just a string", r"entities must be a list"),
]


@pytest.mark.parametrize(("batch", "message"), BAD_ENTITY_BATCHES)
def test_bad_entity_batches_change_nothing(seeded: Memory, batch: object, message: str) -> None:
    before = seeded.read_graph().dump()
    with pytest.raises(InvalidInput, match=message):
        seeded.create_entities(batch)
    assert seeded.read_graph().dump() == before


def test_observations_of_any_size_fit_under_one_request_limit(tmp_path) -> None:  # noqa: ANN001
    with Memory.open(tmp_path / "big.db") as big:  # the official server stores a 100 KB observation
        big.create_entities([{"name": "A", "observations": ["x" * 100_000]}])
        big.add_observations([{"entityName": "A", "contents": ["y" * 1_000_000]}])
        assert sorted(len(o) for o in big.open_nodes(["A"]).entities[0].observations) == [100_000, 1_000_000]
    with Memory.open(tmp_path / "small.db", max_request_bytes=2048) as small:
        small.create_entities([{"name": "A", "observations": ["a" * 2000]}])
        before = small.read_graph().dump()
        # the whole call counts, whatever way it writes: observations, entities, properties
        for call in (
            lambda: small.add_observations([{"entityName": "A", "contents": ["b" * 1100, "c" * 1100]}]),
            lambda: small.create_entities([{"name": "B", "observations": ["ñ" * 1100]}]),
            lambda: small.merge_node("Note", "C", {"summary": "d" * 3000}),
        ):
            with pytest.raises(InvalidInput, match="the limit is 2,048 .HIPOCAMPO_MAX_REQUEST_BYTES."):
                call()
        assert small.read_graph().dump() == before


def test_large_batch_with_one_bad_observation_changes_nothing(seeded: Memory) -> None:
    before = seeded.read_graph().dump()
    batch = [{"name": f"N{i}", "observations": [f"o{i}"]} for i in range(500)]
    batch[499]["observations"].append("")
    with pytest.raises(InvalidInput, match=r"entities\[499\]\.observations\[1\]"):
        seeded.create_entities(batch)
    assert seeded.read_graph().dump() == before


def test_bad_relations_and_observation_inputs(seeded: Memory) -> None:
    before = seeded.read_graph().dump()
    with pytest.raises(InvalidInput, match=r"relations\[0\]\.relationType"):
        seeded.create_relations([{"from": "Seed", "to": "Seed", "relationType": ""}])
    with pytest.raises(InvalidInput, match=r"relations\[0\]\.from"):
        seeded.create_relations([{"to": "Seed", "relationType": "x"}])
    with pytest.raises(InvalidInput, match=r"observations\[0\]\.contents"):
        seeded.add_observations([{"entityName": "Seed", "contents": "flat string"}])
    with pytest.raises(InvalidInput, match=r"entityNames"):
        seeded.delete_entities("Seed")
    with pytest.raises(InvalidInput, match="query"):
        seeded.search_nodes(None)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="limit"):
        seeded.read_graph(limit=-1)
    assert seeded.read_graph().dump() == before


def test_failure_inside_the_store_rolls_back_the_whole_batch(seeded: Memory) -> None:
    """A batch that passes validation but fails half-way in storage leaves no trace."""
    if seeded.graph.backend != "sqlite":
        pytest.skip("needs a way to make the store fail mid-batch")
    with seeded.graph.db.locked() as conn:
        conn.execute(
            "CREATE TEMP TRIGGER fail_on_poison BEFORE INSERT ON observations "
            "WHEN NEW.content = 'poison' BEGIN SELECT RAISE(ABORT, 'poisoned'); END"
        )
    before = seeded.read_graph().dump()
    log_before = len(seeded.history(limit=1000))
    with pytest.raises(Exception, match="poisoned"):
        seeded.create_entities([{"name": "A", "observations": ["fine"]},
                                {"name": "B", "observations": ["poison"]}])
    assert seeded.read_graph().dump() == before
    assert seeded.search_nodes("fine").entities == []
    assert len(seeded.history(limit=1000)) == log_before


def test_transaction_groups_calls_all_or_nothing(seeded: Memory) -> None:
    before = seeded.read_graph().dump()
    with pytest.raises(InvalidInput):
        with seeded.transaction():
            seeded.create_entities([{"name": "First"}])
            seeded.create_relations([{"from": "First", "to": "Seed", "relationType": "r"}])
            seeded.create_entities([{"name": ""}])
    assert seeded.read_graph().dump() == before
    with seeded.transaction():
        seeded.create_entities([{"name": "First"}])
        seeded.create_relations([{"from": "First", "to": "Seed", "relationType": "r"}])
    assert len(seeded.read_graph().relations) == 1
