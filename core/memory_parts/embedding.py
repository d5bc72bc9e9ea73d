"""The embedding model and the background indexer that keeps vectors in step with writes."""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any

from core.embeddings.factory import create_embedder
from core.embeddings.foreground import Foreground
from core.embeddings.indexer import EmbeddingIndexer, Progress, load_at_background_priority
from core.errors import EmbeddingError
from core.protocols import Closeable, EmbeddingProvider, GraphStore, VectorStore
from core.settings import Settings

log = logging.getLogger("core.memory")


class Embedding:
    """The provider (given and shared, or made from the settings and owned), its indexer, and
    the foreground marker that makes background embedding step aside."""

    def __init__(self, settings: Settings, graph: GraphStore, vectors: VectorStore | None,
                 embedder: EmbeddingProvider | None) -> None:
        self.settings = settings
        self.graph = graph
        self.embedder = embedder  # given: shared, not closed here
        self.owns_embedder = embedder is None
        self.error: str | None = None
        if embedder is None:
            try:
                created = create_embedder(settings)
                if created.model_id != "none":
                    self.embedder = created
            except EmbeddingError as exc:  # e.g. the model was never built: full text still works
                self.error = str(exc)
                log.warning("Semantic search unavailable: %s", exc)
        # Calls marked busy() make the background embedder step aside (see core.embeddings.foreground).
        self.foreground = Foreground()
        self.indexer: EmbeddingIndexer | None = (
            EmbeddingIndexer(vectors, self.embedder, foreground=self.foreground, graph=graph)
            if self.embedder is not None and vectors is not None else None
        )
        self.vectors = vectors
        self.background = False

    def close(self) -> None:
        idle = self.indexer.stop() if self.indexer is not None else True
        if isinstance(self.embedder, Closeable) and self.owns_embedder and idle:  # never under a running batch
            self.embedder.close()

    def halt(self) -> None:
        if self.indexer is not None:
            self.indexer.halt()

    def start_background(self) -> None:
        if self.indexer is not None and not self.background:
            self.background = True
            self.indexer.start()
            self.indexer.notify()

    def load(self) -> None:
        if self.embedder is None:
            return
        try:
            load_at_background_priority(self.embedder)
        except EmbeddingError as exc:  # the indexer reports the same error when it tries; full text still works
            self.error = str(exc)
            log.warning("Semantic search unavailable: %s", exc)

    def busy(self) -> contextlib.AbstractContextManager[None]:
        return self.foreground.call()

    def written(self) -> None:
        """After a write: wake the background indexer (when it runs) for the new or changed entities."""
        if self.background and self.indexer is not None:
            self.indexer.notify()

    def embed_pending(self, progress: Progress | None = None,
                      cancel: threading.Event | None = None) -> int:
        if self.indexer is None:
            return 0
        return self.indexer.run_until_idle(progress, cancel)

    def forget(self) -> None:
        if self.vectors is not None:
            self.vectors.forget_state()

    def status(self) -> dict[str, Any]:
        if self.indexer is None:
            health = self.graph.health_check()  # the entities read_graph returns: archived ones left out
            shown = int(health.get("counts", {}).get("entities", 0)) - int(health.get("archived", 0))
            return {"provider": self.settings.embeddings, "model": None, "embedded": 0, "entities": shown,
                    "error": self.error or "no embedding provider: search uses full text"}
        return {"provider": self.settings.embeddings, **self.indexer.status()}
