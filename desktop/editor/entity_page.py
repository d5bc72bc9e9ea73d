"""The editor's form: title, dirty mark, banner, name and type, the observation, relation and
history sections, and the buttons. Widgets only: ``EditorPane`` wires and fills them."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QStringListModel, Qt
from PySide6.QtWidgets import (
    QCompleter,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from desktop.editor.banner import ConflictBanner
from desktop.editor.observations import ObservationList
from desktop.editor.pins import PinBar
from desktop.editor.relations import RelationTable
from desktop.editor.style import error_color, error_label
from desktop.shared.history_view import HistoryView


def _section(label: QLabel, body: QWidget, parent: QWidget) -> QWidget:
    box = QWidget(parent)
    label.setParent(box)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 6, 0, 0)
    layout.setSpacing(4)
    layout.addWidget(label)
    layout.addWidget(body, 1)
    return box


class EntityPage(QWidget):
    """Everything the editor shows for one entity."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(self)
        font = self.title.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.dirty_label = QLabel(self.tr("● Unsaved changes"), self)
        self.dirty_label.setToolTip(self.tr("Nothing is written until you press Save (Ctrl+S)"))
        self.meta = QLabel(self)
        self.meta.setEnabled(False)  # the palette's quieter text colour
        self.recall = QLabel(self)  # when and by whom an assistant last recalled it (the read log)
        self.recall.setEnabled(False)
        self.recall.setWordWrap(True)
        self.banner = ConflictBanner(self)

        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText(self.tr("The entity's name"))
        self.name_error = error_label(self)
        self.type_edit = QLineEdit(self)
        self.type_edit.setPlaceholderText(self.tr("Person, Project, Concept…"))
        self.type_choices = QStringListModel(self)
        completer = QCompleter(self.type_choices, self.type_edit)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.type_edit.setCompleter(completer)
        self.type_error = error_label(self)
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        form.addRow(self.tr("Name"), self.name_edit)
        form.addRow("", self.name_error)
        form.addRow(self.tr("Type"), self.type_edit)
        form.addRow("", self.type_error)

        self.observations = ObservationList(self)
        self.relations = RelationTable(self)
        self.history = HistoryView(self)
        # Observations above; relations and history share the rest as tabs, so each list gets the
        # height of the pane (47 relations or a long history stay readable), and all grow with it.
        self.observations_title = QLabel(self.tr("Observations"))
        self.relations_title = QLabel(self.tr("Relations"))  # its text is the tab's
        self.sections = QTabWidget(self)
        self.sections.setDocumentMode(True)
        self.sections.addTab(self.relations, self.relations_title.text())
        self.sections.addTab(self.history, self.tr("History"))
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(_section(self.observations_title, self.observations, self))
        self.splitter.addWidget(self.sections)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)

        self.error = error_label(self)
        self.save_button = QPushButton(self.tr("Save"), self)
        self.save_button.setToolTip(self.tr("Write every edit at once (Ctrl+S)"))
        self.save_button.setDefault(True)
        self.revert_button = QPushButton(self.tr("Revert"), self)
        self.revert_button.setToolTip(self.tr("Discard your unsaved edits"))
        self.undo_button = QPushButton(self.tr("Undo last change"), self)
        self.delete_button = QPushButton(self.tr("Delete…"), self)
        self.delete_button.setToolTip(self.tr("Delete this entity (it can be restored afterwards)"))
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.revert_button)
        buttons.addStretch(1)
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.delete_button)

        self.pins = PinBar(self)  # pin the entity, or the selected observation, to the session brief
        header = QHBoxLayout()
        header.addWidget(self.title, 1)
        header.addWidget(self.dirty_label)
        header.addWidget(self.pins)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addLayout(header)
        layout.addWidget(self.meta)
        layout.addWidget(self.recall)
        layout.addWidget(self.banner)
        layout.addLayout(form)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.error)
        layout.addLayout(buttons)

    def set_relations_title(self, text: str) -> None:
        self.relations_title.setText(text)
        self.sections.setTabText(self.sections.indexOf(self.relations), text)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:  # light ↔ dark: the error red follows
            for label in (self.name_error, self.type_error, self.error):
                label.setStyleSheet(f"color: {error_color(self.palette()).name()};")
        super().changeEvent(event)
