"""Meaning search stays fresh when the machine is busy: an entity written through MCP is found by
``search_semantic`` at once, with every core kept busy by other processes (for the length of the
test), however often the client searches — also when more were written at once than a search
embeds on the fly, so that only the background embedder can catch up, and through the hub."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import anyio
import pytest

from core.embeddings.foreground import YIELD_AT_MOST_SECONDS
from tests.e2e.conftest import start_hub, stdio_client_for

pytestmark = pytest.mark.anyio
FOUND_WITHIN_S = 10.0  # the freshness rule's bound; in practice the first search finds it
assert YIELD_AT_MOST_SECONDS < FOUND_WITHIN_S
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


MANY = [  # more at once than a search embeds on the fly (core.search.hybrid.FRESH_AT_MOST)
    ("Dentist", "The dentist appointment is on the third of March at nine."),
    ("Bike repair", "The rear wheel of the bicycle has a broken spoke."),
    ("Piano", "Lucía practises Chopin nocturnes on the upright piano."),
    ("Tax return", "The tax return must be filed before the end of June."),
    ("Cat", "The cat, Miso, only eats salmon-flavoured food."),
    ("Wi-Fi", "The router's password is on a sticker under the bookshelf."),
    ("Marathon", "Training for the Valencia marathon: 40 km a week."),
    ("Greenhouse", "Tomatoes and peppers are grown in the greenhouse."),
    ("Car insurance", "The car insurance renews every November."),
    ("Book club", "The book club is reading One Hundred Years of Solitude."),
    ("Spanish class", "Clases de francés los lunes con Amélie."),
    ("Boiler", "The gas boiler was serviced last October."),
]


@pytest.mark.parametrize("kind", ["stdio", "hub"])
async def test_many_written_at_once_are_found_by_meaning_while_the_client_searches_without_pause(
        tmp_path: Path, hub_file: Path, model_dir: Path, kind: str) -> None:
    """Issue 23, point 9: entities written together, then a client that searches again as soon as
    it has an answer. Each call used to keep the background embedder stepping aside (or interrupt
    its pass), so on a busy machine they were never embedded; a pass steps aside for a bounded time."""
    hogs = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(8)]
    db = tmp_path / "many.db"
    env = {"HIPOCAMPO_EMBEDDINGS": "onnx", "HIPOCAMPO_MODEL_DIR": str(model_dir)}
    hub = start_hub(db, hub_file, **env) if kind == "hub" else None
    try:
        args = () if hub is not None else ("--no-bridge",)
        async with stdio_client_for(db, hub_file, "fresh-many", *args, **env) as client:
            await client.call_tool("search_semantic", {"query": "warm up the model"})
            for hog in hogs:
                hog.start()
            created = await client.call_tool("create_entities", {"entities": [
                {"name": name, "entityType": "Note", "observations": [fact]} for name, fact in MANY]})
            assert not created.is_error
            found: list[str] = []
            with anyio.move_on_after(FOUND_WITHIN_S):  # YIELD_AT_MOST_SECONDS is well inside it
                while "Greenhouse" not in found:  # no pause between calls
                    result = await client.call_tool("search_semantic", {"query": "growing vegetables", "limit": 3})
                    found = [r["name"] for r in result.structured_content["results"]]
            assert "Greenhouse" in found, found
    finally:
        for hog in hogs:
            if hog.is_alive():
                hog.kill()
        if hub is not None:
            hub.stop()
