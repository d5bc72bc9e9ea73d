"""Duplicates by meaning: two names that share no spelling but say the same thing, with neighbours
in common (``Billing service`` / ``Servicio de facturación``, ``Proyecto Atlas`` / ``Project Atlas``).

A name's vector alone cannot tell them from near misses: with the bundled model translations score
0.90–0.96 and so do ``Project Atlas`` / ``Project Apollo`` (0.94) or ``Sprint 41`` / ``Sprint 42``
(0.97). So a pair is proposed only when every kind of evidence agrees, and never when a veto holds:

* **candidates** — two entities of compatible types (``name_index.family``, or one type in two
  languages: ``Process`` / ``Proceso``; people's names are left to the spelling rules: they are
  not translated) linked to a common neighbour that is not a hub
  (at most ``HUB_CAP`` links). Only pairs with an entity written since the last run are judged
  (its name, facts or relations); the verdicts of the others are remembered. A process's first run
  judges the newest ``MAX_JUDGED`` entities (a duplicate is made when its second entity is
  written), not every old pair: at 100k entities that costs ~0.1 s once, where judging everything
  would cost seconds;
* **vetoes**, on the folded words — the numbers differ (``Sprint 41`` / ``42``, ``v1`` / ``v2``,
  ``Q3`` / ``Q4``, ``Sprint 12 review`` / ``Sprint review``; digits inside a word on one side only
  are a short form: ``K8s`` / ``Kubernetes``); the names share words and exactly one word differs on
  each side, not a cognate nor a short form (``Project Apollo`` / ``Project Artemis``, ``Frontend
  team`` / ``Backend team``, ``Acme Corp`` / ``Acme Labs``; also on the words as written, so
  ``JavaScript`` is one word), unless the names are in two languages (``Madrid office`` /
  ``Oficina de Madrid``: the word is the translation, and the facts must then agree); both are one
  word that is not a cognate of the other (``Frontend`` / ``Backend``); one name's words are all in
  the other (``React`` / ``React Native``: the spelling rules judge those), but for a note in
  brackets on one name (``Hospital del Mar`` / ``Hospital del Mar (Barcelona)``, ``names.noted``:
  proposed only when the facts agree or two neighbours are in common);
* **read plainly** (``core.hygiene.glossary``: short forms written out, common words of both
  languages and synonyms as one word) — names that read the same (``Prod DB`` / ``Production
  database``, ``Valencia office`` / ``Oficina de Valencia``) need only the neighbour in common and
  facts not apart; names two known words apart (``Staging DB`` / ``Production database``, ``Auth
  API`` / ``Authz API``) are vetoed, and so are names that share a common word and differ only by
  proper names (``Museo del Prado`` / ``Museo Reina Sofía``, ``_proper_apart``);
* **evidence** — the names close in meaning (cosine of the names embedded alone ≥ ``NAME_MIN``) and
  the words of each name matched by meaning in the other (``WORDS_MIN``), or one name a short form
  of the other (``SSO`` / ``Single sign-on``, ``CI pipeline`` / ``Continuous integration pipeline``);
  names with no word in common in one language (told by the function words of the names and facts)
  are two things (``Input sanitization`` / ``Output escaping``: siblings; the same thing keeps a
  word of its name); and the facts agreeing (best cosine between a fact of each ≥ ``FACTS_MIN``,
  facts both hold word for word left out: siblings share those) or two neighbours or more in
  common, but never facts as far apart as ``FACTS_FLOOR``.

The insight says which neighbours are shared and the similarities. Embeddings come from the
memory's embedder (``attach``); without one (``embeddings = none``) nothing is proposed by meaning
and nothing is read.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # numpy loads when a pair is judged: a stdio server starts without it
    import numpy as np

from core.errors import HipocampoError
from core.hygiene import glossary, written
from core.hygiene.name_index import NameIndex
from core.hygiene.names import fact_key, noted, noted_which
from core.search.folding import fold

HUB_CAP = 50  # a neighbour linked to more entities than this says little about any two of them
MAX_JUDGED = 2000  # entities judged by a process's first run (the newest) or written since the last
NAME_MIN = 0.88
WORDS_MIN = 0.86
FACTS_MIN = 0.88
# Facts this far apart tell two entities apart, even with neighbours in common (tuned: the tuning
# set's duplicates have facts ≥ 0.864 alike, its near misses with facts apart 0.82–0.835).
FACTS_FLOOR = 0.84
FACTS_READ = 6  # facts of each entity compared
PERSON_FAMILIES = frozenset({"person", "persona", "people", "contact", "user", "human", "employee"})
# Words that carry no meaning of their own in a name (English and Spanish).
_STOP = frozenset("the a an of for and to in on at by de del la el los las y para en un una al con".split())
# The Spanish among them: a name with one and a name with none are one thing said in two languages
# ("Oficina de Madrid" / "Madrid office"), where one word differing is the translation.
_SPANISH = frozenset("de del la el los las y para en un una al con".split())
_ENGLISH = frozenset("the of for and to in on at by with from is are was were be it its their his her this that "
                     "what which who when before after over into or not an every each".split())
_SPANISH_MORE = frozenset("por es son se que lo sus su este esta estos estas como pero sin sobre entre cada "
                          "cuando antes despues".split())
_WORDS = re.compile(r"[\W_]+", re.UNICODE)
_DIGITS = re.compile(r"\d+")
_NUMERONYM = re.compile(r"^([a-z])(\d+)([a-z])$")  # k8s, i18n, a11y
_VERSION = re.compile(r"^v\d[\d.]*$")  # v2, v1.3: a version, another thing, not a short form

_EMBEDDERS: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def attach(graph: Any, embedder: Any) -> None:
    """Let the duplicate detector over ``graph`` embed names and facts with ``embedder`` (a provider
    with no dimensions, the ``none`` one, is ignored)."""
    if embedder is not None and int(getattr(embedder, "dimensions", 0) or 0) > 0:
        try:
            _EMBEDDERS[graph] = embedder
        except TypeError:
            pass


def embedder_for(graph: Any) -> Any:
    try:
        return _EMBEDDERS.get(graph)
    except TypeError:
        return None


@dataclass(frozen=True)
class Verdict:
    """A pair judged the same by meaning, with the evidence the insight shows."""

    a: int
    b: int
    names: float
    words: float
    facts: float | None
    shared: tuple[int, ...]
    confidence: float


def _content(toks: Sequence[str]) -> list[str]:
    return [t for t in toks if t not in _STOP and len(t) > 1]


def cognate(x: str, y: str) -> bool:
    """Spelled alike across languages (``service`` / ``servicio``, ``proyecto`` / ``project``), or
    one the short form of the other (``auth`` / ``authentication``, ``k8s`` / ``kubernetes``)."""
    if x == y or abbreviates(x, [y]) or abbreviates(y, [x]):
        return True
    if min(len(x), len(y)) < 4 or x[:2] != y[:2] or _edited_inside(x, y):
        return False
    return SequenceMatcher(None, x, y).ratio() >= 0.7


def _edited_inside(x: str, y: str) -> bool:
    """Two short words (≤ 6 letters) one letter apart inside, not at the end (``stats`` /
    ``status``, ``cost`` / ``cast``): two words. Cognates differ at the end (``lista`` / ``list``,
    ``mapa`` / ``map``)."""
    if max(len(x), len(y)) > 6 or abs(len(x) - len(y)) > 1:
        return False
    short, long_ = sorted((x, y), key=len)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    if len(short) == len(long_):
        return i < len(short) - 1 and short[i + 1:] == long_[i + 1:]
    return i < len(short) and short[i:] == long_[i + 1:]


def abbreviates(short: str, words: Sequence[str]) -> bool:
    """Whether ``short`` is a short form of ``words``: their initials (``sso`` / single sign on,
    ``ci`` / continuous integration), a numeronym (``k8s`` / kubernetes) or, for one word, its
    first four letters or more, cut well short (``auth`` / authentication)."""
    if len(words) >= 2:
        return 2 <= len(short) <= 6 and short.isalpha() and short == "".join(w[0] for w in words if w)
    if len(words) != 1 or len(short) >= len(words[0]):
        return False
    word = words[0]
    numeronym = _NUMERONYM.match(short)
    if numeronym:
        first, count, last = numeronym.groups()
        return word[0] == first and word[-1] == last and len(word) == int(count) + 2
    # A cut word is much shorter than the word; a word that begins one a bit longer is a compound
    # (``lake`` / ``lakehouse``, ``data`` / ``database``, ``note`` / ``notebook``), another thing.
    return len(short) >= 4 and short.isalpha() and word.startswith(short) and len(word) >= 2.5 * len(short)


def _one_word_apart(ta: Sequence[str], tb: Sequence[str]) -> bool:
    """Words in common and exactly one other on each side, not a cognate (``Frontend team`` /
    ``Backend team``; ``Madrid office`` / ``Oficina de Madrid`` when in two languages)."""
    ca, cb = _content(ta) or list(ta), _content(tb) or list(tb)
    shared = set(ca) & set(cb)
    only_a, only_b = [t for t in ca if t not in shared], [t for t in cb if t not in shared]
    return bool(shared) and len(only_a) == 1 and len(only_b) == 1 and not cognate(only_a[0], only_b[0])


def _in_two_languages(ta: Sequence[str], tb: Sequence[str]) -> bool:
    return bool(_SPANISH.intersection(ta)) != bool(_SPANISH.intersection(tb))


def _numbers_differ(ta: Sequence[str], tb: Sequence[str]) -> bool:
    """Their numbers differ: both have numbers, not the same; or one has a number standing alone
    (``Sprint 12 review`` / ``Sprint review``) or a version (``Payments svc`` / ``Payments service
    v2``). Other digits inside a word on one side only are a short form (``K8s`` / ``Kubernetes``,
    ``Q3`` / ``Third quarter``)."""
    na, nb = sorted(_DIGITS.findall(" ".join(ta))), sorted(_DIGITS.findall(" ".join(tb)))
    if na == nb:
        return False
    if na and nb:
        return True
    return any(t.isdigit() or _VERSION.match(t) for t in (ta if na else tb))


def veto(ta: Sequence[str], tb: Sequence[str]) -> str | None:
    """Why two names (their folded words) are not one thing whatever their meaning, or None. Digits
    inside a word on one side only are a short form, not a number (``K8s`` / ``Kubernetes``); one
    word differing is a translation when the names are in two languages (``Madrid office`` /
    ``Oficina de Madrid``)."""
    if _numbers_differ(ta, tb):
        return "their numbers differ"
    ca, cb = _content(ta) or list(ta), _content(tb) or list(tb)
    shared = set(ca) & set(cb)
    only_a, only_b = [t for t in ca if t not in shared], [t for t in cb if t not in shared]
    if _one_word_apart(ta, tb) and not _in_two_languages(ta, tb):
        return "one word differs"
    if len(ca) == 1 and len(cb) == 1 and not cognate(ca[0], cb[0]):
        return "two different words"
    if shared and (not only_a or not only_b):
        return "one name inside the other"  # the spelling rules' case (``Ruby`` / ``Ruby on Rails``)
    return None


def _read_apart(ta: Sequence[str], tb: Sequence[str]) -> bool:
    """Read plainly (``glossary``: short forms written out, common words of two languages in one),
    the names are two words the glossary knows apart (``Staging DB`` / ``Production database``,
    ``Auth API`` / ``Authz API``, ``Informe trimestral`` / ``Annual report``): two things."""
    return glossary.known_apart(ta, tb)


def _capitalised(name: str) -> set[str]:
    """The folded words of ``name`` written with a capital, but for its first word (``Museo Reina
    Sofía`` → reina, sofia): proper names."""
    words = [w for w in _WORDS.split(name) if w]
    return {fold(w).lower() for w in words[1:] if w[:1].isupper()}


def _proper_apart(a: str, b: str, ta: Sequence[str], tb: Sequence[str]) -> bool:
    """The names share a common word the glossary knows and differ only by proper names
    (capitalised, not the first word), none a cognate or a short form of another (``Museo del
    Prado`` / ``Museo Reina Sofía``, ``Hospital Clínic`` / ``Hospital Gregorio Marañón``): two of
    a kind, even when their function words look like two languages."""
    ca, cb = _content(ta), _content(tb)
    shared = set(ca) & set(cb)
    own_a, own_b = [t for t in ca if t not in shared], [t for t in cb if t not in shared]
    if not shared or not own_a or not own_b or not any(glossary.read([w])[1] for w in shared):
        return False
    if not set(own_a) <= _capitalised(a) or not set(own_b) <= _capitalised(b) or abbreviated(ta, tb):
        return False
    return not any(cognate(x, y) for x in own_a for y in own_b)


def _one_word_differs(a: str, b: str) -> bool:
    """The one-word veto on the names' words as written, camelCase kept whole (``Python SDK`` /
    ``JavaScript SDK``: not ``java`` + ``script``)."""
    wa, wb = (_WORDS.split(fold(n).lower()) for n in (a, b))
    return veto([w for w in wa if w], [w for w in wb if w]) == "one word differs"


def language(words: Iterable[str]) -> str | None:
    """``en`` or ``es`` by the function words among ``words`` (a name and its facts), None when
    they do not tell."""
    en = es = 0
    for w in words:
        en += w in _ENGLISH
        es += w in _SPANISH or w in _SPANISH_MORE
    return "en" if en > es else "es" if es > en else None


def abbreviated(ta: Sequence[str], tb: Sequence[str]) -> bool:
    """One name a short form of the other (``SSO`` / ``Single sign-on``, ``CI pipeline`` /
    ``Continuous integration pipeline``, ``K8s cluster`` / ``Kubernetes cluster``): the words
    they share, and one word of one the short form of the other's rest."""
    shared = set(ta) & set(tb)
    ra, rb = [t for t in ta if t not in shared], [t for t in tb if t not in shared]
    for short, long_ in ((ra, rb), (rb, ra)):
        if len(short) == 1 and long_ and abbreviates(short[0], long_):
            return True
    return False


