"""Text embedding providers (the local ONNX model lives in ``onnx_local``).

``onnxruntime`` and ``tokenizers`` are imported only when a model loads, so
importing this package is cheap.
"""

from core.embeddings.model_dir import default_model_dir, model_is_present
from core.embeddings.onnx_local import OnnxEmbeddingProvider

__all__ = ["OnnxEmbeddingProvider", "default_model_dir", "model_is_present"]
