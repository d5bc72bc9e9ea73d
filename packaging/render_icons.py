#!/usr/bin/env python3
"""Render Hipocampo's icon (``resources/icons/hipocampo.svg``) into the formats installers want.

Writes into OUT (default ``build/icons``):

- ``hipocampo.png`` (256 px): Linux menus and the ``.deb``;
- ``hipocampo.ico`` (16–256 px in one file): the Windows executable, installer and shortcuts;
- ``hipocampo.icns`` (16–1024 px): the macOS ``.app``.

Qt draws the SVG (QSvgRenderer) and its image plugins write ICO and ICNS, so nothing beyond
PySide6 is needed, and no binary rendering is kept in the repository.

Usage::

    python packaging/render_icons.py [OUT]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SVG = ROOT / "resources" / "icons" / "hipocampo.svg"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_SIZES = (16, 32, 64, 128, 256, 512, 1024)


def render(out: Path) -> list[Path]:
    """Render the PNG, ICO and ICNS icons into ``out``; return their paths."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([])  # noqa: F841 - image plugins need one
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"render_icons: cannot read {SVG}")

    def image(size: int) -> QImage:
        img = QImage(size, size, QImage.Format.Format_ARGB32)
        img.fill(Qt.GlobalColor.transparent)
        painter = QPainter(img)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        return img

    out.mkdir(parents=True, exist_ok=True)
    png = out / "hipocampo.png"
    if not image(256).save(str(png), "PNG"):
        raise SystemExit(f"render_icons: cannot write {png}")

    # Qt's ICO and ICNS writers take one image; both formats hold many, each size stored as a PNG.
    def png_of(size: int) -> bytes:
        return _png_bytes(image(size), QBuffer, QByteArray, QIODevice)

    ico = out / "hipocampo.ico"
    ico.write_bytes(_ico({s: png_of(s) for s in ICO_SIZES}))
    icns = out / "hipocampo.icns"
    icns.write_bytes(_icns({s: png_of(s) for s in ICNS_SIZES}))
    return [png, ico, icns]


def _png_bytes(img, buffer_cls, bytes_cls, device_cls) -> bytes:
    data = bytes_cls()
    buf = buffer_cls(data)
    buf.open(device_cls.OpenModeFlag.WriteOnly)
    img.save(buf, "PNG")
    buf.close()
    return bytes(data.data())


def _ico(pngs: dict[int, bytes]) -> bytes:
    """An ICO file (Windows Vista and later read PNG entries): a header, one 16-byte directory entry
    per size (width and height 0 mean 256), then the PNGs."""
    sizes = sorted(pngs)
    offset = 6 + 16 * len(sizes)
    head = (0).to_bytes(2, "little") + (1).to_bytes(2, "little") + len(sizes).to_bytes(2, "little")
    entries, blobs = b"", b""
    for s in sizes:
        data = pngs[s]
        edge = bytes([s % 256, s % 256, 0, 0])
        entries += edge + (1).to_bytes(2, "little") + (32).to_bytes(2, "little")
        entries += len(data).to_bytes(4, "little") + (offset + len(blobs)).to_bytes(4, "little")
        blobs += data
    return head + entries + blobs


# Apple's ICNS element types that hold PNG data, by pixel size (retina variants share them).
_ICNS_TYPES = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09", 1024: b"ic10"}


def _icns(pngs: dict[int, bytes]) -> bytes:
    """An ICNS file: ``icns`` + total length, then one (type, length, PNG) element per size."""
    body = b"".join(_ICNS_TYPES[s] + (8 + len(d)).to_bytes(4, "big") + d for s, d in sorted(pngs.items()))
    return b"icns" + (8 + len(body)).to_bytes(4, "big") + body


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else ROOT / "build" / "icons"
    for path in render(out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
