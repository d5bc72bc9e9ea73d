"""The editor's observation list: add, edit (several lines), delete; problems shown on the row."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from desktop.panes.editor.draft import ObservationItem
from desktop.panes.editor.style import error_color, error_label, lay_out_list_section

ORIGINAL = Qt.ItemDataRole.UserRole + 1  # the stored text the row started as (unset: added here)
# Never setData(role, None): PySide6 on Python 3.11 can then drop a reference to None too many
# times and abort the process ("deallocating None").
EDITOR_MIN_HEIGHT = 84


class _MultiLineDelegate(QStyledItemDelegate):
    """Edits an observation in a several-line box: Enter is a new line, Ctrl+Enter or leaving commits."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        editor = QPlainTextEdit(parent)
        editor.setTabChangesFocus(True)
        editor.installEventFilter(self)
        return editor

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        assert isinstance(editor, QPlainTextEdit)
        editor.setPlainText(index.data(Qt.ItemDataRole.EditRole) or "")
        editor.selectAll()

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,
                     index: QModelIndex | QPersistentModelIndex) -> None:
        assert isinstance(editor, QPlainTextEdit)
        model.setData(index, editor.toPlainText().strip(), Qt.ItemDataRole.EditRole)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: QModelIndex | QPersistentModelIndex) -> None:
        rect = option.rect  # type: ignore[attr-defined]
        rect.setHeight(max(rect.height(), EDITOR_MIN_HEIGHT))
        editor.setGeometry(rect)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (isinstance(watched, QPlainTextEdit) and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent) and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and event.modifiers() & Qt.KeyboardModifier.ControlModifier):
            self.commitData.emit(watched)
            self.closeEditor.emit(watched, QStyledItemDelegate.EndEditHint.NoHint)
            return True
        return super().eventFilter(watched, event)


class ObservationList(QWidget):
    """Observations of the open entity; ``changed`` fires on every edit the user makes."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget(self)
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSpacing(1)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.list.setItemDelegate(_MultiLineDelegate(self.list))
        self.list.setToolTip(self.tr("Double-click or press F2 to edit; Ctrl+Enter finishes"))
        self.list.itemChanged.connect(self.on_item_changed)
        self.list.itemSelectionChanged.connect(self.on_selection_changed)

        self.add_button = QPushButton(self.tr("Add"), self)
        self.add_button.setToolTip(self.tr("Add an observation"))
        self.edit_button = QPushButton(self.tr("Edit"), self)
        self.delete_button = QPushButton(self.tr("Delete"), self)
        self.delete_button.setToolTip(self.tr("Delete the selected observations (Delete)"))
        self.add_button.clicked.connect(lambda: self.add_observation())
        self.edit_button.clicked.connect(self.on_edit_clicked)
        self.delete_button.clicked.connect(self.delete_selected)
        self.error = error_label(self)

        lay_out_list_section(self, self.list, self.error, (self.add_button, self.edit_button, self.delete_button))
        self._loading = False
        self.on_selection_changed()

    # -- contents -----------------------------------------------------------------------------

    def set_items(self, items: list[ObservationItem]) -> None:
        """Show ``items`` (keeps the scroll position: a silent reload must not jump)."""
        scroll = self.list.verticalScrollBar().value()
        self._loading = True
        self.list.clear()
        for item in items:
            self._append(item)
        self._loading = False
        self.list.verticalScrollBar().setValue(scroll)
        self.on_selection_changed()

    def items(self) -> list[ObservationItem]:
        return [ObservationItem(self.list.item(i).data(ORIGINAL) if self.list.item(i).data(ORIGINAL) else None,
                                self.list.item(i).text())
                for i in range(self.list.count())]

    def _append(self, obs: ObservationItem) -> QListWidgetItem:
        item = QListWidgetItem(obs.text)
        if obs.original is not None:
            item.setData(ORIGINAL, obs.original)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEditable)
        self.list.addItem(item)
        return item

    def add_observation(self, text: str = "") -> QListWidgetItem:
        """Append an observation; with no text, open it for typing."""
        self._loading = True
        item = self._append(ObservationItem(None, text))
        self._loading = False
        self.list.setCurrentItem(item)
        self.list.scrollToItem(item)
        if not text:
            self.list.editItem(item)
        self.changed.emit()
        return item

    def reveal(self, text: str) -> bool:
        """Scroll to the observation ``text`` and select it (a search result's fact); False if absent."""
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.text() == text:
                self.list.setCurrentItem(item)
                self.list.scrollToItem(item, QAbstractItemView.ScrollHint.PositionAtCenter)
                return True
        return False

    def edit_row(self, row: int, text: str) -> None:
        """Replace the text of row ``row`` (what the in-place editor does)."""
        self.list.item(row).setText(text)

    def delete_selected(self) -> None:
        rows = sorted({i.row() for i in self.list.selectedIndexes()}, reverse=True)
        for row in rows:
            self.list.takeItem(row)
        if rows:
            self.changed.emit()

    def on_edit_clicked(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.list.editItem(item)

    def on_item_changed(self, _item: QListWidgetItem) -> None:
        if not self._loading:
            self.changed.emit()

    def on_selection_changed(self) -> None:
        selected = bool(self.list.selectedItems())
        self.edit_button.setEnabled(selected)
        self.delete_button.setEnabled(selected)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Delete and self.list.state() != QAbstractItemView.State.EditingState:
            self.delete_selected()
            return
        super().keyPressEvent(event)

    def set_read_only(self, read_only: bool) -> None:
        for button in (self.add_button, self.edit_button, self.delete_button):
            button.setVisible(not read_only)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers if read_only else
                                  QAbstractItemView.EditTrigger.DoubleClicked
                                  | QAbstractItemView.EditTrigger.EditKeyPressed)

    # -- problems -----------------------------------------------------------------------------

    def show_problems(self, problems: dict[int, str]) -> None:
        """Mark the rows with a problem and say what is wrong under the list."""
        self._loading = True
        colour = error_color(self.palette())
        tint = QColor(colour)
        tint.setAlpha(40)
        for row in range(self.list.count()):
            item = self.list.item(row)
            problem = problems.get(row)
            item.setBackground(QBrush(tint) if problem else QBrush())
            item.setToolTip(problem or "")
        self._loading = False
        lines = [self.tr("Observation {n}: {problem}").format(n=row + 1, problem=text)
                 for row, text in sorted(problems.items())]
        self.error.setText("\n".join(lines[:3]))
        self.error.setVisible(bool(lines))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self.error.setStyleSheet(f"color: {error_color(self.palette()).name()};")
        super().changeEvent(event)

