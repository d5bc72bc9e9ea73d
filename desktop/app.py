"""``hipocampo-app``: the QApplication on a qasync loop, one instance per user, and the app's life.

The window is painted first; the memory opens on a worker thread right after and the panes show
it; only then are the hub's MCP stack imported (the hub starts on the same event loop, and a first
run's welcome screen opens with it) and the model loaded, on another thread. Closing the window
keeps the hub in the tray when the desktop has one and the setting says so; Quit stops the hub,
the feed and the memory in order.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QObject, QSettings, Qt, QTimer, QTranslator, Signal
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMessageBox

from core import __version__
from core.processes import settle_heap
from core.settings import Settings
from desktop.resources import app_icon, resource
from desktop.single_instance import InstanceServer, endpoint_file, send_to_running, server_name
from desktop.theme import apply_theme
from desktop.tray import Tray

if TYPE_CHECKING:  # the memory, the MCP server and the panes load after the window is painted
    from core.memory import Memory
    from desktop.hub import Hub
    from desktop.workers import ChangeFeed, Core

log = logging.getLogger(__name__)
ORGANIZATION = "Hipocampo"
APP_NAME = "Hipocampo"


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="hipocampo-app", description="Hipocampo's desktop app.")
    parser.add_argument("--db", type=Path, help="the memory file to open (default: settings / HIPOCAMPO_DB)")
    parser.add_argument("--tray", action="store_true", help="start hidden in the tray")
    parser.add_argument("--version", action="version", version=f"Hipocampo {__version__}")
    parser.add_argument("files", nargs="*", type=Path, help="files or folders to import into the memory")
    return parser.parse_args(argv)


def install_translations(app: QApplication, locale: QLocale | None = None) -> list[QTranslator]:
    """Hipocampo's and Qt's own translations for the system language; English (its plural forms) when
    Hipocampo has none for it."""
    locale = locale or QLocale.system()
    translators = []
    for name, folder in (("hipocampo", str(resource("i18n"))),
                         ("qtbase", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))):
        translator = QTranslator(app)
        if translator.load(locale, name, "_", folder) or (name == "hipocampo" and translator.load(
                QLocale(QLocale.Language.English), name, "_", folder)):
            app.installTranslator(translator)
            translators.append(translator)
    return translators


def _preload_panes() -> None:
    """Import the panes (igraph, numpy) on the opener thread, so the GUI thread only builds widgets
    when the memory arrives. The hub's MCP stack is not among them: it loads after the memory is shown."""
    import importlib

    for name in ("desktop.workers", "desktop.graph.pane", "desktop.editor",
                 "desktop.search.pane", "desktop.insights.pane", "desktop.activity.pane"):
        importlib.import_module(name)


class _Opener(QObject):
    """Opens a Memory on a thread of its own: the window paints while the file is checked.

    Then, once the panes show it, ``warm_up`` imports the hub's MCP stack (``hub_importable``) and
    loads the model (``model_loaded``) on another thread, so neither delays the memory on screen.
    """

    opened = Signal(object)
    failed = Signal(str)
    hub_importable = Signal(object)  # the memory the hub is for
    model_loaded = Signal(object)  # the memory whose model is loaded

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.warming: threading.Thread | None = None

    def open(self, settings: Settings) -> None:
        def run() -> None:
            try:
                from core.memory import Memory

                memory = Memory(settings)
                _preload_panes()
            except Exception as exc:  # shown to the user as a sentence; the app stays up
                log.exception("cannot open the memory")
                self.failed.emit(str(exc) or type(exc).__name__)
                return
            self.opened.emit(memory)

        threading.Thread(target=run, name="hipocampo-open", daemon=True).start()

    def warm_up(self, memory: Memory, *, hub: bool) -> None:
        def run() -> None:
            try:
                if hub:
                    import desktop.hub  # noqa: F401 (the MCP SDK, pydantic, starlette: ~0.5 s quiet, seconds loaded)

                    self.hub_importable.emit(memory)
                # The tokenizer's load holds the GIL for ~0.7 s: pay it now, right after the memory is
                # shown, rather than as a frozen window on the first search or the first write.
                memory.load_embedder()
            except Exception:  # the hub or semantic search is then unavailable; the memory stays shown
                log.exception("cannot start the hub or load the model")
            self.model_loaded.emit(memory)

        self.warming = threading.Thread(target=run, name="hipocampo-warm-up", daemon=True)
        self.warming.start()


