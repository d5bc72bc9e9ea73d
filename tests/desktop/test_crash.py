"""The crash handler: uncaught exceptions from Qt slots and from other threads end up in one dialog
and in a log file; the same error closed once does not come back; Ctrl+C is not a crash."""

from __future__ import annotations

import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from core.memory import Memory
from core.settings import Settings
from desktop.dialogs import crash
from desktop.dialogs.crash import CrashDialog, CrashHandler, install_crash_handler, show_crash
from desktop.workers import Core

# pytest-qt would otherwise catch exceptions in slots itself (and fail the test): here they are the point
pytestmark = pytest.mark.qt_no_exception_capture


@pytest.fixture
def handler(qapp: QApplication, tmp_path: Path) -> Iterator[CrashHandler]:
    before = (sys.excepthook, threading.excepthook)
    handler = install_crash_handler(qapp, tmp_path / "logs")
    yield handler
    if handler.dialog is not None:
        handler.dialog.close()
        handler.dialog.deleteLater()
    handler.uninstall()
    crash._handler = None
    assert (sys.excepthook, threading.excepthook) == before


def visible_dialogs() -> list[CrashDialog]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, CrashDialog) and w.isVisible()]


def boom_in_a_slot() -> None:
    raise IndexError("list index out of range")


def boom_in_another_slot() -> None:
    raise KeyError("layout")


def test_two_exceptions_make_one_dialog_and_a_log(handler: CrashHandler, qtbot) -> None:  # noqa: ANN001
    QTimer.singleShot(0, boom_in_a_slot)
    QTimer.singleShot(0, boom_in_another_slot)
    qtbot.waitUntil(lambda: handler.dialog is not None and handler.dialog.count == 2, timeout=10_000)
    assert visible_dialogs() == [handler.dialog]
    dialog = handler.dialog
    assert dialog.summary.text() == ("Hipocampo ran into a problem it did not expect: "
                                     "IndexError: list index out of range.")
    assert dialog.heading.text() == "Something went wrong (2 problems)"
    details = dialog.details.toPlainText()
    assert "in boom_in_a_slot" in details and "in boom_in_another_slot" in details
    assert details.startswith("Hipocampo ")  # versions first, for a bug report

    log = handler.log_file.read_text(encoding="utf-8")
    assert handler.log_file == Path(handler.log_file.parent) / "hipocampo.log"
    assert "CRASH IndexError: list index out of range." in log and "CRASH KeyError: 'layout'." in log
    assert stat.S_IMODE(handler.log_file.stat().st_mode) == 0o600  # a traceback can quote the memory
    assert str(handler.log_file) in dialog.where.text()

    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text() == details


def test_exceptions_on_other_threads_join_the_same_dialog(handler: CrashHandler, qtbot) -> None:  # noqa: ANN001
    def work() -> None:
        raise RuntimeError("the layout thread fell over")

    threads = [threading.Thread(target=work, name=f"worker-{i}") for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    qtbot.waitUntil(lambda: handler.dialog is not None and handler.dialog.count == 3, timeout=10_000)
    assert len(visible_dialogs()) == 1
    assert "in thread worker-" in handler.dialog.details.toPlainText()


def test_an_error_closed_once_is_only_logged_afterwards(handler: CrashHandler, qtbot) -> None:  # noqa: ANN001
    QTimer.singleShot(0, boom_in_a_slot)
    qtbot.waitUntil(lambda: bool(visible_dialogs()), timeout=10_000)
    first = handler.dialog
    first.close_button.click()
    assert visible_dialogs() == []
    QTimer.singleShot(0, boom_in_a_slot)
    qtbot.waitUntil(lambda: handler.log_file.read_text().count("CRASH IndexError") == 2, timeout=10_000)
    assert visible_dialogs() == []
    QTimer.singleShot(0, boom_in_another_slot)  # something new is shown again
    qtbot.waitUntil(lambda: bool(visible_dialogs()), timeout=10_000)
    assert handler.dialog is not first and "KeyError" in handler.dialog.summary.text()


def test_rescue_steps_run_before_the_dialog(handler: CrashHandler, qtbot) -> None:  # noqa: ANN001
    saved: list[bool] = []
    handler.add_rescue(lambda: saved.append(handler.dialog is None))
    handler.add_rescue(lambda: 1 / 0)  # a failing rescue does not hide the crash
    QTimer.singleShot(0, boom_in_a_slot)
    qtbot.waitUntil(lambda: bool(visible_dialogs()), timeout=10_000)
    assert saved == [True]


def test_ctrl_c_is_not_a_crash(handler: CrashHandler, qtbot, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    seen: list[type] = []
    monkeypatch.setattr(handler, "_previous", (lambda kind, exc, tb: seen.append(kind), threading.excepthook))
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        sys.excepthook(*sys.exc_info())
    assert seen == [KeyboardInterrupt]
    QApplication.processEvents()  # deliver a queued report, if one had wrongly been sent
    assert handler.dialog is None


def test_a_failed_core_call_goes_to_the_same_dialog(handler: CrashHandler, qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    memory = Memory(Settings(db=tmp_path / "m.db", embeddings="none", actor="gui"))
    core = Core(memory)
    core.crashed.connect(show_crash)
    try:
        core.read(lambda m: m.no_such_method())
        qtbot.waitUntil(lambda: bool(visible_dialogs()), timeout=10_000)
        assert "no_such_method" in handler.dialog.summary.text()
        QTimer.singleShot(0, boom_in_a_slot)
        qtbot.waitUntil(lambda: handler.dialog.count == 2, timeout=10_000)
        assert len(visible_dialogs()) == 1
    finally:
        core.shutdown()
        memory.close()


def test_exceptions_nobody_awaited_on_the_qasync_loop(handler: CrashHandler, qtbot, qapp: QApplication) -> None:  # noqa: ANN001
    import asyncio

    import qasync

    loop = qasync.QEventLoop(qapp, already_running=False)
    asyncio.set_event_loop(loop)
    handler.watch_loop(loop)
    try:
        def callback() -> None:
            raise ValueError("a hub callback broke")

        async def scenario() -> None:
            asyncio.get_running_loop().call_soon(callback)
            await asyncio.sleep(0)

        loop.run_until_complete(scenario())
        qtbot.waitUntil(lambda: bool(visible_dialogs()), timeout=10_000)
        assert "ValueError: a hub callback broke." in handler.dialog.summary.text()
    finally:
        loop.close()
        asyncio.set_event_loop(None)
