"""Fixtures for search tests: a memory with the real local model, built by ./dev if missing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from core.embeddings.onnx_local import OnnxEmbeddingProvider
from core.memory import Memory
from core.settings import Settings
from tests.conftest import SteppingClock


@pytest.fixture
def semantic(tmp_path: Path, clock: SteppingClock, local_embedder: OnnxEmbeddingProvider) -> Iterator[Memory]:
    with Memory(Settings(db=tmp_path / "semantic.db", embeddings="onnx"), clock=clock,
                embedder=local_embedder) as m:
        yield m
