"""The Windows installer, compiled and installed for real under Wine: ``installer.iss`` compiled by
Inno Setup's own ``ISCC.exe`` around the stand-in bundle (packaging/build_windows.py: the Windows
layout, placeholders where a Windows build is needed), then run silently in a throwaway Wine prefix
set to Windows 10, per user (the default) and for everyone (``/ALLUSERS``): installed, upgraded in
place by a newer setup, uninstalled, with the registry read from the prefix's own hives. One prefix
is booted per module; the compiler's and each install's are copies of it (``clone_prefix``)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.packaging.conftest import ROOT, project_version
from tests.packaging.test_installers import ISS, _expand, _iss_defines

sys.path.insert(0, str(ROOT / "packaging"))
import build_windows  # noqa: E402

HOW = ("the Windows installer test needs Wine (64- and 32-bit), Xvfb and Inno Setup's compiler from npm: "
       "./dev setup installs them as root on Debian (dpkg --add-architecture i386; apt-get install wine "
       "wine64 wine32:i386 xvfb; npm install into .tools/innosetup), then run "
       "./dev test tests/packaging/test_windows_installer.py")
_TOOLS = all(shutil.which(tool) for tool in ("wine", "wineboot", "wineserver", "Xvfb"))
try:
    ISCC: Path | None = build_windows.find_iscc()
except SystemExit:
    ISCC = None

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not (_TOOLS and ISCC), reason=HOW)]

RUN_TIMEOUT_S = 300
UNINSTALL_KEY = r"Software\Microsoft\Windows\CurrentVersion\Uninstall"


# -- the prefix's registry ------------------------------------------------------------------------


def _unescape(text: str) -> str:
    """A quoted string of Wine's .reg files, without its quotes: ``\\\\``, ``\\"``, ``\\n``, ``\\xHHHH``."""
    out, i = [], 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            if nxt == "x":
                digits = re.match(r"[0-9a-fA-F]{1,4}", text[i + 2:]).group(0)
                out.append(chr(int(digits, 16)))
                i += 2 + len(digits)
                continue
            out.append({"n": "\n", "t": "\t", "r": "\r", "0": "\0"}.get(nxt, nxt))
            i += 2
            continue
        out.append(char)
        i += 1
    return "".join(out)


def read_hive(path: Path) -> dict[str, dict[str, str]]:
    """A Wine hive (``user.reg`` is HKCU, ``system.reg`` HKLM): key (casefolded, single
    backslashes) → value name (casefolded, ``""`` the default) → value as text."""
    keys: dict[str, dict[str, str]] = {}
    values: dict[str, str] | None = None
    lines = iter(path.read_text(encoding="utf-8", errors="replace").splitlines())
    for line in lines:
        if line.startswith("["):
            name = re.match(r"\[((?:[^\]\\]|\\.)*)\]", line).group(1)
            values = keys.setdefault(_unescape(name).casefold(), {})
        elif values is not None and (line.startswith('"') or line.startswith("@=")):
            while line.endswith("\\"):  # hex values go on over several lines
                line = line[:-1] + next(lines).strip()
            if line.startswith("@="):
                name, raw = "", line[2:]
            else:
                match = re.match(r'"((?:[^"\\]|\\.)*)"=(.*)', line)
                name, raw = _unescape(match.group(1)), match.group(2)
            if raw.startswith('"') or raw.startswith('str(2):"'):
                raw = _unescape(raw[raw.index('"') + 1:-1])
            values[name.casefold()] = raw
    return keys


# -- a Wine prefix under Xvfb ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """One Xvfb display for the module: Inno Setup's hidden wizard still needs one."""
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-nolisten", "tcp", "-screen", "0", "1024x768x24"],
                            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=30)


@dataclass
class Prefix:
    """A Wine prefix of its own (Windows 10), with the environment every program in it gets."""

    path: Path
    env: dict[str, str]

    def run(self, program: str, *args: str) -> subprocess.CompletedProcess[str]:
        """Run a Windows program, then wait until every process it started has ended and the
        wineserver has written the registry back to the hives (a server of no persistence, so
        that is the moment the last process ends, not seconds after)."""
        subprocess.run(["wineserver", "-p0"], env=self.env, check=True, timeout=60)
        result = subprocess.run(["wine", program, *args], env=self.env, capture_output=True, text=True,
                                timeout=RUN_TIMEOUT_S)
        subprocess.run(["wineserver", "-w"], env=self.env, check=True, timeout=RUN_TIMEOUT_S)
        return result

    def hkcu(self) -> dict[str, dict[str, str]]:
        return read_hive(self.path / "user.reg")

    def hklm(self) -> dict[str, dict[str, str]]:
        return read_hive(self.path / "system.reg")

    @property
    def user(self) -> str:
        (name,) = [p.name for p in (self.path / "drive_c" / "users").iterdir() if p.name.casefold() != "public"]
        return name

    def linux(self, windows_path: str) -> Path:
        """Where a ``C:\\…`` path of the prefix is on this machine."""
        assert windows_path[:3].upper() == "C:\\", windows_path
        return self.path / "drive_c" / Path(*windows_path[3:].split("\\"))


