"""The editor's observation list: add, edit (several lines), delete; problems shown on the row."""

from __future__ import annotations

import html

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QLocale,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QBrush,
    QColor,
    QFont,
    QKeyEvent,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from desktop.editor.draft import ObservationItem
from desktop.editor.style import error_color, error_label, lay_out_list_section

ORIGINAL = Qt.ItemDataRole.UserRole + 1  # the stored text the row started as (unset: added here)
FULL = Qt.ItemDataRole.UserRole + 2  # the observation's whole text (the row shows a preview of a long one)
SUCCESSOR = Qt.ItemDataRole.UserRole + 3  # a superseded fact's newer fact (unset: it still holds)
NOTE = Qt.ItemDataRole.UserRole + 4  # what the row's tooltip says when it shows no problem
# Never setData(role, None): PySide6 on Python 3.11 can then drop a reference to None too many
# times and abort the process ("deallocating None").
EDITOR_MIN_HEIGHT = 84
PREVIEW_CHARS = 480  # a longer observation shows its start: laying out megabytes froze the window
PREVIEW_LINES = 8
EDIT_IN_PLACE_CHARS = 100_000  # a longer one opens in a viewer of its own (ObservationViewer)


def preview(text: str) -> str:
    """What a row shows of ``text``: all of it, or its start and how much there is."""
    lines = text.count("\n", 0, PREVIEW_CHARS * 4)
    if len(text) <= PREVIEW_CHARS and lines < PREVIEW_LINES:
        return text
    start = "\n".join(text[:PREVIEW_CHARS].split("\n")[:PREVIEW_LINES]).rstrip()
    return ObservationList.tr("{start}…\n({size} in all; double-click to see all of it)").format(
        start=start, size=QLocale().formattedDataSize(len(text.encode("utf-8"))))


