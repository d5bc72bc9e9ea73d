"""One small hierarchy of errors every caller can catch and show.

Messages are written for a person or a model to act on: they name the bad item
and say what to do next.
"""

from __future__ import annotations


class HipocampoError(Exception):
    """Base of every error Hipocampo raises on purpose."""


class InvalidInput(HipocampoError):
    """The caller sent something malformed; nothing was changed."""


class NotFound(HipocampoError):
    """A named entity (or insight, relation…) does not exist; nothing was changed."""


class Conflict(HipocampoError):
    """The request is well formed but not allowed in the current state."""


class StorageError(HipocampoError):
    """The database could not be opened, read or written."""


class SchemaTooNew(StorageError):
    """The database was written by a newer Hipocampo; it is left untouched."""


class ConfigError(HipocampoError):
    """A setting names something that does not exist or cannot be used here."""


class EmbeddingError(HipocampoError):
    """The embedding model or endpoint could not produce vectors."""


class EmbeddingInterrupted(EmbeddingError):
    """A background embedding pass was stopped to give a foreground call the CPU; retry it later."""
