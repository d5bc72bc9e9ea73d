"""What the desktop tests share: a qasync loop over the test's QApplication, and ``until``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import qasync
from PySide6.QtWidgets import QApplication


@pytest.fixture
def loop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    """A qasync loop over the Qt event loop, as the app runs; closed (its executor joined) afterwards."""
    event_loop = qasync.QEventLoop(qapp, already_running=False)
    asyncio.set_event_loop(event_loop)
    yield event_loop
    event_loop.close()
    asyncio.set_event_loop(None)


async def until(predicate: Callable[[], Any], timeout: float = 30.0) -> None:
    """Let the loop run until ``predicate()`` holds; TimeoutError after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise TimeoutError("condition not met in time")
        await asyncio.sleep(0.02)