@dataclass
class _State:
    """What one graph's detector remembers between runs in this process."""

    last_change: int = -1
    verdicts: dict[tuple[int, int], Verdict | None] = field(default_factory=dict)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)  # text → unit vector


_STATES = written.PerGraph()


def _state(graph: Any) -> _State:
    return _STATES.of(graph, _State)


def _touched(graph: Any, state: _State, index: NameIndex) -> set[int] | None:
    """Ids written since the last run (names, facts, relations), or None: judge everything."""
    latest = int(graph.latest_change_id())
    after, state.last_change = state.last_change, latest
    names = written.names_since(graph, after, latest, MAX_JUDGED) if after >= 0 else None
    if names is None:
        return None
    ids = set(graph.ids_for(sorted(names)).values()) if names else set()
    return ids | index.changed


def find(index: NameIndex, hs: Any, graph: Any, grouped: set[int]) -> list[Verdict]:
    """Pairs the same by meaning (see the module docstring), best first."""
    embedder = embedder_for(graph)
    if embedder is None:
        return []
    state = _state(graph)
    touched = _touched(graph, state, index)
    info = index.info
    if touched is None:
        state.verdicts.clear()
        touched = set(info)
    touched = {i for i in touched if i in info and info[i][1] not in PERSON_FAMILIES}
    judged = set(sorted(touched, reverse=True)[:MAX_JUDGED])  # newest first
    for pair in [p for p in state.verdicts if p[0] in judged or p[1] in judged
                 or p[0] not in info or p[1] not in info]:
        del state.verdicts[pair]
    pairs = _candidates(hs, info, judged, grouped)
    fresh = [(a, b, shared) for (a, b), shared in pairs.items() if (a, b) not in state.verdicts]
    judged_now = _judge(fresh, info, graph, embedder, state)
    if fresh and not judged_now:
        state.last_change = -1  # the model failed: judge these again next time
    for (a, b), verdict in judged_now.items():
        state.verdicts[(a, b)] = verdict
    found = [v for v in state.verdicts.values() if v is not None and v.a not in grouped and v.b not in grouped]
    seen: dict[int, int] = {}
    for v in found:
        seen[v.a] = seen.get(v.a, 0) + 1
        seen[v.b] = seen.get(v.b, 0) + 1
    # An entity close to two others is ambiguous: a person should look (nothing is proposed).
    return sorted((v for v in found if seen[v.a] == 1 and seen[v.b] == 1), key=lambda v: (-v.confidence, v.a, v.b))


