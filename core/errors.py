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


# -- what every backend says when it refuses: one wording, whichever store speaks ---------------

MAX_HOPS = 3  # how far a neighbourhood reaches


def check_hops(hops: int) -> None:
    """Refuse a neighbourhood of other than 1 to ``MAX_HOPS`` relations."""
    if not 1 <= hops <= MAX_HOPS:
        raise InvalidInput(f"hops must be between 1 and {MAX_HOPS}, got {hops}")


def no_entity(name: str, *, write: bool = False) -> NotFound:
    """There is no entity ``name`` (for a ``write``: nothing was changed)."""
    return NotFound(f"Entity {name!r} does not exist." + (" Nothing was changed." if write else ""))


def no_entity_to_add_to(name: str) -> NotFound:
    """add_observations names an entity that does not exist."""
    return NotFound(f"Entity {name!r} does not exist; create it with create_entities first. "
                    "No observations were added.")


def no_relation_end(name: str, src: str, rtype: str, dst: str) -> NotFound:
    """An end (``name``) of the relation ``src -rtype-> dst`` does not exist, and may not be made up."""
    return NotFound(f"Entity {name!r} (in relation {src!r} -{rtype}-> {dst!r}) does not exist; create it first. "
                    "No relations were created.")


def not_deleted(name: str) -> Conflict:
    """Restoring ``name``, which exists."""
    return Conflict(f"Entity {name!r} exists; only a deleted entity can be restored.")


def no_deletion(name: str) -> NotFound:
    """Restoring ``name``, whose deletion change_log does not hold."""
    return NotFound(f"No deletion of {name!r} is recorded; nothing to restore.")
