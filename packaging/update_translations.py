"""Refresh the app's translations: lupdate collects every tr()/translate() string of ``desktop/`` into
``resources/i18n/hipocampo_<lang>.ts`` (keeping what is translated), lrelease compiles each into the
``.qm`` the app loads.

    .venv/bin/python packaging/update_translations.py          # update the .ts files, then compile them
    .venv/bin/python packaging/update_translations.py --compile-only

After an update, translate what is new (``pyside6-linguist resources/i18n/hipocampo_es.ts``, or edit the
XML: a finished message has no ``type="unfinished"``), run the script again, and commit the .ts and .qm.
``tests/desktop/test_translations.py`` fails while a string has no finished Spanish translation.

English is the source language: its file holds only the plural forms (``%n``), so that "1 change" and
"3 changes" both read right.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "resources" / "i18n"
#: language → extra lupdate options
LANGUAGES: dict[str, tuple[str, ...]] = {"es": (), "en": ("-pluralonly",)}


def tool(name: str) -> str:
    """The path of ``pyside6-<name>``: beside this Python first (a venv), else on PATH."""
    beside = Path(sys.executable).with_name(f"pyside6-{name}")
    if beside.exists():
        return str(beside)
    found = shutil.which(f"pyside6-{name}")
    if found is None:
        raise SystemExit(f"pyside6-{name} not found: install PySide6 (it ships lupdate and lrelease)")
    return found


def sources() -> list[str]:
    """Every desktop source file, relative to the checkout (so the .ts names no machine's paths)."""
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "desktop").rglob("*.py"))


def lupdate(ts: Path, language: str, *extra: str) -> None:
    """Merge the sources' strings into ``ts`` (created when missing); vanished strings are dropped."""
    subprocess.run([tool("lupdate"), "-silent", "-no-obsolete", "-locations", "absolute",
                    "-source-language", "en", "-target-language", language, *extra, *sources(), "-ts", str(ts)],
                   cwd=ROOT, check=True)


def lrelease(ts: Path, qm: Path) -> None:
    """Compile ``ts`` into ``qm``: written beside it, then renamed over it, because a running app maps the
    old file into memory and would read garbage if it were rewritten in place."""
    partial = qm.with_name(qm.name + ".part")
    try:
        subprocess.run([tool("lrelease"), "-silent", str(ts), "-qm", str(partial)], cwd=ROOT, check=True)
        os.replace(partial, qm)
    finally:
        partial.unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compile-only", action="store_true", help="only run lrelease on the .ts files")
    args = parser.parse_args(argv)
    I18N.mkdir(parents=True, exist_ok=True)
    for language, extra in LANGUAGES.items():
        ts = I18N / f"hipocampo_{language}.ts"
        if not args.compile_only:
            lupdate(ts, language, *extra)
        lrelease(ts, ts.with_suffix(".qm"))
        print(f"{ts.relative_to(ROOT)} → {ts.with_suffix('.qm').name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
