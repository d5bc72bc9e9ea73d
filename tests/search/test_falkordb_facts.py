"""A FalkorDB graph written before facts had nodes of their own gets them when it is opened: every
entity's observations become facts, due for the embedder, a page of entities per write, and an
interrupted migration resumes where it stopped. So do a graph whose facts' vectors are float32
``:FVec`` nodes (made int8) and one whose facts were embedded of their bare text (made due once,
to be embedded in context)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.embeddings.text import fact_text, text_hash
from core.memory import Memory
from core.settings import Settings
from core.storage.cypher import fact_vectors, facts
from core.storage.cypher.falkordb import FalkorDialect


def test_an_old_graph_gets_its_facts_resumably(tmp_path: Path, graph_settings: dict[str, object],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    settings = Settings(db=tmp_path / "unused.db", embeddings="none", **graph_settings)
    with Memory(settings) as mem:
        mem.create_entities([{"name": f"E{i}", "entityType": "Note", "observations": [f"fact {i} a", f"fact {i} b"]}
                             for i in range(5)])
        # what a graph written before facts holds: no fact nodes, no migration mark
        mem.graph.write(lambda tx: (tx.write("MATCH (f:Fact) DELETE f"),
                                     tx.write("MATCH (m:Meta) WHERE m.key STARTS WITH 'facts_' DELETE m")))
        assert mem.graph.fact_search("fact") == []

        monkeypatch.setattr(facts, "MIGRATE_PAGE", 2)

        def stop(done: int, total: int) -> None:
            raise KeyboardInterrupt  # the process stopped after its first page

        with pytest.raises(KeyboardInterrupt):
            facts.migrate(mem.graph, progress=stop)
        assert len({eid for _, eid, _ in mem.graph.fact_search("fact", limit=100)}) == 2
    with Memory(settings) as mem:  # opened again: the rest is done (in the background), nothing twice
        assert mem.graph.wait_upgrade(60)  # type: ignore[attr-defined]
        ids = [mem.get_node(f"E{i}").id for i in range(5)]
        assert {eid: sorted(t for _, t in items) for eid, items in mem.graph.facts_of(ids).items()} == {
            eid: [f"fact {i} a", f"fact {i} b"] for i, eid in enumerate(ids)}
        assert mem.vectors.fact_progress("any model") == (0, 10)
        assert mem.metadata(facts.MIGRATED_KEY) == "1"


PIANO = "Tomás aprendió a tocar el piano de niño en Valparaíso"


def to_float32_layout(mem: Memory) -> None:
    """What a graph written before compact vectors holds: each fact's float32 vector on a ``:FVec``
    node of its own in the server's vector index, no codes on the facts, no layout mark."""
    found = mem.graph.db.read("MATCH (f:Fact) WHERE f.q IS NOT NULL RETURN f.id, f.eid, f.text")
    vectors = mem.embedder.embed_documents([t for _, _, t in found])
    mem.graph.db.graph.query("CREATE VECTOR INDEX FOR (v:FVec) ON (v.embedding) "
                             "OPTIONS {dimension: 384, similarityFunction: 'cosine'}")
    mem.graph.write(lambda tx: (
        tx.write("UNWIND $rows AS r CREATE (v:FVec {id: r.id, eid: r.eid}) SET v.embedding = vecf32(r.v)",
                 {"rows": [{"id": f, "eid": e, "v": [float(x) for x in v]}
                           for (f, e, _), v in zip(found, vectors, strict=True)]}),
        tx.write("MATCH (f:Fact) SET f.q = null, f.qv = null"),
        tx.write("MATCH (m:Meta {key: $k}) DELETE m", {"k": fact_vectors.LAYOUT_KEY})))


