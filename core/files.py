"""Files only their owner may read: the memory, its -wal/-shm, its backups and their folders; and
where a memory's backups live, how they are named and which are kept (the copying itself is the
backend's: ``core.storage.sqlite.backups``).

On POSIX a database is created 0600 before SQLite opens it (SQLite gives its -wal and -shm the
main file's mode), and every folder Hipocampo creates is 0700. An existing file or folder that
this user owns is tightened to the same modes. Elsewhere (Windows) the user's profile folder
already keeps other users out, and these calls do nothing.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

FILE_MODE = 0o600
DIR_MODE = 0o700
POSIX = sys.platform != "win32"
SIDE_FILES = ("-wal", "-shm", "-journal")


def private_dir(path: Path) -> Path:
    """Create ``path`` and any missing parents 0700 (existing ones are left as they are)."""
    missing: list[Path] = []
    walk = path
    while not walk.exists():
        missing.append(walk)
        if walk.parent == walk:
            break
        walk = walk.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another process made it meanwhile
            folder.mkdir(mode=DIR_MODE)
        _chmod(folder, DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """Make sure ``path`` exists (empty when new) readable by its owner only."""
    private_dir(path.parent)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        if path.is_symlink() and not path.exists():  # a dangling link: SQLite would create its target 0644
            target = Path(os.path.realpath(path))
            if target.parent.is_dir():
                private_file(target)
                return path
        tighten(path)
    else:
        os.close(fd)
    return path


def tighten(path: Path) -> None:
    """Take group and other access away from ``path`` (and its -wal/-shm) if this user owns it."""
    for candidate in (path, *(Path(f"{path}{s}") for s in SIDE_FILES)):
        with contextlib.suppress(OSError):
            info = candidate.stat()
            if POSIX and info.st_uid == os.geteuid() and info.st_mode & 0o077:
                os.chmod(candidate, info.st_mode & ~0o077 & 0o7777)


def _chmod(path: Path, mode: int) -> None:
    if POSIX:
        with contextlib.suppress(OSError):  # a file system without POSIX modes
            os.chmod(path, mode)


# -- backups: a private ``backups`` folder beside the memory, named by time and reason ---------

DAILY = timedelta(hours=24)  # an automatic backup is due when the newest is this old
KEEP = 7  # automatic backups kept per database (Settings.backup_keep)
_BACKUP = re.compile(r"^(?P<stem>.+)-(?P<stamp>\d{8}T\d{6}\d{6}Z)-(?P<reason>[a-z-]+)\.db$")


def backup_dir(db: Path) -> Path:
    """Where the backups of ``db`` live: ``backups/`` beside it."""
    return Path(db).parent / "backups"


def new_backup_path(db: Path, reason: str) -> Path:
    """A new backup's path in the (private) backups folder: the memory's name, now, ``reason``."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    return private_dir(backup_dir(db)) / f"{Path(db).stem}-{stamp}-{reason}.db"


def list_backups(db: Path) -> list[Path]:
    """The backups of ``db``, newest first."""
    folder = backup_dir(db)
    if not folder.is_dir():
        return []
    stem = Path(db).stem
    found = {p: m["stamp"] for p in folder.iterdir() if (m := _BACKUP.match(p.name)) and m["stem"] == stem}
    return sorted(found, key=found.__getitem__, reverse=True)


def newest_backup(db: Path) -> Path | None:
    """The most recent backup of ``db``, if any."""
    backups = list_backups(db)
    return backups[0] if backups else None


def backup_age(db: Path, now: datetime | None = None) -> timedelta | None:
    """How old the newest backup is (None: there is none)."""
    newest = newest_backup(db)
    found = _BACKUP.match(newest.name) if newest is not None else None
    if found is None:
        return None
    stamp = datetime.strptime(found["stamp"][:15], "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
    return (now or datetime.now(UTC)) - stamp


def daily_backup_due(db: Path) -> bool:
    """True when ``db`` has no backup from the last 24 hours."""
    age = backup_age(db)
    return age is None or age >= DAILY


def prune_backups(db: Path, keep: int) -> None:
    """Delete all but the newest ``keep`` backups of ``db`` (at least one is kept)."""
    for old in list_backups(db)[max(keep, 1):]:
        for path in (old, *(Path(f"{old}{side}") for side in SIDE_FILES)):
            with contextlib.suppress(OSError):
                path.unlink()
