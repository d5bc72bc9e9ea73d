"""Every live entity's name, folded into the keys the duplicate rules pair by, kept between runs.

The duplicate detector (``core.hygiene.duplicates``) compares names through three dictionaries:
the name written without separators (``same``), its words in any order (``order``), and its rare
words and one-word prefixes and suffixes (``blocks``, for initials, slips and one name inside the
other). Building them folds and splits every name: at 100k entities that was half of the
detector's time, and almost all of it was spent again on every reflect for names that had not
changed.

``NameIndex.update`` takes the (id, name, type) rows as they stand and changes only what differs
from the last run: a new, renamed, retyped, deleted or archived entity moves in or out of its
keys, the rest is left as it was. The index lives as long as the graph store object (one per open
memory), so a later reflect in the same process pays for the changed names only; a new process
starts with a full pass, which folds the names in bulk (``tokens_many``, a few regular
expressions over all the names at once instead of several calls per name).
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from core.hygiene import names as N
from core.reflect.model import vocabulary_key
from core.search.folding import fold

WILDCARD_TYPES = frozenset({"unknown", "generic", "entity", "thing", "other", ""})
BLOCK_CAP = 40  # a word or prefix shared by more names than this is too common to pair them by

_SEP = "\x00"  # between names in a bulk pass (a name holding it is folded alone)
_BULK_SPLIT = re.compile(r"[^\w\x00]|_", re.UNICODE)  # N._SPLIT's separators, one character each
_SPECIAL = frozenset(N.TITLES) | frozenset(N.VARIANT)


def family(etype: str) -> str:
    """The type as the rules compare it; ``*`` for a placeholder (``Unknown``, ``Generic`` …)."""
    key = vocabulary_key(etype)
    return "*" if key in WILDCARD_TYPES else key


def tokens_many(names: Sequence[str]) -> list[list[str]]:
    """``[names.tokens(n) for n in names]``, folded in bulk: the same words for every name."""
    bulk = [n for n in names if _SEP not in n]
    if len(bulk) < len(names):
        alone = {n: N.tokens(n) for n in names if _SEP in n}
        done = iter(_bulk_tokens(bulk))
        return [alone[n] if n in alone else next(done) for n in names]
    return _bulk_tokens(bulk)


def _bulk_tokens(names: Sequence[str]) -> list[list[str]]:
    if not names:
        return []
    text = _SEP.join(names)
    # camelCase is split before folding, as tokens() does; an all-lowercase name has nothing to split.
    text = N.CAMEL.sub(" ", text)
    if text.isascii():
        text = text.lower()
    else:
        text = _SEP.join(fold(part).translate(N.LETTERS) if not part.isascii() else part.lower()
                         for part in text.split(_SEP))
    out: list[list[str]] = []
    special = _SPECIAL
    for part in _BULK_SPLIT.sub(" ", text).split(_SEP):
        words = part.split()
        if special.isdisjoint(words):
            out.append(words)
            continue
        kept = [N.VARIANT.get(w, w) for w in words if w not in N.TITLES]
        out.append(kept or words)
    return out


def _order_key(toks: Sequence[str]) -> str | None:
    if len(toks) == 2:
        x, y = toks
        return f"{x} {y}" if x < y else f"{y} {x}"
    return " ".join(sorted(toks)) if len(toks) > 2 else None


def _block_keys(toks: Sequence[str]) -> list[str]:
    keys = []
    if len(toks) == 1 and len(toks[0]) >= 8:  # a slip in a one-word name: paired by its start or end
        keys += ["p:" + toks[0][:4], "s:" + toks[0][-4:]]
    keys += ["w:" + t for t in dict.fromkeys(toks) if len(t) >= 3 and not t.isdigit()]  # a number alone names nothing
    return keys


class Keyed:
    """Ids by key, cheap when most keys hold one id (most names are unique): ``{key: id}`` for
    those and ``{key: [ids]}`` for the rest, so a large index holds few lists for the garbage
    collector to walk."""

    def __init__(self) -> None:
        self.one: dict[str, int] = {}
        self.many: dict[str, list[int]] = {}

    def add(self, key: str, i: int) -> None:
        many = self.many.get(key)
        if many is not None:
            many.append(i)
            return
        j = self.one.pop(key, None)
        if j is None:
            self.one[key] = i
        else:
            self.many[key] = [j, i]

    def remove(self, key: str, i: int) -> None:
        many = self.many.get(key)
        if many is None:
            if self.one.get(key) == i:
                del self.one[key]
            return
        many.remove(i)
        if len(many) == 1:
            self.one[key] = many[0]
            del self.many[key]

    @classmethod
    def build(cls, keys: list[str], ids: list[int]) -> Keyed:
        """The index of ``ids[n]`` by ``keys[n]``, in a few passes at C speed where it can."""
        made = cls()
        made.one = dict(zip(keys, ids, strict=True))
        if len(made.one) < len(keys):
            repeated = {k for k, n in Counter(keys).items() if n > 1}
            many: dict[str, list[int]] = {k: [] for k in repeated}
            for k, i in zip(keys, ids, strict=True):
                if k in repeated:
                    many[k].append(i)
            for k in repeated:
                del made.one[k]
            made.many = many
        return made

    def get(self, key: str) -> list[int]:
        many = self.many.get(key)
        if many is not None:
            return many
        one = self.one.get(key)
        return [] if one is None else [one]


def words_of(rows: Sequence[tuple[int, str, str, str | None]]) -> tuple[list[list[str]], list[tuple[int, str, str]]]:
    """Each row's words: the stored ones (``HygieneStore.entity_name_rows``) where the backend
    holds them for the current name, folded here where not; and the (id, name, stored words) of
    those folded, for the backend to store."""
    parse = N.parse_tokens
    words: list[list[str] | None] = [None if t is None else parse(t) for _, _, _, t in rows]
    missing = [k for k, w in enumerate(words) if w is None]
    folded = tokens_many([rows[k][1] for k in missing])
    for k, w in zip(missing, folded, strict=True):
        words[k] = w
    unsaved = [(rows[k][0], rows[k][1], N.stored_tokens(w)) for k, w in zip(missing, folded, strict=True)]
    return words, unsaved  # type: ignore[return-value]  # every None was filled


class NameIndex:
    """The live entities' names by the keys the duplicate rules pair by (see the module docstring)."""

    def __init__(self) -> None:
        self.rows: dict[int, tuple[str, str]] = {}  # id → (name, type) as last seen
        self.info: dict[int, tuple[str, str, tuple[str, ...]]] = {}  # id → (name, family, tokens)
        self.same, self.order, self.blocks = Keyed(), Keyed(), Keyed()
        self.changed: set[int] = set()  # ids added, changed or removed by the last update
        self.dirty_blocks: set[str] = set()  # block keys whose members changed in the last update
        self._last: list[tuple[int, str, str]] = []
        self.families: dict[str, str] = {}
        self.last_change = -1  # the change log id the index was last brought to (``duplicates``)
        self.unsaved: list[tuple[int, str, str]] = []  # words folded here, not yet stored (``words_of``)

    def update(self, rows: list[tuple[int, str, str]], words: list[list[str]] | None = None) -> None:
        """Bring the index to ``rows`` (every live entity's id, name, type); ``words``, when
        given, are each row's ``names.tokens`` already (read where they were stored), used on a
        first pass instead of folding the names again."""
        self.changed = set()
        self.dirty_blocks = set()
        if rows == self._last:
            return
        if not self.rows:
            self._build(rows, words)
        else:
            now = {i: (n, t) for i, n, t in rows}
            gone = [i for i, nt in self.rows.items() if now.get(i) != nt]
            for i in gone:
                self._remove(i)
            self._add_all([(i, n, t) for i, (n, t) in now.items() if i not in self.rows])
        self._last = rows

    def update_some(self, rows: list[tuple[int, str, str]], gone: Iterable[int]) -> None:
        """Bring the entities ``rows`` (id, name, type) up to date and drop the ids ``gone``; the
        others are as the last update left them."""
        self.changed = set()
        self.dirty_blocks = set()
        for i in {*gone, *(r[0] for r in rows if self.rows.get(r[0]) != (r[1], r[2]))}:
            if i in self.rows:
                self._remove(i)
        self._add_all([r for r in rows if r[0] not in self.rows])
        self._last = []  # the next full update compares every row

    def _build(self, rows: list[tuple[int, str, str]], words: list[list[str]] | None = None) -> None:
        """The first pass over every name: keys made and indexed in bulk."""
        toks = words if words is not None else tokens_many([r[1] for r in rows])
        families = self.families
        for t in {r[2] for r in rows}:
            if t not in families:
                families[t] = family(t)
        ids = [r[0] for r in rows]
        self.rows = {i: (n, t) for i, n, t in rows}
        self.info = {i: (n, families[t], tuple(w)) for (i, n, t), w in zip(rows, toks, strict=True)}
        named = [(i, w) for i, w in zip(ids, toks, strict=True) if w]
        ids = [i for i, _ in named]
        words = [w for _, w in named]
        self.same = Keyed.build(list(map("".join, words)), ids)
        # A one-word name's words in any order are its name (already in ``same``): left out, as
        # ``_order_key`` does.
        several = [(i, w) for i, w in named if len(w) > 1]
        self.order = Keyed.build(list(map(" ".join, map(sorted, [w for _, w in several]))), [i for i, _ in several])
        # ``_block_keys`` of every name, in two flat passes: the words (``w:``), then a long
        # one-word name's start and end (``p:``, ``s:``). Each key's ids stay in the names' order.
        pairs = [(i, t) for i, w in named for t in (dict.fromkeys(w) if len(w) > 1 else w)
                 if len(t) >= 3 and not t.isdigit()]
        long = [(i, w[0]) for i, w in named if len(w) == 1 and len(w[0]) >= 8]
        block_keys = ["w:" + t for _, t in pairs] + ["p:" + t[:4] for _, t in long] + ["s:" + t[-4:] for _, t in long]
        block_ids = [i for i, _ in pairs] + [i for i, _ in long] * 2
        self.blocks = Keyed.build(block_keys, block_ids)
        self.changed = set(self.rows)
        self.dirty_blocks = set(self.blocks.many)

    def _add_all(self, rows: list[tuple[int, str, str]]) -> None:
        families = self.families
        seen, info = self.rows, self.info
        same, order, blocks = self.same.add, self.order.add, self.blocks.add
        changed, dirty = self.changed, self.dirty_blocks
        for (i, n, t), toks in zip(rows, tokens_many([r[1] for r in rows]), strict=True):
            fam = families.get(t)
            if fam is None:
                fam = families[t] = family(t)
            seen[i] = (n, t)
            info[i] = (n, fam, tuple(toks))
            changed.add(i)
            if not toks:
                continue
            same("".join(toks), i)
            key = _order_key(toks)
            if key is not None:
                order(key, i)
            for b in _block_keys(toks):
                blocks(b, i)
                dirty.add(b)

    def _remove(self, i: int) -> None:
        del self.rows[i]
        _n, _f, toks = self.info.pop(i)
        self.changed.add(i)
        if not toks:
            return
        self.same.remove("".join(toks), i)
        key = _order_key(toks)
        if key is not None:
            self.order.remove(key, i)
        for b in _block_keys(toks):
            self.blocks.remove(b, i)
            self.dirty_blocks.add(b)


_INDEXES: weakref.WeakKeyDictionary[Any, NameIndex] = weakref.WeakKeyDictionary()


def for_graph(graph: Any) -> NameIndex:
    """The index kept for ``graph`` (a graph store object) in this process; a new one at first."""
    try:
        index = _INDEXES.get(graph)
    except TypeError:  # not weakly referable: nothing is kept
        return NameIndex()
    if index is None:
        index = _INDEXES[graph] = NameIndex()
    return index


def forget(graph: Any) -> None:
    """Drop the index kept for ``graph``: the next run reads every name again."""
    try:
        _INDEXES.pop(graph, None)
    except TypeError:
        pass
