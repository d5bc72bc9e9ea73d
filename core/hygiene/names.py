"""How two entity names are compared for duplicates: folded (case, accents, Unicode forms),
separators and punctuation ignored (``Ana_Garcia``, ``ana-garcia``, ``Ana García``), titles
dropped (``Dr.``, ``Sra.``) and common given-name variants mapped to one form (``Bob`` →
``robert``, ``Pepe`` → ``jose``)."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from core.search.folding import fold

_SPLIT = re.compile(r"[\W_]+", re.UNICODE)
_CAMEL = re.compile(r"(?<=[a-záéíóúñü])(?=[A-ZÁÉÍÓÚÑÜ])")

TITLES = frozenset({"dr", "dra", "mr", "mrs", "ms", "sr", "sra", "srta", "don", "dona", "prof", "ing", "lic"})

# Given names and their common short forms (English and Spanish): each variant → one form.
_VARIANTS: dict[str, tuple[str, ...]] = {
    "robert": ("bob", "bobby", "rob", "robbie"), "william": ("bill", "billy", "will", "willy"),
    "richard": ("rick", "dick", "rich"), "elizabeth": ("liz", "beth", "lizzie", "eliza"),
    "margaret": ("maggie", "meg", "peggy"), "michael": ("mike", "mikey"), "james": ("jim", "jimmy"),
    "thomas": ("tom", "tommy"), "christopher": ("chris",), "alexander": ("alex",),
    "katherine": ("kate", "kathy", "katie"),
    "jennifer": ("jen", "jenny"), "daniel": ("dan", "danny"), "edward": ("ed", "eddie", "ted"),
    "jose": ("pepe",), "francisco": ("paco", "pancho", "curro"), "ignacio": ("nacho",), "enrique": ("kike",),
    "manuel": ("manolo",), "guillermo": ("memo",), "jesus": ("chuy",), "dolores": ("lola",),
    "concepcion": ("concha", "conchi"), "rosario": ("charo",), "mercedes": ("merche",), "antonio": ("toni", "tono"),
    "alejandro": ("alex",), "josefa": ("pepa",), "roberto": ("beto",), "eduardo": ("lalo",),
}
VARIANT: dict[str, str] = {v: canon for canon, vs in _VARIANTS.items() for v in vs}


# Letters Unicode does not decompose into a base letter and a mark (``ð`` is not ``d`` + a mark).
_LETTERS = str.maketrans({"ð": "d", "đ": "d", "þ": "th", "ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "ß": "ss"})


CAMEL, LETTERS = _CAMEL, _LETTERS  # for folding many names at once (core.hygiene.name_index)


def tokens(name: str) -> list[str]:
    """The folded words of ``name`` (camelCase split), titles dropped, name variants mapped."""
    text = fold(name if name.islower() else _CAMEL.sub(" ", name))
    if not text.isascii():
        text = text.translate(_LETTERS)
    words = _SPLIT.split(text)
    kept = [VARIANT.get(w, w) for w in words if w and w not in TITLES]
    return kept or [w for w in words if w]


# A last word that names another generation of the family: ``Luis Romero`` and ``Luis Romero Jr.``
# are father and son. ``Sr.`` before a name is a title (*señor*), after it *senior*.
GENERATIONS = frozenset({"jr", "junior", "sr", "senior", "ii", "iii", "iv", "hijo", "padre", "nieto"})


_GENERATION_END = re.compile(r"(?:^|[\W_])(?:jr|junior|sr|senior|ii|iii|iv|hijo|padre|nieto)[\W_]*$", re.IGNORECASE)
# A relative named in a note in brackets: ``Carmen Lozano (madre)`` is Carmen Lozano's mother.
RELATIVES = frozenset("madre padre hijo hija nieto nieta abuelo abuela tio tia esposa esposo marido mujer suegra "
                      "suegro hermano hermana mother father son daughter grandson granddaughter grandmother "
                      "grandfather aunt uncle wife husband brother sister mum mom dad".split())
_NOTE = re.compile(r"^(?P<name>.*?\S)\s*\((?P<note>[^()]+)\)\s*$")


def generation(name: str) -> str:
    """The generation a name's last word gives (``jr``, ``ii``, ``hijo``…), or ``""`` for none;
    ``Jr`` and ``Junior``, ``Sr`` and ``Senior`` read alike."""
    if name.endswith(")"):
        found = note(name)
        if found is not None and found[1] in RELATIVES:
            return found[1]
    if not _GENERATION_END.search(name):  # most names: one search, nothing folded
        return ""
    words = [w for w in _SPLIT.split(fold(name)) if w]
    last = words[-1] if len(words) > 1 else ""
    if last not in GENERATIONS:
        return ""
    return {"junior": "jr", "senior": "sr"}.get(last, last)


def note(name: str) -> tuple[str, str] | None:
    """A name ending in a note in brackets, split: ``Hospital del Mar (Barcelona)`` → (``Hospital
    del Mar``, ``barcelona``, the note folded); None for a name without one."""
    m = _NOTE.match(name) if name.endswith(")") else None
    if m is None:
        return None
    return m.group("name"), " ".join(w for w in _SPLIT.split(fold(m.group("note"))) if w)


def noted(a: str, b: str) -> bool:
    """One name is the other with a note in brackets added (``Hospital del Mar`` / ``Hospital del
    Mar (Barcelona)``), the note a proper name (capitalised: where, whose), not a relative
    (``names.generation``) nor a number: the note says which one is meant, so the two may be one
    thing, or two of one name (``Córdoba`` / ``Córdoba (Argentina)``): the facts or the neighbours
    decide (``core.hygiene.meaning``). A note in lower case says a kind or a part (``Kubernetes
    cluster (staging)``, ``Budget (draft)``): another thing."""
    return noted_which(a, b) is not None


def kind_noted(a: str, b: str) -> bool:
    """One name is the other with a note in lower case in brackets (``Kubernetes cluster`` /
    ``Kubernetes cluster (staging)``): the note says a kind or a part, another thing."""
    for x, y in ((a, b), (b, a)):
        found = note(y)
        if found is not None and not note(x) and name_key(found[0]) == name_key(x):
            return not y[y.rindex("(") + 1:].lstrip()[:1].isupper()
    return False


def noted_which(a: str, b: str) -> str | None:
    """``noted``'s note (folded), or None."""
    for x, y in ((a, b), (b, a)):
        found = note(y)
        if found is not None and not note(x) and name_key(found[0]) == name_key(x):
            raw = y[y.rindex("(") + 1:].lstrip()
            if found[1] in RELATIVES or any(c.isdigit() for c in found[1]) or not raw[:1].isupper():
                return None
            return found[1]
    return None


