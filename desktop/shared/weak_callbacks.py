"""Callbacks for ``Core`` calls that do not keep a pane alive.

``Core`` keeps each call's ``done``/``failed`` until its worker thread has finished with it. A bound
method there holds its widget; if the widget was closed meanwhile, the worker drops the last
reference and the widget is deleted on that thread, which crashes Qt. A weak callback lets the
widget go on the GUI thread and simply does nothing for a widget that is gone.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any


def weakly(method: Callable[..., Any]) -> Callable[..., None]:
    """``method`` (a bound method) called through a weak reference to its object."""
    ref = weakref.WeakMethod(method)  # type: ignore[arg-type]  # a bound method, typed as any callable

    def call(*args: Any) -> None:
        target = ref()
        if target is not None:
            target(*args)

    return call