def _compatible(fa: str, fb: str) -> bool:
    """The same type, a placeholder, or one type in two languages (``Process`` / ``Proceso``, ``Team``
    / ``Equipo``)."""
    return fa == fb or "*" in (fa, fb) or cognate(fa, fb) or glossary.read([fa])[0] == glossary.read([fb])[0]


def _candidates(hs: Any, info: dict[int, tuple[str, str, tuple[str, ...]]],
                judged: set[int], grouped: set[int]) -> dict[tuple[int, int], set[int]]:
    """(a, b) → neighbours in common, for pairs with an entity in ``judged``, through non-hub
    neighbours, not vetoed, neither of them proposed by the spelling rules already (``grouped``)."""
    if not judged:
        return {}
    near = hs.neighbours(sorted(judged))
    hubs_of = {n for ns in near.values() for n in ns}
    second = hs.neighbours(sorted(hubs_of))
    out: dict[tuple[int, int], set[int]] = {}
    vetoed: set[tuple[int, int]] = set()
    for x in judged - grouped:
        fx = info[x][1]
        for n in near.get(x, ()):
            others = second.get(n, set())
            if len(others) > HUB_CAP:
                continue
            for y in others:
                if y == x or y not in info or y in grouped or info[y][1] in PERSON_FAMILIES \
                        or not _compatible(fx, info[y][1]):
                    continue
                pair = (x, y) if x < y else (y, x)
                if pair in vetoed:
                    continue
                if pair not in out:
                    ta, tb = info[pair[0]][2], info[pair[1]][2]
                    if not glossary.same(ta, tb) and not noted(info[pair[0]][0], info[pair[1]][0]) and (
                            veto(ta, tb) is not None or _one_word_differs(info[pair[0]][0], info[pair[1]][0])
                            or _read_apart(ta, tb)
                            or _proper_apart(info[pair[0]][0], info[pair[1]][0], ta, tb)):
                        vetoed.add(pair)
                        continue
                    out[pair] = set()
                out[pair].add(n)
    return out


