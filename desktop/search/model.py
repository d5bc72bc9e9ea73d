"""Search results as a Qt list model, with the snippet that shows why each one matched.

``run_search`` runs on a worker thread (through ``Core.read``): it asks ``core.Memory`` and turns
what comes back into :class:`SearchHit` rows, snippets included, so the GUI thread only paints. By
meaning, the snippet is the fact that matched best (search ranks facts); by exact text, the
observation holding the most of what was typed.
Matching folds case and accents the way the core does (``core.search.folding.fold``), so the
words highlighted are the words that matched.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from core.memory import Memory
from core.search.folding import content_words, fold

Span = tuple[int, int]  # start, length in the original (unfolded) text

MEANING = "meaning"
EXACT = "exact"
MEANING_LIMIT = 40
EXACT_LIMIT = 200  # asked of search_nodes; filtered by type here, so ask for more than is shown
SHOWN_LIMIT = 100
SNIPPET_CHARS = 160
SNIPPET_LEAD = 40  # characters kept before the first match when an observation is cut


@dataclass
class SearchHit:
    """One result row: what the delegate paints and what the tooltip says."""

    name: str
    entity_type: str
    score: float | None  # None in exact mode: a substring either matches or it does not
    snippet: str
    snippet_spans: list[Span] = field(default_factory=list)
    name_spans: list[Span] = field(default_factory=list)
    observation_count: int = 0
    similarity: float | None = None
    fact: str | None = None  # by meaning: the observation that matched best (the editor scrolls to it)


@dataclass
class SearchOutcome:
    """What one search returned, tagged with what was asked (late answers are recognised)."""

    query: str
    mode: str
    entity_type: str | None
    hits: list[SearchHit]


def fold_with_map(text: str) -> tuple[str, list[int]]:
    """``fold(text)`` built character by character, with the original index of each folded one."""
    folded: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        piece = fold(ch) if not ch.isascii() else ch.lower()
        folded.append(piece)
        where.extend([i] * len(piece))
    return "".join(folded), where


def match_spans(text: str, needles: list[str]) -> list[Span]:
    """Where any of the folded ``needles`` occurs in ``text``, as merged spans of the original."""
    if not text or not needles:
        return []
    folded, where = fold_with_map(text)
    marks: list[Span] = []
    for needle in needles:
        if not needle:
            continue
        start = folded.find(needle)
        while start >= 0:
            first, last = where[start], where[start + len(needle) - 1]
            marks.append((first, last - first + 1))
            start = folded.find(needle, start + len(needle))
    return _merge(marks)


def _merge(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, length in sorted(spans):
        if merged and start <= merged[-1][0] + merged[-1][1]:
            prev_start, prev_len = merged[-1]
            merged[-1] = (prev_start, max(prev_len, start + length - prev_start))
        else:
            merged.append((start, length))
    return merged


def needles_for(query: str, mode: str) -> list[str]:
    """What to highlight: the whole folded query in exact mode, its content words by meaning."""
    if mode == EXACT:
        return [fold(query)] if query else []
    return [w for w in content_words(query) if len(w) > 1 or not w.isascii()]


def _fold(text: str) -> str:
    # Most observations are plain ASCII: lower() is fold() for them, and far quicker.
    return text.lower() if text.isascii() else fold(text)


def best_snippet(observations: list[str], needles: list[str], width: int = SNIPPET_CHARS) -> tuple[str, list[Span]]:
    """The observation that matches the most distinct needles (then the most often), cut to
    about ``width`` characters around its first match; the first observation if none match."""
    best: tuple[int, int] | None = None  # (distinct needles, occurrences); the earliest wins ties
    chosen, first = -1, 0
    for index, text in enumerate(observations):
        folded = _fold(text)
        present = [n for n in needles if n and n in folded]
        if not present:
            continue
        key = (len(present), sum(folded.count(n) for n in present))
        if best is None or key > best:
            best, chosen, first = key, index, min(folded.find(n) for n in present)
    if chosen < 0:
        text = _one_line(observations[0]) if observations else ""
        return _cut(text, 0, width), []
    text = _one_line(observations[chosen])
    # Map folded positions back only around the first match: folding rarely changes a text's
    # length, and the margin absorbs what it does (a long observation is never mapped whole).
    low = max(0, first - SNIPPET_LEAD - 200)
    spans = [(s + low, n) for s, n in match_spans(text[low:first + width + 200], needles)]
    if not spans:
        spans = match_spans(text, needles)
    start = max(0, spans[0][0] - SNIPPET_LEAD) if spans[0][0] + spans[0][1] > width else 0
    if start:  # begin on a word boundary
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < spans[0][0] else start
    snippet = _cut(text, start, width)
    shift = 1 if start else 0  # the leading "…"
    shown = [(s - start + shift, n) for s, n in spans if s >= start and s - start < width]
    return snippet, shown


_ONE_LINE = str.maketrans({"\r": " ", "\n": " ", "\t": " ", "\u2028": " ", "\u2029": " "})


def _one_line(text: str) -> str:
    # One character for one, so spans stay valid.
    return text.translate(_ONE_LINE)


def _cut(text: str, start: int, width: int) -> str:
    body = text[start:start + width]
    return ("…" if start else "") + body + ("…" if start + width < len(text) else "")


def run_search(memory: Memory, query: str, mode: str, entity_type: str | None) -> SearchOutcome:
    """Search ``memory`` (on a worker thread) and shape the results for the list."""
    needles = needles_for(query, mode)
    hits: list[SearchHit] = []
    if mode == EXACT:
        graph = memory.search_nodes(query, limit=EXACT_LIMIT)
        for entity in graph.entities:
            if entity_type and entity.entityType != entity_type:
                continue
            hits.append(_hit(entity.name, entity.entityType, list(entity.observations), needles, None, None))
            if len(hits) >= SHOWN_LIMIT:
                break
    else:
        # Typing is not recalling: partial queries and live refreshes must not train the limbic
        # scores that rank what the assistants get back.
        for item in memory.search_semantic(query, MEANING_LIMIT, entity_type=entity_type, record=False):
            distance = item.get("distance")  # of its best fact, or of the entity itself
            similarity = None if distance is None else max(0.0, 1.0 - float(distance))
            facts = list(item["observations"])  # its matching facts, best first
            hit = _hit(item["name"], item["entityType"], facts[:1], needles, float(item["score"]), similarity)
            hit.observation_count = len(facts) + int(item.get("other_observations", 0))
            hit.fact = facts[0] if facts else None
            hits.append(hit)
    return SearchOutcome(query, mode, entity_type, hits)


def _hit(name: str, entity_type: str, observations: list[str], needles: list[str],
         score: float | None, similarity: float | None) -> SearchHit:
    snippet, spans = best_snippet(observations, needles)
    return SearchHit(name=name, entity_type=entity_type, score=score, snippet=snippet, snippet_spans=spans,
                     name_spans=match_spans(name, needles), observation_count=len(observations),
                     similarity=similarity)


class SearchResultsModel(QAbstractListModel):
    """The rows of the search pane's list; ``HitRole`` gives the whole :class:`SearchHit`."""

    HitRole = Qt.ItemDataRole.UserRole + 1
    NameRole = Qt.ItemDataRole.UserRole + 2
    TopScoreRole = Qt.ItemDataRole.UserRole + 3

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._hits: list[SearchHit] = []
        self._top = 0.0

    def set_hits(self, hits: list[SearchHit]) -> None:
        """Replace every row."""
        self.beginResetModel()
        self._hits = list(hits)
        self._top = max((h.score for h in hits if h.score is not None), default=0.0)
        self.endResetModel()

    def clear(self) -> None:
        self.set_hits([])

    def hit(self, row: int) -> SearchHit:
        return self._hits[row]

    def row_of(self, name: str) -> int:
        """The row showing ``name``, or -1."""
        return next((i for i, h in enumerate(self._hits) if h.name == name), -1)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self._hits)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._hits):
            return None
        hit = self._hits[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, self.NameRole):
            return hit.name
        if role == self.HitRole:
            return hit
        if role == self.TopScoreRole:
            return self._top
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(hit)
        return None

    def _tooltip(self, hit: SearchHit) -> str:
        lines = [self.tr("{name} ({type}), {count} observations").format(
            name=hit.name, type=hit.entity_type, count=hit.observation_count)]
        if hit.score is not None:
            lines.append(self.tr("Score {score:.2f}").format(score=hit.score))
        if hit.similarity is not None:
            lines.append(self.tr("Closeness in meaning {value:.0%}").format(value=hit.similarity))
        return "\n".join(lines)