class _MultiLineDelegate(QStyledItemDelegate):
    """Edits an observation in a several-line box: Enter (or leaving) commits, Shift+Enter is a new line.
    A superseded fact is drawn struck through, its successor beneath it (not struck)."""

    def _document(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QTextDocument:
        doc = QTextDocument()
        font = QFont(option.font)  # type: ignore[attr-defined]
        font.setStrikeOut(False)  # the old text is struck through by its markup; its successor is not
        doc.setDefaultFont(font)
        doc.setTextWidth(max(50, option.rect.width() - 8))  # type: ignore[attr-defined]
        text = html.escape(preview(str(index.data(FULL) or ""))).replace("\n", "<br>")
        note = html.escape(ObservationList.tr("superseded by “{by}”").format(by=preview(str(index.data(SUCCESSOR)))))
        doc.setHtml(f"<s>{text}</s><br><small>→ {note}</small>")
        return doc

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        if not index.data(SUCCESSOR):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        opt.text = ""  # type: ignore[attr-defined]
        widget = opt.widget  # type: ignore[attr-defined]
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        doc = self._document(opt, index)
        context = QAbstractTextDocumentLayout.PaintContext()
        quiet = opt.palette.color(QPalette.ColorRole.PlaceholderText)  # type: ignore[attr-defined]
        context.palette.setColor(QPalette.ColorRole.Text, quiet)
        painter.save()
        painter.translate(opt.rect.left() + 4, opt.rect.top() + 2)  # type: ignore[attr-defined]
        doc.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        if not index.data(SUCCESSOR):
            return super().sizeHint(option, index)
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        doc = self._document(opt, index)
        return QSize(int(doc.idealWidth()) + 8, int(doc.size().height()) + 4)

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem,
                     index: QModelIndex | QPersistentModelIndex) -> QWidget:
        editor = QPlainTextEdit(parent)
        editor.setTabChangesFocus(True)
        editor.installEventFilter(self)
        return editor

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        assert isinstance(editor, QPlainTextEdit)
        editor.setPlainText(index.data(FULL) or "")
        editor.selectAll()

    def setModelData(self, editor: QWidget, model: QAbstractItemModel,
                     index: QModelIndex | QPersistentModelIndex) -> None:
        assert isinstance(editor, QPlainTextEdit)
        text = editor.toPlainText().strip()
        model.setData(index, text, FULL)
        model.setData(index, preview(text), Qt.ItemDataRole.EditRole)

    def updateEditorGeometry(self, editor: QWidget, option: QStyleOptionViewItem,
                             index: QModelIndex | QPersistentModelIndex) -> None:
        rect = option.rect  # type: ignore[attr-defined]  # PySide6's stubs omit QStyleOption.rect
        rect.setHeight(max(rect.height(), EDITOR_MIN_HEIGHT))
        editor.setGeometry(rect)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (isinstance(watched, QPlainTextEdit) and event.type() == QEvent.Type.KeyPress
                and isinstance(event, QKeyEvent) and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier):
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
        # Double-click and F2 go through edit_item, which opens a long observation in a viewer instead.
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.setItemDelegate(_MultiLineDelegate(self.list))
        self.list.setToolTip(self.tr("Double-click or press F2 to edit; Enter finishes, Shift+Enter starts a new line"))
        self.list.itemChanged.connect(self.on_item_changed)
        self.list.itemDoubleClicked.connect(self.on_item_double_clicked)
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
        self._marks: dict[str, dict] = {}
        self.read_only = False
        self.viewer: QWidget | None = None
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
        if self._marks:
            self.mark_superseded(self._marks)
        self.list.verticalScrollBar().setValue(scroll)
        self.on_selection_changed()

    def items(self) -> list[ObservationItem]:
        return [ObservationItem(self.list.item(i).data(ORIGINAL) if self.list.item(i).data(ORIGINAL) else None,
                                self.text_of(i))
                for i in range(self.list.count())]

    def text_of(self, row: int) -> str:
        """The whole text of row ``row`` (the row itself may show only its start)."""
        return str(self.list.item(row).data(FULL) or "")

    def _append(self, obs: ObservationItem) -> QListWidgetItem:
        item = QListWidgetItem(preview(obs.text))
        item.setData(FULL, obs.text)
        if len(obs.text) > PREVIEW_CHARS:
            item.setToolTip(self.tr("Double-click to see all of it"))
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
            self.list.editItem(item)  # editItem works whatever the edit triggers
        self.changed.emit()
        return item

    def editing_row(self) -> int | None:
        """The row open in the in-place editor, if one is."""
        if self.list.state() == QAbstractItemView.State.EditingState and self.list.currentItem() is not None:
            return self.list.currentRow()
        return None

    def reveal(self, text: str) -> bool:
        """Scroll to the observation ``text`` and select it (a search result's fact); False if absent."""
        for row in range(self.list.count()):
            if self.text_of(row) == text:  # the whole text: a long one's row shows only a preview
                item = self.list.item(row)
                self.list.setCurrentItem(item)
                self.list.scrollToItem(item, QAbstractItemView.ScrollHint.PositionAtCenter)
                return True
        return False

    def edit_row(self, row: int, text: str) -> None:
        """Replace the text of row ``row`` (what the in-place editor does)."""
        item = self.list.item(row)
        item.setData(FULL, text)
        item.setText(preview(text))

    def delete_selected(self) -> None:
        rows = sorted({i.row() for i in self.list.selectedIndexes()}, reverse=True)
        for row in rows:
            self.list.takeItem(row)
        if rows:
            self.changed.emit()

    def on_edit_clicked(self) -> None:
        item = self.list.currentItem()
        if item is not None:
            self.edit_item(item)

    def edit_item(self, item: QListWidgetItem) -> None:
        """Edit ``item`` in place; one too long for that opens in a viewer (a box of its own)."""
        text = str(item.data(FULL) or "")
        if len(text) <= EDIT_IN_PLACE_CHARS:
            if not self.read_only:
                self.list.editItem(item)
            return
        from desktop.editor.viewer import ObservationViewer

        viewer = ObservationViewer(text, self)
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.open()
        self.viewer = viewer

    def on_item_double_clicked(self, item: QListWidgetItem) -> None:
        self.edit_item(item)

    def on_item_changed(self, _item: QListWidgetItem) -> None:
        if not self._loading:
            self.changed.emit()

    def on_selection_changed(self) -> None:
        selected = bool(self.list.selectedItems())
        self.edit_button.setEnabled(selected)
        self.delete_button.setEnabled(selected)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_F2 and self.list.currentItem() is not None:
            self.edit_item(self.list.currentItem())
            return
        if event.key() == Qt.Key.Key_Delete and self.list.state() != QAbstractItemView.State.EditingState:
            self.delete_selected()
            return
        super().keyPressEvent(event)

    def mark_superseded(self, marks: dict[str, dict]) -> None:
        """Strike through the facts an approved supersession retired, each with its successor
        (``Memory.superseded_facts``): kept, and still editable, but no longer current."""
        self._marks = dict(marks)
        self._loading = True
        for row in range(self.list.count()):
            item = self.list.item(row)
            mark = marks.get(self.text_of(row))
            font = item.font()
            font.setStrikeOut(mark is not None)
            item.setFont(font)
            item.setData(SUCCESSOR, str(mark.get("by", "")) if mark else "")
            note = "" if mark is None else self.tr(
                "No longer current since {day}: “{by}” took its place. It is kept; search by meaning leaves "
                "it out, history and undo bring it back.").format(day=str(mark.get("ended_at", ""))[:10],
                                                                  by=mark.get("by", ""))
            if not note and len(self.text_of(row)) > PREVIEW_CHARS:
                note = self.tr("Double-click to see all of it")
            item.setData(NOTE, note)
            item.setToolTip(note)
        self._loading = False

    def superseded_rows(self) -> list[int]:
        """The rows shown struck through (for tests and the screen reader)."""
        return [r for r in range(self.list.count()) if self.list.item(r).font().strikeOut()]

    def set_read_only(self, read_only: bool) -> None:
        self.read_only = read_only
        for button in (self.add_button, self.edit_button, self.delete_button):
            button.setVisible(not read_only)

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
            item.setToolTip(problem or str(item.data(NOTE) or ""))
        self._loading = False
        lines = [self.tr("Observation {n}: {problem}").format(n=row + 1, problem=text)
                 for row, text in sorted(problems.items())]
        self.error.setText("\n".join(lines[:3]))
        self.error.setVisible(bool(lines))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:
            self.error.setStyleSheet(f"color: {error_color(self.palette()).name()};")
        super().changeEvent(event)

