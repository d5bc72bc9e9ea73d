"""Folding text for matching: case, accents and Unicode forms, so ``José`` finds ``jose``.

The stored text is never changed; only the search indexes and the queries are folded, the same
way on both sides.
"""

from __future__ import annotations

import re
import unicodedata

from core.search.stopwords import STOPWORDS

WORD = re.compile(r"\w+", re.UNICODE)
_SEPARATORS = re.compile(r"[\s_.\-]+", re.UNICODE)


def fold(text: str) -> str:
    """Fold ``text`` for matching: compatibility-decompose, drop combining marks, casefold.

    ``Canción`` → ``cancion``; ``Straße`` → ``strasse``; ``ﬁ`` → ``fi``. Emoji and CJK pass through.
    """
    if text.isascii():  # nothing to decompose: casefold is lower() there (most text; 20× faster)
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped.casefold())


def name_key(text: str) -> str:
    """A name as a query naming it is compared with it: folded, each run of separators (spaces,
    ``_``, ``-``, ``.``) one space, none at the ends, so ``pepe_RUIZ`` names "Pepe Ruiz"; other
    signs stay ("C++" is not "C")."""
    return _SEPARATORS.sub(" ", fold(text)).strip()


def fts_phrase(text: str) -> str:
    """Quote ``text`` as one FTS5 string literal: every character inside is matched literally."""
    return '"' + text.replace('"', '""') + '"'


def content_words(text: str) -> list[str]:
    """The folded words of ``text``, once each, in order, without function words ("de", "the"…)
    unless the text holds nothing else."""
    words = list(dict.fromkeys(WORD.findall(fold(text))))
    return [w for w in words if w not in STOPWORDS] or words


def fts_words_query(text: str) -> str | None:
    """An FTS5 query matching any of the content words of ``text`` (each quoted, so no operator
    leaks); ``None`` when ``text`` holds no word characters at all."""
    words = content_words(text)
    return " OR ".join(fts_phrase(w) for w in words) if words else None
