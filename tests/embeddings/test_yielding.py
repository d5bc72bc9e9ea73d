"""Background embedding steps aside for foreground calls: it waits for quiet, and a call that
starts mid-pass interrupts the pass, which is done again later. Real model, real database."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from core.embeddings.foreground import Foreground
from core.embeddings.indexer import CHARS_PER_CALL, _calls
from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.errors import EmbeddingInterrupted
from core.memory import Memory
from core.settings import Settings

LONG = "La reunión del equipo de ventas se movió al jueves por la tarde y nadie avisó al cliente. " * 6


def _until(condition, seconds: float = 30.0) -> bool:  # noqa: ANN001 (a predicate)
    """Poll ``condition`` until it holds or the deadline passes (no fixed sleeps)."""
    deadline = threading.Event()
    timer = threading.Timer(seconds, deadline.set)
    timer.start()
    try:
        while not condition():
            if deadline.wait(0.01):
                return bool(condition())
        return True
    finally:
        timer.cancel()


def test_wait_quiet_waits_for_calls_in_flight_and_then_a_quiet_moment() -> None:
    fg = Foreground(quiet=0.05, start_delay=0.0)
    quiet = threading.Event()
    with fg.call():
        waiter = threading.Thread(target=lambda: (fg.wait_quiet(), quiet.set()))
        waiter.start()
        assert fg.busy
        assert not quiet.wait(0.3)  # a call is in flight: the embedder must not start
    assert quiet.wait(10)
    waiter.join()
    assert not fg.busy


def test_a_large_answer_keeps_the_foreground_busy_while_the_client_reads_it() -> None:
    fg = Foreground(quiet=0.0, start_delay=0.0)
    fg.begin(7)
    assert fg.busy
    fg.end(7, size=0)
    assert not fg.busy
    fg.begin(8)
    fg.end(8, size=50_000_000)  # ~10 s of client parsing
    assert fg.busy
    fg.end(99)  # an unknown key changes nothing
    assert fg.busy


def test_wait_quiet_returns_when_stopped() -> None:
    fg = Foreground(quiet=0.05, start_delay=0.0)
    stop = threading.Event()
    done = threading.Event()
    with fg.call():
        waiter = threading.Thread(target=lambda: (fg.wait_quiet(stop), done.set()))
        waiter.start()
        stop.set()
        assert done.wait(10)  # shutting down does not wait for the foreground
    waiter.join()


def test_a_call_start_interrupts_document_passes_but_never_queries(model_dir: Path) -> None:
    provider = OnnxEmbeddingProvider(model_dir, threads=1, batch_size=8, tokens_per_pass=256)
    provider.load()
    fg = Foreground(start_delay=0.0)
    fg.on_call_start(provider.interrupt)
    outcome: dict[str, object] = {}

    def embed_many() -> None:
        try:
            outcome["vectors"] = provider.embed_documents([LONG] * 200)
        except EmbeddingInterrupted as exc:
            outcome["interrupted"] = exc

    worker = threading.Thread(target=embed_many)
    worker.start()
    assert _until(lambda: bool(provider._document_calls) or not worker.is_alive())
    with fg.call():
        query = provider.embed_query("¿cuándo es la reunión?")
    worker.join(60)
    assert "interrupted" in outcome and "vectors" not in outcome
    assert query.shape == (provider.dimensions,)
    # the provider is fine afterwards, and a pass started after the call runs to the end
    assert provider.embed_documents([LONG, "corto"]).shape == (2, provider.dimensions)


def test_a_pass_about_to_start_while_the_foreground_is_busy_is_not_started(model_dir: Path) -> None:
    """A call that began while embed_documents was still tokenizing (before interrupt() could see the
    pass) must still keep the pass from starting: the provider asks should_yield before each pass."""
    provider = OnnxEmbeddingProvider(model_dir, threads=1, batch_size=8, tokens_per_pass=256)
    provider.load()
    fg = Foreground(quiet=60.0, start_delay=0.0)
    provider.should_yield = lambda: fg.busy
    with fg.call():
        with pytest.raises(EmbeddingInterrupted):
            provider.embed_documents([LONG] * 4)
        assert provider.embed_query("reunión").shape == (provider.dimensions,)  # queries never yield
    assert fg.busy  # the quiet minute after the call: still no pass
    with pytest.raises(EmbeddingInterrupted):
        provider.embed_documents([LONG])
    provider.should_yield = lambda: False
    assert provider.embed_documents([LONG] * 4).shape == (4, provider.dimensions)


def test_only_the_background_thread_yields_a_reindex_inside_a_call_runs(
        tmp_path: Path, local_embedder: OnnxEmbeddingProvider) -> None:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="onnx"), embedder=local_embedder) as mem:
        mem.create_entities([{"name": f"nota {i}", "observations": [LONG]} for i in range(5)])
        with mem.busy():  # e.g. a tool that reindexes: its own call must not hold it off
            assert mem.indexer.run_until_idle() == 10  # five entities, and their five facts
        assert mem.embedding_status()["embedded"] == 5 and mem.embedding_status()["facts_embedded"] == 5


def test_passes_are_sorted_and_sized_by_tokens(model_dir: Path) -> None:
    provider = OnnxEmbeddingProvider(model_dir, threads=1, batch_size=4, tokens_per_pass=100)
    lengths = [50, 3, 10, 10, 12, 9, 8, 7, 200]
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    passes = provider._passes(order, lengths)
    assert [i for p in passes for i in p] == order  # every text once, shortest first
    for p in passes:
        assert len(p) <= 4
        assert len(p) == 1 or len(p) * max(lengths[i] for i in p) <= 100
    assert passes[-1] == [8]  # the over-long text alone


def test_indexer_calls_group_short_texts_and_split_long_ones() -> None:
    texts = {i: "x" * n for i, n in enumerate([10] * 50 + [CHARS_PER_CALL // 3] * 7 + [CHARS_PER_CALL * 2])}
    ids = sorted(texts, key=lambda i: len(texts[i]))
    calls = _calls(ids, texts)
    assert [i for c in calls for i in c] == ids
    assert calls[0][:50] == list(range(50))
    assert all(len(c) == 1 or len(c) * max(len(texts[i]) for i in c) <= CHARS_PER_CALL for c in calls)
    assert calls[-1] == [57]


def test_background_embedding_waits_while_calls_are_in_flight(
        tmp_path: Path, local_embedder: OnnxEmbeddingProvider) -> None:
    with Memory(Settings(db=tmp_path / "m.db", embeddings="onnx"), embedder=local_embedder) as mem:
        mem.foreground.quiet = 0.05
        mem.create_entities([{"name": f"nota {i}", "observations": [LONG]} for i in range(12)])
        with mem.busy():
            mem.start_background()
            assert not mem.indexer.wait_idle(2.0)  # held off: nothing embedded while a call runs
            assert mem.embedding_status()["embedded"] == 0
        assert mem.indexer.wait_idle(120)
        assert mem.embedding_status()["embedded"] == 12
        assert [r["name"] for r in mem.search_semantic("cambio de fecha de la reunión", limit=3)]


def test_a_stdio_server_starts_without_numpy_or_the_model(tmp_path: Path) -> None:
    """The heavy libraries load on first use, not at start: a server answers sooner."""
    code = (
        "import sys\n"
        "from core.memory import Memory\n"
        "import core.cli, core.server.transports.stdio, core.server.transports.app\n"
        f"m = Memory.open({str(tmp_path / 'x.db')!r}, embeddings='onnx')\n"
        "m.create_entities([{'name': 'a', 'observations': ['b']}]); m.search_nodes('a'); m.read_graph()\n"
        "print(sorted(x for x in ('numpy', 'onnxruntime', 'tokenizers', 'httpx') if x in sys.modules))\n"
        "m.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread niceness is Linux's")
def test_the_embedder_thread_runs_in_the_batch_class_at_the_processs_niceness(
        tmp_path: Path, local_embedder: OnnxEmbeddingProvider) -> None:
    """Not niced: a niced thread starved on a busy machine keeps the process from ending (it must
    run once more to die) and from answering a signal while it holds the GIL."""
    with Memory(Settings(db=tmp_path / "m.db", embeddings="onnx"), embedder=local_embedder) as mem:
        mem.start_background()
        thread = mem.indexer._thread
        assert thread is not None
        assert _until(lambda: thread.native_id is not None)
        assert _until(lambda: os.sched_getscheduler(thread.native_id) == os.SCHED_BATCH)
        assert os.getpriority(os.PRIO_PROCESS, thread.native_id) == os.getpriority(os.PRIO_PROCESS, 0)


def test_a_pass_steps_aside_for_a_bounded_time_then_runs_however_often_calls_come(
        tmp_path: Path, local_embedder: OnnxEmbeddingProvider) -> None:
    """A client that calls without pause (a call always in flight or just answered) used to hold
    background embedding off for good: on a loaded machine every pass was interrupted before it
    ended (issue 23, point 9). After YIELD_AT_MOST_SECONDS of stepping aside a pass runs anyway."""
    with Memory(Settings(db=tmp_path / "m.db", embeddings="onnx"), embedder=local_embedder) as mem:
        mem.create_entities([{"name": f"nota {i}", "observations": [LONG]} for i in range(6)])
        stop = threading.Event()

        def client() -> None:  # one call after another, as long as the test runs
            while not stop.is_set():
                with mem.busy():
                    stop.wait(0.05)

        caller = threading.Thread(target=client)
        caller.start()
        try:
            assert _until(lambda: mem.foreground.busy)
            mem.start_background()
            assert mem.indexer.wait_idle(120)  # caught up although the foreground was never quiet
            assert mem.foreground.busy
        finally:
            stop.set()
            caller.join()
        assert mem.embedding_status()["embedded"] == 6 and mem.embedding_status()["pending"] == 0
