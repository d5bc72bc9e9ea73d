"""Meaning search stays fresh when the machine is busy: an entity written through MCP is found by
``search_semantic`` at once, with every core kept busy by other processes (for the length of the
test), however often the client searches."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import anyio
import pytest

from tests.e2e.conftest import stdio_client_for

pytestmark = pytest.mark.anyio
FOUND_WITHIN_S = 10.0  # the freshness rule's bound; in practice the first search finds it
FACTS = [
    ("Lisbon trip", "We are planning a trip to Lisbon in May to see the tiles and eat pastéis de nata."),
    ("Guitar lessons", "Marta takes classical guitar lessons every Thursday evening."),
    ("Backup policy", "The office server is backed up to tape each Friday night."),
    ("Allergy", "Jon is allergic to peanuts and carries an epinephrine pen."),
    ("Sourdough", "La masa madre se alimenta con harina de centeno cada mañana."),
]
QUERIES = ["holiday in Portugal", "music classes", "how the server data is saved", "food allergy",
           "alimentar la masa madre"]


def _busy() -> None:
    while True:
        sum(i * i for i in range(10_000))


async def test_written_entities_are_found_by_meaning_with_every_core_busy(
        tmp_path: Path, hub_file: Path, model_dir: Path) -> None:
    hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(8)]
    db = tmp_path / "fresh.db"
    try:
        async with stdio_client_for(db, hub_file, "fresh", HIPOCAMPO_EMBEDDINGS="onnx",
                                    HIPOCAMPO_MODEL_DIR=str(model_dir)) as client:
            await client.call_tool("search_semantic", {"query": "warm up the model"})
            for hog in hogs:
                hog.start()
            for (name, fact), query in zip(FACTS, QUERIES, strict=True):
                created = await client.call_tool("create_entities", {"entities": [
                    {"name": name, "entityType": "Note", "observations": [fact]}]})
                assert not created.is_error
                found: list[str] = []
                with anyio.move_on_after(FOUND_WITHIN_S):
                    while name not in found:  # as often as a client may ask
                        result = await client.call_tool("search_semantic", {"query": query, "limit": 3})
                        found = [r["name"] for r in result.structured_content["results"]]
                assert name in found, (query, found)
    finally:
        for hog in hogs:
            if hog.is_alive():
                hog.kill()
