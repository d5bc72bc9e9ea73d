"""The frozen app: one PyInstaller build per test session, in a temporary folder, reused by every
packaging test (a build takes one to two minutes on two cores)."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "packaging" / "hipocampo.spec"
BUILD_TIMEOUT_S = 1200


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory, model_dir: Path) -> Path:
    """``dist/Hipocampo`` built from ``packaging/hipocampo.spec`` (the one-folder bundle).
    ``HIPOCAMPO_TEST_BUNDLE=dist/Hipocampo`` tests a bundle already built instead."""
    prebuilt = os.environ.get("HIPOCAMPO_TEST_BUNDLE")
    if prebuilt:
        return Path(prebuilt).resolve()
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        pytest.fail("PyInstaller is missing: install the packaging extra (pip install -e '.[packaging]'; "
                    "./dev test does it for you).")
    work = tmp_path_factory.mktemp("pyinstaller")
    env = {k: v for k, v in os.environ.items() if k != "HIPOCAMPO_MODEL_DIR"}
    result = subprocess.run(
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--workpath", str(work / "build"), "--distpath", str(work / "dist"), str(SPEC)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
    )
    assert result.returncode == 0, f"PyInstaller failed:\n{result.stderr[-4000:]}"
    folder = work / "dist" / "Hipocampo"
    assert (folder / executable_name()).is_file()
    return folder


def project_version() -> str:
    """The version ``pyproject.toml`` declares."""
    with (ROOT / "pyproject.toml").open("rb") as fh:
        return tomllib.load(fh)["project"]["version"]


def executable_name() -> str:
    return "Hipocampo.exe" if sys.platform == "win32" else "Hipocampo"


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    """What a double-click or an MCP client gives the app: a HOME (here a temporary one), a PATH,
    no Hipocampo variables, no display unless asked for."""
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    if sys.platform == "win32":
        env.update({k: os.environ[k] for k in ("SYSTEMROOT", "TEMP", "TMP") if k in os.environ})
        env.update({"USERPROFILE": str(home), "LOCALAPPDATA": str(home / "AppData" / "Local"),
                    "APPDATA": str(home / "AppData" / "Roaming")})
    env.update(extra)
    return env
