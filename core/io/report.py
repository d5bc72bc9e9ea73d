"""What an import did, and the progress callback every importer takes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.errors import InvalidInput

# progress(done, total): bytes (or rows) read so far and in all; called often, must be cheap.
Progress = Callable[[int, int], None]

# Error and merge details kept per import; the counts keep going past it.
MAX_ERROR_DETAILS = 1000
MAX_MERGE_DETAILS = 100


def no_progress(done: int, total: int) -> None:
    """The default progress callback: report nothing."""


@dataclass
class ImportReport:
    """Counts for one imported file. Re-importing the same file gives zero new items, all skipped."""

    source: str
    format: str
    entities_imported: int = 0  # created by this import
    entities_merged: int = 0  # existed already; got new observations or properties
    relations_imported: int = 0
    skipped: int = 0  # records already present, nothing to add
    errors: int = 0  # records that could not be read or stored (corrupt line, bad field …)
    error_details: list[str] = field(default_factory=list)
    merge_details: list[str] = field(default_factory=list)  # existing entities this import added to

    def merged(self, where: str, message: str) -> None:
        """Note that the record at ``where`` went into an entity that was already there."""
        if len(self.merge_details) < MAX_MERGE_DETAILS:
            self.merge_details.append(f"{where}: {message}")

    def error(self, where: str, message: str) -> None:
        """Count one bad record; keep its description (``line 12: …``) up to a limit."""
        self.errors += 1
        if len(self.error_details) < MAX_ERROR_DETAILS:
            self.error_details.append(f"{where}: {message}")

    def as_migrate(self) -> dict[str, Any]:
        """MCP Memory v2's ``migrate`` result shape, plus the error descriptions."""
        return {
            "entities_imported": self.entities_imported,
            "relations_imported": self.relations_imported,
            "errors": self.errors,
            "skipped": self.skipped,
            "error_details": list(self.error_details),
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "format": self.format,
            "entities_imported": self.entities_imported,
            "entities_merged": self.entities_merged,
            "relations_imported": self.relations_imported,
            "skipped": self.skipped,
            "errors": self.errors,
            "error_details": list(self.error_details),
            "merge_details": list(self.merge_details),
        }


class ImportRefused(InvalidInput):
    """A file had unreadable records, so none of it was imported (``skip_bad_lines`` imports the rest)."""

    def __init__(self, report: ImportReport) -> None:
        self.report = report
        listed = "\n".join(f"  {d}" for d in report.error_details)
        more = report.errors - len(report.error_details)
        super().__init__(
            f"{report.source}: {report.errors} record(s) cannot be imported, so nothing was imported:\n"
            f"{listed}" + (f"\n  … and {more} more" if more > 0 else "")
            + "\nFix them, or import the rest with --skip-bad-lines."
        )