@dataclass
class Template:
    """A prefix booted once (``wineboot`` takes half a minute, a copy a fraction of a second), and
    the HOME it was booted with (Wine links the user's Desktop, Documents … to it). It boots in the
    background while the stand-in bundles are laid out; ``booted`` is done when it is ready."""

    prefix: Path
    home: Path
    booted: Future[None]


def _is_pe_image(path: Path) -> bool:
    with path.open("rb") as fh:
        return fh.read(2) == b"MZ"


def _link_or_copy(source: str, target: str) -> None:
    """Wine's DLLs and programs (1.3 GB of the prefix, never written after ``wineboot``) as hard
    links; everything else (20 MB: the hives, the .ini files) copied, because wineserver writes a hive
    with more than one link in place, which would change the template's and every other copy's."""
    if _is_pe_image(Path(source)):
        os.link(source, target)
    else:
        shutil.copy2(source, target)


def clone_prefix(template: Template, root: Path) -> tuple[Path, Path]:
    """A fresh prefix at ``root/prefix`` as ``wineboot`` would make it, with its own HOME
    (``root/home``, where the user folders' links now lead); (prefix, home)."""
    template.booted.result()
    home, prefix = root / "home", root / "prefix"
    home.mkdir(parents=True)
    shutil.copytree(template.prefix, prefix, symlinks=True, copy_function=_link_or_copy)
    for link in (prefix / "drive_c" / "users").rglob("*"):
        if link.is_symlink() and Path(os.readlink(link)).is_relative_to(template.home):
            target = home / Path(os.readlink(link)).relative_to(template.home)
            link.unlink()
            link.symlink_to(target)
    return prefix, home


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, display: str) -> Iterator[Template]:
    """The one prefix the module boots (Windows 10), gone after the module."""
    root = tmp_path_factory.mktemp("wine-template")
    home = root / "home"
    home.mkdir()
    with ThreadPoolExecutor(max_workers=1) as pool:
        booted = pool.submit(build_windows.wineboot, root / "prefix", DISPLAY=display, HOME=str(home),
                             LANG="C.UTF-8")
        try:
            yield Template(root / "prefix", home, booted)
        finally:
            booted.exception()  # waits for it, if nothing did
            shutil.rmtree(root, ignore_errors=True)


def new_prefix(root: Path, display: str, template: Template) -> Prefix:
    prefix, home = clone_prefix(template, root)
    return Prefix(prefix, build_windows.wine_env(prefix, DISPLAY=display, HOME=str(home), LANG="C.UTF-8"))


def bumped(version: str) -> str:
    """The next patch version: 0.1.0 → 0.1.1."""
    *head, last = version.split(".")
    return ".".join([*head, str(int(re.match(r"\d+", last).group(0)) + 1)])


@dataclass
class Build:
    version: str
    bundle: Path
    setup: Path


@pytest.fixture(scope="module")
def iscc_prefixes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """Where the two Wine prefixes ISCC compiles in go (``builds`` makes them), one per setup, so the
    two compile at once (each compile ends by stopping its prefix's wineserver); gone after the module."""
    roots = [tmp_path_factory.mktemp(f"iscc-{n}") for n in (1, 2)]
    yield roots[0] / "prefix", roots[1] / "prefix"
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def iscc_prefix(builds: tuple[Build, Build], iscc_prefixes: tuple[Path, Path]) -> Path:
    """A prefix ISCC has compiled in."""
    return iscc_prefixes[0]


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory, model_dir: Path, template: Template,
           iscc_prefixes: tuple[Path, Path]) -> tuple[Build, Build]:
    """The setup of this version, with one file the next one no longer ships, and the next
    version's: both compiled by ISCC under Wine, at once, each in its own prefix."""
    root = tmp_path_factory.mktemp("windows-installer")
    old, new = project_version(), bumped(project_version())
    inputs = build_windows.spec_inputs()
    bundles = {version: build_windows.build_standin(root / version, version, inputs) for version in (old, new)}
    (bundles[old] / "_internal" / "dropped_in_next_version.pyc").write_bytes(b"old module")
    for prefix in iscc_prefixes:
        clone_prefix(template, prefix.parent)

    def compile_setup(version: str, prefix: Path) -> Path:
        # This version's setup reads it from pyproject.toml, as `iscc installer.iss` does.
        return build_windows.compile_installer(bundles[version], root / version / "dist",
                                               version=None if version == old else version,
                                               output_name=f"Hipocampo-{version}-test-setup", wine_prefix=prefix)

    with ThreadPoolExecutor(max_workers=2) as pool:
        setups = list(pool.map(compile_setup, (old, new), iscc_prefixes))
    return Build(old, bundles[old], setups[0]), Build(new, bundles[new], setups[1])


