"""create_embedder(): the one place an embedding provider is chosen."""

from __future__ import annotations

from core.errors import ConfigError
from core.protocols import EmbeddingProvider
from core.settings import Settings


def create_embedder(settings: Settings) -> EmbeddingProvider:
    """The provider ``settings.embeddings`` names. Nothing is loaded yet: models load lazily."""
    if settings.embeddings == "onnx":
        from core.embeddings.onnx_local import OnnxEmbeddingProvider

        return OnnxEmbeddingProvider(settings.model_dir, threads=settings.embed_threads)
    if settings.embeddings == "openai":
        from core.embeddings.openai_compat import OpenAICompatibleProvider

        return OpenAICompatibleProvider(
            settings.openai_base_url, settings.openai_model, api_key=settings.openai_api_key,
            dimensions=settings.openai_dimensions, query_model=settings.openai_query_model,
            timeout=settings.openai_timeout,
        )
    if settings.embeddings == "none":
        from core.embeddings.null import NullEmbeddingProvider

        return NullEmbeddingProvider()
    raise ConfigError(f"Unknown embedding provider {settings.embeddings!r}; choose onnx, openai or none.")
