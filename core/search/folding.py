"""Folding text for matching: case, accents and Unicode forms, so ``José`` finds ``jose``.

The stored text is never changed; only the search indexes and the queries are folded, the same
way on both sides.
"""

from __future__ import annotations

import re
import unicodedata

from core.search.stopwords import STOPWORDS

_WORD = re.compile(r"\w+", re.UNICODE)


def fold(text: str) -> str:
    """Fold ``text`` for matching: compatibility-decompose, drop combining marks, casefold.

    ``Canción`` → ``cancion``; ``Straße`` → ``strasse``; ``ﬁ`` → ``fi``. Emoji and CJK pass through.
    """
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", stripped.casefold())


def fts_phrase(text: str) -> str:
    """Quote ``text`` as one FTS5 string literal: every character inside is matched literally."""
    return '"' + text.replace('"', '""') + '"'


def fts_words_query(text: str) -> str | None:
    """An FTS5 query matching any of the words of ``text`` (each quoted, so no operator leaks).

    Function words ("de", "the"…) are left out unless the query holds nothing else. Returns
    ``None`` when ``text`` holds no word characters at all.
    """
    words = list(dict.fromkeys(_WORD.findall(fold(text))))
    if not words:
        return None
    content = [w for w in words if w not in STOPWORDS]
    return " OR ".join(fts_phrase(w) for w in (content or words))