def test_a_compiler_error_fails_the_build(builds: tuple[Build, Build], iscc_prefix: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """ISCC's own error reaches the caller, as a failed command and its message; no setup is left."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    script = tmp_path / "installer.iss"
    script.write_text(ISS.read_text(encoding="utf-8").replace("[Setup]\n", "[Setup]\nFrobnicate=yes\n", 1),
                      encoding="utf-8")
    out = tmp_path / "out"
    code = build_windows.main(["--bundle", str(builds[0].bundle), "--out", str(out), "--script", str(script),
                               "--wine-prefix", str(iscc_prefix)])
    assert code == 1
    assert "Frobnicate" in capsys.readouterr().err
    assert not list(out.glob("*.exe"))


# -- what installer.iss says ----------------------------------------------------------------------


def expected_files(bundle: Path) -> dict[str, Path]:
    """Every file the script installs, as ``{app}``-relative Windows path → the bundle's file, from
    its [Files] entries (one file, or a folder's ``*`` with ``recursesubdirs``)."""
    text = ISS.read_text(encoding="utf-8")
    defines = _iss_defines(text)
    section = text.split("[Files]", 1)[1].split("\n[", 1)[0]
    files: dict[str, Path] = {}
    for line in section.splitlines():
        entry = dict(re.findall(r'(\w+): "?([^";]*)"?', line))
        if "Source" not in entry:
            continue
        source = _expand(entry["Source"], defines).replace(defines["Bundle"], "", 1).lstrip("\\")
        dest = _expand(entry["DestDir"], defines)
        assert dest.startswith("{app}"), line
        dest = dest[len("{app}"):].lstrip("\\")
        if source.endswith("\\*"):
            assert "recursesubdirs" in entry.get("Flags", ""), line
            folder = bundle / Path(*source[:-2].split("\\"))
            for path in folder.rglob("*"):
                if path.is_file():
                    files["\\".join(filter(None, [dest, *path.relative_to(folder).parts]))] = path
        else:
            path = bundle / Path(*source.split("\\"))
            files["\\".join(filter(None, [dest, path.name]))] = path
    assert "Hipocampo.exe" in files and len(files) > 20, files
    return files


APP_ID = re.search(r"^AppId=\{(\{[^}]+\})", ISS.read_text(encoding="utf-8"), flags=re.MULTILINE).group(1)


@dataclass
class Mode:
    """Where one kind of install goes: the folder, the Start menu, the hive for its registry."""

    name: str
    args: tuple[str, ...]

    def app_dir(self, prefix: Prefix) -> str:
        if self.name == "all-users":
            return r"C:\Program Files\Hipocampo"
        return rf"C:\users\{prefix.user}\AppData\Local\Programs\Hipocampo"

    def shortcut(self, prefix: Prefix) -> Path:
        if self.name == "all-users":
            menu = r"C:\ProgramData\Microsoft\Windows\Start Menu\Programs"
        else:
            menu = rf"C:\users\{prefix.user}\AppData\Roaming\Microsoft\Windows\Start Menu\Programs"
        return prefix.linux(menu + r"\Hipocampo.lnk")

    def hive(self, prefix: Prefix) -> dict[str, dict[str, str]]:
        return prefix.hklm() if self.name == "all-users" else prefix.hkcu()

    def other_hive(self, prefix: Prefix) -> dict[str, dict[str, str]]:
        return prefix.hkcu() if self.name == "all-users" else prefix.hklm()


MODES = [Mode("per-user", ()), Mode("all-users", ("/ALLUSERS",))]


def install(prefix: Prefix, build: Build, mode: Mode, log: Path) -> None:
    result = prefix.run(str(build.setup), "/VERYSILENT", "/SUPPRESSMSGBOXES", "/NORESTART",
                        f"/LOG={build_windows.wine_path(log)}", *mode.args)
    text = log.read_text(encoding="utf-8", errors="replace") if log.exists() else result.stderr
    assert result.returncode == 0 and "Installation process succeeded" in text, text[-3000:]


def assert_installed(prefix: Prefix, build: Build, mode: Mode) -> None:
    app = mode.app_dir(prefix)
    exe = app + r"\Hipocampo.exe"
    for relative, source in expected_files(build.bundle).items():
        installed = prefix.linux(app + "\\" + relative)
        assert installed.is_file(), f"{relative} is not in {app}"
        assert installed.read_bytes() == source.read_bytes(), relative
    assert prefix.linux(app + r"\unins000.exe").is_file()

    shortcut = mode.shortcut(prefix)
    assert shortcut.is_file(), f"no Start-menu shortcut at {shortcut}"
    link = shortcut.read_bytes()  # the target is in the link's LinkInfo (ANSI) or its strings (UTF-16)
    assert exe.encode("mbcs" if sys.platform == "win32" else "latin-1") in link or exe.encode("utf-16-le") in link, \
        "the shortcut does not start the installed exe"

    hive, other = mode.hive(prefix), mode.other_hive(prefix)
    entries = [k for k in hive if k.startswith(UNINSTALL_KEY.casefold() + "\\") and APP_ID.casefold() in k]
    assert entries == [f"{UNINSTALL_KEY}\\{APP_ID}_is1".casefold()], entries
    entry = hive[entries[0]]
    assert (entry["displayname"], entry["displayversion"]) == ("Hipocampo", build.version)
    assert entry["installlocation"].rstrip("\\") == app
    assert entry["uninstallstring"] == f'"{app}\\unins000.exe"'
    assert not [k for k in other if APP_ID.casefold() in k], "an uninstall entry in the other hive too"

    classes = r"software\classes"
    assert hive[rf"{classes}\.jsonl\openwithprogids"]["hipocampo.memory"] == ""
    assert hive[rf"{classes}\hipocampo.memory\shell\open\command"][""] == f'"{exe}" "%1"'
    assert hive[rf"{classes}\hipocampo.memory\defaulticon"][""] == f"{exe},0"
    assert rf"{classes}\hipocampo.memory" not in other, "the association went into the other hive too"


USER_FILES = {"memory.db": b"SQLite format 3\0 my memory", "settings.json": b'{"theme": "dark"}',
              "Logs/hipocampo.log": b"started\n"}


def make_user_data(prefix: Prefix) -> Path:
    """The user's memory, settings and logs where the app keeps them (%LOCALAPPDATA%\\hipocampo),
    and the window layout Qt keeps in the registry."""
    data = prefix.linux(rf"C:\users\{prefix.user}\AppData\Local\hipocampo")
    for name, content in USER_FILES.items():
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        (data / name).write_bytes(content)
    added = prefix.run("reg", "add", r"HKCU\Software\Hipocampo\hipocampo", "/v", "geometry", "/d", "800x600", "/f")
    assert added.returncode == 0, added.stderr
    return data


def assert_user_data_kept(prefix: Prefix, data: Path) -> None:
    for name, content in USER_FILES.items():
        assert (data / name).read_bytes() == content, f"{name} was touched"
    assert prefix.hkcu()[r"software\hipocampo\hipocampo"]["geometry"] == "800x600"


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.name)
def test_setup_installs_upgrades_in_place_and_uninstalls(mode: Mode, builds: tuple[Build, Build], display: str,
                                                         template: Template,
                                                         tmp_path_factory: pytest.TempPathFactory) -> None:
    old, new = builds
    root = tmp_path_factory.mktemp(f"wine-{mode.name}")
    prefix = new_prefix(root, display, template)
    try:
        install(prefix, old, mode, root / "install.log")
        assert_installed(prefix, old, mode)
        app = mode.app_dir(prefix)
        assert prefix.linux(app + r"\_internal\dropped_in_next_version.pyc").is_file()
        data = make_user_data(prefix)

        install(prefix, new, mode, root / "upgrade.log")
        assert_installed(prefix, new, mode)
        assert not prefix.linux(app + r"\_internal\dropped_in_next_version.pyc").exists(), \
            "the upgrade left the old version's module behind"
        assert not list(prefix.linux(app).glob("unins001.*")), "the upgrade made a second uninstaller"
        assert_user_data_kept(prefix, data)

        uninstall = mode.hive(prefix)[f"{UNINSTALL_KEY}\\{APP_ID}_is1".casefold()]["uninstallstring"].strip('"')
        result = prefix.run(uninstall, "/VERYSILENT", "/SUPPRESSMSGBOXES", "/NORESTART")
        assert result.returncode == 0, result.stderr[-3000:]
        assert not prefix.linux(app).exists(), sorted(str(p) for p in prefix.linux(app).rglob("*"))[:20]
        assert not mode.shortcut(prefix).exists()
        hive = mode.hive(prefix)
        assert not [k for k in hive if APP_ID.casefold() in k], "the uninstall entry stayed"
        assert not [k for k in hive if k.startswith(r"software\classes\hipocampo.memory")]
        assert "hipocampo.memory" not in hive.get(r"software\classes\.jsonl\openwithprogids", {})
        assert_user_data_kept(prefix, data)
    finally:
        subprocess.run(["wineserver", "-k"], env=prefix.env, capture_output=True, timeout=60)
        shutil.rmtree(prefix.path, ignore_errors=True)
