"""The embedding lifecycle: keep every entity's vector, and every fact's (observation's), in step
with its text, in the background. Entities come first (few), then facts.

Writes only mark entities as due (``embedding_state`` rows are dropped in the same transaction);
this indexer picks them up in batches, embeds them outside any transaction, and stores each vector
only if the entity's text is still the one embedded. A crash loses nothing (due entities stay
due); a model change makes every entity due again, and the re-index resumes where it stopped.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
import uuid
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from core.embeddings.context import in_context
from core.embeddings.foreground import YIELD_AT_MOST_SECONDS, Foreground
from core.embeddings.text import text_hash
from core.errors import EmbeddingError, EmbeddingInterrupted, StorageError
from core.processes import pid_alive, release_freed_memory
from core.protocols import EmbeddingProvider, FactVectors, GraphStore, VectorStore

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]  # (vectors current so far, vectors wanted: entities and facts)
# The background embedder's lease on a database, renewed every batch. A holder on this machine
# whose process is gone loses it at once; one on another machine (a shared folder) after this long.
LEASE_SECONDS = 120.0
# Characters of padded text per embed call (~2,000 tokens, one forward pass): texts are sorted by
# length first, so a call pads little, and a pass a foreground call interrupts wastes little.
CHARS_PER_CALL = 8000
# Facts are short: a fact batch holds this many times the entity batch size.
FACTS_PER_ENTITY_BATCH = 4
# The background threads' scheduling policy (Linux): SCHED_BATCH, at the process's own niceness.
# Not a higher niceness: on a busy machine a niced thread is starved, and the process cannot end
# until each of its threads has run once more to die (2.3-2.7 s at load 8, against 0.2 s: see
# bench/RESULTS.md "Stop on time, fresh under load"), nor answer a signal while one holds the GIL.
# Foreground calls get the cores by interrupting the pass (core.embeddings.foreground) instead.
BACKGROUND_POLICY = "SCHED_BATCH"


def holder_gone(owner: str) -> bool:
    """True when the lease ``owner`` ("host:pid:nonce") is a process on this machine that has exited."""
    parts = owner.split(":")
    if len(parts) < 3 or not parts[-2].isdigit():
        return False
    host, pid = ":".join(parts[:-2]), int(parts[-2])
    return host == socket.gethostname() and pid != os.getpid() and not pid_alive(pid)


_RUNNING: weakref.WeakSet[EmbeddingIndexer] = weakref.WeakSet()


def release_all_leases() -> None:
    """Give up every lease this process holds (a last step before exiting in a hurry)."""
    for indexer in list(_RUNNING):
        indexer.release_lease()


_EXITING = threading.Event()  # set by halt_all: the process is about to end
EXIT_JOIN_SECONDS = 0.3  # then, exiting, a thread still in the model's loading is left behind


def halt_all() -> None:
    """Tell every background embedder of this process to stop now, without waiting (a signal's
    first step). From then on ``stop`` waits at most ``EXIT_JOIN_SECONDS`` for the thread: a pass
    ends at its next operator, but loading the model cannot be cut short, and the process ends
    anyway (what the thread computed is never stored once it is told to stop)."""
    _EXITING.set()
    for indexer in list(_RUNNING):
        indexer.halt()


class EmbeddingIndexer:
    """Embeds due entities with ``provider`` into ``vectors``; one background thread at most."""

    def __init__(self, vectors: VectorStore, provider: EmbeddingProvider, *, batch_size: int = 32,
                 idle_check_seconds: float = 30.0, foreground: Foreground | None = None,
                 graph: GraphStore | None = None) -> None:
        self.vectors = vectors
        # Facts are embedded in context (their entity's name and type, read from ``graph``); without
        # a graph, as their bare text.
        self.graph = graph
        self.provider = provider
        self.batch_size = batch_size  # due entities read per run_once
        # Background passes wait for quiet and are interrupted by foreground calls.
        self.foreground = foreground
        self._stop = threading.Event()
        # Until when (monotonic) the background pass in progress steps aside; then it runs to its end.
        self._yield_until = float("inf")
        interrupt = getattr(provider, "interrupt", None)
        if foreground is not None and callable(interrupt):
            foreground.on_call_start(lambda: interrupt() if self._yielding() else None)
        if foreground is not None and hasattr(provider, "should_yield"):
            # Only the background thread yields: a foreground reindex runs inside a call of its own.
            # Nor does a pass start once the thread is told to stop (a halt between two passes).
            provider.should_yield = lambda: (threading.current_thread() is self._background and (
                self._stop.is_set() or (self._yielding() and foreground.busy)))
        self._idle_check = idle_check_seconds
        self._prepared = False
        self._prepare_lock = threading.Lock()
        self._wake = threading.Event()
        # notify() bumps _asked; a background pass that began after ask n sets _done = n. Both
        # change under _progress, so wait_idle can never return while a notified write is due.
        self._progress = threading.Condition()
        self._asked = 0
        self._done = 0
        self._thread: threading.Thread | None = None
        self._background: threading.Thread | None = None  # the thread _loop runs on, kept after stop()
        self.last_error: str | None = None
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.batches = 0  # background batches this indexer embedded
        self._store: _StoreThread | None = None  # the background thread's database calls (see start)
        self.waiting_for: str | None = None  # set while another process holds the lease

    @property
    def model_id(self) -> str:
        return self.provider.model_id

    def prepare(self) -> None:
        """Fit the vector table to the model (once); a new size re-embeds everything."""
        with self._prepare_lock:
            if not self._prepared:
                if self.vectors.prepare(self.provider.model_id, self.provider.dimensions):
                    log.warning("Vector table rebuilt for %s; every entity will be re-embedded",
                                self.provider.model_id)
                self._prepared = True

    def run_once(self, cancel: threading.Event | None = None, *, background: bool = False) -> int:
        """Embed one batch of due entities, else of due facts; returns how many vectors were stored.

        The batch is sorted by length and embedded a pass at a time, each pass stored as it
        completes; a pass a foreground call interrupted is done again. ``background``: first
        wait, before each pass, until no foreground call has been in flight for a moment, and
        step aside so for at most ``YIELD_AT_MOST_SECONDS``; then the pass runs uninterrupted."""
        self.prepare()
        model = self.provider.model_id
        due = self._db(self.vectors.pending, model, self.batch_size)
        store = self.vectors.store_embedded
        shown = due  # what is embedded, and whose hash is stored: a fact's text in context
        pending_facts = getattr(self.vectors, "pending_facts", None)  # backends with a fact index
        if not due and pending_facts is not None:
            due = self._db(pending_facts, model, self.batch_size * FACTS_PER_ENTITY_BATCH)
            store = cast(FactVectors, self.vectors).store_facts  # it has pending_facts: the fact index
            shown = self._db(in_context, due, self.vectors, self.graph) if due else due
        if not due:
            return 0
        stored = 0
        for ids in _calls(sorted(shown, key=lambda i: len(shown[i])), shown):
            if background:  # stepped aside this long (the client calls without pause), it runs
                self._yield_until = time.monotonic() + YIELD_AT_MOST_SECONDS
            try:
                while True:
                    if background and self.foreground is not None and self._yielding():
                        self.foreground.wait_quiet(cancel, self._yield_until - time.monotonic())
                    if cancel is not None and cancel.is_set():
                        return stored  # stopping: the rest stays due
                    try:
                        vectors = self.provider.embed_documents([shown[i] for i in ids])  # slow: no lock held
                        break
                    except EmbeddingInterrupted:  # a foreground call wanted the cores (or a stop): again
                        continue
            finally:
                self._yield_until = float("inf")
            if cancel is not None and cancel.is_set():
                return stored  # stopping: what was computed is thrown away, the entities stay due
            # The hash of what was embedded (a fact's in context): a rename committed meanwhile makes it stale.
            stored += self._db(store, model, {i: (text_hash(shown[i]), v) for i, v in zip(ids, vectors, strict=True)})
        # An entity edited mid-batch stays due; if every one was, stop rather than spin.
        return stored if stored else -1

    def _yielding(self) -> bool:
        """True while the background pass in progress still steps aside for foreground calls."""
        return time.monotonic() < self._yield_until

    def run_until_idle(self, progress: Progress | None = None, cancel: threading.Event | None = None) -> int:
        """Embed until nothing is due (or ``cancel`` is set); returns vectors stored."""
        total = 0
        while not (cancel is not None and cancel.is_set()):
            stored = self.run_once(cancel)
            if stored <= 0:
                break
            total += stored
            if progress is not None:
                progress(*self.progress())
        return total

    # -- background --------------------------------------------------------------------------

    def start(self) -> None:
        """Run in a daemon thread, woken by ``notify()`` after writes (and now and then anyway,
        for entities another process wrote)."""
        if self._thread is not None:
            return
        if self._store is None:
            self._store = _StoreThread()
        self._thread = threading.Thread(target=self._loop, name="hipocampo-embedder", daemon=True)
        self._background = self._thread
        _RUNNING.add(self)
        self._thread.start()

    def notify(self) -> None:
        """Something was written: embed what became due."""
        with self._progress:
            self._asked += 1
        self._wake.set()

    def wait_idle(self, timeout: float) -> bool:
        """Block until a background pass that began after the latest ``notify()`` has finished
        (nothing was left due, or another process holds the lease). For tests and shutdown."""
        with self._progress:
            target = self._asked
            return self._progress.wait_for(lambda: self._done >= target or self._thread is None, timeout)

    def stop(self, timeout: float = 2.0) -> bool:
        """Stop the background thread and give up the lease; True if the thread has ended.

        A batch being embedded is abandoned, not stored. If the thread is still inside the
        model after ``timeout`` it is left to finish on its own: it stores nothing once asked to
        stop, and the store it would write through refuses calls after ``close()``.
        """
        self.halt()
        thread, self._thread = self._thread, None
        ended = True
        if thread is not None:
            thread.join(min(timeout, EXIT_JOIN_SECONDS) if _EXITING.is_set() else timeout)
            ended = not thread.is_alive()
            store, self._store = self._store, None
            if store is not None:  # idle now; a thread left inside the model stores nothing once stopped
                store.close()
            self.release_lease()
            _RUNNING.discard(self)
        with self._progress:
            self._progress.notify_all()
        return ended

    def halt(self) -> None:
        """Ask the background thread to stop, without waiting: a pass inside the model ends at its
        next operator (``interrupt``), not at the end of the batch."""
        self._stop.set()
        self._wake.set()
        interrupt = getattr(self.provider, "interrupt", None)
        if interrupt is not None:
            interrupt()

    def release_lease(self) -> None:
        """Give up the background-embedding lease, so another process may take over at once."""
        try:
            self.vectors.drop_lease(self.owner)
        except Exception:  # closing anyway; a dead holder's lease is taken over by pid
            log.debug("could not drop the embedding lease", exc_info=True)

    def _db(self, call: Callable[..., Any], *args: Any) -> Any:
        """Run a database call: from the background thread, on the store thread at normal priority."""
        store = self._store
        if store is not None and threading.current_thread() is self._thread:
            return store.run(call, *args)
        return call(*args)

    def _background_pass(self) -> None:
        """Embed while this process holds the lease; another live holder does it instead."""
        embedded = 0
        while not self._stop.is_set():
            if not self._db(self.vectors.take_lease, self.owner, LEASE_SECONDS, holder_gone):
                holder = self.vectors.lease() or {}
                self.waiting_for = (
                    f"another Hipocampo process ({holder.get('owner', '?')}) is embedding this memory; "
                    f"it holds the lease until {holder.get('until', '?')} unless it exits first"
                )
                return
            self.waiting_for = None
            if self.run_once(self._stop, background=True) <= 0:
                if embedded and not self._stop.is_set():
                    self._release_memory()
                return
            embedded += 1
            self.batches += 1

    def _release_memory(self) -> None:
        """Caught up after embedding: the pages its reads and writes left in SQLite's cache go back
        (~10 MiB at 10k entities); the cache refills with what is read next."""
        release = getattr(self.vectors, "release_memory", None)
        if release is not None:
            self._db(release)
            release_freed_memory()

    def _loop(self) -> None:
        warm_up = getattr(self.provider, "warm_up", None)
        if warm_up is not None and not self._stop.is_set():
            warm_up()  # the GIL-holding part of loading, at the caller's policy (see warm_up)
        _lower_priority()
        backoff = self._idle_check
        while not self._stop.is_set():
            self._wake.clear()  # a notify() from here on wakes the next pass …
            with self._progress:
                began_after = self._asked  # … and one before here is handled by this one
            try:
                self._background_pass()
                self.last_error = None
                backoff = self._idle_check
            except (EmbeddingError, StorageError) as exc:
                # Model missing, endpoint down, file damaged or busy: full text works meanwhile.
                self.last_error = str(exc)
                log.warning("Embedding paused: %s", exc)
                backoff = min(backoff * 2, 600.0)
            except Exception:  # a bug must not kill the thread silently nor spin
                if self._stop.is_set():
                    return  # closing: the store went away under an abandoned batch
                log.exception("Embedding batch failed")
                backoff = min(backoff * 2, 600.0)
            with self._progress:
                self._done = max(self._done, began_after)
                self._progress.notify_all()
            self._wake.wait(backoff)

    def progress(self) -> tuple[int, int]:
        """(vectors current, vectors wanted): entities and facts together."""
        done, total = self.vectors.progress(self.provider.model_id)
        fact_progress = getattr(self.vectors, "fact_progress", None)
        if fact_progress is not None:
            facts_done, facts = fact_progress(self.provider.model_id)
            done, total = done + facts_done, total + facts
        return done, total

    def status(self) -> dict[str, object]:
        """``embedded`` of ``entities``: the entities ``read_graph`` returns (an insight waiting for
        review is an archived entity row, embedded too but no entity to the user); ``pending``:
        every vector still to compute, those rows' and facts' included."""
        done, total = self.vectors.progress(self.provider.model_id)
        shown_done, shown = self.vectors.progress(self.provider.model_id, in_memory=True)
        out: dict[str, object] = {"model": self.provider.model_id, "embedded": shown_done, "entities": shown}
        fact_progress = getattr(self.vectors, "fact_progress", None)
        facts_done, facts = fact_progress(self.provider.model_id) if fact_progress is not None else (0, 0)
        out.update(facts_embedded=facts_done, facts=facts, pending=(total - done) + (facts - facts_done),
                   running=self._thread is not None, error=self.last_error or self.waiting_for)
        return out


class _StoreThread:
    """One thread at the caller's priority for the background embedder's database calls.

    The embedder's thread runs in the batch class (and used to run niced: on a busy machine a
    niced thread holding the store's lock or SQLite's write lock kept every client's write waiting
    behind it, 1.8 s during an import). The model runs there; taking the lock and writing do not."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hipocampo-embedder-store")
        # Started now, from this (normal-priority) thread: a thread inherits its creator's policy.
        self._pool.submit(int).result()

    def run(self, call: Callable[..., Any], *args: Any) -> Any:
        return self._pool.submit(call, *args).result()

    def close(self) -> None:
        self._pool.shutdown(wait=False)


