"""The installers around the bundle: the Windows script references what the bundle holds and the
project's version; the .deb installs into a root with a working launcher and menu entry."""

from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from core.settings import APP_NAME
from desktop.app import parse_args
from desktop.autostart import WINDOWS_VALUE
from tests.packaging.conftest import ROOT, clean_env, executable_name, project_version

ISS = ROOT / "installer.iss"


def _iss_defines(text: str) -> dict[str, str]:
    return dict(re.findall(r'^#define (\w+) "([^"]*)"', text, flags=re.MULTILINE))


def _expand(value: str, defines: dict[str, str]) -> str:
    return re.sub(r"\{#(\w+)\}", lambda m: defines[m.group(1)], value)


def _bundle_path(bundle: Path, iss_path: str, defines: dict[str, str]) -> Path:
    """A path the script names under ``{#Bundle}`` or ``{app}``, inside this machine's bundle
    (``Hipocampo.exe`` is ``Hipocampo`` outside Windows)."""
    relative = _expand(iss_path, defines).replace("\\", "/")
    for prefix in (defines["Bundle"].replace("\\", "/") + "/", "{app}/"):
        if relative.startswith(prefix):
            relative = relative[len(prefix):]
            break
    else:
        raise AssertionError(f"{iss_path} is neither in the bundle nor in the install folder")
    if sys.platform != "win32" and relative == "Hipocampo.exe":
        relative = executable_name()
    return bundle / relative


def test_installer_script_references_only_what_the_bundle_holds(bundle: Path) -> None:
    text = ISS.read_text(encoding="utf-8")
    defines = _iss_defines(text)
    referenced = re.findall(r'(?:Source|Filename): "([^"]+)"', text)
    referenced += re.findall(r"^(?:SetupIconFile|UninstallDisplayIcon)=(.+)$", text, flags=re.MULTILINE)
    referenced = [r for r in referenced if "{sys}" not in r]  # Windows' own taskkill
    assert len(referenced) >= 6, referenced
    for iss_path in referenced:
        target = _bundle_path(bundle, iss_path.strip(), defines)
        if target.name == "*":  # a folder copied whole
            assert target.parent.is_dir() and any(target.parent.iterdir()), iss_path
        else:
            assert target.is_file(), f"{iss_path} → {target} is not in the bundle"
    # What the app itself knows: its autostart value, its data folder.
    assert f'ValueName: "{WINDOWS_VALUE}"' in text
    assert defines["DataDir"] == "{localappdata}\\" + APP_NAME


def test_installer_commands_are_ones_the_app_understands(tmp_path: Path) -> None:
    """Every command the script registers (start with Windows, "Open with") starts the app with
    arguments its own parser takes: --tray for the tray, the opened file to import."""
    text = ISS.read_text(encoding="utf-8")
    exe = "{app}\\{#AppExe}"
    commands = {}
    for line in text.splitlines():
        value = re.search(r'ValueData: "((?:[^"]|"")*)"', line)
        task = re.search(r"Tasks: (\w+)", line)
        if value and value.group(1).startswith('""' + exe):
            commands[task.group(1)] = value.group(1).replace('""', '"')
    assert set(commands) == {"autostart", "openwith"}, commands
    memory = tmp_path / "memory.jsonl"
    for task, command in commands.items():
        program, *args = shlex.split(command.replace("%1", str(memory)), posix=True)
        assert program == exe, command
        parsed = parse_args(args)
        assert (parsed.tray, parsed.files) == ((True, []) if task == "autostart" else (False, [memory])), command
    # The .jsonl association is registered where the install goes: the user's or the machine's.
    assert not re.search(r"^Root: HKCU; Subkey: \"Software\\Classes", text, flags=re.MULTILINE)
    assert re.search(r"^Root: HKCU; Subkey: \"Software\\Microsoft\\Windows\\CurrentVersion\\Run\"", text,
                     flags=re.MULTILINE), "the app's own setting edits the user's Run key"
    assert re.search(r"^PrivilegesRequired=lowest$", text, flags=re.MULTILINE)