def test_an_old_graphs_float32_fact_vectors_become_int8_resumably(
        tmp_path: Path, graph_settings: dict[str, object], monkeypatch: pytest.MonkeyPatch,
        local_embedder: OnnxEmbeddingProvider) -> None:
    settings = Settings(db=tmp_path / "unused.db", **graph_settings)
    notes = [f"Tomás archived shipping manifest {i} for the port authority" for i in range(5)]
    with Memory(settings, embedder=local_embedder) as mem:
        mem.create_entities([{"name": "Tomás", "entityType": "Person", "observations": [*notes, PIANO]}])
        mem.embed_pending()
        to_float32_layout(mem)
        assert mem.graph.db.read("MATCH (v:FVec) RETURN count(v)")[0][0] == 6
    monkeypatch.setattr(fact_vectors, "MIGRATE_PAGE", 4)

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt  # the process stopped after its first page

    monkeypatch.setattr(fact_vectors, "migrate", lambda store, progress=None, real=fact_vectors.migrate:
                        real(store, progress=stop))
    with pytest.raises(KeyboardInterrupt), Memory(settings, embedder=local_embedder):
        pass
    monkeypatch.undo()
    half = FalkorDialect(str(graph_settings["graph_url"]), str(graph_settings["graph_name"]))
    assert half.read("MATCH (v:FVec) RETURN count(v)")[0][0] == 2  # one page of 4 done
    assert half.read("MATCH (f:Fact) WHERE f.q IS NOT NULL RETURN count(f)")[0][0] == 4
    assert {r[0] for r in half.read("CALL db.indexes() YIELD label RETURN label")} >= {"FVec", "Fact"}
    half.close()
    with Memory(settings, embedder=local_embedder) as mem:  # opened again: the rest is converted, the old index gone
        db = mem.graph.db
        assert db.read("MATCH (v:FVec) RETURN count(v)")[0][0] == 0
        assert db.read("MATCH (f:Fact) WHERE f.q IS NOT NULL RETURN count(f)")[0][0] == 6
        assert mem.metadata(fact_vectors.LAYOUT_KEY) == "int8"
        assert not [r for r in db.read("CALL db.indexes() YIELD label RETURN label") if r[0] == "FVec"]
        model = mem.embedder.model_id
        assert mem.vectors.fact_progress(model) == (6, 6)  # nothing to embed again
        hit = mem.search_semantic("where did Tomás learn the piano as a child?", 1)[0]
        assert hit["name"] == "Tomás" and hit["observations"][0] == PIANO


def to_bare_vectors(mem: Memory) -> None:
    """What a graph written before facts were embedded in context holds: each fact's vector of its
    bare text, no context mark."""
    found = mem.graph.db.read("MATCH (f:Fact) RETURN f.id, f.text ORDER BY f.id")
    vectors = mem.embedder.embed_documents([t for _, t in found])
    assert mem.vectors.store_facts(mem.embedder.model_id, {
        f: (text_hash(t), v) for (f, t), v in zip(found, vectors, strict=True)}) == len(found)
    mem.graph.write(lambda tx: tx.write("MATCH (m:Meta) WHERE m.key IN $k DELETE m",
                                        {"k": [fact_vectors.CONTEXT_KEY, fact_vectors.CONTEXT_CURSOR_KEY]}))


def distance_to(mem: Memory, text: str) -> tuple[str, float]:
    """The fact nearest to ``text``'s document vector, and its distance."""
    (fid, distance), = mem.vectors.search_facts(mem.embedder.embed_documents([text])[0], 1)
    return mem.vectors.fact_texts([fid])[fid], distance


def test_an_old_graphs_bare_fact_vectors_are_made_again_in_context_once_resumably(
        tmp_path: Path, graph_settings: dict[str, object], monkeypatch: pytest.MonkeyPatch,
        local_embedder: OnnxEmbeddingProvider) -> None:
    settings = Settings(db=tmp_path / "unused.db", **graph_settings)
    notes = [f"Tomás archived shipping manifest {i} for the port authority" for i in range(5)]
    with Memory(settings, embedder=local_embedder) as mem:
        mem.create_entities([{"name": "Tomás", "entityType": "Person", "observations": [*notes, PIANO]}])
        mem.embed_pending()
        to_bare_vectors(mem)
        model = mem.embedder.model_id
        assert mem.vectors.fact_progress(model) == (6, 6)
    monkeypatch.setattr(fact_vectors, "CONTEXT_PAGE", 4)

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt  # the process stopped after its first span

    monkeypatch.setattr(fact_vectors, "in_context", lambda store, progress=None, real=fact_vectors.in_context:
                        real(store, progress=stop))
    with pytest.raises(KeyboardInterrupt), Memory(settings, embedder=local_embedder):
        pass
    monkeypatch.undo()
    half = FalkorDialect(str(graph_settings["graph_url"]), str(graph_settings["graph_name"]))
    assert half.read("MATCH (f:Fact) WHERE f.emb IS NULL RETURN count(f)")[0][0] == 4  # one span of 4 done
    half.close()
    # opened again: the rest is made due, nothing of it embedded yet
    with Memory(settings, embedder=local_embedder) as mem:
        assert mem.vectors.fact_progress(model) == (0, 6)
        assert mem.metadata(fact_vectors.CONTEXT_KEY) == "1"
        text, distance = distance_to(mem, PIANO)
        assert text == PIANO and distance < 0.003  # the old vectors answer meanwhile
        assert mem.embed_pending() == 6
        text, distance = distance_to(mem, fact_text("Tomás", "Person", PIANO))
        assert text == PIANO and distance < 0.003  # made again in context
    with Memory(settings, embedder=local_embedder) as mem:  # once: opened again, nothing is due
        assert mem.vectors.fact_progress(model) == (6, 6)
