"""The memory as a file: imports as one unit, exports, backups and restores, damage and salvage,
the folders a model may read from, moving to another backend, and bookkeeping beside the graph.

What only a database file can do is the backend's ``FileStore`` ability (SQLite has it)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import files
from core.errors import ConfigError, InvalidInput, NotFound, StorageError
from core.memory_parts.context import MemoryContext
from core.model import Relation
from core.protocols import FileStore, VectorStore
from core.settings import Settings
from core.storage.factory import create_stores

if TYPE_CHECKING:
    from core.io.migrate import Progress



class Files:
    """Backups, damage, imports and exports, through the store's file abilities when it has them."""

    def __init__(self, ctx: MemoryContext) -> None:
        self.ctx = ctx
        self.graph = ctx.graph

    def _file(self) -> FileStore | None:
        return self.graph if isinstance(self.graph, FileStore) else None

    def importing(self, source: str, actor: str | None) -> contextlib.AbstractContextManager[str | None]:
        file = self._file()
        if file is None:
            return self.graph.transaction()  # yields None: no import id
        return file.importing(source, self.ctx.actor(actor))

    def export_relations(self) -> Iterable[tuple[Relation, dict[str, Any]]]:
        return self.graph.iter_relations()

    def backup(self, dest: Path | str | None) -> Path:
        if dest is not None and Path(dest).exists():
            raise InvalidInput(f"{dest} already exists; choose a new file name for the backup.")
        return self.graph.backup(None if dest is None else Path(dest))

    def damage(self) -> str | None:
        file = self._file()
        if file is None:
            return None
        try:
            file.refuse_if_damaged()
        except StorageError as exc:
            return str(exc)
        return None

    def allowed_file(self, path: Path | str, what: str) -> Path:
        try:
            real = Path(path).expanduser().resolve(strict=False)
        except (OSError, RuntimeError) as exc:
            raise InvalidInput(f"{path} is not a usable path ({exc}). Nothing was read.") from None
        allowed = [Path(d).expanduser().resolve(strict=False) for d in self.ctx.settings.allowed_import_dirs]
        if any(real == d or d in real.parents for d in allowed):
            return real
        where = ", ".join(str(d) for d in allowed) or "none yet"
        raise InvalidInput(
            f"{path} is outside the folders Hipocampo may read a {what} from (allowed: {where}). Ask the user "
            "to add its folder to allowed_import_dirs (HIPOCAMPO_ALLOWED_IMPORT_DIRS, or the app's settings), "
            "or pass the content itself. Nothing was read."
        )

    def salvage(self) -> dict[str, Any]:
        file = self._file()
        if file is None:
            raise ConfigError(f"The {self.graph.backend} backend cannot salvage a damaged file.")
        return file.salvage()

    def auto_backup(self, reason: str) -> Path | None:
        file = self._file()
        return file.auto_backup(reason) if file is not None else None

    @staticmethod
    def backups_of(db: Path | str) -> list[Path]:
        return files.list_backups(Path(db))

    @staticmethod
    def restore_backup(db: Path | str, backup: Path | str | None, keep: int, force: bool) -> tuple[Path, Path]:
        from core.storage.sqlite import backups

        chosen = Path(backup) if backup is not None else files.newest_backup(Path(db))
        if chosen is None:
            raise NotFound(f"There is no backup of {db} in {files.backup_dir(Path(db))}.")
        if not chosen.is_file():
            raise NotFound(f"{chosen} does not exist.")
        return chosen, backups.restore(Path(db), chosen, keep=keep, force=force)

    def migrate_to(self, target: Settings, vectors: VectorStore | None, progress: Progress | None) -> dict[str, Any]:
        from core.io.migrate import migrate

        stores = create_stores(target.model_copy(update={"read_only": False}), clock=self.ctx.clock)
        try:
            return migrate(self.graph, stores.graph, stores.vectors, vectors, progress)
        finally:
            stores.graph.close()
