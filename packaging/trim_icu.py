#!/usr/bin/env python3
"""Rebuild the ICU data library PySide6 ships on Linux (``libicudata.so.NN``, 32 MB) with only the
data Qt Core can ask ICU for: about 12 MB.

Qt Core calls ICU for four things (``nm -D --undefined-only libQt6Core.so.6``): case mapping
(``u_strToUpper``/``u_strToLower``: its tables are compiled into ``libicuuc``), collation
(``ucol_*``: QCollator, the file dialog's natural sort), time-zone names (``ucal_*``: the zone
name in ``QLocale::toString(dateTime, LongFormat)``, ``QTimeZone::displayName``) and legacy text
encodings (``ucnv_*``: QStringConverter beyond UTF and Latin-1). The trimmed data keeps, for
those, in every language:

- every item at the top of the package: locale bundles, normalisation, properties, supplemental
  data (calendars, likely subtags, metazones, the tz database), the converter aliases and the
  code pages, except the East-Asian multi-byte ones (Shift-JIS, GB18030, Big5, EUC …: no file
  Hipocampo reads is in them) and the character names;
- the collation and time-zone-name trees.

What goes is what Qt has its own code for or never asks: locale display names, currencies,
units, number spell-out, transliteration and break iterators (~20 MB). ``tests/packaging/
test_icu_data.py`` checks that Qt answers exactly as with the full data, language by language.

The library is rebuilt with the C compiler (``cc``): the trimmed package (ICU's "common data"
format: a header, a sorted table of contents, 16-byte aligned items) is embedded as the same
exported symbol (``icudtNN_dat``) under the same soname.

Usage::

    python packaging/trim_icu.py LIBICUDATA [--out PATH]      (in place when --out is omitted)
"""

from __future__ import annotations

import argparse
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

#: Subtrees kept whole: collation and time-zone names, in every language.
KEPT_TREES = ("coll", "zone")
#: Code pages above this size are East-Asian multi-byte tables (Big5, GB18030, Shift-JIS …).
MAX_CONVERTER_BYTES = 16 * 1024
#: Character names (``u_charName``), which Qt never calls.
DROPPED_ITEMS = ("unames.icu",)
_ALIGN = 16
_PAD = b"\xaa"  # what ICU's own packager fills alignment gaps with


def _aligned(offset: int) -> int:
    return -(-offset // _ALIGN) * _ALIGN


def read_package(data: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """Split ICU common data into its header and its ``(name, item)`` entries, in TOC order."""
    header_size, magic1, magic2 = struct.unpack_from("<HBB", data, 0)
    if (magic1, magic2) != (0xDA, 0x27) or data[12:16] != b"CmnD":
        raise ValueError("not ICU common data (CmnD)")
    toc = data[header_size:]
    (count,) = struct.unpack_from("<I", toc, 0)
    offsets = [struct.unpack_from("<II", toc, 4 + 8 * i) for i in range(count)]
    entries = []
    for i, (name_at, data_at) in enumerate(offsets):
        name = toc[name_at:toc.index(b"\0", name_at)].decode("ascii")
        end = offsets[i + 1][1] if i + 1 < count else len(toc)
        entries.append((name, toc[data_at:end]))
    return data[:header_size], entries


def write_package(header: bytes, entries: list[tuple[str, bytes]]) -> bytes:
    """ICU common data from a header and ``(name, item)`` entries (sorted by name, as ICU's
    binary search expects)."""
    entries = sorted(entries, key=lambda e: e[0].encode("ascii"))
    names = b""
    name_offsets = []
    table_size = 4 + 8 * len(entries)
    for name, _ in entries:
        name_offsets.append(table_size + len(names))
        names += name.encode("ascii") + b"\0"
    body = bytearray()
    data_start = _aligned(table_size + len(names))
    data_offsets = []
    for _, item in entries:
        body += _PAD * (_aligned(len(body)) - len(body))
        data_offsets.append(data_start + len(body))
        body += item
    toc = bytearray(struct.pack("<I", len(entries)))
    for name_at, data_at in zip(name_offsets, data_offsets, strict=True):
        toc += struct.pack("<II", name_at, data_at)
    toc += names
    toc += _PAD * (data_start - len(toc))
    return header + bytes(toc) + bytes(body)


def keep(name: str, size: int) -> bool:
    """Whether the item ``icudtNNl/<path>`` is data Qt Core can ask ICU for."""
    path = name.split("/", 1)[1]
    if "/" in path:
        return path.split("/")[0] in KEPT_TREES
    if path.endswith(".cnv"):
        return size <= MAX_CONVERTER_BYTES
    return path not in DROPPED_ITEMS


def trim(data: bytes) -> bytes:
    """The trimmed common data for a full one."""
    header, entries = read_package(data)
    return write_package(header, [(name, item) for name, item in entries if keep(name, len(item))])


def library_payload(library: Path) -> tuple[str, bytes]:
    """The exported data symbol of ``libicudataNN.so`` and its bytes (the whole common data)."""
    symbols = subprocess.run(["nm", "-D", "--defined-only", "-S", str(library)], check=True, capture_output=True,
                             text=True).stdout
    found = [line.split() for line in symbols.splitlines() if re.search(r" icudt\d+_dat$", line)]
    if len(found) != 1:
        raise ValueError(f"{library}: expected one icudtNN_dat symbol, found {symbols!r}")
    address, size, _, symbol = found[0]
    address, size = int(address, 16), int(size, 16)
    sections = subprocess.run(["readelf", "-S", "-W", str(library)], check=True, capture_output=True,
                              text=True).stdout
    for line in sections.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[1] == ".rodata":
            section_address, section_offset = int(fields[3], 16), int(fields[4], 16)
            break
    else:
        raise ValueError(f"{library}: no .rodata section")
    with library.open("rb") as fh:
        fh.seek(section_offset + address - section_address)
        return symbol, fh.read(size)


def build_library(symbol: str, payload: bytes, soname: str, out: Path, compiler: str = "cc") -> None:
    """A shared library exporting ``symbol`` (16-byte aligned, read-only) holding ``payload``."""
    with tempfile.TemporaryDirectory() as tmp:
        blob = Path(tmp) / "icu.dat"
        blob.write_bytes(payload)
        source = Path(tmp) / "icudata.S"
        source.write_text(
            "\t.section .rodata\n\t.balign 16\n"
            f"\t.globl {symbol}\n\t.type {symbol}, @object\n{symbol}:\n"
            f'\t.incbin "{blob}"\n\t.size {symbol}, . - {symbol}\n'
            '\t.section .note.GNU-stack,"",@progbits\n', encoding="ascii")
        built = Path(tmp) / soname
        subprocess.run([compiler, "-shared", "-nostdlib", f"-Wl,-soname,{soname}", "-Wl,--build-id", "-o",
                        str(built), str(source)], check=True, capture_output=True)
        shutil.move(built, out)


def trim_library(library: Path, out: Path | None = None) -> tuple[int, int]:
    """Replace ``library`` (or write ``out``) with the trimmed build; return (old, new) sizes."""
    symbol, payload = library_payload(library)
    before = library.stat().st_size
    target = out or library
    build_library(symbol, trim(payload), library.name, target)
    return before, target.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    before, after = trim_library(args.library, args.out)
    print(f"{args.out or args.library}: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
