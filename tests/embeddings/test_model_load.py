"""Loading the model ahead of use (the app does so while it opens): once, off the caller's priority,
and a broken model leaves full text working with the reason recorded."""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

from core.memory import Memory
from core.settings import Settings


def _thread_ids() -> set[int]:
    return {int(name) for name in os.listdir("/proc/self/task")}


def _policies(tids: set[int]) -> dict[int, int]:
    """Each thread's scheduling policy; a thread that has ended meanwhile (another test's short-lived
    worker, a pool thread the runtime let go) is left out rather than failing the read."""
    policies = {}
    for tid in tids:
        try:
            policies[tid] = os.sched_getscheduler(tid)
        except ProcessLookupError:
            continue
    return policies


def _niceness(tid: int) -> int:
    with open(f"/proc/self/task/{tid}/stat") as fh:
        return int(fh.read().rsplit(")", 1)[1].split()[16])  # field 19: nice


def test_load_embedder_loads_the_model_once(tmp_path: Path, model_dir: Path) -> None:
    memory = Memory(Settings(db=tmp_path / "m.db", model_dir=model_dir, embed_threads=2))
    try:
        assert memory.embedder is not None and not memory.embedder.loaded
        memory.load_embedder()
        assert memory.embedder.loaded
        session = memory.embedder._session
        memory.load_embedder()  # a second call keeps what is loaded
        assert memory.embedder._session is session
        assert memory.embedding_error is None
    finally:
        memory.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread scheduling is a Linux feature")
def test_the_models_worker_threads_run_in_the_background_class(tmp_path: Path, model_dir: Path) -> None:
    memory = Memory(Settings(db=tmp_path / "m.db", model_dir=model_dir, embed_threads=2))
    try:
        before = _thread_ids()
        memory.load_embedder()
        started = _thread_ids() - before  # onnxruntime's intra-op pool, alive as long as the session
        policies = _policies(started)
        assert policies, "the session should keep a worker thread for its second intra-op thread"
        assert set(policies.values()) == {os.SCHED_BATCH}
        assert {_niceness(tid) for tid in policies} == {os.getpriority(os.PRIO_PROCESS, 0)}  # not niced
        assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the caller keeps its own
    finally:
        memory.close()


def test_a_broken_model_is_reported_and_full_text_still_works(tmp_path: Path, model_dir: Path) -> None:
    broken = tmp_path / "model"
    shutil.copytree(model_dir, broken)
    (broken / "model.onnx").write_bytes(b"not a model")
    memory = Memory(Settings(db=tmp_path / "m.db", model_dir=broken))
    try:
        memory.create_entities([{"name": "Ada", "entityType": "Person", "observations": ["writes programs"]}])
        memory.load_embedder()  # does not raise: the app keeps opening
        assert memory.embedding_error is not None and "model" in memory.embedding_error.lower()
        assert [e.name for e in memory.search_nodes("programs").entities] == ["Ada"]
        assert [r["name"] for r in memory.search_semantic("programs", record=False)] == ["Ada"]
    finally:
        memory.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread scheduling is a Linux feature")
def test_the_background_embedder_writes_at_normal_priority(tmp_path: Path, model_dir: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The model runs in the batch class; the writes do not (a niced thread holding the write lock
    kept clients waiting behind it on a busy machine)."""
    memory = Memory(Settings(db=tmp_path / "m.db", model_dir=model_dir, embed_threads=1))
    writers: list[int] = []
    store_embedded = memory.vectors.store_embedded

    def spy(*args: object) -> int:  # the real write, noting the policy of the thread doing it
        writers.append(os.sched_getscheduler(threading.get_native_id()))
        return store_embedded(*args)

    monkeypatch.setattr(memory.vectors, "store_embedded", spy)
    try:
        memory.create_entities([{"name": f"note {i}", "entityType": "Note", "observations": [f"idea {i}"]}
                                for i in range(40)])
        memory.start_background()
        assert memory.indexer.wait_idle(120)
        assert memory.embedding_status()["embedded"] == 40
        assert writers and set(writers) == {os.SCHED_OTHER}
        assert os.sched_getscheduler(memory.indexer._thread.native_id) == os.SCHED_BATCH  # the model's side
    finally:
        memory.close()