class HipocampoApp(QObject):
    """Owns the window, the tray, and the open memory with its workers, feed and hub."""

    ready = Signal()  # the memory is open and the panes show it (the hub and the model follow)
    model_ready = Signal()  # the model is loaded and the background embedder runs
    finished = Signal()  # after quit(): everything is stopped and closed

    def __init__(self, settings: Settings, *, start_hidden: bool = False, hub_file: Path | None = None,
                 start_hub: bool = True, first_run: bool | None = None) -> None:
        super().__init__()
        from desktop.main_window import MainWindow

        self.settings = settings
        self.start_hidden = start_hidden
        self.hub_file = hub_file or endpoint_file()
        self.start_hub = start_hub
        self.first_run = first_run
        self.memory: Memory | None = None
        self.core: Core | None = None
        self.feed: ChangeFeed | None = None
        self.hub: Hub | None = None
        self._pending_imports: list[Path] = []
        self.dialogs: list[QDialog] = []  # open dialogs (kept referenced while shown)
        self._quitting = False

        from core.clients import CLIENTS, TITLES, snippet

        self.window = MainWindow()
        self.tray = Tray({c: TITLES[c] for c in CLIENTS},
                         lambda c: snippet(c, Path(self.settings.db)), self)
        self._opener = _Opener(self)
        self._opener.opened.connect(self.on_opened)
        self._opener.failed.connect(self.on_open_failed)
        self._opener.hub_importable.connect(self.on_hub_importable)
        self._opener.model_loaded.connect(self.on_model_loaded)
        self.window.close_to_tray = self._close_to_tray()
        self.window.quit_requested.connect(self.quit)
        self.window.import_requested.connect(self.import_paths)
        self.window.export_requested.connect(self.on_export)
        self.window.backup_requested.connect(self.on_backup)
        self.window.new_memory_requested.connect(self.on_new_memory)
        self.window.open_memory_requested.connect(self.on_open_memory)
        self.window.settings_requested.connect(self.on_settings)
        self.window.connect_requested.connect(self.show_connect)
        self.window.about_requested.connect(self.on_about)
        self.window.hide_to_tray.connect(self.on_hidden_to_tray)
        self.tray.show_window.connect(self.show_window)
        self.tray.quit_requested.connect(self.quit)
        self._clients_timer = QTimer(self)
        self._clients_timer.setInterval(2000)
        self._clients_timer.timeout.connect(self._poll_clients)

    def _close_to_tray(self) -> bool:
        return bool(getattr(self.settings, "close_to_tray", True)) and Tray.available()

    # -- start ---------------------------------------------------------------------------------

    def start(self) -> None:
        """Show the window (unless starting in the tray) and open the memory behind it."""
        self.tray.show()
        if not self.start_hidden or not Tray.available():
            self.window.show()
        self._opener.open(self.settings)

    def on_opened(self, memory: Memory) -> None:
        if self._quitting:
            memory.close()
            return
        from desktop.workers import ChangeFeed, Core

        self.memory = memory
        self.core = Core(memory, self)
        self.core.crashed.connect(self.on_crashed)
        self.feed = ChangeFeed(memory, self)
        self.window.attach(self.core, self.feed, None)
        insights = self.window.panes.get("insights")
        if insights is not None:
            insights.pending_count_changed.connect(self.tray.set_pending)
        self.feed.start()
        settle_heap()  # the modules and widgets live as long as the app: full collections need not walk them
        self.ready.emit()
        self._opener.warm_up(memory, hub=True)
        if self._pending_imports:
            paths, self._pending_imports = self._pending_imports, []
            self.import_paths(paths)

    def on_hub_importable(self, memory: Memory) -> None:
        """The MCP stack is imported: serve the assistants (and show the first-run screen, which follows it)."""
        if memory is not self.memory or self._quitting:
            return
        from desktop.hub import Hub

        self.hub = Hub(memory, port=int(getattr(self.settings, "hub_port", 0) or 0), hub_file=self.hub_file,
                       parent=self)
        self.tray.set_hub(self.hub)
        self.window.set_hub(self.hub)
        if self.start_hub:
            self.hub.start()
        self._clients_timer.start()
        if self._is_first_run():
            QTimer.singleShot(0, self.show_first_run)

    def on_model_loaded(self, memory: Memory) -> None:
        """The model is in memory: keep vectors in step with writes from now on."""
        if memory is self.memory and not self._quitting:
            memory.start_background()
            if self.hub is None and self._is_first_run():  # the hub could not start: welcome anyway
                QTimer.singleShot(0, self.show_first_run)
            self.model_ready.emit()

    def on_open_failed(self, message: str) -> None:
        QMessageBox.critical(self.window, self.tr("Cannot open the memory"),
                             self.tr("Hipocampo could not open {path}:\n\n{reason}\n\nChoose another file "
                                     "with File → Open memory, or check the file.").format(
                                 path=self.settings.db, reason=message))

    def _poll_clients(self) -> None:
        if self.hub is not None:
            self.hub.poll_clients()

    def _is_first_run(self) -> bool:
        if self.first_run is not None:
            return self.first_run
        return not bool(getattr(self.settings, "first_run_done", True))

    # -- requests from other launches ----------------------------------------------------------

    def on_instance_request(self, request: dict[str, Any]) -> None:
        self.show_window()
        if request.get("action") == "import":
            paths = [Path(p) for p in request.get("paths", []) if isinstance(p, str)]
            if paths:
                self.import_paths(paths)

    def show_window(self) -> None:
        self.window.show()
        self.window.setWindowState(self.window.windowState() & ~self.window.windowState().WindowMinimized)
        self.window.raise_()
        self.window.activateWindow()

    def on_hidden_to_tray(self) -> None:
        if not getattr(self, "_told_about_tray", False) and Tray.available():
            self._told_about_tray = True
            self.tray.icon.showMessage(
                "Hipocampo", self.tr("Hipocampo keeps serving your assistants from the tray. "
                                     "Quit it from the tray menu."), app_icon(), 4000)

    # -- dialogs -------------------------------------------------------------------------------

    def import_paths(self, paths: list[Path]) -> None:
        if self.core is None:
            self._pending_imports.extend(paths)
            return
        from desktop.dialogs.import_dialog import ImportDialog

        self._show_dialog(ImportDialog(self.core, list(paths), self.window))

    def on_export(self) -> None:
        if self.core is None:
            return
        from desktop.dialogs.export_dialog import ExportDialog

        self._show_dialog(ExportDialog(self.core, self.window))

    def on_backup(self) -> None:
        if self.core is None:
            return
        db = Path(self.settings.db)
        suggested = db.with_name(f"{db.stem}-backup.db")
        dest, _ = QFileDialog.getSaveFileName(self.window, self.tr("Back up the memory"), str(suggested),
                                              self.tr("Hipocampo memory (*.db)"))
        if not dest:
            return
        self.core.read(lambda m: m.backup(Path(dest)),
                       done=lambda path: self.window.show_message(self.tr("Backed up to {path}").format(path=path)),
                       failed=lambda msg: QMessageBox.warning(self.window, self.tr("Backup failed"), msg))

    def on_new_memory(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, self.tr("New memory"),
                                              str(Path(self.settings.db).with_name("new-memory.db")),
                                              self.tr("Hipocampo memory (*.db)"))
        if path:
            target = Path(path)
            if target.exists():
                QMessageBox.warning(self.window, self.tr("New memory"),
                                    self.tr("{path} already exists; use Open memory for an existing file.")
                                    .format(path=target))
                return
            self.reopen(target)

    def on_open_memory(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self.window, self.tr("Open memory"), str(Path(self.settings.db).parent),
                                              self.tr("Memories (*.db *.sqlite);;All files (*)"))
        if path:
            self.reopen(Path(path))

    def on_settings(self) -> None:
        from desktop.dialogs.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self.window)
        dialog.changed.connect(lambda changes: self.apply_settings(self.settings.model_copy(update=changes)))
        self._show_dialog(dialog)

    def apply_settings(self, settings: Settings) -> None:
        """Use new settings: reopen the memory when the file or the embeddings changed."""
        old = self.settings
        self.settings = settings
        self.window.close_to_tray = self._close_to_tray()
        app = QApplication.instance()
        if isinstance(app, QApplication) and old.theme != settings.theme:
            apply_theme(app, settings.theme)
        reopen_keys = ("db", "embeddings", "openai_base_url", "openai_model", "openai_api_key",
                       "openai_dimensions")
        if any(getattr(old, k, None) != getattr(settings, k, None) for k in reopen_keys):
            self.reopen(Path(settings.db), settings=settings)
        elif getattr(old, "hub_port", 0) != getattr(settings, "hub_port", 0) and self.hub is not None:
            asyncio.ensure_future(self._restart_hub())  # the panes (a search, an open entity) stay as they are

    async def _restart_hub(self) -> None:
        """Serve assistants on the port the settings now name; the memory stays open."""
        hub = self.hub
        if hub is None:
            return
        await hub.stop_and_wait()
        if hub is self.hub and not self._quitting:
            hub.port = int(getattr(self.settings, "hub_port", 0) or 0)
            hub.start()

    def show_first_run(self) -> None:
        from desktop.dialogs.first_run import FirstRunDialog

        dialog = FirstRunDialog(self.settings, endpoint=self.hub, parent=self.window)
        dialog.import_requested.connect(self.import_paths)  # a memory another tool keeps
        self._show_dialog(dialog)

    def _show_dialog(self, dialog: QDialog) -> None:
        """Show a window-modal dialog without a nested event loop (the hub keeps serving)."""
        self.dialogs.append(dialog)
        dialog.finished.connect(lambda _result: self.dialogs.remove(dialog) if dialog in self.dialogs else None)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def show_connect(self) -> None:
        from desktop.dialogs.connect_client import ConnectDialog

        dialog = ConnectDialog(Path(self.settings.db), endpoint=self.hub, parent=self.window)
        dialog.status_message.connect(self.window.statusBar().showMessage)
        self._show_dialog(dialog)

    def on_about(self) -> None:
        QMessageBox.about(
            self.window, self.tr("About Hipocampo"),
            self.tr("<h3>Hipocampo {version}</h3><p>A local-first memory for AI assistants: a knowledge "
                    "graph on your own machine that Claude, Cursor, opencode and other MCP clients write "
                    "to and read from.</p><p>Memory file: <code>{db}</code></p>").format(
                version=__version__, db=self.settings.db))

    def on_crashed(self, summary: str, details: str) -> None:
        from desktop.dialogs.crash import show_crash

        show_crash(summary, details, parent=self.window)

    # -- reopen and quit -------------------------------------------------------------------------

    def reopen(self, db: Path, *, settings: Settings | None = None) -> None:
        """Close the open memory and open ``db`` in its place."""
        if not self.window.confirm_discard():
            return
        asyncio.ensure_future(self._reopen(db, settings))

    async def _reopen(self, db: Path, settings: Settings | None) -> None:
        await self._close_memory()
        self.settings = (settings or self.settings).model_copy(update={"db": db})
        self.window.set_title(db)
        self._opener.open(self.settings)

    async def _close_memory(self) -> None:
        self._clients_timer.stop()
        self.window.detach()
        self.tray.set_hub(None)
        if self.hub is not None:
            await self.hub.stop_and_wait()
            self.hub.deleteLater()
        if self.feed is not None:
            self.feed.stop()
        if self.core is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.core.shutdown)
        if self.memory is not None:
            memory, warming = self.memory, self._opener.warming
            if warming is not None and warming.is_alive():  # never close the model while it loads
                await asyncio.get_running_loop().run_in_executor(None, warming.join, 5.0)
            await asyncio.get_running_loop().run_in_executor(None, memory.close)
        self.memory, self.core, self.feed, self.hub = None, None, None, None

    def quit(self, *, force: bool = False) -> None:
        """Stop everything in order, then leave the event loop (``force``: ask nothing)."""
        if self._quitting:
            return
        if not force and not self.window.confirm_discard():
            return
        self._quitting = True
        asyncio.ensure_future(self._quit())

    async def _quit(self) -> None:
        if self.memory is not None:  # the batch in the model ends while the hub and the readers stop
            self.memory.halt_background()
        self.window.save_layout()
        self.window.hide()
        self.tray.hide()
        try:
            await self._close_memory()
        finally:
            self.finished.emit()