def _calls(ids: list[int], texts: dict[int, str]) -> list[list[int]]:
    """Cut ``ids`` (ascending text length) into embed calls of about ``CHARS_PER_CALL`` padded
    characters: many short texts together, long ones a few at a time."""
    calls: list[list[int]] = []
    current: list[int] = []
    for i in ids:
        if current and (len(current) + 1) * len(texts[i]) > CHARS_PER_CALL:
            calls.append(current)
            current = []
        current.append(i)
    if current:
        calls.append(current)
    return calls


def _lower_priority() -> None:
    """Put the calling thread (and the model's worker threads it starts, which inherit it) in the
    batch scheduling class: the scheduler treats it as CPU-bound and lets a waking tool call's
    thread run first, at the same share of the CPU, so that it is never starved. Linux keeps a
    policy per thread; elsewhere this does nothing."""
    if not sys.platform.startswith("linux"):  # elsewhere a thread id is no pid
        return
    try:
        os.sched_setscheduler(threading.get_native_id(), getattr(os, BACKGROUND_POLICY), os.sched_param(0))
    except OSError:
        log.debug("could not set the embedder's scheduling policy", exc_info=True)


def load_at_background_priority(provider: EmbeddingProvider) -> None:
    """Load ``provider``'s model now, from a thread in the background policy: the model's worker
    threads inherit the policy of the thread that creates them, as when the indexer loads it."""
    load = getattr(provider, "load", None)
    if load is None:
        return
    failure: list[BaseException] = []

    def run() -> None:
        _lower_priority()
        try:
            load()
        except BaseException as exc:  # re-raised on the calling thread
            failure.append(exc)

    loader = threading.Thread(target=run, name="hipocampo-model-load", daemon=True)
    loader.start()
    loader.join()
    if failure:
        raise failure[0]
