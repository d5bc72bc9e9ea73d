#!/usr/bin/env python3
"""Turn the one-folder bundle (``dist/Hipocampo``) into Linux downloads.

- ``Hipocampo-<version>-linux-<arch>.tar.xz``: the bundle as a folder to unpack anywhere (xz, as
  the ``.deb``: 129 MB where gzip gives 156 MB);
- ``hipocampo_<version>_<arch>.deb`` (built with ``dpkg-deb``, no root needed): the bundle in
  ``/opt/hipocampo``, a ``hipocampo`` launcher in ``/usr/bin``, a menu entry and the icon.

Usage::

    python packaging/build_linux.py [--bundle dist/Hipocampo] [--out dist] [--deb-only] [--fast]

``--fast`` stores the ``.deb`` uncompressed (for tests); releases use xz.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from version import project_version  # noqa: E402

INSTALL_DIR = "/opt/hipocampo"
LAUNCHER = "/usr/bin/hipocampo"
EXECUTABLE = "Hipocampo"


def deb_arch() -> str:
    """Debian's name for this machine's architecture (amd64, arm64 …)."""
    try:
        return subprocess.run(["dpkg", "--print-architecture"], check=True, capture_output=True,
                              text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine, os.uname().machine)


def desktop_entry(exec_path: str) -> str:
    """The menu entry (``packaging/linux/hipocampo.desktop``) starting ``exec_path``."""
    return (HERE / "linux" / "hipocampo.desktop").read_text(encoding="utf-8").replace("@EXEC@", exec_path)


def build_deb(bundle: Path, out: Path, version: str, *, fast: bool = False) -> Path:
    """Build the ``.deb`` from ``bundle``; return its path."""
    arch = deb_arch()
    staging = out / f"deb-staging-{arch}"
    if staging.exists():
        shutil.rmtree(staging)
    opt = staging / INSTALL_DIR.lstrip("/")
    shutil.copytree(bundle, opt, symlinks=True)
    launcher = staging / LAUNCHER.lstrip("/")
    launcher.parent.mkdir(parents=True)
    launcher.symlink_to(f"{INSTALL_DIR}/{EXECUTABLE}")
    apps = staging / "usr/share/applications"
    apps.mkdir(parents=True)
    (apps / "hipocampo.desktop").write_text(desktop_entry(f"{INSTALL_DIR}/{EXECUTABLE}"), encoding="utf-8")
    icons = staging / "usr/share/icons/hicolor"
    (icons / "256x256/apps").mkdir(parents=True)
    (icons / "scalable/apps").mkdir(parents=True)
    shutil.copy2(_find(bundle, "resources/icons/hipocampo.png"), icons / "256x256/apps/hipocampo.png")
    shutil.copy2(ROOT / "resources/icons/hipocampo.svg", icons / "scalable/apps/hipocampo.svg")

    size_kb = sum(p.lstat().st_size for p in staging.rglob("*")) // 1024
    control = (HERE / "linux" / "control.in").read_text(encoding="utf-8")
    control = control.replace("@VERSION@", version).replace("@ARCH@", arch).replace("@SIZE_KB@", str(size_kb))
    (staging / "DEBIAN").mkdir()
    (staging / "DEBIAN/control").write_text(control, encoding="utf-8")
    for path in staging.rglob("*"):  # what dpkg expects whatever the builder's umask
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)

    deb = out / f"hipocampo_{version}_{arch}.deb"
    compression = ["-Znone"] if fast else ["-Zxz", "-z6"]
    subprocess.run(["dpkg-deb", "--root-owner-group", *compression, "--build", str(staging), str(deb)],
                   check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(staging)
    return deb


def build_tarball(bundle: Path, out: Path, version: str) -> Path:
    """Pack the bundle as ``Hipocampo-<version>-linux-<machine>.tar.xz`` (one top folder)."""
    tarball = out / f"Hipocampo-{version}-linux-{os.uname().machine}.tar.xz"
    with tarfile.open(tarball, "w:xz", preset=6) as tar:
        tar.add(bundle, arcname=f"Hipocampo-{version}")
    return tarball


def _find(bundle: Path, relative: str) -> Path:
    """A data file inside the bundle (PyInstaller 6 keeps them under ``_internal``)."""
    for candidate in (bundle / "_internal" / relative, bundle / relative):
        if candidate.exists():
            return candidate
    raise SystemExit(f"build_linux: {relative} is not in {bundle}; build the bundle with packaging/hipocampo.spec")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / "Hipocampo")
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    parser.add_argument("--deb-only", action="store_true", help="skip the tarball")
    parser.add_argument("--fast", action="store_true", help="an uncompressed .deb (quick, for tests)")
    args = parser.parse_args(argv)
    if not (args.bundle / EXECUTABLE).is_file():
        parser.error(f"no bundle at {args.bundle}: run ./dev package first")
    args.out.mkdir(parents=True, exist_ok=True)
    version = project_version()
    print(build_deb(args.bundle, args.out, version, fast=args.fast))
    if not args.deb_only:
        print(build_tarball(args.bundle, args.out, version))
    return 0


if __name__ == "__main__":
    sys.exit(main())
