"""The bundle's trimmed ICU data (packaging/trim_icu.py): ICU's package format survives a round
trip, and Qt answers every question it asks ICU exactly as with the full data, in every language
probed, except the East-Asian legacy encodings the trim drops on purpose."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import PySide6
import pytest

from tests.packaging.conftest import ROOT

sys.path.insert(0, str(ROOT / "packaging"))
import trim_icu  # noqa: E402

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not all(shutil.which(t) for t in ("cc", "nm", "readelf")),
    reason="Qt uses its own ICU only on Linux; trimming needs cc, nm and readelf")

FULL = next(Path(PySide6.__file__).parent.glob("Qt/lib/libicudata.so.*"), None)
DROPPED_ENCODINGS = {"Shift_JIS", "GB18030", "Big5"}


@pytest.fixture(scope="module")
def trimmed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    assert FULL is not None, "PySide6 ships no libicudata here"
    out = tmp_path_factory.mktemp("icu") / FULL.name
    trim_icu.trim_library(FULL, out)
    return out


def _probe(preload: Path | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    env.update(QT_QPA_PLATFORM="offscreen", TZ="Europe/Madrid", LANG="C.UTF-8")
    if preload is not None:  # the loader then resolves Qt's libicudata.so.NN to this file
        env["LD_PRELOAD"] = str(preload)
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "packaging" / "icu_probe.py")], env=env,
                            capture_output=True, text=True, timeout=120, check=True)
    return json.loads(result.stdout)


def test_package_round_trip_is_byte_identical() -> None:
    _, payload = trim_icu.library_payload(FULL)
    header, entries = trim_icu.read_package(payload)
    assert len(entries) > 1000
    assert trim_icu.write_package(header, entries) == payload


def test_trimmed_library_is_smaller_and_keeps_what_qt_uses(trimmed: Path) -> None:
    assert trimmed.stat().st_size < FULL.stat().st_size * 0.5
    symbol, payload = trim_icu.library_payload(trimmed)
    assert symbol == trim_icu.library_payload(FULL)[0]
    names = {name.split("/", 1)[1] for name, _ in trim_icu.read_package(payload)[1]}
    for needed in ("coll/ucadata.icu", "coll/es.res", "zone/de.res", "zoneinfo64.res", "metaZones.res",
                   "cnvalias.icu", "ja.res", "root.res"):
        assert needed in names, needed
    assert not any(name.startswith(("brkitr/", "translit/", "unit/", "curr/", "lang/")) for name in names)


def test_qt_answers_as_with_the_full_data(trimmed: Path) -> None:
    full, trim = _probe(None), _probe(trimmed)
    # The probe really reaches ICU: German zone names and Spanish collation come from its data.
    assert "Mitteleuropäische" in full["locales"]["de_DE"]["date_LongFormat"]
    assert full["locales"]["es_ES"]["sorted_numeric_False"] != sorted(full["locales"]["es_ES"]["sorted_numeric_False"])
    assert trim["locales"] == full["locales"]
    assert trim["zone_ids"] == full["zone_ids"] and trim["canonical"] == full["canonical"]
    for name, codec in full["encodings"].items():
        assert trim["encodings"][name] == (None if name in DROPPED_ENCODINGS else codec), name
    assert set(trim["codecs"]) < set(full["codecs"]) and "windows-1252" in trim["codecs"]