def make_qapplication(argv: list[str] | None = None) -> QApplication:
    """The QApplication with Hipocampo's names, icon, style and translations."""
    app = QApplication.instance() or QApplication(argv or [sys.argv[0]])
    assert isinstance(app, QApplication)
    QCoreApplication.setOrganizationName(ORGANIZATION)
    QCoreApplication.setApplicationName(APP_NAME)
    QCoreApplication.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)  # the tray keeps the hub alive
    if sys.platform.startswith("linux"):
        app.setStyle("Fusion")  # one look on every Linux desktop; theme.py gives it light and dark
    install_translations(app)
    return app


def _quit_on_signals(hipocampo: HipocampoApp) -> None:
    """Ctrl-C and SIGTERM quit cleanly (hub withdrawn, memory closed) at once.

    Python runs signal handlers only between bytecodes, and Qt's loop is C++: the signal's
    number is written to a socket (``signal.set_wakeup_fd``) whose notifier wakes the loop, so
    the handler runs at once without a timer waking an idle app five times a second.
    """
    def on_signal(_signum: int, _frame: object) -> None:
        from core.embeddings.indexer import halt_all

        halt_all()  # the pass ends now, and closing waits for the embedder at most a moment
        hipocampo.quit(force=True)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, on_signal)
    import socket

    from PySide6.QtCore import QSocketNotifier

    reader, writer = socket.socketpair()
    for end in (reader, writer):
        end.setblocking(False)
    signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    notifier = QSocketNotifier(reader.fileno(), QSocketNotifier.Type.Read, hipocampo)

    def drain() -> None:  # Python runs the handler as soon as control is back in it
        try:
            reader.recv(64)
        except OSError:
            pass

    notifier.activated.connect(drain)
    hipocampo._signal_sockets = (reader, writer, notifier)  # kept as long as the app


