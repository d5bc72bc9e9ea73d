"""The activity pane: what the assistants wrote, newest first, live, and a way to take it back."""

from __future__ import annotations

import html
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from PySide6.QtCore import QDate, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QHideEvent, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDateEdit,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QStackedWidget,
    QStyle,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from core.memory import Memory
from desktop.activity.delegate import ActivityDelegate
from desktop.activity.model import NOT_UNDOABLE, ActivityModel, Row, describe, matches, plain, recall_row
from desktop.shared.file_watch import FileWatch
from desktop.shared.history_view import actor_label
from desktop.shared.weak_callbacks import weakly
from desktop.workers import Core

PAGE = 200
LIVE_ROWS = 5 * PAGE  # rows kept while writes stream in on top; older ones are read again on scroll
MORE_WHEN_WITHIN_ROWS = 10  # start reading the next page this close to the bottom
FADE_TICK_MS = 100
CLOCK_TICK_MS = 30_000
RECOUNT_MS = 3000

ALL, TODAY, YESTERDAY, WEEK, MONTH, ON_DAY = "all", "today", "yesterday", "week", "month", "day"
BOTH, WRITES, READS = "both", "writes", "reads"  # what the pane lists: the change log, the read log, or both
READS_POLL_MS = 3000  # reads have no change feed: without a read log file to follow, look this often
READS_FALLBACK_MS = 60_000  # following the read log's file: a safety net only

Filters = tuple[str | None, str | None, str | None]  # actor, since, until (ISO-8601 UTC text)


def _stamp(day: date) -> str:
    """Local midnight starting ``day``, as change_log's UTC text."""
    moment = datetime.combine(day, time(0)).astimezone().astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def day_span(period: str, today: date, chosen: date | None = None) -> tuple[str | None, str | None]:
    """[since, until) for a period of local days; ``None`` leaves that end open."""
    if period == TODAY:
        return _stamp(today), None
    if period == YESTERDAY:
        return _stamp(today - timedelta(days=1)), _stamp(today)
    if period == WEEK:
        return _stamp(today - timedelta(days=6)), None
    if period == MONTH:
        return _stamp(today - timedelta(days=29)), None
    if period == ON_DAY and chosen is not None:
        return _stamp(chosen), _stamp(chosen + timedelta(days=1))
    return None, None


def _read_page(memory: Memory, filters: Filters, before_id: int | None, kind: str = WRITES,
               before_read: int | None = None) -> tuple[Filters, tuple[int | None, int | None], list[Row], bool]:
    """A page of changes, of reads, or of both merged newest first: (filters, where it started
    (before_id, before_read): (None, None) for the first page, rows, whether there are more).

    Both: a page of each, cut at the later of the two pages' oldest moments (what lies beyond comes
    with the next page), so rows stay in time order from page to page."""
    actor, since, until = filters
    writes = (memory.activity(before_id=before_id, actor=actor, since=since, until=until, limit=PAGE)
              if kind != READS else [])
    reads = ([recall_row(r) for r in memory.read_log(before_id=before_read, client=actor, since=since,
                                                     until=until, limit=PAGE)] if kind != WRITES else [])
    full = [rows for rows in (writes, reads) if len(rows) == PAGE]
    cut = max(rows[-1].at for rows in full) if len(full) and writes and reads else None
    rows = sorted(writes + reads, key=lambda r: (r.at, r.id > 0, abs(r.id)), reverse=True)
    kept = [r for r in rows if cut is None or r.at >= cut]
    return filters, (before_id, before_read), kept, bool(full) or len(kept) < len(rows)


def _read_new_reads(memory: Memory, filters: Filters, after: int) -> tuple[Filters, list[Row]]:
    actor, since, until = filters
    rows = memory.read_log(client=actor, since=since, until=until, limit=PAGE)
    return filters, [recall_row(r) for r in reversed(rows) if r["id"] > after]


def _read_actors(memory: Memory) -> list[dict[str, Any]]:
    """Who wrote (with how many changes), then who only read (``changes`` None)."""
    writers = memory.activity_actors()
    known = {a["actor"] for a in writers}
    return writers + [{"actor": r["client"], "changes": None, "last_at": r["last_at"]}
                      for r in memory.read_clients() if r["client"] not in known]


def _undo(memory: Memory, change_id: int) -> Row:
    return memory.undo_change(change_id)


def _exists(memory: Memory, name: str) -> tuple[str, bool]:
    return name, memory.get_node(name) is not None


