#!/usr/bin/env python3
"""Compile the Windows installer (``installer.iss``, Inno Setup 6) around a bundle.

On Windows it packs the real bundle (``dist/Hipocampo``, built by PyInstaller) with ``ISCC.exe``.
Elsewhere no Windows bundle can be built, so it lays out a stand-in: the folder the Windows build
will have, file for file as ``packaging/hipocampo.spec`` lists it (the spec is read, not copied:
its data files, its loadable libraries, the app's modules as ``.pyc``), with small placeholders
where a Windows build is needed (``Hipocampo.exe``, Python's DLL, ``vec0.dll``) and for the large
model files; then it runs ``ISCC.exe`` under Wine. Either way a compiler error fails the command.

``ISCC.exe`` is the npm registry's ``innosetup`` (pinned in ``packaging/windows/package.json``,
installed into ``.tools/innosetup`` by ``./dev``), or ``$ISCC``, or Inno Setup's own install.

Usage::

    python packaging/build_windows.py [--bundle dist/Hipocampo] [--out dist] [--version X.Y.Z]

Without ``--bundle`` outside Windows it builds the stand-in into ``build/windows/Hipocampo`` and
names the setup ``…-standin-setup.exe``, so it is never mistaken for a release.
"""

from __future__ import annotations

import argparse
import glob
import os
import py_compile
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from version import project_version  # noqa: E402

ISS = ROOT / "installer.iss"
SPEC = HERE / "hipocampo.spec"
TOOLS = ROOT / ".tools"
NPM_ISCC = TOOLS / "innosetup" / "node_modules" / "innosetup" / "bin" / "ISCC.exe"
WINDOWS_ISCC = Path(os.environ.get("ProgramFiles(x86)", r"C:\Program Files (x86)")) / "Inno Setup 6" / "ISCC.exe"
PLACEHOLDER_OVER = 1 << 20  # data files above 1 MB (the model) become placeholders: the layout, not the bytes
COMPILE_TIMEOUT_S = 900


# -- the bundle's file list, from the spec --------------------------------------------------------


