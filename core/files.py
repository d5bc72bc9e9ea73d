"""Files only their owner may read: the memory, its -wal/-shm, its backups and their folders.

On POSIX a database is created 0600 before SQLite opens it (SQLite gives its -wal and -shm the
main file's mode), and every folder Hipocampo creates is 0700. An existing file or folder that
this user owns is tightened to the same modes. Elsewhere (Windows) the user's profile folder
already keeps other users out, and these calls do nothing.
"""

from __future__ import annotations

import contextlib
import os
import sys
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
