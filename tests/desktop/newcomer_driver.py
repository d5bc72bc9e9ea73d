"""Run the real app (``desktop.app.main``) and drive it as a newcomer would; used by test_real_app.py.

    python tests/desktop/newcomer_driver.py STEPS_FILE first|again --db memory.db

The app runs exactly as ``hipocampo-app`` starts it (single instance, crash handler, signals, the
qasync loop, the hub); this script only adds a scenario that clicks its real widgets with QTest and
notes each step it reached as a JSON line in STEPS_FILE, where the test follows it. The test does
the assistant's part (an MCP SDK client through the hub) when the steps say the app is ready.

``first``: the first-run screen → "Add to Claude Desktop" → "Start using" → Help → Connect an
assistant (F1) → close it → wait for the assistant's write to show in the panes → File → Quit.
``again``: no first-run screen; the write is shown; then the app waits for Ctrl-C (SIGINT).
Any crash dialog ends the scenario with a "crash" step and exit code 3.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

NAME = "Written by the assistant"  # what the test's MCP client creates
DEADLINE_S = 90.0


def main() -> int:
    steps_file, mode, *app_args = sys.argv[1:]
    from desktop.app import main as app_main

    return app_main(app_args, on_started=lambda app: asyncio.ensure_future(_drive(app, Path(steps_file), mode)))


def _note(steps: Path, step: str, **data: Any) -> None:
    with steps.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"step": step, **data}) + "\n")


def _crashed() -> str | None:
    from desktop.dialogs.crash import crash_handler

    handler = crash_handler()
    dialog = getattr(handler, "dialog", None)
    if dialog is not None and dialog.isVisible():
        return dialog.details.toPlainText()
    return None


async def _until(what: str, predicate: Any, steps: Path) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not predicate():
        crash = _crashed()
        if crash is not None:
            _note(steps, "crash", while_waiting_for=what, details=crash)
            sys.exit(3)
        if time.monotonic() > deadline:
            _note(steps, "timeout", while_waiting_for=what)
            sys.exit(4)
        await asyncio.sleep(0.05)


async def _drive(app: Any, steps: Path, mode: str) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from desktop.dialogs.connect_client import ConnectDialog
    from desktop.dialogs.first_run import FirstRunDialog

    window = app.window

    def welcome() -> FirstRunDialog | None:
        return next((d for d in app.dialogs if isinstance(d, FirstRunDialog) and d.isVisible()), None)

    def shown() -> bool:
        activity = window.panes.get("activity")
        if activity is None:
            return False
        rows = [activity.model.row_at(i) for i in range(activity.model.rowCount())]
        return any(NAME in str(row.entity or "") for row in rows)

    await _until("the window", lambda: window.isVisible(), steps)
    _note(steps, "painted", platform=__import__("PySide6.QtGui", fromlist=["QGuiApplication"])
          .QGuiApplication.platformName())
    await _until("the memory on screen", lambda: "graph" in window.panes, steps)
    if mode == "first":
        await _until("the first-run screen", lambda: welcome() is not None, steps)
        dialog = welcome()
        assert dialog is not None
        dialog.tabs.setCurrentWidget(dialog.panels["claude-desktop"])
        QTest.mouseClick(dialog.panels["claude-desktop"].add_button, Qt.MouseButton.LeftButton)
        _note(steps, "connected", result=dialog.panels["claude-desktop"].result.text())
        QTest.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
        await _until("the first-run screen to close", lambda: welcome() is None, steps)
        await _click_menu(window, "&Help", "&Connect an assistant…", steps)
        def connect() -> ConnectDialog | None:
            return next((d for d in app.dialogs if isinstance(d, ConnectDialog) and d.isVisible()), None)

        await _until("Help → Connect an assistant", lambda: connect() is not None, steps)
        if welcome() is not None:  # Help → Connect is its own dialog, not the welcome screen again
            _note(steps, "the welcome screen reopened")
            sys.exit(6)
        reopened = connect()
        assert reopened is not None
        QTest.keyClick(reopened, Qt.Key.Key_Escape)
        await _until("the connect screen to close", lambda: connect() is None, steps)
    else:
        await asyncio.sleep(0.5)
        if welcome() is not None:
            _note(steps, "unexpected first-run screen")
            sys.exit(5)
    await _until("the hub", lambda: app.hub is not None and app.hub.running, steps)
    _note(steps, "ready", url=app.hub.url)
    await _until("the assistant's write in the panes", shown, steps)
    window.open_entity(NAME)
    editor = window.panes["editor"]
    await _until("the entity in the editor", lambda: editor.page.title.text() == NAME, steps)
    await _until("the status bar's count", lambda: window.count_label.text() == "1 entity", steps)
    _note(steps, "shown", observations=[o.text for o in editor.page.observations.items()],
          count=window.count_label.text(), endpoint=window.endpoint_label.text())
    if mode == "first":
        _note(steps, "quitting")
        await _click_menu(window, "&File", "&Quit", steps)


async def _click_menu(window: Any, title: str, item: str, steps: Path) -> None:
    """Click ``title`` in the menu bar, then ``item`` in the menu that opens, as a mouse would."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    bar = window.menuBar()
    top = next(a for a in bar.actions() if a.text() == title)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.actionGeometry(top).center())
    menu = top.menu()
    await _until(f"the {title} menu", menu.isVisible, steps)
    action = next(a for a in menu.actions() if a.text() == item)
    QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     menu.actionGeometry(action).center())


if __name__ == "__main__":
    sys.exit(main())