class ActivityPane(QWidget):
    """Every change with who made it and when; filters by client and day; open or undo a change."""

    entity_activated = Signal(str)
    status_message = Signal(str)

    def __init__(self, core: Core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self._filters: Filters = (None, None, None)
        self._kind = BOTH
        self._loaded = False
        self._has_more = False
        self._loading_more = False
        self._early: list[Row] = []  # live rows that came while the first page was being read
        self._filtered_on = date.today()  # the day "Today", "Yesterday"… were worked out on

        self.client_combo = QComboBox(self)
        self.client_combo.setToolTip(self.tr("Show the changes of one client only"))
        self.client_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.client_combo.addItem(self.tr("All clients"), None)
        self.day_combo = QComboBox(self)
        self.day_combo.setToolTip(self.tr("Show the changes of a time span only"))
        for text, period in ((self.tr("Any time"), ALL), (self.tr("Today"), TODAY),
                             (self.tr("Yesterday"), YESTERDAY), (self.tr("Last 7 days"), WEEK),
                             (self.tr("Last 30 days"), MONTH), (self.tr("On a day…"), ON_DAY)):
            self.day_combo.addItem(text, period)
        self.kind_combo = QComboBox(self)
        self.kind_combo.setToolTip(self.tr("Show what the assistants wrote, what they recalled, or both"))
        for text, kind in ((self.tr("Writes and reads"), BOTH), (self.tr("Writes"), WRITES),
                           (self.tr("Reads"), READS)):
            self.kind_combo.addItem(text, kind)
        self.day_edit = QDateEdit(QDate.currentDate(), self)
        self.day_edit.setCalendarPopup(True)
        self.day_edit.setMaximumDate(QDate.currentDate())
        self.day_edit.setVisible(False)
        self.undo_button = QPushButton(self.tr("Undo"), self)
        self.undo_button.setToolTip(self.tr("Take back the selected change (it can be redone)"))
        self.undo_button.setEnabled(False)

        self.banner = QFrame(self)
        self.banner.setFrameShape(QFrame.Shape.StyledPanel)
        self.banner.setAutoFillBackground(True)
        self.banner_icon = QLabel(self.banner)
        self.banner_text = QLabel(self.banner)
        self.banner_text.setWordWrap(True)
        self.banner_text.setTextFormat(Qt.TextFormat.PlainText)
        close = QToolButton(self.banner)
        close.setAutoRaise(True)
        close.setText("×")
        close.setToolTip(self.tr("Hide this message"))
        close.clicked.connect(self.banner.hide)
        banner_layout = QHBoxLayout(self.banner)
        banner_layout.setContentsMargins(8, 4, 4, 4)
        banner_layout.addWidget(self.banner_icon)
        banner_layout.addWidget(self.banner_text, 1)
        banner_layout.addWidget(close)
        self.banner.hide()

        self.model = ActivityModel(self)
        self.table = QTreeView(self)
        self.table.setModel(self.model)
        self.table.setItemDelegate(ActivityDelegate(self.table))
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(True)
        self.table.setAllColumnsShowFocus(True)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header = self.table.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(ActivityModel.WHEN, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(ActivityModel.CLIENT, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(ActivityModel.WHEN, 118)
        header.resizeSection(ActivityModel.CLIENT, 118)

        self.empty = QLabel(self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setMargin(16)
        self.empty.setTextFormat(Qt.TextFormat.RichText)
        self.empty.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.empty.linkActivated.connect(self.on_show_everything)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)

        bar = QHBoxLayout()
        bar.addWidget(self.kind_combo)
        bar.addWidget(self.client_combo)
        bar.addWidget(self.day_combo)
        bar.addWidget(self.day_edit)
        bar.addStretch(1)
        bar.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addLayout(bar)
        layout.addWidget(self.banner)
        layout.addWidget(self.stack, 1)

        self._fade = QTimer(self, interval=FADE_TICK_MS)
        self._fade.timeout.connect(self.on_fade_tick)
        self._clock = QTimer(self, interval=CLOCK_TICK_MS)
        self._clock.timeout.connect(self.on_clock_tick)
        self._clock.start()
        self._recount = QTimer(self, singleShot=True, interval=RECOUNT_MS)
        self._recount.timeout.connect(self.refresh_actors)
        self._reads_poll = QTimer(self, interval=READS_POLL_MS)
        self._reads_poll.timeout.connect(self.on_reads_poll)  # runs only while the pane is shown
        # A logged read commits to the read log's file: follow it rather than poll (idle wakeups).
        log_file = core.memory.read_log_file()
        self._reads_watch = FileWatch(log_file, self) if log_file is not None else None
        if self._reads_watch is not None and self._reads_watch.watching:
            self._reads_watch.changed.connect(self.on_reads_poll)
            self._reads_poll.setInterval(READS_FALLBACK_MS)
        self._info_timeout = QTimer(self, singleShot=True, interval=6000)
        self._info_timeout.timeout.connect(self.banner.hide)

        self.client_combo.currentIndexChanged.connect(self.on_filter_changed)
        self.day_combo.currentIndexChanged.connect(self.on_filter_changed)
        self.kind_combo.currentIndexChanged.connect(self.on_filter_changed)
        self.day_edit.dateChanged.connect(self.on_filter_changed)
        self.undo_button.clicked.connect(self.on_undo_clicked)
        self.table.activated.connect(self.on_row_activated)
        self.table.customContextMenuRequested.connect(self.on_context_menu)
        self.table.selectionModel().currentRowChanged.connect(self.on_current_changed)
        self.table.verticalScrollBar().valueChanged.connect(self.on_scrolled)
        self.model.modelReset.connect(self._update_undo_button)

        self._show_empty()
        self.refresh_actors()
        self.reload()

    # -- public ----------------------------------------------------------------------------

    def filters(self) -> Filters:
        """(actor, since, until) as chosen in the bar."""
        period = self.day_combo.currentData()
        chosen = self.day_edit.date().toPython() if period == ON_DAY else None
        since, until = day_span(period, date.today(), chosen)  # type: ignore[arg-type]  # currentData() is Any
        return self.client_combo.currentData(), since, until

    def kind(self) -> str:
        """What the pane lists: writes, reads or both (``BOTH``, ``WRITES``, ``READS``)."""
        return str(self.kind_combo.currentData())

    def reload(self) -> None:
        """Read the newest page again for the current filters."""
        self._filters = self.filters()
        self._kind = self.kind()
        self._filtered_on = date.today()
        self._has_more = False
        self.core.read(_read_page, self._filters, None, self._kind, None, done=weakly(self.on_page),
                       failed=weakly(self.on_read_failed), key="activity-page")

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self._reads_poll.start()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 - Qt's name
        self._reads_poll.stop()  # hidden (the window in the tray): no wakeups for reads nobody sees
        super().hideEvent(event)

    def on_reads_poll(self) -> None:
        """Reads have no change feed: look for new ones (a cheap read of the read log's newest)."""
        if self._loaded and self._kind != WRITES and self.isVisible():
            self.core.read(_read_new_reads, self._filters, self.model.newest_read,
                           done=weakly(self.on_new_reads), key="activity-reads")

    def on_new_reads(self, result: tuple[Filters, list[Row]]) -> None:
        filters, rows = result
        if filters == self._filters and self._kind != WRITES and rows:
            self._show_live(rows)

    def undo_change(self, change_id: int) -> None:
        """Take back change ``change_id`` (redo, when it is itself an undo)."""
        self.banner.hide()  # the last undo's message is about something else
        self.core.write(_undo, change_id, done=weakly(self.on_undone), failed=weakly(self.on_undo_failed))

    def on_changes(self, rows: list[dict]) -> None:
        """New change_log rows (oldest first): the ones that pass the filters go on top, lit."""
        if not rows:
            return
        actor, since, until = self._filters
        shown = [r for r in rows if matches(r, actor, since, until)]
        hidden = [r for r in rows if not matches(r, actor, since, until)]
        if hidden and self._loaded:
            self.model.learn(hidden)
        if self._kind == READS:
            shown = []
        if shown and not self._loaded:
            self._early.extend(shown)  # the page being read may or may not hold them: merge on arrival
        elif shown:
            self._show_live(shown)
        self._update_undo_button()  # the selected change may have been undone just now
        known = {self.client_combo.itemData(i) for i in range(self.client_combo.count())}
        if any(r.actor not in known for r in rows):
            self.refresh_actors()
        elif not self._recount.isActive():
            self._recount.start()  # the counts beside the clients' names, once writes settle

    def _show_live(self, shown: list[Row]) -> None:
        if shown:
            at_top = self.table.verticalScrollBar().value() == 0
            fresh = self.model.prepend_new(shown)
            if fresh:
                self.stack.setCurrentWidget(self.table)
                if not self._fade.isActive():
                    self._fade.start()
                if at_top:  # keep a reader who scrolled down where they were
                    self.table.scrollToTop()
                    if self.model.trim(LIVE_ROWS):
                        self._has_more = True

    # -- reading ---------------------------------------------------------------------------

    def refresh_actors(self) -> None:
        self.core.read(_read_actors, done=weakly(self.on_actors), key="activity-actors")

    def on_actors(self, actors: list[dict[str, Any]]) -> None:
        self.model.assign_hues([a["actor"] for a in actors])
        current = self.client_combo.currentData()
        self.client_combo.blockSignals(True)
        self.client_combo.clear()
        self.client_combo.addItem(self.tr("All clients"), None)
        for item in sorted(actors, key=lambda a: actor_label(a["actor"]).casefold()):
            label = (actor_label(item["actor"]) if item["changes"] is None else  # a client that only read
                     self.tr("{client} ({count})").format(client=actor_label(item["actor"]), count=item["changes"]))
            self.client_combo.addItem(label, item["actor"])
        if current is not None and self.client_combo.findData(current) < 0:
            self.client_combo.addItem(actor_label(current), current)
        self.client_combo.setCurrentIndex(max(0, self.client_combo.findData(current)))
        self.client_combo.blockSignals(False)

    def on_page(self, result: tuple[Filters, tuple[int | None, int | None], list[Row], bool]) -> None:
        filters, (before_id, before_read), rows, more = result
        first = before_id is None and before_read is None
        if filters != self._filters:
            return  # the filters changed while this page was read
        if first:
            self.model.set_rows(rows)
            self._loaded = True
            early, self._early = self._early, []
            if early and self.model.prepend_new(early) and not self._fade.isActive():
                self._fade.start()
        else:
            self._loading_more = False
            if self._kind != READS and before_id != self.model.oldest_id:  # trimmed meanwhile: a gap
                QTimer.singleShot(0, self, self.on_scrolled)
                return
            self.model.append_older(rows)
        self._has_more = more
        if self.model.rowCount():
            self.stack.setCurrentWidget(self.table)
            if first:
                self.table.setCurrentIndex(self.model.index(0, 0))
        else:
            self._show_empty()
        self._update_undo_button()
        if not first or self.model.rowCount() < MORE_WHEN_WITHIN_ROWS:
            QTimer.singleShot(0, self, self.on_scrolled)  # a page that hid grouped rows may not fill the view

    def on_read_failed(self, message: str) -> None:
        self._loading_more = False
        self._show_banner(self.tr("The activity could not be read: {message}").format(message=message), error=True)

    def on_scrolled(self, _value: int = 0) -> None:
        bar = self.table.verticalScrollBar()
        row_height = max(1, self.table.sizeHintForRow(0)) if self.model.rowCount() else 1
        near_end = bar.maximum() - bar.value() <= MORE_WHEN_WITHIN_ROWS * row_height
        if self._has_more and not self._loading_more and near_end and self.model.rowCount():
            self._loading_more = True
            self.core.read(_read_page, self._filters, self.model.oldest_id, self._kind, self.model.oldest_read,
                           done=weakly(self.on_page), failed=weakly(self.on_read_failed), key="activity-more")

    # -- acting ----------------------------------------------------------------------------

    def on_filter_changed(self, *_args: Any) -> None:
        self.day_edit.setVisible(self.day_combo.currentData() == ON_DAY)
        self._loaded = False
        self._loading_more = False
        self._early = []
        self.reload()

    def on_show_everything(self, _link: str = "") -> None:
        self.client_combo.setCurrentIndex(0)
        self.day_combo.setCurrentIndex(0)

    def on_row_activated(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        name = self.model.row_at(index.row()).entity
        if name:
            self.core.read(_exists, name, done=weakly(self.on_entity_checked))

    def on_entity_checked(self, result: tuple[str, bool]) -> None:
        name, exists = result
        if exists:
            self.entity_activated.emit(name)
        else:
            self._show_banner(self.tr("“{name}” no longer exists. Undo its deletion to bring it back.").format(
                name=name), error=False)

    def on_current_changed(self, *_args: Any) -> None:
        self._update_undo_button()

    def on_undo_clicked(self) -> None:
        row = self._current_row()
        if row is not None:
            self.undo_change(row.id)

    def on_undone(self, undo_row: Row) -> None:
        undone_of = undo_row.undo_of
        original = self.model.known(undone_of) if undone_of is not None else None
        what = plain(describe(original)) if original else self.tr("change #{id}").format(id=undone_of)
        message = self.tr("Undone: {what}").format(what=what)
        self.status_message.emit(message)
        self._show_banner(message, error=False)

    def on_undo_failed(self, message: str) -> None:
        self._show_banner(self.tr("Could not undo: {message}").format(message=message), error=True)
        self.status_message.emit(message)

    def on_context_menu(self, point: QPoint) -> None:
        index = self.table.indexAt(point)
        if not index.isValid():
            return
        row = self.model.row_at(index.row())
        menu = QMenu(self)
        if row.entity:
            menu.addAction(self.tr("Open “{name}”").format(name=row.entity),
                           lambda: self.on_row_activated(index))
        undo = QAction(self._undo_label(row), menu)
        undo.setEnabled(self._can_undo(row))
        undo.triggered.connect(lambda: self.undo_change(row.id))
        menu.addAction(undo)
        menu.addSeparator()
        menu.addAction(self.tr("Only changes by {client}").format(client=actor_label(row.actor)),
                       lambda: self._filter_actor(row.actor))
        menu.exec(self.table.viewport().mapToGlobal(point))

    def on_clock_tick(self) -> None:
        """Relative times move on; past midnight, "Today" and its kin mean other days."""
        if self._filtered_on != date.today() and self.day_combo.currentData() not in (ALL, ON_DAY):
            self.on_filter_changed()
        else:
            self.model.tick()

    def on_fade_tick(self) -> None:
        if not self.model.fade():
            self._fade.stop()

    # -- helpers ---------------------------------------------------------------------------

    def _current_row(self) -> Row | None:
        index = self.table.currentIndex()
        return self.model.row_at(index.row()) if index.isValid() else None

    def _can_undo(self, row: Row) -> bool:
        return row.op not in NOT_UNDOABLE and not self.model.was_undone(row.id)

    def _undo_label(self, row: Row) -> str:
        return self.tr("Redo") if row.op == "undo" else self.tr("Undo")

    def _update_undo_button(self) -> None:
        row = self._current_row()
        self.undo_button.setEnabled(row is not None and self._can_undo(row))
        if row is not None:
            self.undo_button.setText(self._undo_label(row))
            if row.op in NOT_UNDOABLE:
                self.undo_button.setToolTip(self.tr("This kind of change cannot be undone from here"))
            elif not self._can_undo(row):
                self.undo_button.setToolTip(self.tr("Already undone: the row of its undo can redo it"))
            else:
                self.undo_button.setToolTip(self.tr("Take back the selected change (it can be redone)"))

    def _filter_actor(self, actor: str) -> None:
        index = self.client_combo.findData(actor)
        if index < 0:
            self.client_combo.addItem(actor_label(actor), actor)
            index = self.client_combo.count() - 1
        self.client_combo.setCurrentIndex(index)

    def _show_banner(self, text: str, *, error: bool) -> None:
        icon = QStyle.StandardPixmap.SP_MessageBoxWarning if error else QStyle.StandardPixmap.SP_MessageBoxInformation
        size = self.banner_text.fontMetrics().height() + 4
        self.banner_icon.setPixmap(self.style().standardIcon(icon).pixmap(size, size))
        self.banner_text.setText(text)
        self.banner.setBackgroundRole(QPalette.ColorRole.ToolTipBase if not error else QPalette.ColorRole.AlternateBase)
        self.banner.setForegroundRole(QPalette.ColorRole.ToolTipText if not error else QPalette.ColorRole.Text)
        self.banner.show()
        if error:
            self._info_timeout.stop()
        else:
            self._info_timeout.start()

    def _show_empty(self) -> None:
        actor, since, until = self._filters
        if self._kind == READS and actor is None and since is None and until is None:
            text = "<p style='font-size:large'><b>{title}</b></p><p>{body}</p>".format(
                title=self.tr("No assistant has recalled anything yet"),
                body=self.tr("Each search and read an assistant makes through MCP appears here, with what it "
                             "found. Settings can turn this log off."))
        elif actor is None and since is None and until is None:
            text = "<p style='font-size:large'><b>{title}</b></p><p>{body}</p>".format(
                title=self.tr("Nothing has been written yet"),
                body=self.tr("What your assistants write to this memory — Claude, Cursor, any MCP client — "
                             "appears here as it happens, newest first, with who wrote it. "
                             "Any change can be undone from here."))
        else:
            if actor and (since or until):
                line = self.tr("No changes by {client} in this time span.").format(
                    client=html.escape(actor_label(actor)))
            elif actor:
                line = self.tr("No changes by {client} yet.").format(client=html.escape(actor_label(actor)))
            else:
                line = self.tr("No changes in this time span.")
            text = "<p>{line}</p><p><a href='all'>{link}</a></p>".format(line=line, link=self.tr("Show everything"))
        self.empty.setText(text)
        self.stack.setCurrentWidget(self.empty)
