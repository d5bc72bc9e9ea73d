"""Automatic backups: consistent copies made with SQLite's online backup API, and putting one back.
Where they live, their names and which are kept are ``core.files``'s.

A backup is made once a day (when a writing process finds the newest one older than that and the
file healthy), before every schema migration and before every import; ``hipocampo backup`` makes
one on demand and ``hipocampo restore`` puts one back.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from pathlib import Path

from core import files
from core.errors import InvalidInput, SchemaTooNew, StorageError
from core.storage.sqlite.connection import DatabaseError, connect
from core.storage.sqlite.inspection import restorable_entities

log = logging.getLogger(__name__)


def make_backup(db: Path, reason: str, *, keep: int, dest: Path | None = None, read_only: bool = False) -> Path:
    """Copy ``db`` (consistently, while others use it) into the backups folder (or ``dest``);
    then keep only the newest ``keep`` automatic backups. Returns the copy's path."""
    if dest is None:
        dest = files.new_backup_path(db, reason)
    elif dest.exists():
        raise InvalidInput(f"{dest} already exists; choose a new file name for the backup.")
    tmp = dest.with_name(f".{dest.name}.part")
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    source = connect(db, apply_pragmas=False, read_only=read_only)
    try:
        target = connect(files.private_file(tmp), apply_pragmas=False)
        try:
            source.backup(target)
        finally:
            target.close()
    except DatabaseError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise StorageError(f"Could not back up {db}: {exc}. Nothing was changed.") from exc
    finally:
        source.close()
    os.replace(tmp, dest)  # a half-written copy never looks like a backup
    files.prune_backups(db, keep)
    return dest


def would_empty(db: Path, backup: Path) -> bool:
    """True when ``backup`` holds no entities while the memory at ``db`` holds some (a damaged or
    unreadable ``db`` counts as holding none: restoring is how it is rescued)."""
    if restorable_entities(backup) > 0 or not Path(db).exists():
        return False
    try:
        return restorable_entities(db) > 0
    except StorageError:
        return False


def restore(db: Path, backup: Path, *, keep: int, force: bool = False) -> Path:
    """Put ``backup`` back as ``db``. The current file is first copied aside as it is (damaged or
    not, byte for byte, with its -wal) into the backups folder; returns that copy's path.

    ``backup`` must be a healthy Hipocampo memory of a schema this version opens; one with no
    entities replaces a memory that has some only with ``force``. Refused: nothing is changed.

    The backup is written into the live file through SQLite's backup API, so a process that has
    it open sees the restored memory rather than keeping a file that is no longer there.
    """
    backup = Path(backup)
    check = connect(backup, apply_pragmas=False)
    try:
        problems = [r[0] for r in check.execute("PRAGMA quick_check(5)")]
    except DatabaseError as exc:
        problems = [str(exc)]
    finally:
        check.close()
    if problems != ["ok"]:
        raise StorageError(f"{backup} is not a healthy Hipocampo database ({'; '.join(problems)}); "
                           "choose another backup. Nothing was changed.")
    try:
        emptied = would_empty(db, backup)
    except SchemaTooNew as exc:
        raise SchemaTooNew(f"Not restored: {exc} The memory was not changed.") from exc
    except StorageError as exc:
        raise StorageError(f"Not restored: {exc} The memory was not changed.") from exc
    if emptied and not force:
        raise InvalidInput(
            f"{backup} holds no entities, and {db} holds some: restoring it would empty the memory. "
            "Nothing was changed. Choose another backup, or add --force if an empty memory is what you want.")
    aside = files.new_backup_path(db, "before-restore")
    if Path(db).exists():
        shutil.copyfile(db, files.private_file(aside))
        wal = Path(f"{db}-wal")
        if wal.exists():
            shutil.copyfile(wal, files.private_file(Path(f"{aside}-wal")))
    source = connect(backup, apply_pragmas=False)
    target = connect(files.private_file(Path(db)), apply_pragmas=False)
    try:
        source.backup(target)
    except DatabaseError as exc:
        raise StorageError(f"Could not restore {backup} into {db}: {exc}. The file as it was is in {aside}.") from exc
    finally:
        target.close()
        source.close()
    log.warning("Restored %s from %s; the file as it was is in %s", db, backup, aside)
    return aside


__all__ = ["make_backup", "restore", "would_empty"]
