"""Vectors follow the text: due on every change, stored only if still current, resumable."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from core.embeddings.indexer import EmbeddingIndexer
from core.embeddings.text import MAX_CHARS, entity_text, fact_text, text_hash
from core.errors import InvalidInput
from core.memory import Memory
from core.settings import Settings


class HashingEmbedder:
    """A tiny real embedder (hashed bag of words, 64-d): a second model of another size."""

    model_id = "hashing-64"
    dimensions = 64

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self.embed_query(t) for t in texts]) if texts else np.zeros((0, 64), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        v = np.zeros(64, dtype=np.float32)
        for word in text.lower().split():
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1
        return v / max(np.linalg.norm(v), 1e-9)


def due(mem: Memory) -> set[str]:
    pending = mem.vectors.pending(mem.embedder.model_id, 10_000)
    return {mem.graph.nodes_by_id([i])[0].name for i in pending}


def due_facts(mem: Memory) -> set[str]:
    return set(mem.vectors.pending_facts(mem.embedder.model_id, 10_000).values())


def test_entity_text_follows_the_seed_recipe() -> None:
    text = entity_text("Ana", "Person", ["likes tea", "lives in Lisbon"],
                       [("→", "works_on", "Atlas"), ("←", "knows", "Bob")], summary="a colleague")
    assert text == "Ana (Person) | a colleague | likes tea | lives in Lisbon | Rel: works_on → Atlas; knows ← Bob"
    long = entity_text("Big", "Note", [f"fact number {i}" for i in range(500)])
    assert len(long) == MAX_CHARS
    assert long.startswith("Big (Note) | fact number 0") and long.endswith("fact number 499")


def test_writes_make_entities_due_and_embedding_clears_them(semantic: Memory) -> None:
    semantic.create_entities([{"name": "Ana", "observations": ["likes tea"]}, {"name": "Bob"}])
    assert due(semantic) == {"Ana", "Bob"} and due_facts(semantic) == {"likes tea"}
    assert semantic.embed_pending() == 3  # two entities, one fact
    assert due(semantic) == set() and due_facts(semantic) == set() and semantic.vectors.count() == 2
    assert semantic.embedding_status()["embedded"] == 2 and semantic.embedding_status()["facts_embedded"] == 1

    semantic.add_observations([{"entityName": "Ana", "contents": ["moved to Lisbon"]}])
    assert due(semantic) == {"Ana"} and due_facts(semantic) == {"moved to Lisbon"}  # among Ana's first facts
    semantic.embed_pending()
    semantic.create_relations([{"from": "Ana", "to": "Bob", "relationType": "knows"}])
    assert due(semantic) == {"Ana", "Bob"}  # "Rel: …" is part of both texts
    semantic.embed_pending()
    semantic.merge_node("Person", "Bob", {"summary": "a chess player"})
    assert due(semantic) == {"Bob"}
    semantic.embed_pending()
    semantic.delete_observations([{"entityName": "Ana", "observations": ["likes tea"]}])
    assert due(semantic) == {"Ana"} and due_facts(semantic) == set()
    semantic.replace_observation("Ana", "moved to Lisbon", "moved to Porto")
    assert due_facts(semantic) == {"moved to Porto"}
    semantic.embed_pending()
    semantic.delete_entities(["Bob"])
    assert due(semantic) == {"Ana"}  # Ana's text said "knows Bob"; Bob is gone


def test_vector_matches_the_current_text(semantic: Memory) -> None:
    semantic.create_entities([{"name": "Ana", "observations": ["likes tea"]}])
    semantic.embed_pending()
    semantic.add_observations([{"entityName": "Ana", "contents": ["plays the cello"]}])
    semantic.embed_pending()
    # A fact is embedded after its entity's name and type (core.embeddings.text.fact_text).
    own, fact = semantic.embedder.embed_documents(["Ana (Generic) | likes tea | plays the cello",
                                                   fact_text("Ana", "Generic", "plays the cello")])
    eid = semantic.get_node("Ana").id
    assert semantic.vectors.distances(own, [eid])[eid] < 1e-4  # the entity's own text
    (fid, distance), = [(i, d) for i, d in semantic.vectors.search_facts(fact, 2) if d < 0.01]
    assert semantic.vectors.fact_owners([fid])[fid] == (eid, "plays the cello")
    assert distance < 0.003  # int8: within a few thousandths of the float vector


def test_a_vector_for_stale_text_is_not_stored(semantic: Memory) -> None:
    semantic.create_entities([{"name": "Ana", "observations": ["likes tea"]}])
    model = semantic.embedder.model_id
    pending = semantic.vectors.pending(model, 10)
    (eid, text), = pending.items()
    semantic.merge_node("Generic", "Ana", {"summary": "edited meanwhile"})  # a race
    vector = semantic.embedder.embed_documents([text])[0]
    assert semantic.vectors.store_embedded(model, {eid: (text_hash(text), vector)}) == 0
    assert due(semantic) == {"Ana"} and semantic.vectors.count() == 0
    (fid, fact), = semantic.vectors.pending_facts(model, 10).items()
    semantic.replace_observation("Ana", "likes tea", "likes coffee")  # the fact changed meanwhile
    vector = semantic.embedder.embed_documents([fact])[0]
    assert semantic.vectors.store_facts(model, {fid: (text_hash(fact), vector)}) == 0
    assert due_facts(semantic) == {"likes coffee"}


def test_reindex_is_resumable_and_reports_progress(semantic: Memory) -> None:
    semantic.create_entities([{"name": f"E{i}", "observations": [f"fact {i}"]} for i in range(80)])
    cancel = threading.Event()
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        if done >= 32:
            cancel.set()

    first = semantic.embed_pending(progress, cancel)
    assert 32 <= first < 160 and seen[-1][1] == 160  # 80 entities and their 80 facts
    rest = semantic.embed_pending()
    assert first + rest == 160 and semantic.vectors.count() == 80
    assert semantic.vectors.fact_progress(semantic.embedder.model_id) == (80, 80)


def test_model_change_reembeds_everything(tmp_path: Path) -> None:
    db = tmp_path / "switch.db"
    with Memory(Settings(db=db, embeddings="none")) as mem:
        mem.create_entities([{"name": n, "observations": [f"about {n}"]} for n in ("a", "b", "c")])
        local = EmbeddingIndexer(mem.vectors, HashingEmbedder())
        assert local.run_until_idle() == 6  # three entities, three facts
        assert mem.vectors.dimensions == 64 and mem.vectors.count() == 3
        assert local.run_until_idle() == 0  # nothing due: idempotent

        class Other(HashingEmbedder):
            model_id = "hashing-64-v2"

        other = EmbeddingIndexer(mem.vectors, Other())
        assert other.status()["embedded"] == 0  # a new model: everyone is due again
        assert other.run_until_idle() == 6
        assert other.status() == {"model": "hashing-64-v2", "embedded": 3, "entities": 3, "facts_embedded": 3,
                                  "facts": 3, "pending": 0, "running": False, "error": None}


def test_model_of_another_size_rebuilds_the_table(semantic: Memory) -> None:
    semantic.create_entities([{"name": "x", "observations": ["one"]}])
    semantic.embed_pending()
    assert semantic.vectors.dimensions == 384
    small = EmbeddingIndexer(semantic.vectors, HashingEmbedder())
    small.run_until_idle()
    assert semantic.vectors.dimensions == 64 and semantic.vectors.count() == 1
    again = EmbeddingIndexer(semantic.vectors, semantic.embedder)
    again.run_until_idle()
    assert semantic.vectors.dimensions == 384 and semantic.vectors.count() == 1


def test_background_indexing_follows_writes(semantic: Memory) -> None:
    semantic.start_background()
    semantic.create_entities([{"name": "Live", "observations": ["written while the app runs"]}])
    deadline_ok = semantic.indexer.wait_idle(timeout=60)
    assert deadline_ok
    assert semantic.vectors.count() == 1 and semantic.embedding_status()["running"] is True


def test_missing_model_leaves_full_text_working(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="onnx", model_dir=tmp_path / "nowhere")) as mem:
        assert mem.embedder is None and "nowhere" in (mem.embedding_error or "")
        mem.create_entities([{"name": "Tea", "observations": ["green tea from Japan"]}])
        results = mem.search_semantic("japan")
        assert [r["name"] for r in results] == ["Tea"] and results[0]["distance"] is None
        assert "nowhere" in mem.embedding_status()["error"]


def test_no_provider_means_full_text(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "n.db", embeddings="none")) as mem:
        mem.create_entities([{"name": "Tea", "observations": ["green tea from Japan"]}])
        assert [r["name"] for r in mem.search_semantic("japan")] == ["Tea"]
        assert mem.embedding_status()["error"].startswith("no embedding provider")
        with pytest.raises(InvalidInput):
            mem.search_semantic("")


def test_vector_search_sees_writes_from_another_process(tmp_path: Path) -> None:
    """The in-memory vector copy follows vec0 when another process embeds or deletes."""
    db = tmp_path / "shared.db"
    reader = Memory(Settings(db=db, embeddings="none"))
    writer = Memory(Settings(db=db, embeddings="none"))
    try:
        writer.create_entities([{"name": n, "observations": [f"about {n}"]} for n in ("tea", "coffee")])
        EmbeddingIndexer(writer.vectors, HashingEmbedder()).run_until_idle()
        reader.vectors.dimensions = 64  # what prepare() recorded for the hashing model
        probe = HashingEmbedder().embed_query("tea (Generic) | about tea")
        assert reader.vectors.search(probe, 1)[0][0] == writer.get_node("tea").id
        writer.create_entities([{"name": "mate", "observations": ["about mate"]}])
        EmbeddingIndexer(writer.vectors, HashingEmbedder()).run_until_idle()
        probe = HashingEmbedder().embed_query("mate (Generic) | about mate")
        hit, distance = reader.vectors.search(probe, 1)[0]
        assert hit == writer.get_node("mate").id and distance < 1e-5
        writer.delete_entities(["mate"])
        reader_ids = {i for i, _ in reader.vectors.search(probe, 5)}
        names = {n.name for n in reader.graph.nodes_by_id(list(reader_ids))}
        assert names == {"tea", "coffee"}  # a deleted entity is never reported
    finally:
        reader.close()
        writer.close()


def test_reindex_command(tmp_path: Path, model_dir: Path) -> None:
    import json
    import os
    import subprocess
    import sys

    db = tmp_path / "cli.db"
    with Memory(Settings(db=db, embeddings="none")) as mem:
        mem.create_entities([{"name": f"N{i}", "observations": [f"note {i}"]} for i in range(5)])
    env = {**os.environ, "HIPOCAMPO_MODEL_DIR": str(model_dir)}
    cli = [sys.executable, "-m", "core.cli", "--db", str(db)]
    first = subprocess.run([*cli, "reindex"], capture_output=True, text=True, env=env, check=True)
    assert "10 vectors stored; 5 of 5 entities and 5 of 5 facts are current" in first.stderr
    again = subprocess.run([*cli, "reindex"], capture_output=True, text=True, env=env, check=True)
    assert "0 vectors stored; 5 of 5 entities and 5 of 5 facts" in again.stderr  # nothing due: nothing done
    forced = subprocess.run([*cli, "reindex", "--all"], capture_output=True, text=True, env=env, check=True)
    assert "10 vectors stored" in forced.stderr
    status = json.loads(subprocess.run([*cli, "status", "--json"], capture_output=True, text=True,
                                       env=env, check=True).stdout)
    assert status["embeddings"]["embedded"] == 5


def test_vectors_written_directly_are_searchable_at_once(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "u.db", embeddings="none")) as mem:
        mem.create_entities([{"name": "a"}, {"name": "b"}])
        a, b = mem.get_node("a").id, mem.get_node("b").id
        x, y = np.eye(384, dtype=np.float32)[:2]
        mem.vectors.upsert([a], x[None])
        assert mem.vectors.search(x, 1)[0][0] == a  # the cache is loaded now
        mem.vectors.upsert([b], y[None])
        assert mem.vectors.search(y, 1)[0][0] == b
        mem.vectors.upsert([a], y[None])  # replaced, not added
        assert {i for i, d in mem.vectors.search(y, 2) if d < 1e-6} == {a, b}


def test_only_one_process_embeds_in_the_background(tmp_path: Path) -> None:
    """Several MCP servers on one file: the lease lets one embed, the others wait their turn."""
    db = tmp_path / "lease.db"
    first = Memory(Settings(db=db, embeddings="none"))
    second = Memory(Settings(db=db, embeddings="none"))
    try:
        one = EmbeddingIndexer(first.vectors, HashingEmbedder(), batch_size=4)
        two = EmbeddingIndexer(second.vectors, HashingEmbedder(), batch_size=4)
        assert first.vectors.take_lease(one.owner, 60)  # `one` is embedding
        one.start()
        first.create_entities([{"name": f"E{i}", "observations": [f"fact {i}"]} for i in range(10)])
        two.start()
        two.notify()
        assert two.wait_idle(30)
        assert two.batches == 0 and "another Hipocampo process" in (two.status()["error"] or "")
        one.notify()
        assert one.wait_idle(30)
        assert one.batches >= 3 and first.vectors.count() == 10
        one.stop()  # drops the lease: the other may take over at once
        assert second.vectors.take_lease(two.owner, 60)
    finally:
        two.stop()
        first.close()
        second.close()


class GatedEmbedder(HashingEmbedder):
    """The hashing model, held inside ``embed_documents`` until the test opens the gate."""

    def __init__(self) -> None:
        self.inside = threading.Event()
        self.gate = threading.Event()

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.inside.set()
        self.gate.wait(60)
        return super().embed_documents(texts)


def test_close_under_a_running_batch_stores_nothing_and_raises_nothing(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    mem = Memory(Settings(db=tmp_path / "g.db", embeddings="none"))
    mem.create_entities([{"name": "slow", "observations": ["a batch still in the model"]}])
    gated = GatedEmbedder()
    indexer = EmbeddingIndexer(mem.vectors, gated)
    indexer.start()
    indexer.notify()
    assert gated.inside.wait(30)
    thread = indexer._thread
    assert indexer.stop(timeout=0.05) is False  # still inside the model: left to finish
    mem.close()  # the connection closes while the thread is still running
    gated.gate.set()
    thread.join(30)
    assert not thread.is_alive()
    assert "Embedding batch failed" not in caplog.text
    with Memory(Settings(db=tmp_path / "g.db", embeddings="none")) as again:
        assert again.vectors.count() == 0 and again.vectors.lease() is None


def test_wait_idle_returns_only_when_notified_work_is_done(tmp_path: Path) -> None:
    with Memory(Settings(db=tmp_path / "w.db", embeddings="none")) as mem:
        indexer = EmbeddingIndexer(mem.vectors, HashingEmbedder(), batch_size=3)
        indexer.start()
        try:
            for round_ in range(20):
                mem.create_entities([{"name": f"r{round_}-{i}", "observations": ["x"]} for i in range(5)])
                indexer.notify()
                assert indexer.wait_idle(30)
                assert mem.vectors.pending(indexer.model_id, 10) == {}, round_
        finally:
            indexer.stop()