# A company's legal form at the end of its name (``Telefónica S.A.``, ``Acme Ltd``), as folded words.
_LEGAL_FORMS = (("s", "a"), ("s", "l"), ("s", "l", "u"), ("sa",), ("sl",), ("slu",), ("inc",), ("ltd",), ("llc",),
                ("gmbh",), ("plc",), ("ag",), ("bv",), ("co",), ("limited",), ("incorporated",))


# The kind of company a name may say beside its own name (``Iberia Airlines`` / ``Iberia``, ``Banco
# Sabadell`` / ``Sabadell``): after the name, or (``banco``, ``grupo``) before it.
_COMPANY_KINDS_AFTER = frozenset("airlines airline airways group holdings bank".split())
_COMPANY_KINDS_BEFORE = frozenset("banco grupo".split())


def legal_form_match(a: list[str], b: list[str]) -> bool:
    """The same name but for a legal form at the end of one (``Telefónica S.A.`` / ``Telefónica``,
    ``Acme Inc`` / ``Acme``) or the kind of company (``Iberia Airlines`` / ``Iberia``); the name
    left has a word of four letters or more."""
    for short, long_ in ((a, b), (b, a)):
        if not short:
            continue
        for form in _LEGAL_FORMS:
            n = len(form)
            if len(long_) > n and tuple(long_[-n:]) == form and list(long_[:-n]) == list(short):
                return max(len(w) for w in short) >= 4
        if len(long_) == len(short) + 1 and max(len(w) for w in short) >= 4 and (
                (long_[-1] in _COMPANY_KINDS_AFTER and list(long_[:-1]) == list(short))
                or (long_[0] in _COMPANY_KINDS_BEFORE and list(long_[1:]) == list(short))):
            return True
    return False


def role_noted(a: str, b: str) -> bool:
    """Two people's names, one with a note in lower case in brackets saying what the person is
    (``Pilar Sanz (dermatóloga)`` / ``Dra. Pilar Sanz``), not a relative (``(madre)``: another
    person, ``generation``) nor a number: the same name once the note and titles are dropped."""
    for x, y in ((a, b), (b, a)):
        found = note(y)
        if found is None or note(x):
            continue
        raw = y[y.rindex("(") + 1:].lstrip()
        if raw[:1].isupper() or found[1] in RELATIVES or any(c.isdigit() for c in found[1]):
            continue
        if name_key(found[0]) == name_key(x):
            return True
    return False


