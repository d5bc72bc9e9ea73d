"""``Settings`` is the only reader of Hipocampo's environment variables: the hub file, the schema
profile, the model folder, the log level and the database all come through it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from core.embeddings.model_dir import default_model_dir
from core.io.official_sync import dropin_settings
from core.reflect.profile import profile_sources
from core.server.transports.endpoint import endpoint_file
from core.settings import Settings, endpoint_path, from_environment

ROOT = Path(__file__).resolve().parents[2]


def _env_reads(tree: ast.Module) -> list[ast.expr]:
    """The first argument of every ``os.environ.get(…)``, ``os.getenv(…)`` and ``os.environ[…]``."""
    found: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute):
            text = ast.unparse(node.func)
            if text in ("os.environ.get", "os.getenv", "environ.get", "getenv"):
                found.append(node.args[0])
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("os.environ", "environ"):
            found.append(node.slice)
    return found


def test_no_module_but_settings_reads_a_hipocampo_variable() -> None:
    readers = []
    for path in sorted([*(ROOT / "core").rglob("*.py"), *(ROOT / "desktop").rglob("*.py")]):
        if path == ROOT / "core" / "settings.py":
            continue
        tree = ast.parse(path.read_text("utf-8"))
        constants = {t.id: n.value.value for n in tree.body if isinstance(n, ast.Assign)
                     and isinstance(n.value, ast.Constant) for t in n.targets if isinstance(t, ast.Name)}
        for arg in _env_reads(tree):
            name = arg.value if isinstance(arg, ast.Constant) else constants.get(getattr(arg, "id", ""), "?")
            if not isinstance(name, str) or name.startswith("HIPOCAMPO_") or name == "?":
                readers.append(f"{path.relative_to(ROOT)}:{arg.lineno} reads {ast.unparse(arg)}")
    assert readers == []


def test_the_hub_file_comes_from_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HIPOCAMPO_ENDPOINT_FILE", str(tmp_path / "hub.json"))
    assert endpoint_file() == tmp_path / "hub.json" == endpoint_path()
    assert "endpoint_file" in from_environment()
    assert endpoint_path(Settings(endpoint_file=tmp_path / "other.json")) == tmp_path / "other.json"
    monkeypatch.setenv("HIPOCAMPO_ENDPOINT_FILE", "")  # empty: the default, never the current folder
    assert endpoint_file().name == "endpoint.json" and endpoint_file().parent != Path()


def test_profile_and_model_folder_come_from_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    extra = tmp_path / "extra.json"
    extra.write_text("{}", "utf-8")
    monkeypatch.setenv("HIPOCAMPO_PROFILE", str(extra))
    assert profile_sources()[-1] == extra
    monkeypatch.setenv("HIPOCAMPO_PROFILE", "")
    assert extra not in profile_sources()
    monkeypatch.setenv("HIPOCAMPO_MODEL_DIR", str(tmp_path / "model"))
    assert default_model_dir() == tmp_path / "model"


def test_a_database_in_the_settings_file_wins_over_the_official_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    official = tmp_path / "memory.jsonl"
    official.write_text("", "utf-8")
    monkeypatch.setenv("MEMORY_FILE_PATH", str(official))
    monkeypatch.delenv("HIPOCAMPO_DB", raising=False)
    settings_file = tmp_path / "settings.json"
    monkeypatch.setenv("HIPOCAMPO_SETTINGS_FILE", str(settings_file))
    settings, source = dropin_settings(None)
    assert source == official and settings.db == tmp_path / "memory.hipocampo.db"
    settings_file.write_text(json.dumps({"db": str(tmp_path / "chosen.db")}), "utf-8")
    settings, source = dropin_settings(None)
    assert source is None and settings.db == tmp_path / "chosen.db"
    monkeypatch.setenv("HIPOCAMPO_DB", str(tmp_path / "env.db"))
    settings, source = dropin_settings(None, read_only=True)
    assert source is None and settings.db == tmp_path / "env.db" and settings.read_only
    settings, source = dropin_settings(tmp_path / "flag.db")
    assert source is None and settings.db == tmp_path / "flag.db"
