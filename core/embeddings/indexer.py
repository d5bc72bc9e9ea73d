"""The embedding lifecycle: keep every entity's vector in step with its text, in the background.

Writes only mark entities as due (``embedding_state`` rows are dropped in the same transaction);
this indexer picks them up in batches, embeds them outside any transaction, and stores each vector
only if the entity's text is still the one embedded. A crash loses nothing (due entities stay
due); a model change makes every entity due again, and the re-index resumes where it stopped.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable

from core.embeddings.text import text_hash
from core.errors import EmbeddingError
from core.protocols import EmbeddingProvider, VectorStore

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]  # (embedded so far, total entities)
# The background embedder's lease on a database, renewed every batch; a crashed holder's
# lease runs out after this long and another process takes over.
LEASE_SECONDS = 120.0


class EmbeddingIndexer:
    """Embeds due entities with ``provider`` into ``vectors``; one background thread at most."""

    def __init__(self, vectors: VectorStore, provider: EmbeddingProvider, *, batch_size: int = 32,
                 idle_check_seconds: float = 30.0) -> None:
        self.vectors = vectors
        self.provider = provider
        self.batch_size = batch_size
        self._idle_check = idle_check_seconds
        self._prepared = False
        self._prepare_lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._idle = threading.Event()
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.batches = 0  # background batches this indexer embedded
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

    def run_once(self) -> int:
        """Embed one batch of due entities; returns how many vectors were stored."""
        self.prepare()
        due = self.vectors.pending(self.provider.model_id, self.batch_size)
        if not due:
            return 0
        ids = list(due)
        vectors = self.provider.embed_documents([due[i] for i in ids])  # slow: no lock held
        stored = self.vectors.store_embedded(
            self.provider.model_id, {i: (text_hash(due[i]), v) for i, v in zip(ids, vectors, strict=True)}
        )
        # An entity edited mid-batch stays due; if every one was, stop rather than spin.
        return stored if stored else (-1 if len(ids) else 0)

    def run_until_idle(self, progress: Progress | None = None, cancel: threading.Event | None = None) -> int:
        """Embed until nothing is due (or ``cancel`` is set); returns vectors stored."""
        total = 0
        while not (cancel is not None and cancel.is_set()):
            stored = self.run_once()
            if stored <= 0:
                break
            total += stored
            if progress is not None:
                progress(*self.vectors.progress(self.provider.model_id))
        return total

    # -- background --------------------------------------------------------------------------

    def start(self) -> None:
        """Run in a daemon thread, woken by ``notify()`` after writes (and now and then anyway,
        for entities another process wrote)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._loop, name="hipocampo-embedder", daemon=True)
        self._thread.start()

    def notify(self) -> None:
        self._idle.clear()
        self._wake.set()

    def wait_idle(self, timeout: float) -> bool:
        """Block until the background thread has nothing due (for tests and shutdown)."""
        return self._idle.wait(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
            try:
                self.vectors.drop_lease(self.owner)  # let another process take over at once
            except Exception:  # closing anyway; the lease expires on its own
                log.debug("could not drop the embedding lease", exc_info=True)

    def _background_pass(self) -> None:
        """Embed while this process holds the lease; another live holder does it instead."""
        while not self._stop.is_set():
            if not self.vectors.take_lease(self.owner, LEASE_SECONDS):
                self.waiting_for = "another Hipocampo process is embedding this memory"
                return
            self.waiting_for = None
            if self.run_once() <= 0:
                return
            self.batches += 1

    def _loop(self) -> None:
        backoff = self._idle_check
        while not self._stop.is_set():
            try:
                self._background_pass()
                self.last_error = None
                backoff = self._idle_check
            except EmbeddingError as exc:
                # Model missing or endpoint down: search falls back to full text meanwhile.
                self.last_error = str(exc)
                log.warning("Embedding paused: %s", exc)
                backoff = min(backoff * 2, 600.0)
            except Exception:  # a bug must not kill the thread silently nor spin
                log.exception("Embedding batch failed")
                backoff = min(backoff * 2, 600.0)
            self._idle.set()
            self._wake.wait(backoff)
            self._wake.clear()

    def status(self) -> dict[str, object]:
        done, total = self.vectors.progress(self.provider.model_id)
        return {"model": self.provider.model_id, "embedded": done, "entities": total,
                "running": self._thread is not None, "error": self.last_error or self.waiting_for}
