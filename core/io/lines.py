"""Reading a file line by line with byte progress, and parsing each line as a JSON object.

Files are read as bytes so progress is exact and one undecodable line is one error, not a failed
import.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from core.errors import InvalidInput
from core.io.report import ImportReport, Progress

DEFAULT_MAX_LINE = 8 * 1024 * 1024  # Settings.max_request_bytes
PROGRESS_EVERY = 512  # lines between progress calls: often enough for a bar, cheap enough for 1M lines


def json_lines(path: Path, report: ImportReport, progress: Progress, *,
               max_line: int = DEFAULT_MAX_LINE) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each line of ``path`` holding a JSON object.

    Blank lines are ignored; a line that is not valid UTF-8 JSON, or not an object, or longer than
    ``max_line`` bytes (never read whole), is counted as an error in ``report`` (with its line
    number) and skipped.
    """
    try:
        total = path.stat().st_size
        fh = path.open("rb")
    except OSError as exc:
        raise InvalidInput(f"Cannot read {path}: {exc.strerror or exc}. Nothing was imported.") from exc
    done = 0
    with fh:
        for number, raw in enumerate(_lines(fh, max_line), start=1):
            if raw is None:
                report.error(f"line {number}", f"longer than {max_line:,} bytes (HIPOCAMPO_MAX_REQUEST_BYTES)")
                continue
            done += len(raw)
            if number % PROGRESS_EVERY == 0:
                progress(done, total)
            if number == 1 and raw.startswith(b"\xef\xbb\xbf"):  # a BOM from a Windows editor
                raw = raw[3:]
            if not raw.strip():
                continue
            try:
                value = json.loads(raw)
            except (UnicodeDecodeError, ValueError) as exc:
                report.error(f"line {number}", f"not valid JSON ({_short(exc)})")
                continue
            except RecursionError:
                report.error(f"line {number}", "not valid JSON (nested too deeply to be read)")
                continue
            if not isinstance(value, dict):
                report.error(f"line {number}", f"expected a JSON object, got {type(value).__name__}")
                continue
            yield number, value
    progress(total, total)


def _lines(fh: BinaryIO, max_line: int) -> Iterator[bytes | None]:
    """The lines of ``fh``; None in place of one longer than ``max_line`` (skipped in pieces)."""
    while raw := fh.readline(max_line + 1):
        if len(raw) > max_line and not raw.endswith(b"\n"):
            while (rest := fh.readline(max_line + 1)) and not rest.endswith(b"\n"):
                pass
            yield None
            continue
        yield raw


def _short(exc: Exception) -> str:
    text = str(exc)
    return text if len(text) <= 120 else text[:117] + "…"
