"""The release workflow (.github/workflows/release.yml), checked here though it runs only on GitHub:
actionlint finds nothing in it, and every build command its jobs run is one ``./dev`` runs on this
machine, so what CI builds on Windows and macOS is what was built and tested here."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.packaging.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
DEV = ROOT / "dev"

# Release commands ./dev does not run, each for a reason (anything else must be ./dev's own).
NOT_DEV = {
    'python -m pip install -e ".[packaging]"': "./dev installs more (.[dev,packaging]: the test tools too)",
    'test "v$(python packaging/version.py)" = "$GITHUB_REF_NAME"': "the tag check exists only on GitHub",
    "python packaging/build_linux.py": "tests/packaging/test_installers.py runs it (the .deb, the tarball)",
    "python packaging/build_dmg.py": "macOS only",
}


def actionlint() -> str:
    found = shutil.which("actionlint") or shutil.which("actionlint", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("actionlint is missing: install the dev extra (pip install -e '.[dev]'; ./dev test does it)")
    return found


def test_actionlint_finds_nothing_in_the_release_workflow() -> None:
    result = subprocess.run([actionlint(), "-no-color", str(WORKFLOW)], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_is_really_checking(tmp_path: Path) -> None:
    """The same linter on a broken copy: an unknown runner and a misspelt input are reported."""
    broken = tmp_path / "release.yml"
    text = WORKFLOW.read_text(encoding="utf-8").replace("windows-2022", "windows-2002")
    broken.write_text(text.replace("python-version:", "python_version:", 1), encoding="utf-8")
    result = subprocess.run([actionlint(), "-no-color", str(broken)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert "windows-2002" in result.stdout and "python_version" in result.stdout


def _normal(command: str) -> str:
    """One command as both files spell it: the venv's python is ``python``, no output redirection."""
    command = command.replace('"$VENV/bin/python"', "python")
    command = re.sub(r"\s+[12]?>\s*/dev/null", "", command)
    return " ".join(command.split())


def dev_commands() -> list[str]:
    """Every command line of ./dev (continuation lines joined)."""
    text = DEV.read_text(encoding="utf-8").replace("\\\n", " ")
    return [_normal(line) for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def release_commands() -> list[tuple[str, str]]:
    """(step name, command) for every build command the jobs run: python, npm and their file setup."""
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    commands = []
    for job in workflow["jobs"].values():
        for step in job["steps"]:
            for line in step.get("run", "").splitlines():
                line = _normal(line)
                if line.split(" ", 1)[0] in ("python", "npm", "mkdir", "cp") or "python packaging/" in line:
                    commands.append((step.get("name", step.get("uses", "")), line))
    return commands


def test_every_release_build_step_is_one_dev_runs() -> None:
    ours = dev_commands()
    commands = release_commands()
    assert len(commands) >= 9, commands
    for step, command in commands:
        if command in NOT_DEV:
            continue
        assert any(command == mine or (mine.endswith(' "$@"') and command.startswith(mine[:-len(' "$@"')] + " "))
                   for mine in ours), f"release step {step!r} runs {command!r}, which ./dev never runs"
    names = [c for _, c in commands]
    assert "python packaging/build_windows.py --bundle dist/Hipocampo" in names
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "choco" not in text and "ISCC" not in text, "the Windows job builds with the compiler ./dev installs"
