"""Function words of Spanish and English, folded. A query's full-text part ignores them: in BM25
they match nearly every memory and only add noise (and time) to the ranking. They also tell the
two languages apart (``language``)."""

from __future__ import annotations

SPANISH = frozenset("""
a al algo algun alguna algunas alguno algunos ante antes aqui asi aun cada como con contra cual
cuales cuando cuanto de del desde donde dos el ella ellas ello ellos en entre era eran es esa esas
ese eso esos esta estaba estan estar estas este esto estos fue fueron ha han hasta hay la las le
les lo los mas me mi mis mucho muy nada ni no nos nosotros o os otra otras otro otros para pero poco
por porque que quien quienes se sea ser si sin sobre su sus tambien te tiene tienen tu tus un una
unas uno unos usted ustedes y ya yo
""".split())
ENGLISH = frozenset("""
about above after again all also am an and any are as at be been before being below between both
but by can could did do does doing down during each few for from further had has have having he
her here hers him his how i if in into is it its itself just me more most my no nor not now of off
on once only or other our ours out over own same she should so some such than that the their
theirs them then there these they this those through to too under until up very was we were what
when where which while who whom why will with would you your yours
""".split())
STOPWORDS = SPANISH | ENGLISH
_ONLY = {"es": SPANISH - ENGLISH, "en": ENGLISH - SPANISH}


def language(words: list[str]) -> str | None:
    """"es" or "en" by which language's own function words ``words`` (folded) hold more of; None
    when neither or as many of each."""
    es = sum(1 for w in words if w in _ONLY["es"])
    en = sum(1 for w in words if w in _ONLY["en"])
    return "es" if es > en else "en" if en > es else None