def _judge(pairs: list[tuple[int, int, set[int]]], info: dict[int, tuple[str, str, tuple[str, ...]]],
           graph: Any, embedder: Any, state: _State) -> dict[tuple[int, int], Verdict | None]:
    if not pairs:
        return {}
    ids = sorted({i for a, b, _ in pairs for i in (a, b)})
    names = {i: info[i][0] for i in ids}
    facts: dict[str, list[str]] = {e.name: list(e.observations)[:FACTS_READ]
                                   for e in graph.open_nodes(sorted(names.values())).entities}
    texts = list(names.values())
    texts += [w for i in ids for w in _content(info[i][2])]
    texts += [f for fs in facts.values() for f in fs]
    try:
        vec = _embed(texts, embedder, state)
    except HipocampoError:  # no model (missing, unreachable, interrupted): nothing proposed by meaning
        return {}
    out: dict[tuple[int, int], Verdict | None] = {}
    for a, b, shared in pairs:
        out[(a, b)] = _verdict(a, b, shared, info, names, facts, vec)
    return out


def _embed(texts: Iterable[str], embedder: Any, state: _State) -> Callable[[str], np.ndarray]:
    import numpy as np

    cache = state.vectors
    missing = sorted({t for t in texts if t not in cache})
    if missing:
        for start in range(0, len(missing), 64):
            chunk = missing[start : start + 64]
            for t, v in zip(chunk, np.asarray(embedder.embed_documents(chunk), dtype=np.float32), strict=True):
                n = float(np.linalg.norm(v))
                cache[t] = v / n if n else v
    if len(cache) > 50_000:  # bounded: the oldest texts go first
        for t in list(cache)[: len(cache) - 50_000]:
            del cache[t]
    return lambda t: cache[t] if t in cache else _embed([t], embedder, state)(t)


