"""The search pane: one box, results as you type, by meaning or by exact text."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QEvent, QLocale, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QIcon, QKeyEvent, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListView,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from core.memory import Memory
from desktop.search.delegate import SnippetDelegate
from desktop.search.model import EXACT, MEANING, SHOWN_LIMIT, SearchOutcome, SearchResultsModel, run_search
from desktop.shared.type_colours import type_colour  # a type has one colour in every pane
from desktop.shared.weak_callbacks import weakly
from desktop.workers import Core

TYPING_DEBOUNCE_MS = 200
CHANGES_DEBOUNCE_MS = 600  # writes come in bursts; re-search once they settle
STATUS_POLL_MS = 2000  # while entities are still being embedded


def _dot(colour: QColor) -> QIcon:
    """A small disc of ``colour``: the type's colour in the graph, beside its name."""
    pixmap = QPixmap(12, 12)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    painter.drawEllipse(1, 1, 10, 10)
    painter.end()
    return QIcon(pixmap)


def _read_types(memory: Memory) -> dict[str, int]:
    return memory.count_labels()


def _read_embedding_status(memory: Memory) -> dict[str, Any]:
    return memory.embedding_status()


class SearchPane(QWidget):
    """Type to search; Up/Down walk the results; Enter or a double-click opens one."""

    entity_activated = Signal(str)
    fact_activated = Signal(str, str)  # entity, the fact that matched: the editor scrolls to it
    status_message = Signal(str)

    def __init__(self, core: Core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self._asked: tuple[str, str, str | None] | None = None  # the search whose answer is awaited
        self._shown: tuple[str, str, str | None] | None = None  # the search the list shows
        self._status: dict[str, Any] = {}
        self._open_when_shown = False  # Enter pressed before the results caught up
        self._entities: int | None = None  # how many there are to search (None: not read yet)

        self.box = QLineEdit(self)
        self.box.setPlaceholderText(self.tr("Search your memory…"))
        self.box.setClearButtonEnabled(True)
        self.box.installEventFilter(self)

        self.meaning_button = self._mode_button(self.tr("&Meaning"), self.tr(
            "Find memories about the same thing, in any language, even without the same words"))
        self.exact_button = self._mode_button(self.tr("E&xact text"), self.tr(
            "Find the letters you typed anywhere in names, types and observations (ignoring case and accents)"))
        self.modes = QButtonGroup(self)
        self.modes.setExclusive(True)
        self.modes.addButton(self.meaning_button)
        self.modes.addButton(self.exact_button)

        self.type_combo = QComboBox(self)
        self.type_combo.setToolTip(self.tr("Show only entities of one type"))
        self.type_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.type_combo.addItem(self.tr("All types"), None)

        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.hint.setTextFormat(Qt.TextFormat.PlainText)  # it quotes what was typed
        self.hint.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        font = self.hint.font()
        font.setPointSizeF(font.pointSizeF() * 0.9)
        self.hint.setFont(font)
        self.hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted in light and dark alike

        self.model = SearchResultsModel(self)
        self.results = QListView(self)
        self.results.setModel(self.model)
        self.results.setItemDelegate(SnippetDelegate(self.results))
        self.results.setUniformItemSizes(True)
        self.results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.results.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.results.setMouseTracking(True)
        self.results.activated.connect(self.on_result_activated)

        self.empty = QLabel(self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setTextFormat(Qt.TextFormat.RichText)
        self.empty.setMargin(16)
        self.empty.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        # In a short pane (a 1024×768 window) the hint scrolls rather than losing its last lines.
        self.empty_page = QScrollArea(self)
        self.empty_page.setWidgetResizable(True)
        self.empty_page.setFrameShape(QScrollArea.Shape.NoFrame)
        self.empty_page.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.empty_page.setWidget(self.empty)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.empty_page)
        self.stack.addWidget(self.results)

        controls = QHBoxLayout()
        controls.setSpacing(0)
        controls.addWidget(self.meaning_button)
        controls.addWidget(self.exact_button)
        controls.addStretch(1)
        controls.addWidget(self.type_combo)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addWidget(self.box)
        layout.addLayout(controls)
        layout.addWidget(self.hint)
        layout.addWidget(self.stack, 1)

        self._typing = QTimer(self, singleShot=True, interval=TYPING_DEBOUNCE_MS)
        self._typing.timeout.connect(self.search_now)
        self._changes = QTimer(self, singleShot=True, interval=CHANGES_DEBOUNCE_MS)
        self._changes.timeout.connect(self.on_changes_settled)
        self._status_poll = QTimer(self, interval=STATUS_POLL_MS)
        self._status_poll.timeout.connect(self.refresh_status)

        self.box.textChanged.connect(self.on_text_changed)
        self.modes.buttonToggled.connect(self.on_mode_toggled)
        self.type_combo.currentIndexChanged.connect(self.on_type_changed)

        self.meaning_button.setChecked(True)
        self._show_empty()
        self.refresh_types()
        self.refresh_status()

    def _mode_button(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setCheckable(True)
        button.setAutoRaise(False)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        return button

    # -- public ----------------------------------------------------------------------------

    def focus_search(self) -> None:
        """Put the cursor in the box with its text selected, ready to type over."""
        self.box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.box.selectAll()

    def mode(self) -> str:
        return EXACT if self.exact_button.isChecked() else MEANING

    def set_mode(self, mode: str) -> None:
        (self.exact_button if mode == EXACT else self.meaning_button).setChecked(True)

    def entity_type(self) -> str | None:
        return self.type_combo.currentData()

    def search_now(self) -> None:
        """Run the search in the box now (the typing debounce calls this)."""
        self._typing.stop()
        query = self.box.text().strip()
        if not query:
            self._open_when_shown = False
        asked = (query, self.mode(), self.entity_type())
        self._asked = asked
        if not query:
            self.model.clear()
            self._shown = None
            self._show_empty()
            return
        if self.stack.currentWidget() is self.empty_page:  # results on show stay until new ones replace them
            self.empty.setText(self.tr("Searching…"))
        self.core.read(run_search, *asked, done=weakly(self.on_results), failed=weakly(self.on_search_failed),
                       key="search")

    def on_changes(self, rows: list[dict]) -> None:
        """Something was written: results, types and indexing progress may have moved."""
        if rows:
            self._changes.start()

    # -- slots -----------------------------------------------------------------------------

    def on_text_changed(self, _text: str) -> None:
        self._open_when_shown = False
        self._typing.start()

    def on_mode_toggled(self, button: QToolButton, checked: bool) -> None:
        font = button.font()
        font.setBold(checked)  # which mode is on must read at a glance, in any theme
        button.setFont(font)
        if checked:
            self.box.setPlaceholderText(self.tr("Search your memory…") if self.mode() == MEANING
                                        else self.tr("Find exact text…"))
            self._update_hint()
            self.search_now()

    def on_type_changed(self, _index: int) -> None:
        self.search_now()

    def on_changes_settled(self) -> None:
        self.refresh_types()
        self.refresh_status()
        if self.box.text().strip():
            self.search_now()

    def on_results(self, outcome: SearchOutcome) -> None:
        asked = (outcome.query, outcome.mode, outcome.entity_type)
        if asked != self._asked:
            return  # the box or a filter changed while this search ran
        if not outcome.hits:
            self._open_when_shown = False
        keep = self._selected_name() if asked[:2] == (self._shown or ("", ""))[:2] else None
        self._shown = asked
        self.model.set_hits(outcome.hits)
        if not outcome.hits:
            self._show_empty(outcome.query)
            return
        self.stack.setCurrentWidget(self.results)
        row = self.model.row_of(keep) if keep else -1
        self.results.setCurrentIndex(self.model.index(max(row, 0)))
        self._update_hint()
        if self._open_when_shown:
            self._open_when_shown = False
            self.on_result_activated(self.results.currentIndex())

    def on_search_failed(self, message: str) -> None:
        self.model.clear()
        self._show_empty()
        self.empty.setText(self.tr("The search could not run: {message}").format(message=html.escape(message)))
        self.status_message.emit(message)

    def on_result_activated(self, index: Any) -> None:
        if index.isValid():
            hit = self.model.hit(index.row())
            self.entity_activated.emit(hit.name)
            if hit.fact:
                self.fact_activated.emit(hit.name, hit.fact)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.box and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            return self._on_box_key(event)
        return super().eventFilter(watched, event)

    def _on_box_key(self, event: QKeyEvent) -> bool:
        key = event.key()
        rows = self.model.rowCount()
        current = self.results.currentIndex().row()
        if key in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_PageDown, Qt.Key.Key_PageUp) and rows:
            step = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 8, Qt.Key.Key_PageUp: -8}[key]
            row = min(rows - 1, max(0, (current if current >= 0 else -1) + step))
            self.results.setCurrentIndex(self.model.index(row))
            return True
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if self._typing.isActive() or self._shown != (self.box.text().strip(), self.mode(), self.entity_type()):
                self._open_when_shown = True  # open the first result of what was typed, not a stale one
                self.search_now()
                return True
            if rows:
                self.on_result_activated(self.model.index(max(current, 0)))
            return True
        if key == Qt.Key.Key_Escape and self.box.text():
            self.box.clear()
            return True
        return False

    # -- types and indexing progress -------------------------------------------------------

    def refresh_types(self) -> None:
        self.core.read(_read_types, done=weakly(self.on_types), key="search-types")

    def on_types(self, counts: dict[str, int]) -> None:
        self._entities = sum(counts.values())
        if self.stack.currentWidget() is self.empty_page and not self.box.text().strip():
            self._show_empty()  # the first-use words depend on whether there is anything yet
        current = self.entity_type()
        self.type_combo.blockSignals(True)
        self.type_combo.clear()
        self.type_combo.addItem(self.tr("All types"), None)
        for name, count in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].casefold())):
            self.type_combo.addItem(_dot(type_colour(name)), self.tr("{type} ({count})").format(type=name, count=count),
                                    name)
        if current is not None and current not in counts:  # keep a chosen type that emptied out
            self.type_combo.addItem(self.tr("{type} (0)").format(type=current), current)
        self.type_combo.setCurrentIndex(max(0, self.type_combo.findData(current)))
        self.type_combo.blockSignals(False)

    def refresh_status(self) -> None:
        self.core.read(_read_embedding_status, done=weakly(self.on_embedding_status),
                       key="search-embedding-status")

    def on_embedding_status(self, status: dict[str, Any]) -> None:
        self._status = status
        waiting = status.get("model") is not None and status.get("embedded", 0) < status.get("entities", 0)
        if waiting and not self._status_poll.isActive():
            self._status_poll.start()
        elif not waiting:
            self._status_poll.stop()
        self._update_hint()

    def _update_hint(self) -> None:
        status = self._status
        text = ""
        if self.mode() == MEANING and status:
            total, done = int(status.get("entities", 0)), int(status.get("embedded", 0))
            if status.get("model") is None:
                text = self.tr("Meaning search is off ({reason}); searching words only.").format(
                    reason=str(status.get("error") or self.tr("no embedding model")).rstrip("."))
            elif done < total:
                text = self.tr("Searching words only until {count} entities are indexed ({done} of {total} done)."
                               ).format(count=QLocale().toString(total - done), done=QLocale().toString(done),
                                        total=QLocale().toString(total))
        elif self.mode() == EXACT and self._shown is not None and self.stack.currentWidget() is self.results:
            count = self.model.rowCount()
            text = (self.tr("The first {count} entities that contain “{query}”.") if count >= SHOWN_LIMIT
                    else self.tr("1 entity contains “{query}”.") if count == 1
                    else self.tr("{count} entities contain “{query}”.")).format(count=count, query=self._shown[0])
        self.hint.setText(text)
        self.hint.setVisible(bool(text))

    # -- helpers ---------------------------------------------------------------------------

    def _selected_name(self) -> str | None:
        index = self.results.currentIndex()
        return self.model.hit(index.row()).name if index.isValid() else None

    def _show_empty(self, query: str | None = None) -> None:
        if query:
            if self.mode() == EXACT:
                text = self.tr("No entity contains “{query}”.<br>Try <b>Meaning</b> to find related memories.")
            else:
                text = self.tr("<b>No good matches</b> for “{query}”.<br>Nothing in memory is close enough "
                               "in meaning or words; try other words, or all types.")
            self.empty.setText(text.format(query=html.escape(query)))
        elif self._entities == 0:
            self.empty.setText("<p style='font-size:large'><b>{title}</b></p><p>{body}</p>".format(
                title=self.tr("Nothing to search yet"),
                body=self.tr("What your assistants remember — people, projects, decisions — can be searched "
                             "here as soon as they write it, by meaning or by exact text.")))
        else:
            self.empty.setText("<p style='font-size:large'><b>{title}</b></p><p>{body}</p><p>{keys}</p>".format(
                title=self.tr("Search everything your assistants remembered"),
                body=self.tr("<b>Meaning</b> finds related ideas in any language, even in other words. "
                             "<b>Exact text</b> finds the letters you type, ignoring case and accents."),
                keys=self.tr("↑ ↓ move through the results; Enter opens one.")))
        self.stack.setCurrentWidget(self.empty_page)
        self._update_hint()
