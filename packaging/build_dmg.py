#!/usr/bin/env python3
"""Pack ``dist/Hipocampo.app`` (built by ``packaging/hipocampo.spec`` on macOS) into a disk image:
``dist/Hipocampo-<version>-macos-<arch>.dmg``, opening on the app beside a link to Applications.

Runs on macOS only (``hdiutil``). Usage::

    python packaging/build_dmg.py [--app dist/Hipocampo.app] [--out dist]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from version import project_version  # noqa: E402


def build_dmg(app: Path, out: Path, version: str) -> Path:
    """Build the compressed, read-only image; return its path."""
    dmg = out / f"Hipocampo-{version}-macos-{platform.machine()}.dmg"
    with tempfile.TemporaryDirectory() as tmp:
        staging = Path(tmp) / "Hipocampo"
        staging.mkdir()
        shutil.copytree(app, staging / app.name, symlinks=True)
        os.symlink("/Applications", staging / "Applications")  # drag the app onto it to install
        subprocess.run(["hdiutil", "create", "-volname", f"Hipocampo {version}", "-srcfolder", str(staging),
                        "-fs", "HFS+", "-format", "UDZO", "-ov", str(dmg)], check=True)
    return dmg


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--app", type=Path, default=ROOT / "dist" / "Hipocampo.app")
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    if sys.platform != "darwin":
        parser.error("a .dmg is built on macOS (hdiutil)")
    if not args.app.is_dir():
        parser.error(f"no app at {args.app}: run ./dev package first")
    print(build_dmg(args.app, args.out, project_version()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
