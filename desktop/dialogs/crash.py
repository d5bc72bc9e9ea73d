"""One place for the unexpected: an exception nobody caught (in a slot, on the GUI thread, on any
other thread, or in a core call) is written to a log file in the user's log folder and shown in one
crash dialog, with the details to copy. A storm of exceptions fills that one dialog instead of
opening dozens; an error already shown is not shown again after the dialog is closed (it is still
logged). Errors people can act on (bad input, a file that cannot be read) are not crashes: they are
``HipocampoError`` sentences shown where they happen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import logging.handlers
import platform
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import platformdirs
from PySide6 import __version__ as pyside_version
from PySide6.QtCore import QObject, Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core import __version__
from core.files import private_file
from desktop.dialogs.feedback import heading_font, monospace_font, show_feedback

log = logging.getLogger(__name__)

LOG_NAME = "hipocampo.log"
LOG_BYTES = 1_000_000  # per file; three files kept
APP_NAME = "hipocampo"

_handler: CrashHandler | None = None


def default_log_dir() -> Path:
    """The user's log folder for Hipocampo (``~/.local/state/hipocampo/log`` on Linux…)."""
    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def describe(exc: BaseException) -> str:
    """An exception as one readable sentence."""
    text = str(exc).strip()
    text = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return text if text.endswith((".", "!", "?")) else text + "."


def environment() -> str:
    """Versions and platform, for a bug report."""
    return (f"Hipocampo {__version__}, Python {platform.python_version()}, PySide6 {pyside_version}, "
            f"{platform.platform()}")


class CrashDialog(QDialog):
    """Something went wrong: a readable summary, the details to copy, and the log folder."""

    def __init__(self, log_file: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.log_file = log_file
        self.count = 0
        self.setWindowTitle(self.tr("Hipocampo: something went wrong"))

        icon = QLabel()
        icon.setPixmap(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning).pixmap(48, 48))
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.heading = QLabel(self.tr("Something went wrong"))
        self.heading.setFont(heading_font(self, 1.4))
        self.summary = QLabel()
        self.summary.setObjectName("summary")
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.safe = QLabel(self.tr(
            "Your memory is safe: every change is written to its file as it is made, and nothing that was "
            "saved is lost. You can keep working; if something looks wrong, restart Hipocampo."))
        self.safe.setWordWrap(True)
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        show_feedback(self.where, self.tr("A report was saved to {file}.").format(file=log_file), "muted")
        text = QVBoxLayout()
        text.setSpacing(8)
        for widget in (self.heading, self.summary, self.safe, self.where):
            text.addWidget(widget)
        top = QHBoxLayout()
        top.setSpacing(16)
        top.addWidget(icon)
        top.addLayout(text, 1)

        self.toggle = QToolButton()
        self.toggle.setText(self.tr("Details"))
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self.on_toggle_details)
        self.details = QPlainTextEdit()
        self.details.setObjectName("details")
        self.details.setReadOnly(True)
        self.details.setFont(monospace_font())
        self.details.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.details.setMinimumHeight(200)
        self.details.setVisible(False)

        buttons = QDialogButtonBox()
        self.copy_button = buttons.addButton(self.tr("Copy details"), QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.on_copy)
        self.folder_button = buttons.addButton(self.tr("Open log folder"), QDialogButtonBox.ButtonRole.ActionRole)
        self.folder_button.clicked.connect(self.on_open_folder)
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        for button in (self.copy_button, self.folder_button):
            button.setAutoDefault(False)  # Enter closes; it never copies or opens a folder by surprise
        self.close_button.setDefault(True)
        self.close_button.setFocus()
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 14)
        layout.addLayout(top)
        layout.addWidget(self.toggle)
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)
        self.resize(600, self.sizeHint().height())

    def add(self, summary: str, details: str) -> None:
        """Count one more problem; the summary names the first, the details hold them all."""
        self.count += 1
        if self.count == 1:
            self.summary.setText(self.tr("Hipocampo ran into a problem it did not expect: {summary}").format(
                summary=summary))
            self.details.setPlainText(environment() + "\n\n" + details.rstrip())
        else:
            self.heading.setText(self.tr("Something went wrong ({count} problems)").format(count=self.count))
            self.details.appendPlainText(f"\n--- {self.count} ---\n{details.rstrip()}")

    def on_toggle_details(self, shown: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.details.setVisible(shown)
        self.layout().activate()
        self.resize(self.width(), self.sizeHint().height() if shown else self.minimumSizeHint().height())

    def on_copy(self) -> None:
        QGuiApplication.clipboard().setText(self.details.toPlainText())
        self.copy_button.setText(self.tr("Copied"))

    def on_open_folder(self) -> None:
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.log_file.parent)))


