"""The editor's relation table: direction, type (completed from the schema and the types in use),
the other end (completed from the memory's names), and when it ended; add, remove, end."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import (
    QAbstractItemModel,
    QDate,
    QEvent,
    QModelIndex,
    QPersistentModelIndex,
    QStringListModel,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QCompleter,
    QDateEdit,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from core.hygiene.store import relation_key
from desktop.editor.draft import IN, OUT, RelationItem
from desktop.editor.style import error_color, error_label, lay_out_list_section

DIRECTION, TYPE, OTHER, ENDED = range(4)
ITEM = Qt.ItemDataRole.UserRole + 1  # the row's RelationItem (its original and start)


def _completer(model: QStringListModel, parent: QWidget) -> QCompleter:
    completer = QCompleter(model, parent)
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    return completer


class _CellDelegate(QStyledItemDelegate):
    """Direction: a choice; type and other end: a line with completion; ended: a date."""

    def __init__(self, table: RelationTable) -> None:
        super().__init__(table.table)
        self.owner = table

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        column = index.column()
        if column == DIRECTION:
            combo = QComboBox(parent)
            combo.addItem(RelationTable.tr("→ to"), OUT)
            combo.addItem(RelationTable.tr("← from"), IN)
            return combo
        if column == ENDED:
            edit = QDateEdit(parent)
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd")
            edit.setMaximumDate(QDate.currentDate())
            return edit
        line = QLineEdit(parent)
        if column == TYPE:
            line.setCompleter(_completer(self.owner.type_choices, line))
        else:
            line.setCompleter(_completer(self.owner.name_choices, line))
            line.textEdited.connect(self.owner.names_wanted.emit)
        return line

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        value = index.data(Qt.ItemDataRole.EditRole) or ""
        if isinstance(editor, QComboBox):
            editor.setCurrentIndex(0 if index.data(Qt.ItemDataRole.UserRole) == OUT else 1)
        elif isinstance(editor, QDateEdit):
            editor.setDate(QDate.fromString(value[:10], "yyyy-MM-dd") if value else QDate.currentDate())
        elif isinstance(editor, QLineEdit):
            editor.setText(value)

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,
                     index: QModelIndex | QPersistentModelIndex) -> None:
        if isinstance(editor, QComboBox):
            model.setData(index, editor.currentData(), Qt.ItemDataRole.UserRole)
            model.setData(index, editor.currentText().split()[0], Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QDateEdit):
            model.setData(index, editor.date().toString("yyyy-MM-dd"), Qt.ItemDataRole.EditRole)
        elif isinstance(editor, QLineEdit):
            model.setData(index, editor.text().strip(), Qt.ItemDataRole.EditRole)


class RelationTable(QWidget):
    """Relations of the open entity, ended ones too (greyed); ``changed`` fires on every user edit."""

    changed = Signal()
    names_wanted = Signal(str)  # the user is typing an entity name: the pane fetches matches
    entity_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.type_choices = QStringListModel(self)
        self.name_choices = QStringListModel(self)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels([self.tr("Dir."), self.tr("Relation"), self.tr("Other entity"),
                                              self.tr("Ended")])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(DIRECTION, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(TYPE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(OTHER, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(ENDED, QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.setItemDelegate(_CellDelegate(self))
        self.table.itemChanged.connect(self.on_item_changed)
        self.table.itemSelectionChanged.connect(self.on_selection_changed)
        self.table.itemDoubleClicked.connect(self.on_item_double_clicked)

        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setToolTip(self.tr("Relate this entity to another one"))
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setToolTip(self.tr("Forget the selected relations"))
        self.end_button = QPushButton(self.tr("End"), self)
        self.end_button.setToolTip(self.tr("The selected relations stopped being true today: they are kept, "
                                           "marked as ended (double-click the date to change it)"))
        self.add_button.clicked.connect(lambda: self.add_relation())
        self.remove_button.clicked.connect(self.remove_selected)
        self.end_button.clicked.connect(lambda: self.end_selected())
        self.error = error_label(self)

        lay_out_list_section(self, self.table, self.error, (self.add_button, self.remove_button, self.end_button))
        self._loading = False
        self._marks: dict[str, dict] = {}
        self.on_selection_changed()

    # -- contents -----------------------------------------------------------------------------

    def set_items(self, items: list[RelationItem]) -> None:
        scroll = self.table.verticalScrollBar().value()
        self._loading = True
        self.table.setRowCount(0)
        for item in items:
            self._append(item)
        self._loading = False
        if self._marks:
            self.mark_superseded(self._marks)
        self.table.verticalScrollBar().setValue(scroll)
        self.on_selection_changed()

    def mark_superseded(self, marks: dict[str, dict]) -> None:
        """Strike through the outgoing relations an approved supersession retired (the entity's
        ``superseded_relations`` marks, by ``relation_key``), their successor and end date in the
        tooltip: kept, and still listed, but no longer current."""
        self._marks = dict(marks)
        self._loading = True
        for row in range(self.table.rowCount()):
            arrow = self.table.item(row, DIRECTION)
            rel: RelationItem = arrow.data(ITEM)
            stored = rel.original
            mark = (marks.get(relation_key(stored.type, stored.target))
                    if stored is not None and rel.direction == OUT else None)
            by = (mark or {}).get("by") or {}
            successor = (f"“{by['fact']}”" if "fact" in by else
                         f"{by.get('relationType', '')} → {by.get('to', '')}")
            note = "" if mark is None else self.tr(
                "Superseded since {day} by {by}. It is kept; search by meaning leaves it out, "
                "history and undo bring it back.").format(day=str(mark.get("ended_at") or "")[:10], by=successor)
            for column in (TYPE, OTHER):
                cell = self.table.item(row, column)
                font = QFont(cell.font())
                font.setStrikeOut(mark is not None)
                cell.setFont(font)
                if mark is not None:
                    cell.setForeground(QBrush(self.palette().color(self.palette().ColorGroup.Disabled,
                                                                   self.palette().ColorRole.Text)))
                    cell.setToolTip(note)
                elif stored is None or stored.ended_at is None:
                    cell.setForeground(QBrush())
                    cell.setToolTip("")
            if mark is not None:
                arrow.setToolTip(note)
        self._loading = False

    def superseded_rows(self) -> list[int]:
        """The rows shown struck through (for tests and the screen reader)."""
        return [r for r in range(self.table.rowCount()) if self.table.item(r, TYPE).font().strikeOut()]

    def _append(self, rel: RelationItem) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        arrow = QTableWidgetItem("→" if rel.direction == OUT else "←")
        arrow.setData(Qt.ItemDataRole.UserRole, rel.direction)
        arrow.setData(ITEM, rel)
        arrow.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
        cells = [arrow, QTableWidgetItem(rel.type), QTableWidgetItem(rel.other),
                 QTableWidgetItem((rel.ended_at or "")[:10])]
        stored_end = rel.original is not None and rel.original.ended_at is not None
        for column, cell in enumerate(cells):
            flags = cell.flags()
            if stored_end or (column == ENDED and not rel.ended_at):
                flags &= ~Qt.ItemFlag.ItemIsEditable  # an ended relation is history: remove it, or leave it
            cell.setFlags(flags)
            if stored_end:
                font = QFont(cell.font())
                font.setItalic(True)
                cell.setFont(font)
                cell.setForeground(QBrush(self.palette().color(self.palette().ColorGroup.Disabled,
                                                               self.palette().ColorRole.Text)))
                cell.setToolTip(self.tr("Ended {date}: kept as history, no longer current").format(
                    date=(rel.ended_at or "")[:10]))
            self.table.setItem(row, column, cell)
        return row

    def items(self) -> list[RelationItem]:
        out: list[RelationItem] = []
        for row in range(self.table.rowCount()):
            arrow = self.table.item(row, DIRECTION)
            base: RelationItem = arrow.data(ITEM)
            ended = self.table.item(row, ENDED).text().strip() or None
            if base.original is not None and base.original.ended_at is not None:
                ended = base.original.ended_at
            out.append(RelationItem(base.original, arrow.data(Qt.ItemDataRole.UserRole),
                                    self.table.item(row, TYPE).text().strip(),
                                    self.table.item(row, OTHER).text().strip(), ended, base.start))
        return out

    def editing_row(self) -> int | None:
        """The row with a cell open for typing, if one is."""
        if self.table.state() == QAbstractItemView.State.EditingState:
            return self.table.currentRow()
        return None

    def add_relation(self, direction: str = OUT, rtype: str = "", other: str = "") -> int:
        """Append a relation; with no type, open its type for typing."""
        self._loading = True
        row = self._append(RelationItem(None, direction, rtype, other))
        self._loading = False
        self.table.selectRow(row)
        self.table.scrollToItem(self.table.item(row, TYPE))
        if not rtype:
            self.table.setCurrentCell(row, TYPE)
            self.table.editItem(self.table.item(row, TYPE))
        self.changed.emit()
        return row

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            self.table.removeRow(row)
        if rows:
            self.changed.emit()

    def end_selected(self, when: date | None = None) -> None:
        """Mark the selected current relations as ended ``when`` (default today)."""
        stamp = (when or date.today()).isoformat()
        changed = False
        for row in sorted({i.row() for i in self.table.selectedIndexes()}):
            rel: RelationItem = self.table.item(row, DIRECTION).data(ITEM)
            cell = self.table.item(row, ENDED)
            if rel.original is None or rel.original.ended_at is not None or cell.text():
                continue
            cell.setFlags(cell.flags() | Qt.ItemFlag.ItemIsEditable)
            cell.setText(stamp)
            changed = True
        if changed:
            self.changed.emit()

    def on_item_changed(self, _item: QTableWidgetItem) -> None:
        if not self._loading:
            self.changed.emit()

    def on_selection_changed(self) -> None:
        rows = {i.row() for i in self.table.selectedIndexes()}
        self.remove_button.setEnabled(bool(rows))
        endable = False
        for row in rows:
            rel: RelationItem = self.table.item(row, DIRECTION).data(ITEM)
            endable |= rel.original is not None and rel.original.ended_at is None
        self.end_button.setEnabled(endable)

    def on_item_double_clicked(self, item: QTableWidgetItem) -> None:
        """A double-click on a stored relation's other end opens that entity."""
        if item.column() == OTHER and not item.flags() & Qt.ItemFlag.ItemIsEditable and item.text():
            self.entity_activated.emit(item.text())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Delete and self.table.state() != QAbstractItemView.State.EditingState:
            self.remove_selected()
            return
        super().keyPressEvent(event)

    def set_read_only(self, read_only: bool) -> None:
        for button in (self.add_button, self.remove_button, self.end_button):
            button.setVisible(not read_only)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers if read_only else
                                   QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)

    # -- problems -----------------------------------------------------------------------------

    def show_problems(self, problems: dict[int, str], extra: str = "") -> None:
        """Mark the rows with a problem; say what is wrong (and ``extra``, e.g. from Save) below."""
        self._loading = True
        tint = QColor(error_color(self.palette()))
        tint.setAlpha(40)
        for row in range(self.table.rowCount()):
            for column in range(4):
                cell = self.table.item(row, column)
                cell.setBackground(QBrush(tint) if row in problems else QBrush())
        self._loading = False
        lines = [self.tr("Relation {n}: {problem}").format(n=row + 1, problem=text)
                 for row, text in sorted(problems.items())]
        if extra:
            lines.append(extra)
        self.error.setText("\n".join(lines[:3]))
        self.error.setVisible(bool(lines))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self.error.setStyleSheet(f"color: {error_color(self.palette()).name()};")
        super().changeEvent(event)
