"""Keeping the official memory server's configuration working: ``MEMORY_FILE_PATH``.

A user who swaps ``npx @modelcontextprotocol/server-memory`` for ``mcp-memory`` keeps that variable.
When it is set and no Hipocampo database is chosen (``--db``, ``HIPOCAMPO_DB``, the settings file),
Hipocampo uses a database beside the official file (``memory.jsonl`` → ``memory.hipocampo.db``),
imports the file into it the first time, and merges in what appears in it later: a client still on
the official server rewrites the whole file on every write, so the lines that are new since the last
sync are imported (entities created or given new observations, relations added). Nothing is deleted
on that account, and the official file is only ever read.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.errors import HipocampoError
from core.io.report import ImportReport
from core.memory import Memory
from core.settings import Settings

ENV = "MEMORY_FILE_PATH"
SYNC_KEY = "official_file_sync"  # db_metadata: which file, its size/mtime, the lines already merged
POLL_SECONDS = 1.0
log = logging.getLogger(__name__)


def official_file() -> Path | None:
    """The official server's file named by ``MEMORY_FILE_PATH``, if that is set."""
    value = os.environ.get(ENV, "").strip()
    return Path(value).expanduser().absolute() if value else None


def database_beside(path: Path) -> Path:
    """The Hipocampo database kept next to an official file: ``memory.jsonl`` → ``memory.hipocampo.db``."""
    return path.with_name(f"{path.stem}.hipocampo.db")


def dropin_settings(db_flag: Path | None, **extra: Any) -> tuple[Settings, Path | None]:
    """Settings for a command, and the official file to keep in sync (None when there is none): the
    file decides the database unless the user picked one (flag, env var or settings file)."""
    chosen: dict[str, Any] = {"db": db_flag} if db_flag is not None else {}
    settings = Settings(**extra, **chosen)
    source = None if "db" in settings.model_fields_set else official_file()
    if source is not None:
        settings = Settings(**extra, db=database_beside(source))
    return settings, source


def _say(text: str) -> None:
    print(f"hipocampo: {text}", file=sys.stderr, flush=True)


class OfficialFileSync:
    """Merges what is new in the official file into ``memory``; ``start()`` keeps doing it."""

    def __init__(self, memory: Memory, path: Path, say: Callable[[str], None] = _say) -> None:
        self.memory = memory
        self.path = path
        self.say = say
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def first_time(self) -> bool:
        """True until this file has been merged into this database once."""
        return not self._state()

    def _state(self) -> dict[str, Any]:
        raw = self.memory.metadata(SYNC_KEY)
        try:
            state = json.loads(raw) if raw else {}
        except ValueError:
            state = {}
        return state if isinstance(state, dict) and state.get("path") == str(self.path) else {}

    def sync(self) -> ImportReport | None:
        """Import the lines added to the file since the last sync; None if nothing changed."""
        from core.io.official import import_official

        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return None
        state = self._state()
        signature = [stat.st_size, stat.st_mtime_ns]
        if state.get("signature") == signature:
            return None
        first = not state
        data = self.path.read_bytes()
        if data and not data.endswith(b"\n") and not _complete(data):
            return None  # caught mid-write: the next look sees the whole file
        seen = set(state.get("lines", []))
        lines = [line for line in data.splitlines() if line.strip()]
        digests = [hashlib.blake2b(line, digest_size=8).hexdigest() for line in lines]
        fresh = [line for line, d in zip(lines, digests, strict=True) if d not in seen]
        report = None
        if fresh:
            with tempfile.TemporaryDirectory(prefix="hipocampo-sync-") as tmp:
                part = Path(tmp) / self.path.name
                part.write_bytes(b"\n".join(fresh) + b"\n")
                with self.memory.transaction():
                    report = import_official(self.memory, part, actor="official-file")
                    report.source = str(self.path)
            self._tell(report, first)
        self.memory.set_metadata(SYNC_KEY, json.dumps(
            {"path": str(self.path), "signature": signature, "lines": sorted(set(digests))}))
        return report

    def _tell(self, report: ImportReport, first: bool) -> None:
        what = (f"{report.entities_imported} entities new, {report.entities_merged} updated, "
                f"{report.relations_imported} relations new")
        if first:
            self.say(f"imported the official memory file {self.path} ({what}); the file is left as it was.")
        elif report.entities_imported or report.entities_merged or report.relations_imported:
            self.say(f"merged what is new in {self.path}: {what}.")
        for detail in report.error_details[:20]:
            self.say(f"skipped {detail}")

    def start(self) -> None:
        """Keep merging while the server runs (a client still on the official server may write)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="official-file-sync", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            try:
                self.sync()
            except (HipocampoError, OSError) as exc:  # a busy or half-written file: try again later
                log.info("Syncing %s failed for now: %s", self.path, exc)


def _complete(data: bytes) -> bool:
    """Whether the last line of ``data`` (which lacks a final newline) is a whole JSON object."""
    try:
        json.loads(data.rsplit(b"\n", 1)[-1])
    except RecursionError:  # too deep to tell: a bad line if it stays so, re-read if it changes
        return True
    except ValueError:
        return False
    return True


def open_with_official_file(settings: Settings, source: Path | None) -> tuple[Memory, OfficialFileSync | None]:
    """Open the memory; with an official file, announce the database used and merge the file in."""
    memory = Memory(settings)
    if source is None:
        return memory, None
    sync = OfficialFileSync(memory, source)
    if sync.first_time():
        _say(f"{ENV} is set: this memory is kept in {settings.db}, beside {source}.")
    try:
        sync.sync()
    except HipocampoError as exc:
        _say(f"could not read {source} yet ({exc}); will try again while running.")
    return memory, sync
