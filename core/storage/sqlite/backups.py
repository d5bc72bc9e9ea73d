"""Automatic backups: consistent copies made with SQLite's online backup API, kept in a private
``backups`` folder beside the database, the newest few kept.

A backup is made once a day (when a writing process finds the newest one older than that and the
file healthy), before every schema migration and before every import; ``hipocampo backup`` makes
one on demand and ``hipocampo restore`` puts one back.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

from core import files
from core.errors import InvalidInput, SchemaTooNew, StorageError
from core.storage.sqlite.connection import DatabaseError, connect
from core.storage.sqlite.inspection import restorable_entities

log = logging.getLogger(__name__)

DAILY = timedelta(hours=24)
KEEP = 7  # automatic backups kept per database (Settings.backup_keep)
_NAME = re.compile(r"^(?P<stem>.+)-(?P<stamp>\d{8}T\d{6}\d{6}Z)-(?P<reason>[a-z-]+)\.db$")


def backup_dir(db: Path) -> Path:
    """Where the backups of ``db`` live: ``backups/`` beside it."""
    return Path(db).parent / "backups"


def list_backups(db: Path) -> list[Path]:
    """The backups of ``db``, newest first."""
    folder = backup_dir(db)
    if not folder.is_dir():
        return []
    stem = Path(db).stem
    found = [p for p in folder.iterdir() if (m := _NAME.match(p.name)) and m["stem"] == stem]
    return sorted(found, key=lambda p: _NAME.match(p.name)["stamp"], reverse=True)  # type: ignore[index]  # all matched


def newest_backup(db: Path) -> Path | None:
    """The most recent backup of ``db``, if any."""
    backups = list_backups(db)
    return backups[0] if backups else None


def backup_age(db: Path, now: datetime | None = None) -> timedelta | None:
    """How old the newest backup is (None: there is none)."""
    newest = newest_backup(db)
    if newest is None:
        return None
    stamp = datetime.strptime(_NAME.match(newest.name)["stamp"][:15], "%Y%m%dT%H%M%S")  # type: ignore[index]  # a backup: matched
    return (now or datetime.now(UTC)) - stamp.replace(tzinfo=UTC)


def make_backup(db: Path, reason: str, *, keep: int, dest: Path | None = None, read_only: bool = False) -> Path:
    """Copy ``db`` (consistently, while others use it) into the backups folder (or ``dest``);
    then keep only the newest ``keep`` automatic backups. Returns the copy's path."""
    if dest is None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        dest = files.private_dir(backup_dir(db)) / f"{Path(db).stem}-{stamp}-{reason}.db"
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
    prune(db, keep)
    return dest


def prune(db: Path, keep: int) -> None:
    """Delete all but the newest ``keep`` backups of ``db``."""
    for old in list_backups(db)[max(keep, 1):]:
        for path in (old, *(Path(f"{old}{side}") for side in files.SIDE_FILES)):
            with contextlib.suppress(OSError):
                path.unlink()


def daily_backup_due(db: Path) -> bool:
    """True when ``db`` has no backup from the last 24 hours."""
    age = backup_age(db)
    return age is None or age >= DAILY


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
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    aside = files.private_dir(backup_dir(db)) / f"{Path(db).stem}-{stamp}-before-restore.db"
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


__all__ = ["backup_dir", "daily_backup_due", "list_backups", "make_backup", "newest_backup", "prune", "restore"]
