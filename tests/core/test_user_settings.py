"""The user's settings file: a source below env vars and CLI flags, written by the settings dialog."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from core.settings import Settings, save_user_settings, settings_file, user_settings


@pytest.fixture
def file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for var in ("HIPOCAMPO_DB", "HIPOCAMPO_EMBEDDINGS", "HIPOCAMPO_HUB_PORT", "HIPOCAMPO_SETTINGS_FILE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path / "config" / "hipocampo" / "settings.json"


def test_the_file_lives_in_the_user_config_folder(file: Path, monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    if sys.platform.startswith("linux"):
        assert settings_file() == file
    monkeypatch.setenv("HIPOCAMPO_SETTINGS_FILE", str(tmp_path / "elsewhere.json"))
    assert settings_file() == tmp_path / "elsewhere.json"


def test_round_trip_through_the_file(file: Path, tmp_path: Path) -> None:
    assert Settings().hub_port == 0 and Settings().close_to_tray is True
    saved = save_user_settings({"db": tmp_path / "mine.db", "embeddings": "openai",
                                "openai_base_url": "http://127.0.0.1:9/v1", "hub_port": 48123,
                                "close_to_tray": False, "start_with_system": True}, settings_file())
    assert json.loads(file.read_text()) == saved == user_settings()
    assert saved["db"] == str(tmp_path / "mine.db")  # stored as text
    s = Settings()
    assert (s.db, s.embeddings, s.openai_base_url) == (tmp_path / "mine.db", "openai", "http://127.0.0.1:9/v1")
    assert (s.hub_port, s.close_to_tray, s.start_with_system) == (48123, False, True)
    if sys.platform != "win32":  # it may hold an API key
        assert stat.S_IMODE(file.stat().st_mode) == 0o600
    # merging keeps the other keys; None removes one so the default applies again
    save_user_settings({"hub_port": None, "first_run_done": True})
    assert Settings().hub_port == 0 and Settings().first_run_done and Settings().embeddings == "openai"


def test_env_vars_and_arguments_override_the_file(file: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    save_user_settings({"db": tmp_path / "file.db", "embeddings": "none"})
    monkeypatch.setenv("HIPOCAMPO_DB", str(tmp_path / "env.db"))
    assert Settings().db == tmp_path / "env.db" and Settings().embeddings == "none"
    assert Settings(db=tmp_path / "flag.db").db == tmp_path / "flag.db"


def test_invalid_values_are_refused_and_the_file_kept(file: Path) -> None:
    save_user_settings({"hub_port": 5000})
    before = file.read_bytes()
    with pytest.raises(ValueError, match="hub_port"):
        save_user_settings({"hub_port": 70000})
    with pytest.raises(ValueError, match="embeddings"):
        save_user_settings({"embeddings": "magic"})
    with pytest.raises(ValueError, match="'colour' is not a setting"):
        save_user_settings({"colour": "red"})
    assert file.read_bytes() == before


def test_a_damaged_file_never_stops_the_app(file: Path, tmp_path: Path) -> None:
    file.parent.mkdir(parents=True)
    file.write_text("{not json")
    assert Settings().hub_port == 0  # defaults, with a warning in the log
    file.write_text(json.dumps({"hub_port": "abc", "db": str(tmp_path / "ok.db"), "unknown": 1}))
    assert Settings().db == tmp_path / "ok.db" and Settings().hub_port == 0
    file.write_text("[1, 2]")
    assert Settings().hub_port == 0 and user_settings() == {}