def _word_match(wa: list[str], wb: list[str], vec: Callable[[str], np.ndarray]) -> float:
    """How well each word of one name is matched by meaning by a word of the other (the worse way)."""
    import numpy as np

    if not wa or not wb:
        return 0.0
    ma = np.stack([vec(w) for w in wa])
    mb = np.stack([vec(w) for w in wb])
    sims = ma @ mb.T
    return float(min(sims.max(axis=1).mean(), sims.max(axis=0).mean()))


def _facts_agree(fa: list[str], fb: list[str], vec: Callable[[str], np.ndarray]) -> float | None:
    """The best cosine between a fact of each, leaving out the facts both hold word for word (what
    two siblings share, "part of the security checklist", says nothing about them being one)."""
    both = {fact_key(f) for f in fa} & {fact_key(f) for f in fb}
    fa, fb = [f for f in fa if fact_key(f) not in both], [f for f in fb if fact_key(f) not in both]
    if not fa or not fb:
        return None
    import numpy as np

    return float((np.stack([vec(f) for f in fa]) @ np.stack([vec(f) for f in fb]).T).max())


def _note_in_facts(note: str, a: str, b: str, facts: dict[str, list[str]]) -> bool:
    """The note's words are in the facts of the name without it (``Hotel Miramar (Málaga)`` /
    ``Hotel Miramar``: "our hotel for the wedding in Málaga"): the note says which, the facts agree."""
    plain = b if a.endswith(")") else a
    words = set(_WORDS.split(fold(" ".join(facts.get(plain, []))).lower()))
    return bool(note) and set(note.split()) <= words