class CrashHandler(QObject):
    """Catches what nobody else did, logs it, and shows it in one :class:`CrashDialog`."""

    #: an unexpected error: (summary sentence, details); emitted from any thread, shown on the GUI thread
    crashed = Signal(str, str)

    def __init__(self, log_dir: Path | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.log_file = self._prepare_log(log_dir or default_log_dir())
        self.dialog: CrashDialog | None = None
        self._shown: set[str] = set()
        self._rescues: list[Callable[[], object]] = []
        self._previous: tuple[object, object] | None = None
        self._file_log: logging.Handler | None = None
        self.crashed.connect(self.report, Qt.ConnectionType.QueuedConnection)

    # -- hooks ---------------------------------------------------------------------------------

    def install(self) -> None:
        """Route uncaught exceptions (main and other threads) here, and warnings to the log file."""
        self._previous = (sys.excepthook, threading.excepthook)
        sys.excepthook = self.on_exception
        threading.excepthook = self.on_thread_exception
        self._file_log = _PrivateRotatingLog(self.log_file, maxBytes=LOG_BYTES, backupCount=2, encoding="utf-8")
        self._file_log.setLevel(logging.WARNING)
        self._file_log.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logging.getLogger().addHandler(self._file_log)

    def uninstall(self) -> None:
        """Put back the hooks found by :meth:`install`."""
        if self._previous is not None:
            sys.excepthook, threading.excepthook = self._previous  # type: ignore[assignment]  # the hooks found
            self._previous = None
        if self._file_log is not None:
            logging.getLogger().removeHandler(self._file_log)
            self._file_log.close()
            self._file_log = None

    def watch_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Report exceptions nobody awaited on ``loop`` (the qasync loop: hub tasks, callbacks) too."""

        def on_loop_exception(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
            exc = context.get("exception")
            if exc is None or isinstance(exc, (KeyboardInterrupt, asyncio.CancelledError)):
                _loop.default_exception_handler(context)
                return
            details = f"{context.get('message', 'in the event loop')}\n" + "".join(
                traceback.format_exception(type(exc), exc, exc.__traceback__))
            self.crashed.emit(describe(exc), details)

        loop.set_exception_handler(on_loop_exception)

    def add_rescue(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` (save a draft, flush a buffer) before a crash is shown; its own errors are logged."""
        self._rescues.append(fn)

    def on_exception(self, kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):  # Ctrl+C in a terminal is not a crash
            if self._previous is not None:
                self._previous[0](kind, exc, tb)  # type: ignore[operator]  # not None: checked
            return
        self.crashed.emit(describe(exc), "".join(traceback.format_exception(kind, exc, tb)))

    def on_thread_exception(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_value is None or issubclass(args.exc_type, SystemExit):
            return
        thread = args.thread.name if args.thread is not None else "?"
        details = f"in thread {thread}\n" + "".join(
            traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))
        self.crashed.emit(describe(args.exc_value), details)

    # -- showing -------------------------------------------------------------------------------

    def report(self, summary: str, details: str) -> None:
        """Log a crash and show it (GUI thread): in the open dialog if there is one, in a new one
        unless this very error was already shown."""
        self._write(summary, details)
        for rescue in self._rescues:
            try:
                rescue()
            except Exception:  # noqa: BLE001 - a failing rescue must not hide the crash
                log.exception("A rescue step failed while handling a crash")
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.add(summary, details)
            return
        if summary in self._shown:
            return  # seen and closed already: it is in the log, do not nag
        self._shown.add(summary)
        app = QApplication.instance()
        parent = app.activeWindow() if isinstance(app, QApplication) else None
        self.dialog = CrashDialog(self.log_file, parent)
        self.dialog.add(summary, details)
        self.dialog.show()
        self.dialog.raise_()

    def _write(self, summary: str, details: str) -> None:
        stamp = datetime.now().astimezone().isoformat(timespec="seconds")
        try:
            with self.log_file.open("a", encoding="utf-8") as fh:
                fh.write(f"{stamp} CRASH {summary}\n{environment()}\n{details.rstrip()}\n\n")
        except OSError:
            log.exception("Could not write the crash log %s", self.log_file)

    @staticmethod
    def _prepare_log(folder: Path) -> Path:
        for candidate in (folder, Path(tempfile.gettempdir()) / APP_NAME):
            with contextlib.suppress(OSError):  # owner-only: a traceback can quote the user's memory
                return private_file(candidate / LOG_NAME)
        return Path(tempfile.gettempdir()) / f"{APP_NAME}-{LOG_NAME}"


class _PrivateRotatingLog(logging.handlers.RotatingFileHandler):
    """The log, rotated as usual, each new file created readable by its owner only."""

    def _open(self):  # type: ignore[no-untyped-def]  # noqa: ANN202 (logging's own name and signature)
        with contextlib.suppress(OSError):
            private_file(Path(self.baseFilename))
        return super()._open()


def install_crash_handler(app: QApplication, log_dir: Path | None = None) -> CrashHandler:
    """Catch every uncaught exception of ``app`` from now on (one handler per process)."""
    global _handler
    if _handler is not None:
        _handler.uninstall()
    _handler = CrashHandler(log_dir, app)
    _handler.install()
    return _handler


def crash_handler() -> CrashHandler | None:
    """The installed handler, if any."""
    return _handler


def show_crash(summary: str, details: str, parent: QWidget | None = None) -> None:
    """Show an unexpected error caught elsewhere (``Core.crashed``) through the one crash dialog."""
    global _handler
    if _handler is None:  # no handler installed (a test, an embedding app): one without hooks
        _handler = CrashHandler(parent=parent or QApplication.instance())
    _handler.report(summary, details)
