"""The ``none`` provider: no vectors at all; search falls back to full text."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.errors import EmbeddingError


class NullEmbeddingProvider:
    model_id = "none"
    dimensions = 0

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.zeros((len(texts), 0), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        raise EmbeddingError("No embedding provider is configured; semantic search uses full text.")
