"""Which fact on an entity updates an older one, in words: no database, no model, English and Spanish.

Two facts of one entity, older first, are compared by their *frame* (the folded words with every
number, date and month replaced by a slot) and by a few single-valued predicates (works at, lives
in, reports to, trabaja en, vive en…):

* the same frame with different values ("latency is 310 ms" → "latency is 180 ms"), the same
  single-valued predicate with another value ("works at Acme" → "works at Nubia"), or a newer fact
  marked as an update ("now", "no longer", "moved to", "ahora", "ya no", "se mudó a"…) about the
  same thing: an **update** (the older is proposed as superseded);
* the same words, one side negated, with no marker of change ("is vegetarian" / "is not
  vegetarian"): a **contradiction** a person should look at (nothing is retired);
* anything else: nothing. Events ("ran a marathon in 2019"), numbered things ("room 101",
  "ticket #4411") and other subjects ("her brother works at…") never supersede each other.

``compare`` judges one pair; ``scan`` finds, for each fact of an entity, the first later fact that
updates it (so a chain A → B → C retires A for B and B for C), in time close to linear.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.search.folding import fold

RULES_VERSION = "1"  # bump when a rule's meaning changes: remembered findings are then judged again
UPDATE, CONTRADICTION = "update", "contradiction"

_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec "
    "enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre diciembre"
    .split())
_QUARTER = re.compile(r"^[qh][1-4]$")
_NUMBER = re.compile(r"^[+-]?\$?\d[\d.,:/-]*%?$")
# A number right after one of these names a thing ("room 101", "fase 2"), it is not a value.
_ID_WORDS = frozenset(
    "room ticket issue flight version phase step chapter page line gate bus table order pr "
    "sprint level floor habitacion fase paso capitulo pagina linea mesa pedido vuelo nivel numero no"
    .split())
# Words that tell a fact is an event (it happened), which a later event does not undo.
_EVENT_WORDS = frozenset(
    "was were ran visited closed sent opened worked studied happened finished won lost met "
    "fue fueron vendieron costo visito estudio gano perdio cerro envio abrio ocurrio".split())
# (folded phrase, is it a negation too)
_MARKERS: tuple[tuple[str, bool], ...] = (
    ("no longer", True), ("not anymore", True), ("anymore", True), ("ya no", True), ("no more", True),
    ("moved to", False), ("switched to", False), ("changed to", False), ("instead of", False),
    ("se mudo a", False), ("se cambio a", False), ("cambio a", False), ("paso a", False),
    ("en lugar de", False), ("en vez de", False), ("these days", False), ("as of", False),
    ("currently", False), ("actualmente", False), ("now", False), ("ahora", False), ("hoy en dia", False),
)
_NOT_MARKERS = ("now and then", "ahora mismo", "right now")  # "now" that says no change
_SWITCHES = ("moved to", "switched to", "changed to", "se mudo a", "se cambio a", "cambio a", "paso a")
_NEGATIONS = frozenset("not no never nunca isn't doesn't don't aren't wasn't n't".split())
_AUX = frozenset("does do did".split())
_ARTICLES = frozenset("the a an el la los las un una".split())
_STOP = frozenset(
    "the a an of to in on at for with by and or its it his her their is are be "
    "el la los las un una de del en a con por para y o su sus es son esta".split())
# Single-valued predicates: one value at a time. (folded regex, key); the value follows.
_PREDICATES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"(?:^|\s)(?:{p})\s+(?P<val>.+)$"), key) for p, key in (
        (r"works? (?:at|for)|is employed by|trabaja (?:en|para)|esta empleado en|esta empleada en", "employer"),
        (r"lives? in|is based in|resides in|moved to|vive en|reside en|se mudo a|se ha mudado a", "place"),
        (r"is located in|is in|esta en|se encuentra en", "place"),
        (r"reports? to|reporta a|depende de", "manager"),
    ))
# "CEO is Pablo Ruiz", "El responsable es Marcos": a role and the one person holding it.
_ROLE = re.compile(r"^(?P<subj>(?:\w+\s){0,3}\w+)\s(?:is|es)\s(?P<val>[A-ZÁÉÍÓÚÑ]\w+(?:\s[A-ZÁÉÍÓÚÑ]\w+)*)\.?$")
# What a bare "moved to X" / "switched to X" can replace: what the entity runs on, uses, lives in.
_SWITCHABLE = frozenset("runs run uses use usa usan lives live vive is es esta".split())
_TOKEN = re.compile(r"#?[\w$]+(?:[.,:/'-]\w+)*%?", re.UNICODE)


@dataclass(frozen=True)
class Finding:
    """``newer`` updates (or contradicts) ``older``: indexes into the facts given, older first."""

    older: int
    newer: int
    kind: str  # UPDATE | CONTRADICTION
    reason: str  # number, date, employer, place, manager, role, marker, switch, no longer, negation
    confidence: float


@dataclass(frozen=True)
class _Sig:
    """What the rules read from one fact."""

    frame: tuple[str, ...]  # tokens, values as "#"
    values: tuple[str, ...]
    kinds: frozenset[str]  # "number", "date" among the values
    plain: tuple[str, ...]  # tokens with markers and negations dropped, crudely stemmed
    negated: bool
    marker: str | None  # the update marker in the fact, if any
    stops: bool  # the marker says it stopped ("no longer", "ya no")
    event: bool
    predicate: tuple[str, str, str] | None  # (key, subject before it, value)

    def head(self) -> str:
        words = [w for w in self.plain if w not in _ARTICLES]
        return words[0] if words else ""

    def content(self) -> frozenset[str]:
        return frozenset(w for w in self.plain if w not in _STOP and not _is_value(w))


def _is_value(token: str) -> bool:
    return bool(_NUMBER.match(token)) or token in _MONTHS or bool(_QUARTER.match(token))


def _stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _find_marker(text: str) -> tuple[str | None, bool, str]:
    """(marker, is it a stop, the text without it)."""
    padded = f" {text} "
    for phrase in _NOT_MARKERS:
        if f" {phrase} " in padded:
            return None, False, text
    for phrase, stops in _MARKERS:
        if f" {phrase} " in padded:
            rest = padded.replace(f" {phrase} ", " ", 1).strip()
            return phrase, stops, rest
    return None, False, text


def signature(fact: str) -> _Sig:
    """Read one fact for the rules (folded; markers, values and negations found)."""
    folded = fold(fact).replace("’", "'")
    words = " ".join(_TOKEN.findall(folded))
    marker, stops, rest = _find_marker(words)
    tokens = rest.split()
    frame: list[str] = []
    values: list[str] = []
    kinds: set[str] = set()
    for i, tok in enumerate(tokens):
        if _is_value(tok) and not (i and tokens[i - 1] in _ID_WORDS) and not tok.startswith("#"):
            frame.append("#")
            values.append(tok)
            kinds.add("date" if tok in _MONTHS or _QUARTER.match(tok) or re.match(r"^(19|20)\d\d(-|$)", tok)
                      else "number")
        else:
            frame.append(tok)
    negated = any(t in _NEGATIONS or t.endswith("n't") for t in tokens) or stops
    plain = tuple(_stem(t) for t in tokens if t not in _NEGATIONS and t not in _AUX and not t.endswith("n't"))
    predicate = None
    for pattern, key in _PREDICATES:
        m = pattern.search(rest)
        if m:
            subject = rest[: m.start()].strip()
            subject = " ".join(w for w in subject.split() if w not in _AUX and w not in _NEGATIONS)
            value = " ".join(m.group("val").split()[:3])
            predicate = (key, subject, _value_words(fact, value))
            break
    if predicate is None:
        role = _ROLE.match(re.sub(r"\s+(?:now|ahora)\s+", " ", fact.strip()))
        if role:
            predicate = ("role:" + fold(role.group("subj")), "", fold(role.group("val")))
    return _Sig(tuple(frame), tuple(values), frozenset(kinds), plain, negated, marker, stops,
                any(t in _EVENT_WORDS for t in tokens), predicate)


def _value_words(fact: str, value: str) -> str:
    """The value of a predicate: its words up to a qualifier ("as", "since", "desde", "in 2024")."""
    out: list[str] = []
    for w in value.split():
        if w in ("as", "since", "from", "until", "in", "with", "and", "on", "como", "desde", "hasta", "con", "y"):
            break
        out.append(w)
    return " ".join(out)


def compare(old: str | _Sig, new: str | _Sig) -> Finding | None:
    """Whether ``new`` (the later fact) updates or contradicts ``old``; None when both stay true."""
    a = old if isinstance(old, _Sig) else signature(old)
    b = new if isinstance(new, _Sig) else signature(new)
    found = _judge(a, b)
    return None if found is None else Finding(0, 1, *found)


def _judge(a: _Sig, b: _Sig) -> tuple[str, str, float] | None:
    new_marker = b.marker if b.marker and b.marker != a.marker else None
    # 1. A single-valued predicate (employer, place, manager, a role) about the same subject.
    if a.predicate and b.predicate and a.predicate[0] == b.predicate[0] and a.predicate[1] == b.predicate[1]:
        if a.predicate[2] != b.predicate[2] and not a.negated and not b.negated:
            return UPDATE, a.predicate[0].split(":")[0], 0.9 if new_marker else 0.8
        if a.predicate[2] == b.predicate[2] and b.stops and not a.negated:
            return UPDATE, "no longer", 0.9
    # 2. The same frame, other values: a number or a date changed.
    if a.frame == b.frame and a.values != b.values and not (a.event or b.event) and a.negated == b.negated:
        chained = bool(a.values and b.values and a.values[-1] == b.values[0])
        return UPDATE, "date" if "date" in a.kinds | b.kinds else "number", 0.95 if chained else 0.8
    same_words = a.plain == b.plain
    # 3. The same words, one side negated.
    if same_words and a.negated != b.negated:
        if b.stops:
            return UPDATE, "no longer", 0.9
        if not new_marker:
            return CONTRADICTION, "negation", 0.5
    # 4. A marked update about the same thing: same subject and predicate, another object.
    if new_marker and not a.event and not same_words and not a.stops:
        if new_marker in _SWITCHES and b.plain and len(b.plain) <= 3 and a.head() in _SWITCHABLE:
            return UPDATE, "switch", 0.6
        if a.head() and a.head() == b.head():
            overlap = len(a.content() & b.content()) / max(1, len(a.content() | b.content()))
            if overlap >= 0.2 or len(a.content() | b.content()) <= 3:
                return UPDATE, "marker", 0.85
    return None


# A first look, three regex searches per fact: what a rule could use. An entity none of whose rules
# could hold (no negation or marker, fewer than two predicates or roles, no two facts alike once
# their numbers and dates are masked) is left without reading its facts any closer: most of a memory.
_MONTH_WORDS = "|".join(sorted(_MONTHS, key=len, reverse=True))
_SIGN = re.compile(r"\b(?:not|no|never|nunca|anymore|now|ahora|currently|actualmente|moved|mudo|switched|changed"
                   r"|cambio|paso|instead|lugar|vez|these days|as of|hoy)\b|n't")
_PRED = re.compile(r"\b(?:work|works|employed|trabaja|empleado|empleada|live|lives|based|resides|vive|reside"
                   r"|located|is in|esta en|encuentra|report|reports|reporta|depende)\b")
_VAL = re.compile(r"\d|\b(?:" + _MONTH_WORDS + r"|[qh][1-4])\b")
_ROLE_GATE = re.compile(r"\s(?:is|es)\s+(?:now\s+|ahora\s+)?[A-ZÁÉÍÓÚÑ]")
_MASK = re.compile(r"\d[\d.,:/-]*%?|\b(?:" + _MONTH_WORDS + r"|[qh][1-4])\b")


def worth_scanning(facts: Sequence[str]) -> bool:
    """Whether any rule could hold between two of ``facts`` (a quick, conservative look): a marker
    or a negation anywhere, two predicates, two roles, or two facts alike once their numbers and
    dates are masked."""
    preds = roles = 0
    masked: set[str] = set()
    for fact in facts:
        folded = fold(fact)
        if _SIGN.search(folded):  # a marker or a negation, on either side of a pair
            return True
        if _PRED.search(folded):
            preds += 1
        if _ROLE_GATE.search(fact):
            roles += 1
        if preds >= 2 or roles >= 2:
            return True
        if _VAL.search(folded):
            key = " ".join(_TOKEN.findall(_MASK.sub("#", folded)))
            if key in masked:
                return True
            masked.add(key)
    return False


def scan(facts: Sequence[str]) -> list[Finding]:
    """Every fact (oldest first) that a later one updates, with its first such successor; and
    contradictions between facts. One finding per older fact."""
    if len(facts) < 2 or not worth_scanning(facts):
        return []
    return _scan(facts)


def _scan(facts: Sequence[str]) -> list[Finding]:
    sigs = [signature(f) for f in facts]
    by_frame: dict[tuple[str, ...], list[int]] = {}
    by_pred: dict[tuple[str, str], list[int]] = {}
    by_plain: dict[tuple[str, ...], list[int]] = {}
    by_head: dict[str, list[int]] = {}
    switchable: list[int] = []
    out: dict[int, Finding] = {}
    for j, b in enumerate(sigs):
        olders: list[int] = []
        if "#" in b.frame:
            olders += by_frame.get(b.frame, [])
        if b.predicate:
            olders += by_pred.get(b.predicate[:2], [])
        olders += by_plain.get(b.plain, [])
        if b.marker:
            olders += by_head.get(b.head(), [])
            if b.marker in _SWITCHES:
                olders += switchable[-1:]
        for i in sorted(set(olders)):
            if i in out or facts[i] == facts[j]:
                continue
            judged = _judge(sigs[i], b)
            if judged is not None:
                out[i] = Finding(i, j, *judged)
        if "#" in b.frame:
            by_frame.setdefault(b.frame, []).append(j)
        if b.predicate:
            by_pred.setdefault(b.predicate[:2], []).append(j)
        by_plain.setdefault(b.plain, []).append(j)
        by_head.setdefault(b.head(), []).append(j)
        if b.head() in _SWITCHABLE and not b.marker:
            switchable.append(j)
    return sorted(out.values(), key=lambda f: (f.older, f.newer))