class _Recorder:
    """Stands in for PyInstaller's build targets while the spec runs: keeps Analysis' arguments."""

    analyses: list[dict[str, Any]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args, self.kwargs = args, kwargs
        self.datas: list[Any] = []
        self.binaries: list[Any] = []
        self.pure: list[Any] = []
        self.scripts: list[Any] = []


class _Analysis(_Recorder):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _Recorder.analyses.append(kwargs)


def run_spec(spec: Path = SPEC) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the spec hands PyInstaller's Analysis (``datas``, ``binaries``, ``hiddenimports``), and
    the names it defines. The spec runs as PyInstaller runs it (it draws the icons, finds vec0,
    checks the model), with recorders in place of the build steps and an empty dist folder for its
    post-build passes."""
    _Recorder.analyses.clear()
    scratch = ROOT / "build" / "windows" / "spec-dist"
    namespace = {"__name__": "__main__", "__file__": str(spec), "SPECPATH": str(spec.parent),
                 "DISTPATH": str(scratch), "workpath": str(scratch),
                 "Analysis": _Analysis, "PYZ": _Recorder, "EXE": _Recorder, "COLLECT": _Recorder,
                 "BUNDLE": _Recorder}
    saved_path = list(sys.path)
    try:
        exec(compile(spec.read_text(encoding="utf-8"), str(spec), "exec"), namespace)  # noqa: S102
    finally:
        sys.path[:] = saved_path
    (analysis,) = _Recorder.analyses
    return analysis, namespace


def spec_inputs(spec: Path = SPEC) -> dict[str, Any]:
    """What the spec hands PyInstaller's Analysis (see ``run_spec``)."""
    return run_spec(spec)[0]


def _windows_name(name: str) -> str:
    """A loadable library's name in the Windows build (vec0.so → vec0.dll)."""
    for suffix in (".so", ".dylib"):
        if name.endswith(suffix):
            return name[: -len(suffix)] + ".dll"
    return name


def bundle_files(inputs: dict[str, Any]) -> dict[str, Path | None]:
    """Every file of the Windows bundle, relative to its folder (``/``-separated), with the file to
    copy or None for a placeholder. PyInstaller 6 puts everything but the executable under
    ``_internal``, expands each data entry as a file, a glob or a folder copied whole, and (with
    ``noarchive``) writes the app's own modules there as ``.pyc``."""
    files: dict[str, Path | None] = {"Hipocampo.exe": None}
    major, minor = sys.version_info[:2]
    files[f"_internal/python{major}{minor}.dll"] = None
    for source, dest in inputs.get("datas", []):
        for match in sorted(glob.glob(source)) or [source]:
            path = Path(match)
            if path.is_dir():
                for child in sorted(p for p in path.rglob("*") if p.is_file()):
                    files[f"_internal/{dest}/{child.relative_to(path).as_posix()}"] = child
            elif path.is_file():
                files[f"_internal/{dest}/{path.name}"] = path
            else:
                raise SystemExit(f"hipocampo.spec names {source}, which does not exist")
    for source, dest in inputs.get("binaries", []):
        files[f"_internal/{dest}/{_windows_name(Path(source).name)}"] = None
    for module in sorted(set(inputs.get("hiddenimports", []))):
        if not module.startswith(("core", "desktop")):
            continue
        relative = Path(*module.split("."))
        source = ROOT / relative / "__init__.py"
        if source.is_file():
            files[f"_internal/{relative.as_posix()}/__init__.pyc"] = source
        elif (ROOT / relative).with_suffix(".py").is_file():
            files[f"_internal/{relative.as_posix()}.pyc"] = (ROOT / relative).with_suffix(".py")
    return files


def build_standin(out: Path, version: str | None = None, inputs: dict[str, Any] | None = None) -> Path:
    """Lay out the stand-in Windows bundle in ``out/Hipocampo`` (replacing one there) and return it.
    Placeholders say what they stand for and carry the version, so a newer stand-in differs.
    ``inputs``: the spec's, already read by ``spec_inputs`` (running the spec takes seconds)."""
    version = version or project_version()
    folder = out / "Hipocampo"
    if folder.exists():
        shutil.rmtree(folder)
    for relative, source in bundle_files(spec_inputs() if inputs is None else inputs).items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if source is None or source.stat().st_size > PLACEHOLDER_OVER:
            what = "a Windows build" if source is None else f"{source.name}, {source.stat().st_size} bytes"
            target.write_text(f"Hipocampo {version} stand-in: a placeholder for {what}\n", encoding="utf-8")
        elif target.suffix == ".pyc":
            py_compile.compile(str(source), cfile=str(target), doraise=True)
        else:
            shutil.copyfile(source, target)
    return folder


# -- the compiler ---------------------------------------------------------------------------------


def find_iscc() -> Path:
    """``$ISCC``, the npm ``innosetup`` in ``.tools``, or (on Windows) Inno Setup's own install."""
    for candidate in (os.environ.get("ISCC"), NPM_ISCC, WINDOWS_ISCC if sys.platform == "win32" else None):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    raise SystemExit(f"ISCC.exe not found: run ./dev windows-installer (it installs the npm package "
                     f"innosetup into {NPM_ISCC.parents[3].relative_to(ROOT)}), or set ISCC=path\\to\\ISCC.exe")


def wine_env(prefix: Path, **extra: str) -> dict[str, str]:
    """The environment for a Wine prefix of our own: no Mono or Gecko prompts, no menu entries or
    file associations copied into the Linux desktop, no debug chatter."""
    env = {**os.environ, "WINEPREFIX": str(prefix), "WINEDEBUG": "-all",
           "WINEDLLOVERRIDES": "mscoree,mshtml=;winemenubuilder.exe=d"}
    env.pop("WINEARCH", None)
    env.update(extra)
    return env


def wine_path(path: Path) -> str:
    """A Linux path as Wine's programs see it (the Z: drive is /)."""
    return "Z:" + str(Path(path).resolve()).replace("/", "\\")


def wineboot(prefix: Path, *, windows_version: str = "win10", **extra: str) -> None:
    """Create (or update) the prefix and set the Windows version it reports; wait for it to settle.
    ``extra``: more environment (the same a later run in the prefix gets: HOME, DISPLAY)."""
    env = wine_env(prefix, **extra)
    prefix.mkdir(parents=True, exist_ok=True)
    # A wineserver of no persistence: it ends, and the wait below returns, as soon as wineboot's
    # processes have (not three seconds later).
    subprocess.run(["wineserver", "-p0"], env=env, check=True, timeout=60)
    subprocess.run(["wineboot", "--init"], env=env, check=True, capture_output=True, timeout=300)
    subprocess.run(["wine", "winecfg", "-v", windows_version], env=env, check=True, capture_output=True, timeout=120)
    subprocess.run(["wineserver", "-w"], env=env, check=True, timeout=120)


def compile_installer(bundle: Path, out: Path, *, version: str | None = None, output_name: str | None = None,
                      wine_prefix: Path | None = None, script: Path = ISS) -> Path:
    """Run ISCC on ``script`` (``installer.iss``) for ``bundle`` into ``out``; the setup's path.
    Compiler errors raise CalledProcessError with ISCC's own message in it."""
    iscc = find_iscc()
    out.mkdir(parents=True, exist_ok=True)
    native = sys.platform == "win32"
    to_arg = (lambda p: str(Path(p).resolve())) if native else wine_path
    args = ["/Q", f"/DBundle={to_arg(bundle)}", f"/O{to_arg(out)}"]
    if version:
        args.append(f"/DAppVersion={version}")
    if output_name:
        args.append(f"/F{output_name}")
    args.append(to_arg(script))
    setup = out / ((output_name or f"Hipocampo-{version or project_version()}-windows-x64-setup") + ".exe")
    setup.unlink(missing_ok=True)  # so the file afterwards is this compile's
    started = time.monotonic()
    if native:
        result = subprocess.run([str(iscc), *args], capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    else:
        if shutil.which("wine") is None:
            raise SystemExit("Wine is needed to run ISCC.exe here: sudo apt-get install wine wine64 wine32:i386 "
                             "(after dpkg --add-architecture i386), or ./dev windows-installer as root")
        prefix = wine_prefix or ROOT / "build" / "wine-iscc"
        env = wine_env(prefix)
        if not (prefix / "system.reg").is_file():
            wineboot(prefix)
        try:
            result = subprocess.run(["wine", str(iscc), *args], env=env, capture_output=True, text=True,
                                    timeout=COMPILE_TIMEOUT_S)
        finally:
            subprocess.run(["wineserver", "-k"], env=env, capture_output=True, timeout=60)
    if result.returncode != 0:
        raise subprocess.CalledProcessError(result.returncode, ["ISCC.exe", *args], result.stdout, result.stderr)
    if not setup.is_file():
        raise SystemExit(f"ISCC reported success but wrote no {setup.name} into {out}:\n{result.stdout}")
    print(f"compiled {setup.name} in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return setup


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundle", type=Path, help="the Windows bundle to pack (default: dist/Hipocampo on "
                        "Windows, a stand-in elsewhere)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the setup goes (default: dist)")
    parser.add_argument("--version", help="the version to stamp (default: pyproject.toml's)")
    parser.add_argument("--script", type=Path, default=ISS, help="the Inno Setup script (default: installer.iss)")
    parser.add_argument("--wine-prefix", type=Path, help="the Wine prefix ISCC runs in (default: build/wine-iscc)")
    args = parser.parse_args(argv)
    version = args.version or project_version()
    output_name = None
    bundle = args.bundle
    if bundle is None and sys.platform == "win32":
        bundle = ROOT / "dist" / "Hipocampo"
    if bundle is None:
        bundle = build_standin(ROOT / "build" / "windows", version)
        output_name = f"Hipocampo-{version}-windows-x64-standin-setup"
        print(f"stand-in bundle (the Windows layout, placeholders for Windows builds): {bundle}", file=sys.stderr)
    if not (bundle / "Hipocampo.exe").is_file():
        raise SystemExit(f"{bundle} holds no Hipocampo.exe: build the Windows bundle first (./dev package on Windows)")
    try:
        setup = compile_installer(bundle, args.out, version=args.version, output_name=output_name,
                                  wine_prefix=args.wine_prefix, script=args.script.resolve())
    except subprocess.CalledProcessError as error:
        print(f"ISCC failed (exit {error.returncode}):\n{error.stdout}{error.stderr}", file=sys.stderr)
        return 1
    print(setup)
    return 0


if __name__ == "__main__":
    sys.exit(main())
