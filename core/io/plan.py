"""Importing several files as one unit: a preview that changes nothing, then the import itself with
progress and cancel. What the desktop's import dialog calls; the CLI keeps ``import_path``.

How the preview works: it runs the real importers inside one transaction and rolls it back. The
numbers are therefore exact — the same validation, the same merging of observations and
properties, the same relation de-duplication as the import that follows — where a separate
read-only planner would have to copy every importer's rules and would drift from them. The cost is
that the preview holds the write lock for as long as the import would (seconds for ordinary files);
nothing it wrote is ever visible to another connection, and the rollback leaves the file's
contents exactly as they were.

``run_import`` lands every file as one import unit (``Memory.importing``: short transactions
tagged with an import id, so other clients keep writing meanwhile) and checks the cancel event
whenever an importer reports progress (every few hundred records) and between files; cancelling
rolls everything the unit wrote back by its id, change_log rows included. Callers see only
``preview_import`` / ``run_import`` and the plan.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import HipocampoError, InvalidInput
from core.io.formats import detect_format, import_path
from core.memory import Memory

# progress(done, total, text): ``total`` is PROGRESS_SCALE; ``text`` names the file being read.
StepProgress = Callable[[int, int, str], None]
PROGRESS_SCALE = 1000
MAX_NAMES = 200  # entity names kept per list (new, merged) for display; the counts go on
_ENTITY_MERGE_OPS = frozenset({"add_observations", "update_entity", "archive_entity"})
_LOG_PAGE = 10_000


@dataclass(frozen=True)
class Problem:
    """One record that could not be read or stored, and where it was."""

    file: str  # the file's (or folder's) name
    where: str  # "line 12", "notes/ada.md", "entity 'Ada'"
    reason: str

    def __str__(self) -> str:
        return f"{self.file}, {self.where}: {self.reason}"


@dataclass
class FilePlan:
    """What importing one file (or folder of notes) does, or did."""

    path: Path
    format: str | None = None  # jsonl, ndjson, sqlite, markdown; None if it cannot be read at all
    entities_new: int = 0
    entities_merged: int = 0  # existing entities that gain observations or properties
    relations_new: int = 0
    skipped: int = 0  # records already in the memory: nothing to add
    errors: int = 0  # records that cannot be read or stored (``problems`` lists up to 100)
    problems: list[Problem] = field(default_factory=list)
    failure: str | None = None  # why the whole file cannot be imported (nothing of it is)
    new_names: list[str] = field(default_factory=list)
    merged_names: list[str] = field(default_factory=list)

    @property
    def changes(self) -> int:
        """How many entities and relations importing this file adds or changes."""
        return self.entities_new + self.entities_merged + self.relations_new

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "path": str(self.path), "format": self.format, "entities_new": self.entities_new,
            "entities_merged": self.entities_merged, "relations_new": self.relations_new,
            "skipped": self.skipped, "errors": self.errors, "problems": [str(p) for p in self.problems],
            "failure": self.failure, "new_names": list(self.new_names), "merged_names": list(self.merged_names),
        }


@dataclass
class ImportPlan:
    """What importing a set of files does (a preview) or did (``applied``), file by file and in all.

    Totals count each entity once: one that a file creates and a later file adds to is new.
    """

    files: list[FilePlan] = field(default_factory=list)
    entities_new: int = 0
    entities_merged: int = 0
    relations_new: int = 0
    skipped: int = 0
    errors: int = 0
    new_names: list[str] = field(default_factory=list)
    merged_names: list[str] = field(default_factory=list)
    applied: bool = False  # written to the memory (run_import finished and committed)
    cancelled: bool = False  # the user cancelled: nothing was written

    @property
    def changes(self) -> int:
        """How many entities and relations the import adds or changes in all."""
        return self.entities_new + self.entities_merged + self.relations_new

    @property
    def problems(self) -> list[Problem]:
        """Every unreadable record, file by file."""
        return [p for f in self.files for p in f.problems]

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return {
            "files": [f.as_dict() for f in self.files], "entities_new": self.entities_new,
            "entities_merged": self.entities_merged, "relations_new": self.relations_new,
            "skipped": self.skipped, "errors": self.errors, "new_names": list(self.new_names),
            "merged_names": list(self.merged_names), "applied": self.applied, "cancelled": self.cancelled,
        }


# What ``run_import`` returns: the same shape, with ``applied`` or ``cancelled`` set.
ImportSummary = ImportPlan


class _Rollback(Exception):
    """Raised at the end of a preview so its transaction rolls back."""


class _Cancelled(Exception):
    """Raised from inside an importer when the user cancels."""


def preview_import(
    memory: Memory, paths: Sequence[Path], *, progress: StepProgress | None = None,
    cancel: threading.Event | None = None,
) -> ImportPlan:
    """What importing ``paths`` would do, computed by importing and rolling back: nothing changes."""
    plan = ImportPlan()
    try:
        with memory.transaction():
            _import_all(memory, paths, plan, progress, cancel)
            raise _Rollback
    except _Rollback:
        return plan
    except _Cancelled:
        return ImportPlan(files=[FilePlan(Path(p)) for p in paths], cancelled=True)


def run_import(
    memory: Memory, paths: Sequence[Path], *, progress: StepProgress | None = None,
    cancel: threading.Event | None = None,
) -> ImportSummary:
    """Import ``paths`` as one unit; if ``cancel`` is set before it lands, nothing is written."""
    plan = ImportPlan()
    try:
        with memory.importing(", ".join(str(p) for p in paths)):  # rolled back by its id on cancel
            _import_all(memory, paths, plan, progress, cancel)
            _check(cancel)  # the last moment a cancel can still undo everything
    except _Cancelled:
        return ImportPlan(files=[FilePlan(Path(p)) for p in paths], cancelled=True)
    plan.applied = True
    return plan


def _check(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise _Cancelled


def _import_all(
    memory: Memory, paths: Sequence[Path], plan: ImportPlan, progress: StepProgress | None,
    cancel: threading.Event | None,
) -> None:
    """Import every path inside the caller's transaction, filling ``plan``."""
    paths = [Path(p) for p in paths]
    sizes = [_size(p) for p in paths]
    grand = sum(sizes) or 1
    offset = 0
    created: set[str] = set()
    touched: set[str] = set()
    for path, size in zip(paths, sizes, strict=True):
        _check(cancel)
        file = FilePlan(path)
        plan.files.append(file)
        base = offset

        def relay(done: int, total: int, _base: int = base, _size: int = size, _name: str = path.name) -> None:
            _check(cancel)
            if progress is not None:
                share = _size * min(done, total) // total if total > 0 else _size
                progress((_base + share) * PROGRESS_SCALE // grand, PROGRESS_SCALE, _name)

        relay(0, 1)
        try:
            kind = detect_format(path)
            file.format = kind
            _refuse_self(memory, path)
            mark = memory.latest_change_id()
            # bad records are listed as problems for the person to decide on, not a refusal
            report = import_path(memory, path, format=kind, progress=relay, skip_bad_lines=True)
        except HipocampoError as exc:
            file.failure = str(exc)
            offset += size
            continue
        file.entities_new, file.entities_merged = report.entities_imported, report.entities_merged
        file.relations_new, file.skipped, file.errors = report.relations_imported, report.skipped, report.errors
        file.problems = [_problem(path.name, d) for d in report.error_details]
        new, merged = _entities_written_since(memory, mark)
        file.new_names, file.merged_names = new[:MAX_NAMES], merged[:MAX_NAMES]
        created.update(new)
        touched.update(merged)
        plan.relations_new += file.relations_new
        plan.skipped += file.skipped
        plan.errors += file.errors
        offset += size
    merged_only = touched - created
    plan.entities_new, plan.entities_merged = len(created), len(merged_only)
    plan.new_names = sorted(created)[:MAX_NAMES]
    plan.merged_names = sorted(merged_only)[:MAX_NAMES]
    if progress is not None:
        progress(PROGRESS_SCALE, PROGRESS_SCALE, "")


def _entities_written_since(memory: Memory, mark: int) -> tuple[list[str], list[str]]:
    """(created, merged) entity names, from the change_log rows this transaction wrote after ``mark``."""
    created: dict[str, None] = {}
    merged: dict[str, None] = {}
    after = mark
    while True:
        rows = memory.changes_since(after, limit=_LOG_PAGE)
        for row in rows:
            name = row.entity
            if not name:
                continue
            if row.op == "create_entity":
                created[name] = None
            elif row.op in _ENTITY_MERGE_OPS:
                merged[name] = None
        if len(rows) < _LOG_PAGE:
            break
        after = rows[-1].id
    return list(created), [n for n in merged if n not in created]


def _problem(file: str, detail: str) -> Problem:
    where, _, reason = detail.partition(": ")
    return Problem(file, where, reason) if reason else Problem(file, "", detail)


def _refuse_self(memory: Memory, path: Path) -> None:
    own = getattr(memory.settings, "db", None)
    try:
        same = own is not None and str(own) != ":memory:" and Path(own).resolve() == path.resolve()
    except OSError:
        same = False
    if same:
        raise InvalidInput(f"{path.name} is this memory's own database file; there is nothing to import from it.")


def _size(path: Path) -> int:
    """Bytes to read (a folder: its notes), for progress across files; at least 1."""
    from core.io.markdown import note_files

    try:
        if path.is_dir():
            return max(1, sum(f.stat().st_size for f in note_files(path)))
        return max(1, path.stat().st_size)
    except OSError:
        return 1
