"""A fact is embedded after its entity's name and type (core.embeddings.text.fact_text), so a rename
or a new type makes the entity's facts due again, on every backend: by the single edits, an editor
Save and the undo of a rename alike. Their old vectors answer until the embedder replaces them."""

from __future__ import annotations

import pytest

from core.embeddings.text import fact_text
from core.errors import Conflict
from core.memory import Memory

CRASH = "Tuvimos una caída en junio porque la instancia se quedó sin memoria."
CACHE = "Se usa como caché de sesiones de la web."
OTHER = {"name": "Postgres", "entityType": "Technology",
         "observations": ["Tuvimos una caída en marzo porque el disco se llenó."]}


def fact_distance(mem: Memory, text: str) -> float:
    """The cosine distance from ``text``'s vector to CRASH's stored vector."""
    vector = mem.embedder.embed_documents([text])[0]
    ids = [fid for fid, t in mem.vectors.fact_texts(
        [f for f, _ in mem.vectors.search_facts(vector, 10)]).items() if t == CRASH]
    assert ids, "CRASH has no vector"
    return mem.vectors.fact_distances(vector, ids)[ids[0]]


def due(mem: Memory) -> int:
    done, total = mem.vectors.fact_progress(mem.embedder.model_id)
    return total - done


@pytest.fixture
def server(mem: Memory) -> Memory:
    mem.create_entities([{"name": "Servidor 3", "entityType": "Machine", "observations": [CRASH, CACHE]}, OTHER])
    mem.embed_pending()
    assert due(mem) == 0
    return mem


def test_a_rename_makes_the_facts_due_and_their_vectors_name_the_new_name(server: Memory) -> None:
    mem = server
    assert mem.rename_entity("Servidor 3", "Redis")
    assert due(mem) == 2  # the renamed entity's two facts, not Postgres's
    assert fact_distance(mem, fact_text("Servidor 3", "Machine", CRASH)) < 0.003  # the old one answers meanwhile
    assert mem.embed_pending() >= 2 and due(mem) == 0
    assert fact_distance(mem, fact_text("Redis", "Machine", CRASH)) < 0.003
    hit = mem.search_semantic("¿Por qué se cayó Redis en junio?", 1, record=False)[0]
    assert hit["name"] == "Redis" and hit["facts"][0]["text"] == CRASH

    mem.undo_change()  # the name back: the facts say it again
    assert mem.get_node("Servidor 3") is not None and due(mem) == 2
    mem.embed_pending()
    assert fact_distance(mem, fact_text("Servidor 3", "Machine", CRASH)) < 0.003


def test_a_new_type_makes_the_facts_due_and_its_undo_too(server: Memory) -> None:
    mem = server
    assert mem.set_entity_type("Servidor 3", "Technology")
    assert due(mem) == 2
    mem.embed_pending()
    assert fact_distance(mem, fact_text("Servidor 3", "Technology", CRASH)) < 0.003
    mem.undo_change()
    assert due(mem) == 2
    mem.embed_pending()
    assert fact_distance(mem, fact_text("Servidor 3", "Machine", CRASH)) < 0.003


def test_an_editor_save_that_renames_and_retypes_makes_the_facts_due(server: Memory) -> None:
    mem = server
    mem.save_entity("Servidor 3", new_name="Redis", entity_type="Technology", add_observations=["Versión 7.2."])
    assert due(mem) == 3  # its two facts and the new one
    mem.embed_pending()
    assert fact_distance(mem, fact_text("Redis", "Technology", CRASH)) < 0.003


def test_a_refused_rename_leaves_the_facts_as_they_were(server: Memory) -> None:
    with pytest.raises(Conflict):
        server.rename_entity("Servidor 3", "Postgres")
    assert due(server) == 0 and server.get_node("Servidor 3") is not None


def test_an_edit_that_keeps_name_and_type_leaves_the_facts_be(server: Memory) -> None:
    server.save_entity("Servidor 3", add_observations=["Versión 7.2."])
    assert due(server) == 1  # only the new fact


def test_engramas_merge_node_with_a_new_label_makes_the_facts_due(server: Memory) -> None:
    server.merge_node("Machine", "Servidor 3", {"rack": "B"})  # the same label: nothing due
    assert due(server) == 0
    server.merge_node("Technology", "Servidor 3", {})
    assert due(server) == 2
    server.embed_pending()
    assert fact_distance(server, fact_text("Servidor 3", "Technology", CRASH)) < 0.003


class RenameWhileEmbedding:
    """The real model, with a real rename committed between its answer and the store: what a rename
    does when it lands while the background embedder has a batch of the entity's facts in hand."""

    def __init__(self, mem: Memory) -> None:
        self.mem, self.model = mem, mem.embedder
        self.model_id, self.dimensions = self.model.model_id, self.model.dimensions
        self.renamed = False

    def embed_query(self, text: str) -> object:
        return self.model.embed_query(text)

    def embed_documents(self, texts: list[str]) -> object:
        vectors = self.model.embed_documents(texts)
        if not self.renamed and fact_text("Servidor 3", "Machine", CRASH) in texts:
            self.renamed = self.mem.rename_entity("Servidor 3", "Redis")
        return vectors


def test_a_rename_during_a_batch_leaves_no_vector_of_the_old_name(mem: Memory) -> None:
    """The stored hash was the bare fact's, so the old-name vector computed before the rename was
    kept (and its fact marked done): it named "Servidor 3" until the fact was edited again."""
    from core.embeddings.indexer import EmbeddingIndexer

    mem.create_entities([{"name": "Servidor 3", "entityType": "Machine", "observations": [CRASH, CACHE]}, OTHER])
    provider = RenameWhileEmbedding(mem)
    indexer = EmbeddingIndexer(mem.vectors, provider, graph=mem.graph)  # type: ignore[arg-type]
    while not provider.renamed:
        assert indexer.run_once() != 0, "the facts' batch never came"
    assert due(mem) >= 2  # the renamed entity's facts stay due: what was embedded names the old name
    indexer.run_until_idle()
    assert due(mem) == 0
    assert fact_distance(mem, fact_text("Redis", "Machine", CRASH)) < 0.003
    hit = mem.search_semantic("¿Por qué se cayó Redis en junio?", 1, record=False)[0]
    assert hit["name"] == "Redis" and hit["facts"][0]["text"] == CRASH
