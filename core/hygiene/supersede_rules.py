"""Which fact on an entity updates an older one, in words: no database, no model, English and Spanish.

Two facts of one entity, older first, are compared by their *frame* (the folded words with every
number, date and month replaced by a slot) and by a few single-valued predicates (works at, lives
in, reports to, trabaja en, vive en…):

* the same frame with different values ("latency is 310 ms" → "latency is 180 ms", also with a
  trailing reason or time: "… 180 ms after adding the cache"), the same single-valued predicate,
  role or "key: value" attribute with another value ("works at Acme" → "works at Nubia", "Status:
  queued" → "Status: running", also after a lead-in: "Desde enero trabaja para Mango"), a newer fact
  that says it moved *from* what the older says ("migrated CI from Jenkins to …"), or a newer fact
  marked as an update ("now", "no longer", "moved to", "upgraded to", "dropped to", "new …:",
  "ahora", "ya no", "se mudó a", "se ha retrasado al"…) about the same thing: an **update** (the
  older is proposed as superseded);
* the same words, one side negated, with no marker of change ("is vegetarian" / "is not
  vegetarian"), or two values of what happens once ("founded in 2011" / "in 2012"): a
  **contradiction** a person should look at (nothing is retired);
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

RULES_VERSION = "6"  # bump when a rule's meaning changes: remembered findings are then judged again
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
    "sprint level floor milestone release hito habitacion fase paso capitulo pagina linea mesa pedido vuelo nivel "
    "numero no"
    .split())
# Words that tell a fact is an event (it happened), which a later event does not undo.
_EVENT_WORDS = frozenset(
    "was were ran visited closed sent opened worked studied happened finished won lost met "
    "fue fueron vendieron costo visito estudio gano perdio cerro envio abrio ocurrio".split())
# "Sent every Monday" says what it does, not what happened once.
_HABITUAL = frozenset("every each always usually cada siempre".split())
# What happens once in a thing's life: two values of it disagree, the newer does not replace the older.
_ONCE_WORDS = frozenset("born died founded nacio nacido nacida murio fundada fundado fundo "
                        "defended defendida defendido graduated graduado graduada graduo inaugurated "
                        "inaugurado inaugurada established".split())
# (folded phrase, is it a negation too)
_MARKERS: tuple[tuple[str, bool], ...] = (
    ("no longer", True), ("not anymore", True), ("anymore", True), ("ya no", True), ("no more", True),
    ("moved to", False), ("switched to", False), ("changed to", False), ("instead of", False),
    # a change said by its verb: the value or the thing that follows replaces the older one
    ("upgraded to", False), ("updated to", False), ("migrated to", False), ("downgraded to", False),
    ("promoted to", False), ("dropped to", False), ("fell to", False), ("rose to", False),
    ("increased to", False), ("decreased to", False), ("grew to", False), ("went up to", False),
    ("went down to", False), ("was moved to", False), ("was pushed to", False), ("pushed back to", False),
    ("postponed to", False), ("delayed to", False), ("brought forward to", False),
    ("se ha retrasado al", False), ("se ha retrasado a", False), ("se retraso al", False), ("se retraso a", False),
    ("se ha pospuesto al", False), ("se pospuso al", False), ("se ha adelantado al", False),
    ("se adelanto al", False), ("ha subido a", False), ("subio a", False), ("ha bajado a", False),
    ("bajo a", False), ("ascendido a", False), ("ascendida a", False), ("migrado a", False), ("migro a", False),
    ("actualizado a", False), ("se ha actualizado a", False), ("se amplio a", False), ("se ha ampliado a", False),
    ("ampliado a", False), ("se redujo a", False), ("se ha reducido a", False), ("ascendio a", False),
    ("se ha cambiado al", False), ("se cambio al", False), ("rescheduled to", False), ("raised to", False),
    ("se mudo a", False), ("se cambio a", False), ("cambio a", False), ("paso a", False),
    ("se ha pasado al", False), ("se paso al", False), ("se ha movido al", False), ("se movio al", False),
    ("se prorrogo hasta", False), ("se ha prorrogado hasta", False), ("prorrogado hasta", False),
    ("se renovo hasta", False), ("se ha renovado hasta", False), ("extended to", False), ("extended until", False),
    ("renewed until", False), ("nos mudamos a", False), ("nos hemos mudado a", False), ("ascendio a", False),
    ("en lugar de", False), ("en vez de", False), ("these days", False), ("as of", False),
    ("currently", False), ("actualmente", False), ("now", False), ("ahora", False), ("hoy en dia", False),
)
_NOT_MARKERS = ("now and then", "ahora mismo", "right now")  # "now" that says no change
_BY_LENGTH = sorted(_MARKERS, key=lambda m: -len(m[0]))  # "se ha actualizado a" before "actualizado a"
_MARKER_WORDS = frozenset(w for phrase, _ in _MARKERS for w in phrase.split()[:1])
_NEW = frozenset(("new", "nuevo", "nueva", "nuevos", "nuevas"))
_SWITCHES = ("moved to", "switched to", "changed to", "se mudo a", "se cambio a", "cambio a", "paso a",
             "upgraded to", "updated to", "migrated to", "downgraded to", "promoted to", "ascendido a",
             "ascendida a", "migrado a", "migro a", "actualizado a", "se ha actualizado a", "nos mudamos a",
             "nos hemos mudado a")
# Words that end what a switch names ("moved to Lisbon in March", "se mudó a Granada el año pasado").
_QUALIFIERS = frozenset("in on at since from until last this after before during "
                        "en desde hasta el la este esta tras despues antes durante hace".split())
# Words that open a trailing clause a restated value may carry ("… 180 ms after adding the cache").
# Not "with", "when" or "for": "400 ms when the cache is cold" is another condition, both stay true.
_TRAILING = frozenset("after since from until because due thanks following "
                      "tras desde hasta porque gracias despues".split())
_COPULAS = frozenset("is are es son esta estan".split())
_NOW = frozenset(("now", "ahora", "currently", "actualmente", "these days", "hoy en dia"))
# "migrated CI from Jenkins to GitHub Actions", "pasó de MySQL a PostgreSQL": what it left.
_FROM = re.compile(r"\b(?:migrated|moved|switched|changed|went|upgraded|downgraded|transferred|converted|"
                   r"migro|migrado|paso|pasado|cambio|cambiado|se mudo|se ha mudado)\b(?:\s+\S+){0,3}?\s+"
                   r"(?:from|de|desde)\s+(?P<old>.+?)\s+(?:to|a|al|hacia)\s+\S")
# "Budget is 50,000 €" and "Budget was cut to 35,000 €": one subject, its value stated, then changed.
_STATED = re.compile(r"^(?P<subj>(?:\S+\s){0,3}?\S+)\s(?:is|are|es|son)\s(?P<val>.+)$")
_CHANGED = re.compile(r"^(?P<subj>(?:\S+\s){0,3}?\S+)\s(?:(?:was|were|has been|have been|got|se ha|ha sido|fue)\s)?"
                      r"(?:\w+ed|cut|set|\w+ado|\w+ido)\s(?:to|a|al)\s(?P<val>.+)$")
_TO_DO = re.compile(r"\b(?:asked|invited|allowed|expected|supposed|used|needed|wanted|planned|pushed|forced|"
                    r"encouraged|related|listed|talked|listened|obligado|invitado|animado)\s(?:to|a)\s")
_CHANGE_GATE = re.compile(r"(?:ed|cut|set|ado|ido|amplio|redujo|subio|bajo|retraso|pospuso|adelanto|cambio|"
                          r"rose|fell|grew)\s(?:to|a|al)\s")  # _CHANGED's verb, looked for quickly
# "Status: done", "Teléfono: 600 111 222": a short attribute, its value after the colon.
_ATTRIBUTE = re.compile(r"^(?P<key>[^\W\d][\w\s'-]{0,40}?)\s*:\s*(?P<val>\S.*)$")
_LED_ROLE = re.compile(r"^(?P<pre>.+?)\s(?:is|es)\s(?P<val>[A-ZÁÉÍÓÚÑ]\w+(?:\s[A-ZÁÉÍÓÚÑ]\w+)*)\.?$")
_DETERMINERS = frozenset("the his her their our my its el la los las su sus mi nuestro nuestra".split())
# "Since the reorg, …", "Desde la reorganización …": a lead-in before what the fact says.
_LEAD_IN = re.compile(r"^(?:since|after|following|as of|from|desde|tras|despues de|a partir de)\s+"
                      r"(?:(?:the|la|el|los|las|este|esta|last|this)\s+)?[\w-]+,?\s+", re.IGNORECASE)
_NEGATIONS = frozenset("not no never nunca jamas isn't doesn't don't aren't wasn't n't".split())
_AUX = frozenset("does do did".split())
# A negated auxiliary's own word, kept in the claim ("isn't vegetarian" claims what "is vegetarian"
# does); "doesn't", "don't" and "didn't" only carry the negation.
_NEGATED_AUX = {"isn't": "is", "aren't": "are", "wasn't": "was", "weren't": "were", "hasn't": "have",
                "haven't": "have", "hadn't": "had", "can't": "can", "cannot": "can", "couldn't": "could",
                "won't": "will", "wouldn't": "would", "shouldn't": "should", "mustn't": "must"}
# Words a negation stands in for or brings along ("has a car" / "has no car" / "doesn't have any car").
_CLAIM_DROP = frozenset("a an any some un una unos unas ningun ninguna ninguno".split())
# One verb in the third person and the bare form a negation takes ("has" / "doesn't have").
_BARE = {"has": "have", "goes": "go", "does": "do"}
_ARTICLES = frozenset("the a an el la los las un una".split())
# A negated perfect tense read as the present it denies ("nunca ha tenido coche" denies what "tiene
# coche" claims; "has never had a car" what "has a car" does): the auxiliary dropped, the participle
# in the present. Spanish: "ha" (3rd person singular), "han" (plural); regular participles by their
# ending (trabajado → trabaja, vivido → vive), the common irregular verbs by this table.
_PERFECT_AUX = frozenset("ha han has have hasn't haven't".split())
_ES_PARTICIPLES = {  # participle → (singular, plural) present
    "tenido": ("tiene", "tienen"), "sido": ("es", "son"), "estado": ("esta", "estan"), "hecho": ("hace", "hacen"),
    "visto": ("ve", "ven"), "dicho": ("dice", "dicen"), "puesto": ("pone", "ponen"), "escrito": ("escribe", "escriben"),
    "vuelto": ("vuelve", "vuelven"), "podido": ("puede", "pueden"), "querido": ("quiere", "quieren"),
    "jugado": ("juega", "juegan"), "ido": ("va", "van"), "dormido": ("duerme", "duermen"),
    "probado": ("prueba", "prueban"), "pensado": ("piensa", "piensan"), "perdido": ("pierde", "pierden"),
    "encontrado": ("encuentra", "encuentran"), "contado": ("cuenta", "cuentan"), "sentido": ("siente", "sienten"),
    "pedido": ("pide", "piden"), "seguido": ("sigue", "siguen"), "preferido": ("prefiere", "prefieren"),
    "conocido": ("conoce", "conocen"), "roto": ("rompe", "rompen"), "abierto": ("abre", "abren"),
}
_EN_PARTICIPLES = {"had": "have", "been": "is", "owned": "own", "used": "use", "lived": "live", "worked": "work",
                   "driven": "drive", "eaten": "eat", "smoked": "smoke", "played": "play"}
_STOP = frozenset(
    "the a an of to in on at for with by and or its it his her their is are be "
    "el la los las un una de del en a con por para y o su sus es son esta".split())
# Single-valued predicates: one value at a time. (folded regex, key); the value follows.
_PREDICATES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"(?:^|\s)(?:{p})\s+(?P<val>.+)$"), key) for p, key in (
        (r"works? (?:at|for)|is employed by|trabaja (?:en|para)|esta empleado en|esta empleada en|joined"
         r"|se incorporo a|se unio a|ficho por", "employer"),
        (r"lives? in|is based in|resides in|moved to|vive en|reside en|se mudo a|se ha mudado a"
         r"|nos mudamos a|nos hemos mudado a", "place"),
        (r"is located in|is in|esta en|se encuentra en", "place"),
        (r"reports? to|reporta a|depende de", "manager"),
    ))
# "CEO is Pablo Ruiz", "El responsable es Marcos": a role and the one person holding it.
_ROLE = re.compile(r"^(?P<subj>(?:\w+\s){0,3}\w+)\s(?:is|es)\s(?P<val>[A-ZÁÉÍÓÚÑ]\w+(?:\s[A-ZÁÉÍÓÚÑ]\w+)*)\.?$")
# What a bare "moved to X" / "switched to X" can replace: what the entity runs on, uses, lives in.
_SWITCHABLE = frozenset("runs run uses use usa usan lives live vive is es esta".split())
_TOKEN = re.compile(r"#?[\w$]+(?:[.,:/'-]\w+)*%?", re.UNICODE)
# "Ya lleva 95.000 km", "Already has 3 kids": "already" / "still" say nothing of what the fact says
# ("ya no" is a marker, found before these are dropped).
_STILL = frozenset("ya already still todavia aun".split())
# "Desde enero el alquiler es de 800 €", "As of March, …": when a fact began, not what it says.
_SINCE_TIME = re.compile(r"^(?:since|desde|from|as of|a partir de|starting)\s+(?:(?:el|la|the|this|este|esta|next)\s+)?"
                         r"(?:" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r"|[qh][1-4]|(?:19|20)\d\d)"
                         r"(?:\s+(?:de\s+|of\s+)?(?:19|20)\d\d)?\s+")


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

    frame: tuple[str, ...]  # tokens, values as "#" (``_frame_words``)
    values: tuple[str, ...]
    kinds: frozenset[str]  # "number", "date" among the values
    plain: tuple[str, ...]  # tokens with markers and negations dropped, crudely stemmed
    negated: bool
    marker: str | None  # the update marker in the fact, if any
    stops: bool  # the marker says it stopped ("no longer", "ya no")
    event: bool
    predicate: tuple[str, str, str] | None  # (key, subject before it, value)
    once: bool = False  # what happens once ("born in 1988"): another value contradicts it
    moved_from: tuple[str, ...] = ()  # what it says the entity moved from ("… from Jenkins to …")
    said: tuple[str, str, str] | None = None  # ("is" | "changed", subject, value): "budget is 50,000 €",
    # "budget was cut to 35,000 €"
    # the value a change verb moved and a word beside it: "postponed to 24 april" → ("date", ""),
    # "upgraded to java 21" → ("number", "java"), "se amplio a 32 gb de ram" → ("number", "gb")
    moved_value: tuple[str, str] | None = None
    # what the fact says with its negation taken away, read plainly (``_claim``): "has a driving
    # licence", "does not have a driving licence" and "has no driving licence" say one claim
    claim: tuple[str, ...] = ()

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
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


def _find_marker(text: str) -> tuple[str | None, bool, str]:
    """(marker, is it a stop, the text without it)."""
    words = text.split()
    first, _, rest = text.partition(" ")
    if not _MARKER_WORDS.intersection(words):  # most facts: no marker, nothing to look for
        if first in _NEW and rest:
            return "new", False, rest  # "New phone number: …" (the caller checks the next word is not a name)
        return None, False, text
    padded = f" {text} "
    for phrase in _NOT_MARKERS:
        if f" {phrase} " in padded:
            return None, False, text
    for phrase, stops in _MARKERS:
        if f" {phrase} " in padded:
            # a longer marker holding this one is the one said ("se ha actualizado a", not "actualizado a")
            phrase, stops = next(((p, st) for p, st in _BY_LENGTH if phrase in p and f" {p} " in padded),
                                 (phrase, stops))
            rest = padded.replace(f" {phrase} ", " ", 1).strip()
            if phrase in ("now", "ahora"):  # "sold the Seat and now drives a Tesla": what follows is new
                before, _, after = padded.partition(f" {phrase} ")
                if re.search(r"\s(?:and|y)\s*$", before) and after.strip():
                    rest = after.strip()
            return phrase, stops, rest
    return ("new", False, rest) if first in _NEW and rest else (None, False, text)


def signature(fact: str) -> _Sig:
    """Read one fact for the rules (folded; markers, values and negations found)."""
    folded = fold(fact).replace("’", "'")
    words = _SINCE_TIME.sub("", " ".join(_TOKEN.findall(folded)), count=1)
    marker, stops, rest = _find_marker(words)
    if marker == "new" and not re.match(r"^\s*\w+\s+[a-záéíóúñü]", fact):
        marker, rest = None, words  # "New York office …" names a place, it does not say what is new
    tokens = [t for t in rest.split() if t not in _STILL]
    rest = " ".join(tokens)
    raw_frame: list[str] = []
    values: list[str] = []
    kinds: set[str] = set()
    for i, tok in enumerate(tokens):
        if _is_value(tok) and not (i and tokens[i - 1] in _ID_WORDS) and not tok.startswith("#"):
            raw_frame.append("#")
            values.append(tok)
            kinds.add("date" if tok in _MONTHS or _QUARTER.match(tok) or re.match(r"^(19|20)\d\d(-|$)", tok)
                      else "number")
        else:
            raw_frame.append(tok)
    frame = _frame_words(raw_frame)
    negated = any(t in _NEGATIONS or t.endswith("n't") or t == "cannot" for t in tokens) or stops
    plain = tuple(_stem(t) for t in tokens if t not in _NEGATIONS and t not in _AUX and not t.endswith("n't"))
    predicate: tuple[str, str, str] | None = None
    for pattern, key in _PREDICATES:
        m = pattern.search(rest)
        if m:
            subject = _LEAD_IN.sub("", rest[: m.start()].strip() + " ", count=1).strip()
            subject = " ".join(w for w in subject.split() if w not in _AUX and w not in _NEGATIONS)
            if subject.endswith((" and", " y")) and subject.split()[0] not in _DETERMINERS:
                subject = ""  # "left Deloitte and joined KPMG": the verbs share the entity as subject
            value = " ".join(m.group("val").split()[:3])
            predicate = (key, subject, _value_words(fact, value))
            break
    if predicate is None:
        predicate = _role(fact)
    if predicate is None and ":" in folded:
        attribute = _ATTRIBUTE.match(folded.strip())
        key = " ".join(w for w in attribute.group("key").split() if w not in ("new", "nuevo", "nueva")) \
            if attribute else ""
        if attribute and key and len(key.split()) <= 3 and _stem(key.split()[-1]) == key.split()[-1]:
            predicate = ("attribute:" + key, "", " ".join(attribute.group("val").split()))
    return _Sig(frame, tuple(values), frozenset(kinds), plain, negated, marker, stops,
                any(t in _EVENT_WORDS for t in tokens) and not _HABITUAL.intersection(tokens), predicate,
                any(t in _ONCE_WORDS for t in tokens),
                _moved_from(words), _said(words), moved_value=_moved_value(words, marker), claim=_claim(tokens))


def _claim(tokens: Sequence[str]) -> tuple[str, ...]:
    """``_Sig.claim``: the words without the negation and the auxiliary it takes ("does not", "isn't"
    → "is"), without articles and "any", each verb in the form a negation takes ("has" → "have",
    "watches" → "watch")."""
    tokens = _present(tokens)
    out: list[str] = []
    for t in tokens:
        if t in _NEGATED_AUX:
            out.append(_NEGATED_AUX[t])
        elif t in _NEGATIONS or t in _AUX or t.endswith("n't") or t in _ARTICLES or t in _CLAIM_DROP:
            continue
        else:
            out.append(_BARE.get(t) or (t[:-2] if len(t) > 4 and t.endswith(("ches", "shes", "sses", "xes"))
                                        else _stem(t)))
    return tuple(out)


def _present(tokens: Sequence[str]) -> list[str]:
    """``tokens`` with a negated perfect tense said in the present (``_PERFECT_AUX``): "nunca ha
    tenido coche" → "nunca tiene coche", "has never had a car" → "never have a car"; other words
    kept. Only negated: never having had one denies having one now, having had one ("ha vivido en
    Roma") does not say it still holds ("no vive en Roma" is no contradiction)."""
    if _PERFECT_AUX.isdisjoint(tokens) or not any(t in _NEGATIONS or t.endswith("n't") for t in tokens):
        return list(tokens)
    out: list[str] = []
    skip: dict[int, str] = {}
    for i, t in enumerate(tokens):
        if i in skip:
            out.append(skip[i])
            continue
        if t in _PERFECT_AUX:
            j = i + 1
            while j < len(tokens) and tokens[j] in _NEGATIONS:
                j += 1
            said = _participle(tokens[j], plural=t == "han", english=t not in ("ha", "han")) \
                if j < len(tokens) else None
            if said is not None:
                skip[j] = said
                if t in ("hasn't", "haven't"):
                    out.append("not")
                continue
        out.append(t)
    return out


def _participle(word: str, plural: bool, english: bool) -> str | None:
    """The present a participle stands for, or None when ``word`` is not one."""
    if english:
        return _EN_PARTICIPLES.get(word)
    if word in _ES_PARTICIPLES:
        return _ES_PARTICIPLES[word][plural]
    for ending, present in (("ado", "a"), ("ido", "e")):
        if len(word) > len(ending) + 2 and word.endswith(ending):
            return word[: -len(ending)] + present + ("n" if plural else "")
    return None


# Change verbs whose next words are the new value of what the older fact gives a value of.
_VALUE_MOVES = frozenset((
    "moved to", "postponed to", "delayed to", "pushed back to", "brought forward to", "rescheduled to",
    "went up to", "went down to", "rose to", "fell to", "dropped to", "increased to", "decreased to",
    "raised to", "grew to", "upgraded to", "updated to", "downgraded to", "se amplio a", "se ha ampliado a",
    "ampliado a", "se redujo a", "se ha reducido a", "se ha cambiado al", "se cambio al", "se ha retrasado al",
    "se retraso al", "se ha pospuesto al", "se pospuso al", "se ha adelantado al", "se adelanto al",
    "ha subido a", "subio a", "ha bajado a", "bajo a", "actualizado a", "se ha actualizado a",
    "se ha pasado al", "se paso al", "se ha movido al", "se movio al", "se prorrogo hasta", "se ha prorrogado hasta",
    "prorrogado hasta", "se renovo hasta", "se ha renovado hasta", "extended to", "extended until", "renewed until",
    "migrated to", "migrado a", "migro a"))
# A change of rank: the newer names the role the older held, at another level ("junior developer at
# Glovo" → "promoted to senior developer at Glovo"; "jefa de proyecto en Indra" → "ascendida a directora").
_PROMOTIONS = frozenset(("promoted to", "ascendido a", "ascendida a", "ascendio a"))


def _moved_value(words: str, marker: str | None) -> tuple[str, str] | None:
    """What ``_Sig.moved_value`` holds: a value right after a change verb (or one word after it)."""
    if marker not in _VALUE_MOVES:
        return None
    after = f" {words} ".partition(f" {marker} ")[2].split()
    if not after:
        return None
    at = 0 if _is_value(after[0]) else 1 if len(after) > 1 and _is_value(after[1]) else -1
    if at < 0:
        return None
    near = after[at + 1: at + 4]
    if after[at] in _MONTHS or any(w in _MONTHS for w in near) or re.match(r"^(19|20)\d\d$", after[at]) \
            or _QUARTER.match(after[at]):
        return "date", ""
    if at == 1:
        return "number", after[0]
    unit = next((w for w in near if w not in _STOP and w not in _ARTICLES and not _is_value(w)), "")
    return ("number", _stem(unit)) if unit else None


def _frame_words(tokens: Sequence[str]) -> tuple[str, ...]:
    """A frame as the rules compare it: copulas and articles dropped, plurals stemmed (``has 3 open
    incidents`` / ``has 1 open incident``, ``latency is 5 ms`` / ``latency: 7 ms``)."""
    return tuple(_stem(t) for t in tokens if t not in _COPULAS and t not in _ARTICLES)


def _role(fact: str) -> tuple[str, str, str] | None:
    """A role and the one person holding it ("CEO is Pablo Ruiz"), also after a lead-in ("Desde la
    reorganización su jefe es Clara")."""
    text = re.sub(r"\s+(?:now|ahora)\s+", " ", fact.strip())
    role = _ROLE.match(text)
    if role:
        return "role:" + _role_subject(fold(role.group("subj")).split()), "", fold(role.group("val"))
    led = _LED_ROLE.match(text) if _LEAD_IN.match(text) else None
    if led:  # the role starts at the last determiner before "is" ("… su jefe es Clara")
        before = fold(led.group("pre")).replace(",", " ").split()
        at = max((i for i, w in enumerate(before) if i and w in _DETERMINERS), default=len(before) - 1)
        if len(before) - at <= 4:
            return "role:" + _role_subject(before[at:]), "", fold(led.group("val"))
    return None


def _role_subject(words: Sequence[str]) -> str:
    return " ".join(words[1:] if len(words) > 1 and words[0] in _ARTICLES else words)


def _object(plain: Sequence[str]) -> list[str]:
    """What a switch names: its words up to a qualifier of time or place."""
    out: list[str] = []
    for w in plain:
        if out and w in _QUALIFIERS:
            break
        out.append(w)
    return out


def _said(words: str) -> tuple[str, str, str] | None:
    """A subject and its value, stated ("default branch is master") or changed by a verb ("default
    branch renamed to main", "rate limit raised to 300"), the subject's words without articles."""
    found = _CHANGED.match(words) if _CHANGE_GATE.search(words) else None
    if found and _TO_DO.search(found.group(0)):
        found = None  # "was asked to help": a verb and what to do, not a new value
    kind = "changed"
    if not found:
        found, kind = _STATED.match(words), "is"
    if not found:
        return None
    subject = " ".join(_stem(w) for w in found.group("subj").split() if w not in _ARTICLES)
    return (kind, subject, found.group("val")) if subject else None


def _moved_from(words: str) -> tuple[str, ...]:
    """What a fact says the entity moved from, its words stemmed (none if it says no such thing)."""
    found = _FROM.search(words) if " from " in words or " de " in words or " desde " in words else None
    return tuple(_stem(w) for w in found.group("old").split() if w not in _ARTICLES) if found else ()


def _left(a: _Sig, b: _Sig) -> bool:
    """Whether the newer fact says the entity moved from what the older one says."""
    return bool(b.moved_from) and all(w in a.plain for w in b.moved_from)


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
    # 2. The same frame, other values: a number or a date changed. What happens once cannot change.
    if a.frame == b.frame and a.values != b.values and a.negated == b.negated and (a.once or b.once):
        return CONTRADICTION, "once", 0.5
    if a.once and b.once and not (a.negated or b.negated or a.values or b.values) \
            and len(a.plain) == len(b.plain) >= 3 and a.plain[:2] == b.plain[:2] and a.plain[-1] != b.plain[-1]:
        return CONTRADICTION, "once", 0.5  # "born in Cádiz" / "born in Jerez"
    if a.frame == b.frame and a.values != b.values and not (a.event or b.event) and a.negated == b.negated:
        chained = bool(a.values and b.values and a.values[-1] == b.values[0])
        return UPDATE, "date" if "date" in a.kinds | b.kinds else "number", 0.95 if chained else 0.8
    # 2b. The same value restated with a trailing reason or time ("… is 180 ms after adding the cache").
    restated = _restated(a, b)
    if restated and not (a.event or b.event or a.once or b.once) and a.negated == b.negated:
        return UPDATE, "date" if "date" in a.kinds | b.kinds else "number", 0.75
    same_words = a.plain == b.plain
    # 3. The same words, one side negated (also said with another form of the verb or article: "has a
    # driving licence" / "does not have a driving licence", "is vegetarian" / "isn't vegetarian").
    if (same_words or (a.claim and a.claim == b.claim)) and a.negated != b.negated:
        if b.stops:
            return UPDATE, "no longer", 0.9
        if not new_marker:
            return CONTRADICTION, "negation", 0.5
    # 3b. "No longer …" with every word the older fact says, or its verb and its object: it ended.
    if b.stops and not a.negated and not a.stops and a.content() and (
            a.content() <= b.content() or (a.head() == b.head() and (a.content() - {a.head()}) & b.content())):
        return UPDATE, "no longer", 0.85
    # 3c. The newer says it moved from what the older says ("migrated CI from Jenkins to …").
    if not a.event and not a.negated and _left(a, b):
        return UPDATE, "switch", 0.8
    # 3d. A subject's value changed by a verb ("budget is 50,000 €" → "budget was cut to 35,000 €").
    if a.said and b.said and b.said[0] == "changed" and a.said[1] == b.said[1] and a.said[2] != b.said[2] \
            and not (a.event or a.negated or b.negated):
        return UPDATE, "changed", 0.8
    # 3e. A value moved by its change verb ("planned for 10 april" → "postponed to 24 april"; "tiene 16 gb de
    # ram" → "se amplio a 32 gb de ram"): a date for a date, a number for a number beside the same word.
    moved = b.moved_value
    if moved and a.values and moved[0] in a.kinds and not (a.event or a.once or a.negated or b.negated) \
            and (moved[0] == "date" or moved[1] in a.plain):
        return UPDATE, moved[0], 0.75
    # 3f. A change of rank of the role the older states (``_PROMOTIONS``): they share some of its words.
    if new_marker in _PROMOTIONS and not (a.event or a.negated or a.stops) and a.content():
        if len(a.content() & b.content()) / max(1, len(a.content() | b.content())) >= 0.2:
            return UPDATE, "role", 0.75
    # 4. A marked update about the same thing: same subject and predicate, another object.
    if new_marker and not a.event and not same_words and not a.stops and not b.stops:
        if new_marker in _SWITCHES and b.plain and len(_object(b.plain)) <= 3 and a.head() in _SWITCHABLE:
            return UPDATE, "switch", 0.6
        if a.head() in _COPULAS and a.head() == b.head() and new_marker in _NOW:
            return UPDATE, "marker", 0.7  # "es jefa de proyecto" → "ahora es directora de producto"
        if a.head() and a.head() == b.head():
            overlap = len(a.content() & b.content()) / max(1, len(a.content() | b.content()))
            if overlap >= 0.2 or len(a.content() | b.content()) <= 3:
                return UPDATE, "marker", 0.85
    return None


def _prefix(frame: tuple[str, ...]) -> tuple[str, ...]:
    """A frame up to its first value (what ``_restated`` frames share)."""
    return frame[: frame.index("#") + 1]


def _restated(a: _Sig, b: _Sig) -> bool:
    """One frame is the other's with a trailing clause (``after``, ``since``, ``desde`` …), and the
    values they share a place for differ."""
    short, long_ = sorted((a.frame, b.frame), key=len)
    if len(short) == len(long_) or "#" not in short or long_[: len(short)] != short:
        return False
    if long_[len(short)] not in _TRAILING:
        return False
    n = short.count("#")
    return a.values[:n] != b.values[:n]


# A first look, three regex searches per fact: what a rule could use. An entity none of whose rules
# could hold (no negation or marker, fewer than two predicates or roles, no two facts alike once
# their numbers and dates are masked) is left without reading its facts any closer: most of a memory.
_MONTH_WORDS = "|".join(sorted(_MONTHS, key=len, reverse=True))
# A marker or a negation: one set lookup per word (a long regex alternation tried at every position
# cost more than the rest of the first look).
_SIGN_WORDS = frozenset(
    "not no never nunca jamas anymore now ahora currently actualmente moved mudo switched changed cambio paso instead "
    "lugar vez hoy new nuevo nueva nuevos nuevas upgraded updated migrated downgraded promoted dropped fell rose "
    "increased decreased grew went pushed postponed delayed brought retrasado retraso pospuesto pospuso adelantado "
    "adelanto subido subio bajado bajo ascendido ascendida migrado migro actualizado transferred converted pasado "
    "cambiado prorrogo prorrogado renovo renovado extended renewed mudamos joined incorporo unio ficho ascendio "
    "pasado movido".split())
_SIGN_PHRASES = ("these days", "as of", "n't")
_WORD = re.compile(r"[a-z]+")


def _signed(folded: str) -> bool:
    return not _SIGN_WORDS.isdisjoint(_WORD.findall(folded)) or any(p in folded for p in _SIGN_PHRASES)


_NEW_FIRST = ("new ", "nuevo ", "nueva ", "nuevos ", "nuevas ")  # "New phone number: …" (rule 4)
_PRED = re.compile(r"\b(?:work|works|employed|trabaja|empleado|empleada|live|lives|based|resides|vive|reside"
                   r"|located|is in|esta en|encuentra|report|reports|reporta|depende)\b")
_VAL = re.compile(r"\d|\b(?:" + _MONTH_WORDS + r"|[qh][1-4])\b")
_ROLE_GATE = re.compile(r"\s(?:is|es)\s+(?:now\s+|ahora\s+)?[A-ZÁÉÍÓÚÑ]")
_MASK = re.compile(r"\d[\d.,:/-]*%?|\b(?:" + _MONTH_WORDS + r"|[qh][1-4])\b")


def worth_scanning(facts: Sequence[str]) -> bool:
    """Whether any rule could hold between two of ``facts`` (a quick, conservative look): a marker
    or a negation anywhere, two predicates, two roles, or two facts alike once their numbers and
    dates are masked."""
    preds = roles = once = 0
    masked: set[str] = set()
    for fact in facts:
        folded = fold(fact)
        if not _ONCE_WORDS.isdisjoint(_WORD.findall(folded)):
            once += 1
            if once >= 2:
                return True  # two facts of what happens once (rule 2's contradictions)
        if _signed(folded) or folded.startswith(_NEW_FIRST) or _CHANGE_GATE.search(folded):
            return True
        if _PRED.search(folded):
            preds += 1
        if _ROLE_GATE.search(fact) or (":" in folded and _ATTRIBUTE.match(folded.strip())):
            roles += 1
        if preds >= 2 or roles >= 2:
            return True
        if _VAL.search(folded):
            # the frame up to its first value: equal for the rules' frames (2) and for a value
            # restated with a trailing clause (2b)
            masked_words = [w for w in _TOKEN.findall(_MASK.sub(" #0 ", _SINCE_TIME.sub("", folded, count=1)))
                            if w not in _STILL]
            if "#0" in masked_words:
                masked_words = masked_words[: masked_words.index("#0") + 1]
            key = " ".join(_frame_words(masked_words))
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
    by_prefix: dict[tuple[str, ...], list[int]] = {}
    by_subject: dict[str, list[int]] = {}
    by_pred: dict[tuple[str, str], list[int]] = {}
    by_plain: dict[tuple[str, ...], list[int]] = {}
    by_claim: dict[tuple[bool, tuple[str, ...]], list[int]] = {}  # (negated, claim) → facts (rule 3)
    by_head: dict[str, list[int]] = {}
    switchable: list[int] = []
    valued: dict[str, list[int]] = {}  # facts holding a date / a number (rule 3e: the last few)
    onces: list[int] = []
    out: dict[int, Finding] = {}
    for j, b in enumerate(sigs):
        olders: list[int] = []
        if "#" in b.frame:
            olders += by_frame.get(b.frame, [])
        if b.predicate:
            olders += by_pred.get(b.predicate[:2], [])
        olders += by_plain.get(b.plain, [])
        olders += by_claim.get((not b.negated, b.claim), [])  # rule 3: the claim said the other way
        if "#" in b.frame:
            olders += by_prefix.get(_prefix(b.frame), [])
        if b.said and b.said[0] == "changed":
            olders += by_subject.get(b.said[1], [])
        if b.stops or b.moved_from:  # rare: every older fact is a candidate (rules 3b, 3c)
            olders += range(j)
        if b.moved_value:
            olders += valued.get(b.moved_value[0], [])[-8:]
        if b.once:
            olders += onces[-8:]  # "born in Cádiz" / "born in Jerez": no value to index them by
        if b.marker in _PROMOTIONS:
            olders += range(max(0, j - 8), j)  # rule 3f: the last few facts (the role's words differ)
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
            by_prefix.setdefault(_prefix(b.frame), []).append(j)
        if b.predicate:
            by_pred.setdefault(b.predicate[:2], []).append(j)
        by_plain.setdefault(b.plain, []).append(j)
        by_claim.setdefault((b.negated, b.claim), []).append(j)
        if b.said:
            by_subject.setdefault(b.said[1], []).append(j)
        by_head.setdefault(b.head(), []).append(j)
        for kind in b.kinds:
            valued.setdefault(kind, []).append(j)
        if b.once:
            onces.append(j)
        if b.head() in _SWITCHABLE and not b.marker:
            switchable.append(j)
    return sorted(out.values(), key=lambda f: (f.older, f.newer))
