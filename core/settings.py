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
