"""Import files into the memory: a preview first, then the import with progress and Cancel, then a summary.

The preview is ``core.io.preview_import`` (the real import, rolled back), so what it promises is
what the import does. Cancelling the import rolls it back whole: the memory stays exactly as it was.
Both run on the core's writer thread through ``Core.task``; this dialog only shows what they report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QCloseEvent, QFont
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QProgressBar,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.io import FilePlan, ImportPlan, ImportSummary, preview_import, run_import
from core.memory import Memory
from desktop.shared.plain_words import in_plain_words
from desktop.workers import Core, Progress

PREVIEW, WORKING, SUMMARY = 0, 1, 2
NAMES_SHOWN = 12  # merged entity names listed under a file before "and N more"


def format_label(fmt: str | None) -> str:
    """What kind of file an import format is, for people."""
    return {
        "jsonl": ImportDialog.tr("Official memory file (JSONL)"),
        "ndjson": ImportDialog.tr("Engrama export (NDJSON)"),
        "sqlite": ImportDialog.tr("Memory database (MCP Memory v2 / Hipocampo)"),
        "engrama-db": ImportDialog.tr("Engrama database"),
        "markdown": ImportDialog.tr("Markdown / text notes"),
    }.get(fmt or "", ImportDialog.tr("Cannot be imported"))


def _names(names: list[str], total: int) -> str:
    shown = ", ".join(names[:NAMES_SHOWN])
    rest = total - min(len(names), NAMES_SHOWN)
    return shown + (ImportDialog.tr(" and {n} more").format(n=rest) if rest > 0 else "")


def _n(n: int, one: str, many: str) -> str:
    """``one`` (already translated) when n is 1, else ``many``, with ``{n}`` filled in."""
    return (one if n == 1 else many).format(n=QLocale().toString(n))  # 12,000 / 12.000, not 12000


def counts_sentence(plan: ImportPlan, *, done: bool) -> str:
    """One or two sentences: what the import adds (preview) or added (summary)."""
    new = _n(plan.entities_new, ImportDialog.tr("{n} new entity"), ImportDialog.tr("{n} new entities"))
    merged = _n(plan.entities_merged, ImportDialog.tr("{n} existing one"), ImportDialog.tr("{n} existing ones"))
    relations = _n(plan.relations_new, ImportDialog.tr("{n} new relation"), ImportDialog.tr("{n} new relations"))
    if done:
        first = (ImportDialog.tr("Added {new} and {relations}, and added to {merged}.") if plan.entities_merged
                 else ImportDialog.tr("Added {new} and {relations}."))
    else:
        new = new[:1].upper() + new[1:]
        first = (ImportDialog.tr("{new}, {relations}; adds to {merged}.") if plan.entities_merged
                 else ImportDialog.tr("{new}, {relations}."))
    parts = [first.format(new=new, relations=relations, merged=merged)]
    if plan.skipped:
        parts.append(_n(plan.skipped, ImportDialog.tr("{n} record is already in the memory."),
                        ImportDialog.tr("{n} records are already in the memory.")))
    if plan.errors:
        parts.append(_n(plan.errors, ImportDialog.tr("{n} record could not be read and was skipped."),
                        ImportDialog.tr("{n} records could not be read and were skipped.")) if done else
                     _n(plan.errors, ImportDialog.tr("{n} record cannot be read and will be skipped."),
                        ImportDialog.tr("{n} records cannot be read and will be skipped.")))
    failed = [f for f in plan.files if f.failure]
    if failed:
        parts.append(_n(len(failed), ImportDialog.tr("{n} file cannot be imported at all."),
                        ImportDialog.tr("{n} files cannot be imported at all.")))
    return " ".join(parts)


class ImportDialog(QDialog):
    """Preview, import (cancellable) and summary for a set of dropped or chosen paths."""

    imported = Signal(object)  # the ImportSummary, once an import has landed

    def __init__(self, core: Core, paths: list[Path], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.paths = [Path(p) for p in paths]
        self.plan: ImportPlan | None = None
        self.summary: ImportSummary | None = None
        self.error: str | None = None
        self.state = "previewing"
        self.backup: Path | None = None  # the automatic backup made before the import
        self._task: Progress | None = None
        self.setWindowTitle(self.tr("Import into this memory"))
        self.setMinimumSize(640, 420)
        self.resize(720, 440)

        layout = QVBoxLayout(self)
        self.heading = QLabel()
        font = QFont(self.heading.font())
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        self.heading.setFont(font)
        self.sentence = QLabel()
        self.sentence.setWordWrap(True)
        self.sentence.setTextFormat(Qt.TextFormat.PlainText)
        layout.addWidget(self.heading)
        layout.addWidget(self.sentence)
        self.pages = QStackedWidget()
        self.pages.addWidget(self._preview_page())
        self.pages.addWidget(self._progress_page())
        self.pages.addWidget(self._summary_page())
        layout.addWidget(self.pages, 1)
        self.buttons = QDialogButtonBox()
        self.import_button = self.buttons.addButton(self.tr("Import"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.import_button.clicked.connect(self.on_import_clicked)
        self.cancel_button.clicked.connect(self.reject)
        self.close_button.clicked.connect(self.accept)
        layout.addWidget(self.buttons)
        self._start_preview()

    # -- pages --------------------------------------------------------------------------------

    def _preview_page(self) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        box.setContentsMargins(0, 0, 0, 0)
        self.preview_busy = QProgressBar()
        self.preview_busy.setRange(0, 0)
        self.preview_busy.setTextVisible(False)
        self.tree = self._tree()
        box.addWidget(self.preview_busy)
        box.addWidget(self.tree, 1)
        return page

    def _progress_page(self) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        box.addStretch(1)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress_label = QLabel()
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)
        box.addWidget(self.progress_label)
        box.addWidget(self.progress)
        hint = QLabel(self.tr("Cancelling undoes the whole import: the memory stays exactly as it was."))
        hint.setEnabled(False)
        hint.setWordWrap(True)
        box.addWidget(hint)
        box.addStretch(2)
        return page

    def _summary_page(self) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        box.setContentsMargins(0, 0, 0, 0)
        self.summary_tree = self._tree()
        box.addWidget(self.summary_tree, 1)
        return page

    def _tree(self) -> QTreeWidget:
        tree = QTreeWidget()
        tree.setColumnCount(6)
        tree.setHeaderLabels([self.tr("File"), self.tr("Kind"), self.tr("New"), self.tr("Merged"),
                              self.tr("Relations"), self.tr("Unreadable")])
        tree.setRootIsDecorated(True)
        tree.setTextElideMode(Qt.TextElideMode.ElideRight)  # long reasons: the whole text is in the tooltip
        header = tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, 6):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        return tree

    # -- preview ------------------------------------------------------------------------------

    def _start_preview(self) -> None:
        self.state = "previewing"
        self.heading.setText(self.tr("Checking what would change…"))
        self.sentence.setText(self.tr("Reading %n file(s); nothing is written yet.", "", len(self.paths)))
        self.pages.setCurrentIndex(PREVIEW)
        self.tree.hide()
        self.preview_busy.show()
        self._show_buttons(import_=True, cancel=True, close=False)
        self.import_button.setEnabled(False)
        self._task = self.core.task(_preview, self.paths, progress=self.on_preview_progress,
                                    done=self.on_previewed, failed=self.on_failed)

    def on_preview_progress(self, done: int, total: int, text: str) -> None:
        if total > 0 and done > 0:
            self.preview_busy.setRange(0, total)
            self.preview_busy.setValue(done)

    def on_previewed(self, plan: ImportPlan) -> None:
        if self.state != "previewing" or plan.cancelled:
            return
        self.plan = plan
        self.state = "previewed"
        self.preview_busy.hide()
        self.tree.show()
        self._fill(self.tree, plan)
        nothing = plan.changes == 0
        if nothing:
            self.heading.setText(self.tr("Nothing new to import"))
        else:
            self.heading.setText(self.tr("Ready to import"))
        self.sentence.setText(counts_sentence(plan, done=False))
        self.import_button.setEnabled(not nothing)
        self.import_button.setDefault(not nothing)

    # -- import -------------------------------------------------------------------------------

    def on_import_clicked(self) -> None:
        if self.state != "previewed" or self.plan is None or self.plan.changes == 0:
            return
        self.state = "importing"
        paths = [f.path for f in self.plan.files if not f.failure]
        self.heading.setText(self.tr("Importing…"))
        self.sentence.setText(counts_sentence(self.plan, done=False))
        self.progress.setValue(0)
        self.progress_label.setText("")
        self.pages.setCurrentIndex(WORKING)
        self._show_buttons(import_=False, cancel=True, close=False)
        self.cancel_button.setEnabled(True)
        self.cancel_button.setText(self.tr("Cancel import"))
        self.cancel_button.setToolTip(self.tr("Stop and undo everything this import wrote"))
        self._task = self.core.task(_import, paths, progress=self.on_import_progress,
                                    done=self.on_backed_up_and_imported, failed=self.on_failed)

    def on_import_progress(self, done: int, total: int, text: str) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
        if text and self.state == "importing":
            self.progress_label.setText(self.tr("Reading {name}…").format(name=text))

    def cancel_import(self) -> None:
        """Ask the running import to stop; it rolls back everything it wrote."""
        if self.state == "importing" and self._task is not None:
            self._task.cancel.set()
            self.state = "cancelling"
            self.cancel_button.setEnabled(False)
            self.cancel_button.setText(self.tr("Cancelling…"))
            self.progress_label.setText(self.tr("Undoing what was written so far…"))

    def on_backed_up_and_imported(self, result: tuple[Path | None, ImportSummary]) -> None:
        self.backup, summary = result
        self.on_imported(summary)

    def on_imported(self, summary: ImportSummary) -> None:
        self.summary = summary
        self.state = "done"
        self.pages.setCurrentIndex(SUMMARY)
        self._show_buttons(import_=False, cancel=False, close=True)
        self.close_button.setDefault(True)
        if summary.cancelled:
            self.heading.setText(self.tr("Import cancelled"))
            self.sentence.setText(self.tr("Nothing was imported: the memory is exactly as it was before."))
            self.summary_tree.hide()
            return
        self.heading.setText(self.tr("Import finished"))
        sentence = counts_sentence(summary, done=True)
        if self.backup is not None:
            sentence += " " + self.tr("The memory as it was before is kept in {path}.").format(path=self.backup)
        self.sentence.setText(sentence)
        self.summary_tree.show()
        self._fill(self.summary_tree, summary)
        self.imported.emit(summary)

    def on_failed(self, message: str) -> None:
        was = self.state
        self.error = message
        self.state = "failed"
        self.pages.setCurrentIndex(SUMMARY)
        self.summary_tree.hide()
        self._show_buttons(import_=False, cancel=False, close=True)
        if was == "previewing":
            self.heading.setText(self.tr("These files cannot be read"))
        else:
            self.heading.setText(self.tr("The import failed"))
        self.sentence.setText(self.tr("{reason} Nothing was imported: the memory is as it was.").format(
            reason=in_plain_words(message)))

    # -- closing ------------------------------------------------------------------------------

    def reject(self) -> None:
        """Cancel: during an import this stops and undoes it (the dialog stays to say so)."""
        if self.state in ("importing", "cancelling"):
            self.cancel_import()
            return
        if self.state == "previewing" and self._task is not None:
            self._task.cancel.set()
        self.state = "closed"
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        if self.state in ("importing", "cancelling"):
            self.cancel_import()
            event.ignore()
            return
        super().closeEvent(event)

    # -- helpers ------------------------------------------------------------------------------

    def _show_buttons(self, *, import_: bool, cancel: bool, close: bool) -> None:
        self.import_button.setVisible(import_)
        self.cancel_button.setVisible(cancel)
        self.close_button.setVisible(close)

    def _fill(self, tree: QTreeWidget, plan: ImportPlan) -> None:
        tree.clear()
        for file in plan.files:
            item = self._file_item(file, done=plan.applied)
            tree.addTopLevelItem(item)
            for i in range(item.childCount()):  # spanning works once the item is in the tree
                item.child(i).setFirstColumnSpanned(True)
        tree.expandAll()
        tree.resizeColumnToContents(1)

    def _file_item(self, file: FilePlan, *, done: bool = False) -> QTreeWidgetItem:
        name = file.path.name + ("/" if file.path.is_dir() else "")
        if file.failure:
            item = QTreeWidgetItem([name, format_label(None), "", "", "", ""])
            item.setToolTip(0, str(file.path))
            child = QTreeWidgetItem([in_plain_words(file.failure)])
            item.addChild(child)
            self._wrap(child)
            return item
        number = QLocale().toString
        item = QTreeWidgetItem([name, format_label(file.format), number(file.entities_new),
                                number(file.entities_merged), number(file.relations_new), number(file.errors)])
        item.setToolTip(0, str(file.path))
        for column in range(2, 6):
            item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if file.merged_names:
            text = self.tr("Added to: {names}") if done else self.tr("Adds to: {names}")
            child = QTreeWidgetItem([text.format(names=_names(file.merged_names, file.entities_merged))])
            item.addChild(child)
            self._wrap(child)
        for problem in file.problems:
            where = problem.where or problem.file
            child = QTreeWidgetItem([self.tr("{where}: {reason}").format(where=where,
                                                                         reason=in_plain_words(problem.reason))])
            item.addChild(child)
            self._wrap(child)
        hidden = file.errors - len(file.problems)
        if hidden > 0:
            child = QTreeWidgetItem([self.tr("…and {n} more unreadable records").format(n=hidden)])
            item.addChild(child)
            self._wrap(child)
        return item

    @staticmethod
    def _wrap(child: QTreeWidgetItem) -> None:
        child.setToolTip(0, child.text(0))


def _preview(memory: Memory, progress: Progress, paths: list[Path]) -> ImportPlan:
    return preview_import(memory, paths, progress=progress, cancel=progress.cancel)


def _import(memory: Memory, progress: Progress, paths: list[Path]) -> tuple[Path | None, ImportSummary]:
    """A backup first, as ``hipocampo import`` makes (it also refuses a damaged file), then the import."""
    backup = memory.auto_backup("import")
    return backup, run_import(memory, paths, progress=progress, cancel=progress.cancel)


def counts_of(plan: ImportPlan) -> dict[str, Any]:
    """The plan's totals (handy for status messages and tests)."""
    return {"new": plan.entities_new, "merged": plan.entities_merged, "relations": plan.relations_new,
            "skipped": plan.skipped, "errors": plan.errors}
