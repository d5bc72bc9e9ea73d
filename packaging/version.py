#!/usr/bin/env python3
"""Print (or return) Hipocampo's version as ``pyproject.toml`` declares it: the one source of the
version for the bundle, the ``.deb``, the ``.dmg`` and the Windows installer."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def project_version(pyproject: Path = PYPROJECT) -> str:
    """The ``[project] version`` of ``pyproject``."""
    with Path(pyproject).open("rb") as fh:
        return str(tomllib.load(fh)["project"]["version"])


if __name__ == "__main__":
    print(project_version(Path(sys.argv[1]) if len(sys.argv) > 1 else PYPROJECT))
