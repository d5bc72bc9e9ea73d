"""Follow a file that other processes write (an SQLite file in WAL mode: the file, its ``-wal`` and
their folder), and say so once per burst of changes, instead of polling it.

The activity pane follows the read log this way (every logged read commits to its ``-wal``): an idle
app then has nothing to wake for until an assistant reads (the 3 s poll it replaced woke the two
reader threads ~1.8 times a second: bench/RESULTS.md, "Small defects, session 3")."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal, Slot

COALESCE_MS = 150  # the changes of one commit (the -wal, then maybe the file) make one signal


class FileWatch(QObject):
    """Emits ``changed`` (at most once per ``COALESCE_MS``) after ``path`` or its ``-wal`` changes,
    or is made: watching the folder too, a file that does not exist yet is picked up when it is."""

    changed = Signal()

    def __init__(self, path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        path = Path(path).expanduser().absolute()
        self._paths = [path, path.with_name(path.name + "-wal"), path.parent]
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self.on_file_changed)
        self._watcher.directoryChanged.connect(self.on_file_changed)
        self._soon = QTimer(self, singleShot=True, interval=COALESCE_MS)
        self._soon.timeout.connect(self.changed)
        self._watch()

    @property
    def watching(self) -> bool:
        """True when the folder could be watched (else the caller keeps polling)."""
        return bool(self._watcher.directories())

    def stop(self) -> None:
        self._soon.stop()
        paths = self._watcher.files() + self._watcher.directories()
        if paths:
            self._watcher.removePaths(paths)

    def _watch(self) -> None:
        have = set(self._watcher.files()) | set(self._watcher.directories())
        missing = [str(p) for p in self._paths if p.exists() and str(p) not in have]
        if missing:
            self._watcher.addPaths(missing)

    @Slot(str)
    def on_file_changed(self, _path: str) -> None:
        self._watch()  # a file made anew (the -wal after a checkpoint) is watched again
        if not self._soon.isActive():
            self._soon.start()
