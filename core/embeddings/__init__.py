"""Text embedding providers (the local ONNX model lives in ``onnx_local``).

``onnxruntime`` and ``tokenizers`` are imported only when a model loads, so
importing this package is cheap.
"""

from typing import Any

from core.embeddings.model_dir import default_model_dir, model_is_present

__all__ = ["OnnxEmbeddingProvider", "default_model_dir", "model_is_present"]


def __getattr__(name: str) -> Any:
    if name == "OnnxEmbeddingProvider":  # on first use: it brings numpy
        from core.embeddings.onnx_local import OnnxEmbeddingProvider

        return OnnxEmbeddingProvider
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
