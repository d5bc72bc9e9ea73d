"""Where the app's files (icons, translations, styles) are: beside the code in a checkout, inside
the bundle when frozen, under ``share/hipocampo`` when installed as a package."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from PySide6.QtGui import QIcon


def _roots() -> list[Path]:
    roots = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        roots.append(Path(bundle) / "resources")
    roots.append(Path(__file__).resolve().parents[1] / "resources")
    roots.append(Path(sys.prefix) / "share" / "hipocampo" / "resources")
    return roots


def resource(*parts: str) -> Path:
    """The first existing ``resources/<parts>``; the checkout's path when none exists."""
    for root in _roots():
        candidate = root.joinpath(*parts)
        if candidate.exists():
            return candidate
    return _roots()[-2].joinpath(*parts)


@cache
def app_icon() -> QIcon:
    """Hipocampo's icon (SVG, crisp at every size)."""
    return QIcon(str(resource("icons", "hipocampo.svg")))