def leave(code: int) -> NoReturn:
    """End the app's process at once, once the app has finished (the memory closed, the hub
    stopped, the endpoint withdrawn): the interpreter's own teardown of Qt, onnxruntime and every
    module took 0.3 s of a quiet quit and 1.3 s of a loaded one. What it would still have done is
    done here: the window's settings and the logs are written out."""
    QSettings().sync()
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):  # a closed or missing stream (a windowed bundle)
            pass
    os._exit(code)


def main(argv: list[str] | None = None, *, on_started: Any = None) -> int:
    """Run the desktop app; a second launch hands over to the first and exits. ``on_started`` (a
    callable taking the ``HipocampoApp``) runs once the app has started (tests drive it from there)."""
    from core.processes import share_malloc_arenas

    share_malloc_arenas()  # before any thread starts: a smaller resident heap all day
    args = parse_args(list(sys.argv[1:] if argv is None else argv))
    overrides: dict[str, Any] = {"actor": "gui"}
    if args.db is not None:
        overrides["db"] = args.db
    settings = Settings(**overrides)
    app = make_qapplication([sys.argv[0]])
    apply_theme(app, settings.theme)

    from desktop.dialogs.crash import install_crash_handler

    handler = install_crash_handler(app)
    name = server_name()
    files = [str(p.resolve()) for p in args.files]
    request = {"action": "import", "paths": files} if files else {"action": "show"}
    if send_to_running(request, name):
        print("Hipocampo is already running; handed over to it.", file=sys.stderr)
        return 0
    instance = InstanceServer(name)
    instance.listen()

    import qasync

    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    handler.watch_loop(loop)
    hipocampo = HipocampoApp(settings, start_hidden=args.tray)
    instance.requested.connect(hipocampo.on_instance_request)
    from desktop.file_open import handle_file_open_events

    handle_file_open_events(app, hipocampo.on_instance_request)  # macOS: Finder's and the Dock's files
    hipocampo.finished.connect(app.quit)
    if args.files:
        hipocampo.import_paths(list(args.files))
    hipocampo.start()
    _quit_on_signals(hipocampo)
    if on_started is not None:
        on_started(hipocampo)
    with loop:
        loop.run_forever()
    instance.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
