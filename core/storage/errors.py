"""Storage failures as errors a person or a model can act on, for callers above the storage layer."""

from __future__ import annotations

from core.errors import StorageError


def as_storage_error(exc: BaseException | None, path: str | None = None) -> StorageError | None:
    """``exc`` as a ``StorageError`` that says what happened and what to do, if it is a storage
    failure (SQLite's own errors included); None for anything else."""
    from core.storage.sqlite.connection import DatabaseError, IntegrityError, explain

    if isinstance(exc, StorageError):
        return exc
    if isinstance(exc, DatabaseError) and not isinstance(exc, IntegrityError):
        return explain(exc, path=path)
    return None
