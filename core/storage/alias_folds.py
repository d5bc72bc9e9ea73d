"""An entity's aliases (the names merged into it) as its props hold them, and folded as a query is
matched against them: what each backend stores beside them (``core.hygiene.store``). A leaf: the
backends' row writers import it without importing the hygiene protocol."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.search.folding import fold

ALIASES_KEY = "aliases"  # the props key holding an entity's former names


def aliases_of(props: dict[str, Any] | None) -> list[str]:
    """The aliases ``props`` holds (text only)."""
    found = (props or {}).get(ALIASES_KEY)
    return [a for a in found if isinstance(a, str)] if isinstance(found, list) else []


def folded_aliases(aliases: Sequence[str]) -> list[str]:
    """The aliases as a query is matched against them (``core.search.folding.fold``, which is
    SQLite's ``hfold`` too)."""
    return [fold(a) for a in aliases]
