"""The core's technical error texts as sentences for people.

The core words its errors for programs and models: ``entities[0].name: name must not be empty.``
(where in the request it went wrong) or Python's own ``'utf-8' codec can't decode byte 0xe9 …``.
The app shows the same facts in plain words; what it does not recognise is shown as it is.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QObject

_PATH = re.compile(r"^(?:[a-zA-Z_]+\[\d+\]\.)*[a-zA-Z_]+(?:\[\d+\])?: ")
_DECODE = re.compile(r"'(?P<codec>[\w-]+)' codec can't decode byte (?P<byte>0x[0-9a-fA-F]+) in position (?P<pos>\d+)")
_EMPTY = re.compile(r"^(?P<field>\w+) must not be empty\.?$")
_LONG = re.compile(r"^(?P<field>\w+) is (?P<n>[\d,]+) characters; the limit is (?P<limit>[\d,]+)\.?$")
_NUL = re.compile(r"^(?P<field>\w+) contains a NUL character\.?$")
_JSON = re.compile(r"^not valid JSON \([^()]*: line \d+ column (?P<column>\d+) \(char \d+\)\)$")


class PlainWords(QObject):
    """The translation context of these sentences (never instantiated)."""


def _field(name: str) -> str:
    return {"name": PlainWords.tr("name"), "entityType": PlainWords.tr("type"),
            "observation": PlainWords.tr("observation"), "from": PlainWords.tr("relation's start"),
            "to": PlainWords.tr("relation's end"), "relationType": PlainWords.tr("relation's type")}.get(name, name)


def in_plain_words(text: str) -> str:
    """``text`` (an import problem, a refused write) as a sentence; unknown texts come back as they are."""
    decode = _DECODE.search(text)
    if decode:
        return PlainWords.tr("It is not UTF-8 text (byte {byte} at position {position} is not valid UTF-8). Save it "
                             "as UTF-8 (“Unicode”) in your editor and import it again.").format(
            byte=decode["byte"].upper().replace("0X", "0x"), position=decode["pos"])
    if (m := _JSON.match(text.strip())) is not None:
        return PlainWords.tr("not valid JSON: something is wrong at character {column}.").format(column=m["column"])
    fact = _PATH.sub("", text.strip(), count=1)
    if (m := _EMPTY.match(fact)) is not None:
        if m["field"] == "entityType":
            return PlainWords.tr("An entity has no type.")
        if m["field"] == "observation":
            return PlainWords.tr("An observation is empty.")
        return PlainWords.tr("The {field} is empty.").format(field=_field(m["field"]))
    if (m := _LONG.match(fact)) is not None:
        return PlainWords.tr("The {field} is {n} characters long; at most {limit} are allowed.").format(
            field=_field(m["field"]), n=m["n"], limit=m["limit"])
    if (m := _NUL.match(fact)) is not None:
        return PlainWords.tr("The {field} contains an invisible NUL character.").format(field=_field(m["field"]))
    return fact if fact != text.strip() and fact else text