def test_installer_version_comes_from_pyproject() -> None:
    """Replays the script's preprocessor: the first line starting with the prefix it looks for,
    cut where it cuts, gives pyproject.toml's version."""
    text = ISS.read_text(encoding="utf-8")
    prefix = re.search(r"Pos\('([^']+)', Line\) == 1", text).group(1)
    start, trailing = map(int, re.search(r"Copy\(Line, (\d+), Len\(Line\) - (\d+)\)", text).groups())
    lines = [line.strip() for line in (ROOT / "pyproject.toml").read_text(encoding="utf-8").splitlines()]
    line = next(line for line in lines if line.startswith(prefix))
    assert line[start - 1:start - 1 + len(line) - trailing] == project_version()
    assert "#define AppVersion" in text and "AppVersion={#AppVersion}" in text


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("dpkg-deb") is None or shutil.which("dpkg") is None, reason="needs dpkg")
def test_deb_installs_into_a_root_with_a_working_launcher(bundle: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    subprocess.run([sys.executable, str(ROOT / "packaging" / "build_linux.py"), "--bundle", str(bundle),
                    "--out", str(out), "--deb-only", "--fast"], check=True, capture_output=True, timeout=600)
    deb = next(out.glob("hipocampo_*.deb"))
    assert f"_{project_version()}_" in deb.name
    root = tmp_path / "root"
    (root / "var/lib/dpkg/info").mkdir(parents=True)
    (root / "var/lib/dpkg/updates").mkdir()
    (root / "var/lib/dpkg/status").touch()
    # A root of its own has none of the libraries the package depends on: those are this system's.
    subprocess.run(["dpkg", f"--root={root}", "--force-depends", "--force-not-root", "--log=/dev/null",
                    "-i", str(deb)], check=True, capture_output=True, timeout=600)
    listed = subprocess.run(["dpkg", f"--root={root}", "-L", "hipocampo"], check=True, capture_output=True,
                            text=True).stdout.split()
    assert "/usr/bin/hipocampo" in listed and "/opt/hipocampo/Hipocampo" in listed

    launcher = root / "usr/bin/hipocampo"
    target = root / os.readlink(launcher).lstrip("/")
    assert target.is_file() and os.access(target, os.X_OK)
    result = subprocess.run([str(target), "--version"], env=clean_env(tmp_path), capture_output=True, text=True,
                            timeout=120)
    assert result.stdout.strip() == f"hipocampo {project_version()}", result.stderr

    entry = configparser.ConfigParser(interpolation=None)
    entry.read(root / "usr/share/applications/hipocampo.desktop", encoding="utf-8")
    desktop = entry["Desktop Entry"]
    exec_path = desktop["Exec"].split()[0]
    assert root.joinpath(exec_path.lstrip("/")) == target and desktop["TryExec"] == exec_path
    icon = desktop["Icon"]
    assert (root / f"usr/share/icons/hicolor/256x256/apps/{icon}.png").is_file()
    assert (root / f"usr/share/icons/hicolor/scalable/apps/{icon}.svg").is_file()


def test_tarball_unpacks_to_one_folder_with_a_runnable_executable(tmp_path: Path) -> None:
    """The Linux tarball (packaging/build_linux.py) of a bundle-shaped folder: one top folder named
    for the version, the executable still executable, links still links, xz-compressed."""
    sys.path.insert(0, str(ROOT / "packaging"))
    from build_linux import build_tarball

    bundle = tmp_path / "Hipocampo"
    (bundle / "_internal" / "lib").mkdir(parents=True)
    (bundle / "Hipocampo").write_text("#!/bin/sh\necho hipocampo\n")
    (bundle / "Hipocampo").chmod(0o755)
    (bundle / "_internal" / "lib" / "libx.so.1").write_bytes(b"\0" * 64)
    (bundle / "_internal" / "libx.so.1").symlink_to("lib/libx.so.1")
    tarball = build_tarball(bundle, tmp_path, project_version())
    assert tarball.name.endswith(".tar.xz") and tarball.read_bytes()[:6] == b"\xfd7zXZ\0"
    out = tmp_path / "unpacked"
    with tarfile.open(tarball) as tar:
        tar.extractall(out, filter="tar")
    (top,) = out.iterdir()
    assert top.name == f"Hipocampo-{project_version()}"
    assert os.access(top / "Hipocampo", os.X_OK)
    assert (top / "_internal" / "libx.so.1").is_symlink() and (top / "_internal" / "libx.so.1").read_bytes()
