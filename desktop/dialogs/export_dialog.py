"""Export the whole memory to any format ``hipocampo export`` writes, off the GUI thread."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from core.errors import InvalidInput
from core.io import EXPORT_FORMATS, export_graph
from core.memory import Memory
from desktop.workers import Core

#: the file name each format gets by default; markdown writes a folder
DEFAULT_NAMES = {"jsonl": "memory.jsonl", "ndjson": "memory.ndjson", "graphml": "memory.graphml",
                 "markdown": "memory-notes"}


def format_choices() -> list[tuple[str, str]]:
    """(format, label) for every format ``hipocampo export`` writes, in its order."""
    labels = {
        "jsonl": ExportDialog.tr("Official memory file (memory.jsonl), for the official MCP memory server"),
        "ndjson": ExportDialog.tr("Engrama export (NDJSON), for Engrama or another Hipocampo"),
        "graphml": ExportDialog.tr("GraphML, for Gephi, yEd or Cytoscape"),
        "markdown": ExportDialog.tr("Markdown notes, one file per entity in a folder"),
    }
    return [(fmt, labels.get(fmt, fmt)) for fmt in EXPORT_FORMATS]


class ExportDialog(QDialog):
    """Choose a format and a destination; export runs on a reader thread and says what it wrote."""

    exported = Signal(str, dict)  # destination, counts

    def __init__(self, core: Core, parent: QWidget | None = None, *, folder: Path | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.folder = folder or Path.home()
        self.running = False
        self.result: dict[str, Any] | None = None
        self.setWindowTitle(self.tr("Export the memory"))
        self.setMinimumWidth(560)

        layout = QVBoxLayout(self)
        heading = QLabel(self.tr("Export every entity and relation"))
        font = QFont(heading.font())
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        heading.setFont(font)
        layout.addWidget(heading)
        form = QFormLayout()
        self.format_box = QComboBox()
        for fmt, label in format_choices():
            self.format_box.addItem(label, fmt)
        self.format_box.currentIndexChanged.connect(self.on_format_changed)
        form.addRow(self.tr("Format:"), self.format_box)
        self.path_edit = QLineEdit()
        self.path_edit.textChanged.connect(self.on_path_changed)
        browse = QPushButton(self.tr("Choose…"))
        browse.clicked.connect(self.on_browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.path_label = QLabel(self.tr("File:"))
        form.addRow(self.path_label, row)
        layout.addLayout(form)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setTextVisible(False)
        self.busy.hide()
        layout.addWidget(self.note)
        layout.addWidget(self.busy)
        layout.addStretch(1)
        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton(self.tr("Export"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.export_button.clicked.connect(self.export)
        self.close_button.clicked.connect(self.reject)
        self.export_button.setDefault(True)
        layout.addWidget(self.buttons)
        self.on_format_changed()

    @property
    def format(self) -> str:
        return str(self.format_box.currentData())

    def destination(self) -> Path:
        return Path(self.path_edit.text().strip()).expanduser()

    def set_destination(self, path: Path) -> None:
        self.path_edit.setText(str(path))

    # -- choosing -----------------------------------------------------------------------------

    def on_format_changed(self, _index: int = 0) -> None:
        fmt = self.format
        self.path_label.setText(self.tr("Folder:") if fmt == "markdown" else self.tr("File:"))
        current = self.path_edit.text().strip()
        default_names = set(DEFAULT_NAMES.values())
        if not current or Path(current).name in default_names:  # follow the format unless the user chose
            base = Path(current).parent if current else self.folder
            self.set_destination(base / DEFAULT_NAMES.get(fmt, f"memory.{fmt}"))
        self.on_path_changed()

    def on_path_changed(self, _text: str = "") -> None:
        if self.running:
            return
        path = self.destination()
        if not self.path_edit.text().strip():
            self.note.setText(self.tr("Choose where to write the export."))
        elif self.format == "markdown" and path.is_dir() and any(path.iterdir()):
            self.note.setText(self.tr("The folder is not empty: notes with the same names will be replaced."))
        elif self.format != "markdown" and path.is_dir():
            self.note.setText(self.tr("That is a folder; this format writes one file."))
        elif self.format != "markdown" and path.exists():
            self.note.setText(self.tr("{name} exists and will be replaced.").format(name=path.name))
        else:
            self.note.setText("")
        self.export_button.setEnabled(bool(self.path_edit.text().strip()))

    def on_browse(self) -> None:
        if self.format == "markdown":
            start = str(self.destination().parent)
            chosen = QFileDialog.getExistingDirectory(self, self.tr("Export notes into"), start)
        else:
            chosen, _ = QFileDialog.getSaveFileName(self, self.tr("Export to"), str(self.destination()))
        if chosen:
            self.set_destination(Path(chosen))

    # -- exporting ----------------------------------------------------------------------------

    def export(self) -> None:
        """Write the export off the GUI thread; the dialog says where and how much."""
        if self.running or not self.path_edit.text().strip():
            return
        path = self.destination()
        if self.format != "markdown" and path.is_dir():
            self.note.setText(self.tr("That is a folder; this format writes one file."))
            return
        self.running = True
        self.result = None
        self.busy.show()
        self.export_button.setEnabled(False)
        self.format_box.setEnabled(False)
        self.note.setText(self.tr("Exporting…"))
        fmt = self.format
        self.core.read(_export, fmt, path, done=lambda counts: self.on_exported(path, counts),
                       failed=self.on_failed)

    def on_exported(self, path: Path, counts: dict[str, int]) -> None:
        self._finished()
        self.result = {"path": path, **counts}
        entities = counts.get("entities", counts.get("nodes", 0))
        relations = counts.get("relations", counts.get("edges"))
        what = (self.tr("1 entity") if entities == 1 else self.tr("{n} entities")).format(n=entities)
        if relations is None:  # the markdown notes carry their relations inside
            text = self.tr("Wrote {what}, one note each, with their relations, to {path}.")
        else:
            links = (self.tr("1 relation") if relations == 1 else self.tr("{n} relations")).format(n=relations)
            text = self.tr("Wrote {what} and {links} to {path}.").replace("{links}", links)
        self.note.setText(text.format(what=what, path=path))
        self.exported.emit(str(path), dict(counts))

    def on_failed(self, message: str) -> None:
        self._finished()
        self.note.setText(self.tr("The export failed: {reason}").format(reason=message))

    def _finished(self) -> None:
        self.running = False
        self.busy.hide()
        self.export_button.setEnabled(True)
        self.format_box.setEnabled(True)

    def reject(self) -> None:
        if not self.running:  # an export in progress finishes: a half-written file helps no one
            super().reject()


def _export(memory: Memory, fmt: str, path: Path) -> dict[str, int]:
    """Export to ``path``; a file is written beside it first and moved into place when complete."""
    try:
        if fmt == "markdown":
            return export_graph(memory, "markdown", path)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".part")
        try:
            counts = export_graph(memory, fmt, partial)  # type: ignore[arg-type]  # fmt is one of EXPORT_FORMATS
            os.replace(partial, path)
        finally:
            partial.unlink(missing_ok=True)
        return counts
    except OSError as exc:  # a read-only folder, a full disk: the user's to fix, not a bug
        raise InvalidInput(ExportDialog.tr("Cannot write {path}: {reason}.").format(
            path=exc.filename or path, reason=exc.strerror or exc)) from exc
