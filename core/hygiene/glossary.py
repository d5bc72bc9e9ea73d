"""The words of a name read plainly, for the duplicates by meaning (``core.hygiene.meaning``): short
forms written out (``Prod DB`` → production database, ``QA env`` → qa environment), and the common
words of names in Spanish and English, and their synonyms, read as one English word
(``Oficina de Valencia`` → office valencia, ``Invoicing system`` → billing system, ``Portal de
clientes`` → customer portal).

Two names whose words read the same are one name said two ways; two whose words read as two known
words apart (``Staging DB`` / ``Production database``, ``Auth API`` / ``Authz API``, ``Madrid
office`` / ``Oficina de Málaga``) are two things, whatever the model says of them. A word not in
these lists is read as it is written (a proper name: ``Valencia``, ``Orion``): the model judges.

People's given names and their nicknames (``NICKNAMES``: ``Chema`` → José María, ``Tony`` →
Anthony) are compared here too (``nickname_match``), for the spelling rules of ``duplicates``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

# Short forms of common words in the names of systems, teams and documents → the words in full.
SHORT: dict[str, tuple[str, ...]] = {
    **{k: (v,) for k, v in {
        "db": "database", "dbs": "database", "env": "environment", "envs": "environment", "prod": "production",
        "dev": "development", "stg": "staging", "infra": "infrastructure", "docs": "documentation",
        "mgmt": "management", "mgr": "manager", "dept": "department", "depto": "departamento",
        "org": "organization", "auth": "authentication", "authn": "authentication", "authz": "authorization",
        "config": "configuration", "cfg": "configuration", "conf": "configuration", "repo": "repository",
        "repos": "repository", "app": "application", "apps": "application", "msg": "message", "msgs": "message",
        "info": "information", "perf": "performance", "sec": "security", "ops": "operations",
        "svc": "service", "k8s": "kubernetes", "i18n": "internationalization", "l10n": "localization",
        "a11y": "accessibility", "mktg": "marketing", "eng": "engineering", "spec": "specification",
        "specs": "specification", "req": "requirement", "reqs": "requirement", "admin": "administration",
        "corp": "corporation", "intl": "international", "govt": "government", "univ": "university",
        "acct": "account", "mtg": "meeting", "temp": "temporary", "approx": "approximate", "pwd": "password",
        "ppt": "presentation", "qtr": "quarter", "yr": "year", "ref": "reference", "lib": "library",
        "libs": "library", "pkg": "package", "pkgs": "package", "img": "image", "imgs": "image",
        "util": "utility", "utils": "utility", "stats": "statistics", "tmpl": "template",
    }.items()},
    "hr": ("human", "resources"), "rrhh": ("recursos", "humanos"), "dwh": ("data", "warehouse"),
    "sla": ("service", "level", "agreement"), "pm": ("product", "manager"), "qa": ("quality", "assurance"),
}

# Words that name the same thing (a translation, a synonym) → one English word. Plurals are read
# singular before (``_singular``); accents are folded already.
_SAME: dict[str, tuple[str, ...]] = {
    "office": ("oficina", "despacho"), "team": ("equipo",), "report": ("informe", "reporte"),
    "project": ("proyecto",), "service": ("servicio",), "department": ("departamento", "dept"),
    "meeting": ("reunion", "mtg"), "environment": ("entorno", "ambiente"), "production": ("produccion",),
    "development": ("desarrollo",), "testing": ("prueba", "pruebas", "test", "tests"), "security": ("seguridad",),
    "sale": ("venta",), "support": ("soporte", "helpdesk"), "payment": ("pago",), "order": ("pedido",),
    "user": ("usuario",), "page": ("pagina",), "application": ("aplicacion",), "policy": ("politica",),
    "guide": ("guia", "manual"), "quarterly": ("trimestral",), "annual": ("anual", "yearly"),
    "monthly": ("mensual",), "weekly": ("semanal",), "daily": ("diario", "diaria"), "budget": ("presupuesto",),
    "expense": ("gasto",), "contract": ("contrato",), "company": ("empresa", "compania"),
    "employee": ("empleado", "empleada", "staff"), "warehouse": ("almacen",), "headquarters": ("sede", "hq"),
    "customer": ("client", "cliente"), "billing": ("invoicing", "facturacion"), "invoice": ("factura",),
    "issue": ("bug", "incidencia"), "account": ("cuenta",), "password": ("contrasena",),
    "management": ("gestion",), "manager": ("gerente",),
    "human": ("humano",), "resources": ("recursos", "resource"), "school": ("colegio", "escuela"),
    "university": ("universidad",), "hospital": ("hospital",), "library": ("biblioteca",),
    "server": ("servidor",), "network": ("redes",), "mobile": ("movil",),
    "website": ("web", "site"), "store": ("tienda", "shop"), "product": ("producto",),
    "campaign": ("campana",), "survey": ("encuesta",), "training": ("formacion", "capacitacion"),
    "template": ("plantilla",), "form": ("formulario",),
    "request": ("solicitud", "peticion"), "dashboard": ("panel",), "notification": ("notificacion",),
    "search": ("busqueda",), "purchase": ("compra",), "supplier": ("proveedor", "vendor"),
    "information": ("informacion",), "documentation": ("documentacion",), "infrastructure": ("infraestructura",),
    "marketing": ("mercadotecnia",), "engineering": ("ingenieria",), "finance": ("finanzas", "finanza"),
    "legal": ("juridico",), "quality": ("calidad",), "assurance": ("aseguramiento",),
    "staging": ("preproduccion", "preprod"), "backup": ("respaldo",), "migration": ("migracion",),
    "place": ("lugar", "sitio"), "event": ("evento",), "document": ("documento",), "system": ("sistema",),
    "tool": ("herramienta",), "process": ("proceso",), "organization": ("organizacion",),
    "location": ("ubicacion",), "person": ("persona",), "task": ("tarea",), "city": ("ciudad",),
    "country": ("pais",), "group": ("grupo",), "area": ("area",), "program": ("programa",),
    "lisbon": ("lisboa",), "london": ("londres",), "seville": ("sevilla",), "saragossa": ("zaragoza",),
    "corunna": ("coruna",), "majorca": ("mallorca",), "cologne": ("colonia",), "munich": ("munich",),
    "delivery": ("shipping", "envio", "entrega"), "cost": ("coste", "costo"), "price": ("precio",),
    "goal": ("objetivo", "meta"), "holiday": ("vacation", "vacacion", "vacaciones"), "car": ("coche", "automobile"),
    "apartment": ("flat", "piso", "apartamento"), "doctor": ("medico", "medica", "physician"),
    "lawyer": ("abogado", "abogada", "attorney"), "teacher": ("profesor", "profesora", "maestro", "maestra"),
    "insurance": ("seguro",), "newsletter": ("boletin",), "flag": ("toggle",),
    "hiring": ("recruiting", "recruitment"), "museum": ("museo",), "party": ("fiesta",),
    "summer": ("verano",), "winter": ("invierno",), "spring": ("primavera",), "autumn": ("otono", "fall"),
    "launch": ("lanzamiento",),
    "schedule": ("horario",), "calendar": ("calendario",), "changelog": ("changelog",),
}
SAME: dict[str, str] = {w: canon for canon, ws in _SAME.items() for w in (canon, *ws)}
# Spanish phrases of several words that say one thing (read before the words one by one).
PHRASES: dict[str, str] = {
    "base de datos": "database", "bases de datos": "database", "hoja de ruta": "roadmap",
    "copia de seguridad": "backup", "copias de seguridad": "backup", "recursos humanos": "human resources",
    "inicio de sesion": "login", "atencion al cliente": "customer support", "sitio web": "website",
    "pagina web": "website", "control de calidad": "quality assurance", "puesta en produccion": "release",
    "registro de cambios": "changelog", "change log": "changelog", "mesa de ayuda": "support",
    # English phrases for one thing
    "help desk": "support", "service desk": "support", "support desk": "support",
    "sign in": "login", "log in": "login", "sign up": "signup",
}
# The first word of a phrase: a name holding none is read word by word, no phrase looked for.
_PHRASE_FIRST = frozenset(p.split()[0] for p in PHRASES)
_EXPANDED = frozenset(w for ws in SHORT.values() for w in ws)

# Words that say nothing of what a name names (English and Spanish).
_FILLER = frozenset("the a an of for and to in on at by de del la el los las y para en un una al con".split())


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("ones"):  # reuniones, notificaciones
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def read(words: Sequence[str]) -> tuple[tuple[str, ...], frozenset[str]]:
    """A name's folded words read plainly (see the module docstring), filler dropped, in their
    order; and which of them the lists know (every other one is read as written)."""
    return _read(tuple(words))


@lru_cache(maxsize=8192)
def _read(words: tuple[str, ...]) -> tuple[tuple[str, ...], frozenset[str]]:
    text = f" {' '.join(x for w in words for x in SHORT.get(w, (w,)))} "
    if not _PHRASE_FIRST.isdisjoint(text.split()):
        for phrase, said in PHRASES.items():
            text = text.replace(f" {phrase} ", f" {said} ")
    out: list[str] = []
    known: set[str] = set()
    for x in text.split():
        if x in _FILLER:
            continue
        canon = SAME.get(x) or SAME.get(_singular(x)) or (x if x in _EXPANDED or x in PHRASES.values() else None)
        if canon is not None:
            known.add(canon)
        out.append(canon or _singular(x))
    return tuple(out), frozenset(known)


def same(ta: Sequence[str], tb: Sequence[str]) -> bool:
    """Both names' words read the same, in any order (``Q2 OKRs`` / ``OKRs for Q2``, ``Dev DB`` /
    ``Development database``, ``Valencia office`` / ``Oficina de Valencia``), and one of them was
    read (a short form, a translation or a synonym: names written alike are the spelling rules')."""
    ra, rb = read(ta)[0], read(tb)[0]
    return bool(ra) and sorted(ra) == sorted(rb) and tuple(ta) != tuple(tb)


def known_apart(ta: Sequence[str], tb: Sequence[str]) -> bool:
    """Read plainly, the names share words and differ by one word on each side, both words the
    lists know (``Staging DB`` / ``Production database``: staging / production; ``Auth API`` /
    ``Authz API``: authentication / authorization): two things."""
    ra, ka = read(ta)
    rb, kb = read(tb)
    shared = set(ra) & set(rb)
    only_a, only_b = [w for w in ra if w not in shared], [w for w in rb if w not in shared]
    return bool(shared) and len(only_a) == 1 and len(only_b) == 1 and only_a[0] in ka and only_b[0] in kb


# Given names and the short forms people use for them (Spanish and English): a nickname → the names
# it may stand for, each as its folded words (``Chema`` → José María). Short forms that
# ``names.tokens`` maps already (``Pepe`` → jose, ``Bob`` → robert) are read there; these are
# read only when two people's names are compared (``nickname_match``), never stored.
_NICKNAMES: dict[str, tuple[str, ...]] = {
    # Spanish
    "chema": ("jose maria",), "josemari": ("jose maria",), "pepe": ("jose",), "pepa": ("josefa",),
    "paco": ("francisco",), "curro": ("francisco",), "pancho": ("francisco",), "fran": ("francisco", "francisca"),
    "nacho": ("ignacio",), "lola": ("dolores",), "manolo": ("manuel",), "manu": ("manuel",),
    "concha": ("concepcion",), "conchi": ("concepcion",), "charo": ("rosario",), "merche": ("mercedes",),
    "kike": ("enrique",), "quique": ("enrique",), "rafa": ("rafael",), "javi": ("javier",),
    "dani": ("daniel", "daniela"),
    "toni": ("antonio",), "tono": ("antonio",), "chus": ("jesus", "maria jesus"), "maite": ("maria teresa",),
    "marisa": ("maria luisa",), "maricarmen": ("maria del carmen", "maria carmen"), "mamen": ("maria del carmen",),
    "mayte": ("maria teresa",), "maribel": ("maria isabel",), "marisol": ("maria soledad",),
    "nando": ("fernando",), "ma": ("maria",), "fco": ("francisco",), "fdo": ("fernando",),  # Mª, Fco., Fdo.
    "fer": ("fernando",), "lucho": ("luis",), "pili": ("pilar",), "inma": ("inmaculada",), "fina": ("josefina",),
    "isa": ("isabel",), "guille": ("guillermo",), "nico": ("nicolas",), "santi": ("santiago",), "edu": ("eduardo",),
    "juanjo": ("juan jose",), "juanma": ("juan manuel",), "juanca": ("juan carlos",), "josemi": ("jose miguel",),
    "chelo": ("consuelo",), "lupe": ("guadalupe",), "tere": ("teresa",), "susi": ("susana",), "bea": ("beatriz",),
    "patri": ("patricia",), "vero": ("veronica",), "moncho": ("ramon",), "lalo": ("eduardo",),
    "beto": ("roberto", "alberto"),
    "memo": ("guillermo",), "chuy": ("jesus",), "alex": ("alejandro", "alejandra", "alexander", "alexandra"),
    # English
    "bill": ("william",), "billy": ("william",), "will": ("william",), "willy": ("william",), "liam": ("william",),
    "bob": ("robert",), "bobby": ("robert",), "rob": ("robert",), "robbie": ("robert",), "bert": ("robert", "albert"),
    "dick": ("richard",), "rick": ("richard",), "rich": ("richard",), "richie": ("richard",),
    "tony": ("anthony", "antonio"), "jim": ("james",), "jimmy": ("james",), "jamie": ("james",),
    "mike": ("michael",), "mikey": ("michael",), "mick": ("michael",), "tom": ("thomas",), "tommy": ("thomas",),
    "chris": ("christopher", "christine", "christina", "cristina", "cristian"),
    "kate": ("katherine", "catherine", "kathleen"), "katie": ("katherine", "catherine", "kathleen"),
    "kathy": ("katherine", "kathleen"), "cathy": ("catherine",), "liz": ("elizabeth",), "lizzie": ("elizabeth",),
    "beth": ("elizabeth",), "betty": ("elizabeth",), "libby": ("elizabeth",), "eliza": ("elizabeth",),
    "maggie": ("margaret",), "meg": ("margaret",), "peggy": ("margaret",), "jen": ("jennifer",), "jenny": ("jennifer",),
    "dan": ("daniel",), "danny": ("daniel",), "ed": ("edward",), "eddie": ("edward",), "ted": ("edward", "theodore"),
    "ned": ("edward",), "joe": ("joseph",), "joey": ("joseph",), "sam": ("samuel", "samantha"), "ben": ("benjamin",),
    "nick": ("nicholas",), "matt": ("matthew",), "dave": ("david",), "steve": ("steven", "stephen"),
    "andy": ("andrew",), "drew": ("andrew",), "pat": ("patrick", "patricia"), "sue": ("susan",), "susie": ("susan",),
    "jack": ("john",), "johnny": ("john",), "larry": ("lawrence",), "harry": ("henry", "harold"), "hank": ("henry",),
    "charlie": ("charles",), "chuck": ("charles",), "fred": ("frederick",), "freddie": ("frederick",),
    "greg": ("gregory",), "jeff": ("jeffrey",), "jon": ("jonathan",), "josh": ("joshua",), "ken": ("kenneth",),
    "kenny": ("kenneth",), "nate": ("nathan", "nathaniel"), "pete": ("peter",), "phil": ("philip", "phillip"),
    "ron": ("ronald",), "tim": ("timothy",), "vicky": ("victoria",), "zach": ("zachary",), "abby": ("abigail",),
    "becky": ("rebecca",), "debbie": ("deborah",), "jess": ("jessica",), "mandy": ("amanda",), "pam": ("pamela",),
    "val": ("valerie",), "frank": ("francis", "franklin"), "gabe": ("gabriel",), "theo": ("theodore",),
}
NICKNAMES: dict[str, tuple[tuple[str, ...], ...]] = {
    k: tuple(tuple(v.split()) for v in vs) for k, vs in _NICKNAMES.items()}


def _both_sexes(full: tuple[tuple[str, ...], ...]) -> bool:
    """A nickname of a man's name and a woman's (``Dani``: Daniel, Daniela; ``Sam``: Samuel,
    Samantha), told by a first name ending in -a among others that do not."""
    ends = {words[0].endswith("a") for words in full}
    return len(ends) == 2


# Nicknames that do not tell which person: ``Dani Vega`` may be Daniel or Daniela Vega.
AMBIGUOUS = frozenset(k for k, full in NICKNAMES.items() if _both_sexes(full))


def nickname_match(ta: Sequence[str], tb: Sequence[str]) -> bool:
    """Two people's names (their folded words) the same but for a given name said by its nickname
    (``Tony Russo`` / ``Anthony Russo``, ``Chema Rubio`` / ``José María Rubio``): the nickname is
    a word before the last (the surname), and the words left are the same. A nickname of a man's
    name and a woman's (``AMBIGUOUS``: ``Dani``, ``Sam``) does not tell which person: no match."""
    for short, long_ in ((ta, tb), (tb, ta)):
        for i, w in enumerate(short[:-1]):
            if w in AMBIGUOUS:
                continue
            for full in NICKNAMES.get(w, ()):
                if [*short[:i], *full, *short[i + 1:]] == list(long_):
                    return True
    return False


def read_words(words: Sequence[str]) -> list[str]:
    """``read(words)``'s words alone."""
    return list(read(words)[0])