def _verdict(a: int, b: int, shared: set[int], info: dict[int, tuple[str, str, tuple[str, ...]]],
             names: dict[int, str], facts: dict[str, list[str]],
             vec: Callable[[str], np.ndarray]) -> Verdict | None:
    name_sim = float(vec(names[a]) @ vec(names[b]))
    words = _word_match(_content(info[a][2]), _content(info[b][2]), vec)
    # A short form says the same name (``SSO`` / ``Single sign-on``): the model reads it poorly. So do
    # the glossary's short forms and translations (``Prod DB`` / ``Production database``).
    read_same = glossary.same(info[a][2], info[b][2])
    note = noted_which(names[a], names[b])  # "Hospital del Mar" / "… (Barcelona)": the facts decide
    short_form = read_same or note or abbreviated(info[a][2], info[b][2])
    if not short_form and (name_sim < NAME_MIN or words < WORDS_MIN):
        return None
    same_number = bool(_DIGITS.search(names[a])) and bool(_DIGITS.search(names[b]))  # the veto saw them equal
    if not short_form and not same_number and not set(_content(info[a][2])) & set(_content(info[b][2])):
        # No word in common: a translation, or siblings ("Input sanitization" / "Output escaping").
        # In one language the same thing keeps a word of its name; two words apart are two things.
        la, lb = (language([*info[i][2], *_WORDS.split(fold(" ".join(facts.get(names[i], []))).lower())])
                  for i in (a, b))
        if la is not None and la == lb:
            return None
    fact_sim = _facts_agree(facts.get(names[a], []), facts.get(names[b], []), vec)
    if note and _note_in_facts(note, names[a], names[b], facts):
        fact_sim = max(fact_sim or 0.0, FACTS_MIN)  # the facts name the note: they say which one
    if fact_sim is not None and fact_sim < FACTS_FLOOR:
        return None  # their facts tell them apart, whatever they share
    facts_agree = fact_sim is not None and fact_sim >= FACTS_MIN
    if note and not (facts_agree or len(shared) >= 2):
        return None  # "Córdoba" / "Córdoba (Argentina)": one name, two places, unless the facts agree
    # Names that read the same need one neighbour in common (a candidate has it) and facts not apart.
    if not (facts_agree or len(shared) >= 2 or read_same):
        return None
    if not facts_agree and not read_same and _one_word_apart(info[a][2], info[b][2]):
        return None  # one word apart in two languages: a translation only if the facts say the same
    confidence = round(min(0.75, 0.55 + 0.05 * len(shared) + (0.1 if fact_sim and fact_sim >= FACTS_MIN else 0)), 2)
    return Verdict(a, b, round(name_sim, 3), round(words, 3), None if fact_sim is None else round(fact_sim, 3),
                   tuple(sorted(shared)), confidence)