def rotated(a: list[str], b: list[str]) -> bool:
    """The same words with a run of them moved from the end to the front (``Ruiz-Gallardo, Eva`` /
    ``Eva Ruiz Gallardo``, ``García, Ana`` / ``Ana García``): a surname written first. Other orders
    of a person's words (``José María`` / ``María José``) name another person."""
    return len(a) == len(b) and any(list(a[i:]) + list(a[:i]) == list(b) for i in range(len(a)))


def stored_tokens(words: list[str]) -> str:
    """``tokens(name)`` as stored beside the entity (``name_tokens``): the words, one space
    between them (a word never holds whitespace); ``parse_tokens`` reads them back."""
    return " ".join(words)


def parse_tokens(text: str) -> list[str]:
    """The words ``stored_tokens`` wrote."""
    return text.split()


def name_key(name: str) -> str:
    """Equal for names written differently (``Ana_Garcia`` / ``Ana García`` / ``ana garcia``,
    ``Node.js`` / ``NodeJS``): the folded words, variants mapped, without separators."""
    return "".join(tokens(name))


def order_key(name: str) -> str:
    """Equal also when the words come in another order (``García, Ana`` / ``Ana García``)."""
    return " ".join(sorted(tokens(name)))


def initial_match(a: list[str], b: list[str]) -> bool:
    """Same words but one given as an initial (``A. García`` / ``Ana García``), the last word equal."""
    if len(a) != len(b) or len(a) < 2 or a[-1] != b[-1] or len(a[-1]) < 3:
        return False
    differ = 0
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        short, long_ = sorted((x, y), key=len)
        if len(short) == 1 and long_.startswith(short):
            differ += 1
        else:
            return False
    return differ >= 1


def typo_match(a: list[str], b: list[str]) -> bool:
    """One slip in one long word, the other words equal (``Kubernetes`` / ``Kuberentes``). Short
    words never match this way (``Ana`` / ``Ada``), nor a different number, nor a word that only
    gains or loses a final letter (``Daniel`` / ``Daniela``, ``Python2`` / ``Python3``), nor one
    whose first letter differs (``Fernández`` / ``Hernández``: two surnames)."""
    if len(a) != len(b):
        return False
    differ = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if len(differ) != 1:
        return False
    x, y = differ[0]
    if min(len(x), len(y)) < 6 or any(c.isdigit() for c in x + y):
        return False
    if abs(len(x) - len(y)) == 1 and (x.startswith(y) or y.startswith(x)):
        return False
    if x[0] != y[0]:
        return False  # Fernández / Hernández, Martínez / Ramírez: a slip seldom hits the first letter
    if len(x) == len(y) and x[:-1] == y[:-1] and (min(len(x), len(y)) <= 7 or {x[-1], y[-1]} == {"a", "o"}):
        return False  # Francisco / Francisca, Andrés / Andrea: another name, not a slip
    return _distance_at_most_one(x, y)


def _distance_at_most_one(a: str, b: str) -> bool:
    """Damerau–Levenshtein distance ≤ 1 (one insertion, deletion, substitution or swap)."""
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1:] == b[i + 1:] or (i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i]
                                          and a[i + 2:] == b[i + 2:])
    return a[i:] == b[i + 1:]


def similarity(a: str, b: str) -> float:
    """0–1, how alike two name keys read (difflib's ratio)."""
    return SequenceMatcher(None, a, b).ratio()


_FACT_PUNCT = re.compile(r"[^\w%€$£]+", re.UNICODE)


def fact_key(text: str) -> str:
    """Equal for observations that differ only in case, accents, punctuation and spacing."""
    return " ".join(w for w in _FACT_PUNCT.split(fold(text)) if w)


def near_same_fact(a: str, b: str) -> bool:
    """Near-exact repeats: the same key, or the same words but one (never a different number)."""
    ka, kb = fact_key(a), fact_key(b)
    if ka == kb:
        return True
    wa, wb = ka.split(), kb.split()
    if min(len(wa), len(wb)) < 6:
        return False
    if [w for w in wa if any(c.isdigit() for c in w)] != [w for w in wb if any(c.isdigit() for c in w)]:
        return False
    sa, sb = set(wa), set(wb)
    return len(sa ^ sb) <= 1 and abs(len(wa) - len(wb)) <= 1
