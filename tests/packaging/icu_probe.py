"""Everything Qt Core asks ICU for, printed as JSON: collation, case mapping, dates with their
time-zone names, zone display names and legacy encodings, in several languages. Run by
``test_icu_data.py`` with the full and the trimmed ICU data library."""

from __future__ import annotations

import functools
import json
import sys

from PySide6.QtCore import QCollator, QDate, QDateTime, QLocale, QStringEncoder, QTime, QTimeZone

WORDS = ["ñu", "nube", "Óscar", "oso", "zeta", "ábaco", "Zorro", "a10", "a9", "chico", "cuna", "İzmir", "ırmak"]
LOCALES = ["en_US", "en_GB", "es_ES", "es_MX", "de_DE", "fr_FR", "pt_BR", "ru_RU", "tr_TR", "ar_EG", "hi_IN",
           "zh_CN", "ja_JP", "sv_SE", "C"]
ZONES = ["Europe/Madrid", "America/Mexico_City", "Asia/Tokyo", "UTC"]
ENCODINGS = ["windows-1252", "ISO-8859-15", "IBM850", "KOI8-R", "Shift_JIS", "GB18030", "Big5"]


def probe() -> dict:
    out: dict = {"locales": {}, "encodings": {}}
    moment = QDateTime(QDate(2026, 1, 15), QTime(9, 30), QTimeZone(b"Europe/Madrid"))
    for name in LOCALES:
        locale = QLocale(name)
        entry: dict = {}
        for numeric in (False, True):
            collator = QCollator(locale)
            collator.setNumericMode(numeric)
            entry[f"sorted_numeric_{numeric}"] = sorted(WORDS, key=functools.cmp_to_key(collator.compare))
            entry[f"compare_numeric_{numeric}"] = [collator.compare(a, b) for a in WORDS for b in WORDS]
        entry["upper"] = locale.toUpper("istanbul ñandú straße ǆ")
        entry["lower"] = locale.toLower("ISTANBUL İ ÑANDÚ")
        for fmt in (QLocale.FormatType.LongFormat, QLocale.FormatType.ShortFormat):
            entry[f"date_{fmt.name}"] = locale.toString(moment, fmt)
            entry[f"date_utc_{fmt.name}"] = locale.toString(moment.toUTC(), fmt)
        for zone in ZONES:
            tz = QTimeZone(zone.encode())
            entry[zone] = [tz.displayName(kind, width, locale)
                           for kind in (QTimeZone.TimeType.StandardTime, QTimeZone.TimeType.DaylightTime)
                           for width in (QTimeZone.NameType.LongName, QTimeZone.NameType.ShortName,
                                         QTimeZone.NameType.OffsetName)]
        out["locales"][name] = entry
    for name in ENCODINGS:
        encoder = QStringEncoder(name)
        out["encodings"][name] = encoder.name() if encoder.isValid() else None  # PySide6 cannot encode with it
    out["codecs"] = sorted(QStringEncoder.availableCodecs())
    out["zone_ids"] = len(QTimeZone.availableTimeZoneIds())
    out["canonical"] = [QTimeZone(z).id().data().decode() for z in (b"Europe/Madrid", b"Asia/Calcutta")]
    return out


if __name__ == "__main__":
    json.dump(probe(), sys.stdout, ensure_ascii=False, indent=1)
