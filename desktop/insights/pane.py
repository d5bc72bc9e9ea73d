"""The insight review pane: what reflect proposed, why, and a person's approve or dismiss.

Pending insights are listed best first (title, pattern, confidence, age); the one selected shows its
explanation, the entities it was built from (click one to open it) and how they connect, and asks
the graph pane to show that evidence. Approve (A, Ctrl+Enter) and Dismiss (D, Delete) decide it and
move to the next. "Reflect now" runs reflect off the GUI thread. Decided insights have a tab of
their own. Every read and write goes through ``Core``.
"""

from __future__ import annotations

import html
from typing import Any
from urllib.parse import quote, unquote

from PySide6.QtCore import QEvent, QItemSelection, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListView,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from core.history.changes import touched_names
from core.memory import Memory
from core.model import Change
from desktop.insights.model import (
    InsightDelegate,
    InsightListModel,
    InsightLists,
    InsightRole,
    evidence_names,
    load_insights,
    pattern_label,
    role_label,
    status_label,
)
from desktop.insights.preview import InsightPreview, is_hygiene
from desktop.insights.words import insight_summary, insight_title
from desktop.shared.ages import age_text
from desktop.workers import Core, Progress

#: change_log operations that change what this pane lists
INSIGHT_OPS = frozenset({"create_insight", "decide_insight", "mark_insight_stale", "decay_confidence", "reflect"})
REFRESH_DELAY_MS = 150  # a burst of changes (an import, a reflect) refreshes once
LOAD_KEY = "insights-pane"


class InsightsPane(QWidget):
    """Review the insights reflect proposed: approve or dismiss each, run reflect again."""

    entity_activated = Signal(str)
    status_message = Signal(str)
    evidence_requested = Signal(list)  # names of the entities the selected insight was built from
    pending_count_changed = Signal(int)

    def __init__(self, core: Core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.pending_count = -1  # unknown until the first load
        self.reflecting = False
        self._deciding: str | None = None
        self._shown: tuple[str, str] | None = None  # (title, status) in the details
        self._loaded = False
        self._known_names: set[str] = set()
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(REFRESH_DELAY_MS)
        self._refresh_timer.timeout.connect(self.refresh)

        self.pending_model = InsightListModel(self)
        self.decided_model = InsightListModel(self)
        self.pending_view = self._list_view(self.pending_model)
        self.decided_view = self._list_view(self.decided_model)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addLayout(self._header())
        self.stack = QStackedWidget()
        self.stack.addWidget(self._empty_page())
        self.stack.addWidget(self._review_page())
        layout.addWidget(self.stack, 1)
        self._shortcuts()
        self._show_details(None)
        self.refresh()

    # -- building -----------------------------------------------------------------------------

    def _list_view(self, model: InsightListModel) -> QListView:
        view = QListView()
        view.setModel(model)
        view.setItemDelegate(InsightDelegate(view))
        view.setUniformItemSizes(True)
        view.setSelectionMode(QListView.SelectionMode.SingleSelection)
        view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        view.selectionModel().selectionChanged.connect(self.on_selection_changed)
        view.doubleClicked.connect(self.on_double_clicked)
        return view

    def _header(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.summary_label = QLabel()
        self.summary_label.setTextFormat(Qt.TextFormat.PlainText)
        self.result_label = QLabel()
        self.result_label.setTextFormat(Qt.TextFormat.PlainText)
        self.result_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # reflect reports no steps: a busy indicator
        self.progress.setMaximumWidth(120)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.reflect_button = QPushButton(self.tr("Reflect now"))
        self.reflect_button.setToolTip(self.tr("Look for patterns in the memory and propose insights to review"))
        self.reflect_button.clicked.connect(self.reflect_now)
        self.tidy_only = QCheckBox(self.tr("Tidying only"))
        self.tidy_only.setToolTip(self.tr("Only what tidying proposes: possible duplicates to merge, repeated facts"))
        self.tidy_only.toggled.connect(self.on_tidy_only)
        row.addWidget(self.summary_label)
        row.addSpacing(12)
        row.addWidget(self.result_label, 1)
        row.addWidget(self.progress)
        row.addWidget(self.tidy_only)
        row.addWidget(self.reflect_button)
        return row

    def _empty_page(self) -> QWidget:
        page = QWidget()
        box = QVBoxLayout(page)
        box.addStretch(1)
        title = QLabel(self.tr("No insights yet"))
        font = QFont(title.font())
        font.setPointSizeF(font.pointSizeF() * 1.25)
        font.setBold(True)
        title.setFont(font)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text = QLabel(self.tr(
            "Insights are patterns Hipocampo notices in your memory: two projects that use the same "
            "technology, an open problem like one solved elsewhere, a concept many notes share. Each "
            "waits here for you to approve or dismiss; nothing joins your memory until you approve it."))
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text.setMinimumWidth(280)
        text.setMaximumWidth(640)
        middle = QHBoxLayout()  # a width-capped, centred paragraph that still gets its full height
        middle.addStretch(1)
        middle.addWidget(text, 4)
        middle.addStretch(1)
        self.empty_reflect_button = QPushButton(self.tr("Reflect now"))
        self.empty_reflect_button.clicked.connect(self.reflect_now)
        box.addWidget(title)
        box.addLayout(middle)
        box.addSpacing(6)
        box.addWidget(self.empty_reflect_button, 0, Qt.AlignmentFlag.AlignHCenter)
        box.addStretch(1)
        return page

    def _review_page(self) -> QWidget:
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        pending_page = QStackedWidget()
        pending_page.addWidget(self.pending_view)
        self.nothing_pending = QLabel(self.tr("Nothing left to review. Reflect now looks for new patterns."))
        self.nothing_pending.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.nothing_pending.setWordWrap(True)
        pending_page.addWidget(self.nothing_pending)
        self.pending_stack = pending_page
        self.tabs.addTab(pending_page, self.tr("To review"))
        decided_page = QStackedWidget()
        decided_page.addWidget(self.decided_view)
        self.nothing_decided = QLabel(self.tr("Insights you approve or dismiss are listed here."))
        self.nothing_decided.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.nothing_decided.setWordWrap(True)
        decided_page.addWidget(self.nothing_decided)
        self.decided_stack = decided_page
        self.tabs.addTab(decided_page, self.tr("Decided"))
        self.tabs.currentChanged.connect(self.on_tab_changed)
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.tabs)
        splitter.addWidget(self._details())
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([400, 600])  # 2:3 from the start: size hints alone squeezed the list (longer languages)
        splitter.setChildrenCollapsible(False)
        return splitter

    def _details(self) -> QWidget:
        panel = QWidget()
        outer = QVBoxLayout(panel)
        outer.setContentsMargins(6, 0, 0, 0)
        content = QWidget()
        box = QVBoxLayout(content)
        box.setContentsMargins(4, 4, 4, 4)
        self.hint_label = QLabel(self.tr("Select an insight to see why it was proposed."))
        self.hint_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint_label.setEnabled(False)  # drawn in the palette's muted text colour
        self.title_label = QLabel()
        font = QFont(self.title_label.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.title_label.setFont(font)
        self.meta_label = QLabel()
        self.stale_label = QLabel(self.tr(
            "The evidence has changed since this was found. Reflect again to check it, or dismiss it."))
        self.explanation_label = QLabel()
        self.evidence_heading = QLabel(self.tr("Built from"))
        self.evidence_label = QLabel()
        self.evidence_label.setTextFormat(Qt.TextFormat.RichText)
        self.evidence_label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                                    | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self.evidence_label.linkActivated.connect(self.on_evidence_link)
        self.path_heading = QLabel(self.tr("How they connect"))
        self.path_label = QLabel()
        for label in (self.title_label, self.meta_label, self.stale_label, self.explanation_label,
                      self.evidence_label, self.path_label):
            label.setWordWrap(True)
        for label in (self.title_label, self.meta_label, self.stale_label, self.explanation_label, self.path_label):
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.stale_label.setStyleSheet("font-style: italic")
        for heading in (self.evidence_heading, self.path_heading):
            bold = QFont(heading.font())
            bold.setBold(True)
            heading.setFont(bold)
        self.preview = InsightPreview(self.core)  # what approving a merge (or other hygiene) will change
        for widget in (self.hint_label, self.title_label, self.meta_label, self.stale_label, self.explanation_label,
                       self.evidence_heading, self.evidence_label, self.path_heading, self.path_label, self.preview):
            box.addWidget(widget)
        box.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        outer.addWidget(scroll, 1)

        buttons = QHBoxLayout()
        self.graph_button = QPushButton(self.tr("Show in graph"))
        self.graph_button.clicked.connect(self.on_show_in_graph)
        self.dismiss_button = QPushButton(self.tr("Dismiss"))
        self.dismiss_button.setToolTip(self.tr("Dismiss: never propose it again (D or Delete)"))
        self.dismiss_button.clicked.connect(self.dismiss_selected)
        self.approve_button = QPushButton(self.tr("Approve"))
        self.approve_button.setToolTip(
            self.tr("Approve: add it to the memory, linked to its evidence (A or Ctrl+Enter)"))
        self.approve_button.setDefault(True)
        self.approve_button.clicked.connect(self.approve_selected)
        self.reopen_button = QPushButton(self.tr("Back to review"))
        self.reopen_button.setToolTip(self.tr("Changed your mind? Put it back with the insights to review"))
        self.reopen_button.clicked.connect(self.reopen_selected)
        self.reopen_button.hide()
        self.decision_label = QLabel()
        self.decision_label.setTextFormat(Qt.TextFormat.PlainText)
        self.decision_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        buttons.addWidget(self.graph_button)
        buttons.addWidget(self.decision_label, 1)
        buttons.addWidget(self.reopen_button)
        buttons.addWidget(self.dismiss_button)
        buttons.addWidget(self.approve_button)
        outer.addLayout(buttons)
        self.details_panel = panel
        return panel

    def _shortcuts(self) -> None:
        for keys, slot in ((("A", "Ctrl+Return", "Ctrl+Enter"), self.approve_selected),
                           (("D", "Delete"), self.dismiss_selected)):
            for key in keys:
                shortcut = QShortcut(QKeySequence(key), self)
                shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
                shortcut.activated.connect(slot)

    # -- public API ---------------------------------------------------------------------------

    def refresh(self) -> None:
        """Reload every list from the memory (off the GUI thread)."""
        self.core.read(load_insights, done=self.on_loaded, failed=self.on_load_failed, key=LOAD_KEY)

    def reflect_now(self) -> None:
        """Run reflect off the GUI thread; the lists refresh and a sentence says what it found."""
        if self.reflecting:
            return
        self.reflecting = True
        self.reflect_button.setEnabled(False)
        self.empty_reflect_button.setEnabled(False)
        self.progress.show()
        self.result_label.setText(self.tr("Looking for patterns…"))
        self.core.task(_reflect, progress=self.on_reflect_progress, done=self.on_reflected,
                       failed=self.on_reflect_failed)

    def selected_insight(self) -> dict[str, Any] | None:
        """The insight shown in the details, if any."""
        view = self._current_view()
        index = view.currentIndex()
        if not index.isValid() or not view.selectionModel().isSelected(index):
            return None
        model = view.model()
        assert isinstance(model, InsightListModel)
        return model.insight(index.row())

    def approve_selected(self) -> None:
        """Approve the selected pending insight and move to the next one."""
        self._decide("approve")

    def dismiss_selected(self) -> None:
        """Dismiss the selected pending insight and move to the next one."""
        self._decide("dismiss")

    def reopen_selected(self) -> None:
        """Put the selected approved or dismissed insight back with the ones to review."""
        insight = self.selected_insight()
        if self._deciding is not None or insight is None or insight.get("status") not in ("approved", "dismissed"):
            return
        title = insight["title"]
        self._deciding = title
        self._show_details(insight)
        self.core.write(lambda m: m.reopen_insight(title), done=lambda _r: self.on_reopened(title),
                        failed=self.on_decide_failed)

    def on_reopened(self, title: str) -> None:
        self._deciding = None
        self.status_message.emit(self.tr("“{title}” is back with the insights to review.").format(
            title=insight_title({"title": title})))
        self.refresh()

    def on_changes(self, rows: list[Change]) -> None:
        """Refresh when insights, or the entities they were built from, changed."""
        if any(r.op in INSIGHT_OPS for r in rows) or touched_names(rows) & self._known_names:
            self._refresh_timer.start()

    # -- loading ------------------------------------------------------------------------------

    def on_loaded(self, lists: InsightLists) -> None:
        pending_title = self._title_in(self.pending_view)
        pending_row = self.pending_view.currentIndex().row()
        decided_title = self._title_in(self.decided_view)
        self._lists = lists
        self.pending_model.set_insights(self._shown_pending(lists.pending))
        self.decided_model.set_insights(lists.decided)
        self._known_names = {i["title"] for i in lists.pending + lists.decided}
        for insight in lists.pending:
            self._known_names.update(evidence_names(insight))
        first_load = not self._loaded
        self._loaded = True
        self._restore(self.pending_view, pending_title, max(pending_row, 0))
        self._restore(self.decided_view, decided_title, 0)
        pending = len(lists.pending)
        empty = not lists.pending and not lists.decided
        self.stack.setCurrentIndex(0 if empty else 1)
        self.reflect_button.setVisible(not empty)  # the empty page has its own
        self.pending_stack.setCurrentIndex(0 if lists.pending else 1)
        self.decided_stack.setCurrentIndex(0 if lists.decided else 1)
        self.tabs.setTabText(0, self.tr("To review ({n})").format(n=pending) if pending else self.tr("To review"))
        decided = len(lists.decided)
        self.tabs.setTabText(1, self.tr("Decided ({n})").format(n=decided) if decided else self.tr("Decided"))
        self.summary_label.setText("" if empty else self._summary(pending))
        if first_load and not lists.pending and lists.decided:
            self.tabs.setCurrentIndex(1)
        self._show_details(self.selected_insight())
        if pending != self.pending_count:
            self.pending_count = pending
            self.pending_count_changed.emit(pending)

    def _shown_pending(self, pending: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [i for i in pending if is_hygiene(i)] if self.tidy_only.isChecked() else pending

    def on_tidy_only(self, _checked: bool) -> None:
        """Show only the tidying proposals (the list ``tidy`` gives), or every insight again."""
        lists = getattr(self, "_lists", None)
        if lists is None:
            return
        title = self._title_in(self.pending_view)
        self.pending_model.set_insights(self._shown_pending(lists.pending))
        self._restore(self.pending_view, title, 0)
        self.pending_stack.setCurrentIndex(0 if self.pending_model.rowCount() else 1)
        self._show_details(self.selected_insight())

    def on_load_failed(self, message: str) -> None:
        self.summary_label.setText(self.tr("Cannot read the insights: {reason}").format(reason=message))

    def _summary(self, pending: int) -> str:
        if pending == 0:
            return self.tr("No insights to review")
        return self.tr("%Ln insights to review", "", pending)

    def _restore(self, view: QListView, title: str | None, fallback_row: int) -> None:
        """Select ``title`` again after a reload, else the row now at ``fallback_row``."""
        model = view.model()
        assert isinstance(model, InsightListModel)
        if model.rowCount() == 0:
            return
        row = model.row_of(title) if title else -1
        if row < 0:
            row = min(fallback_row, model.rowCount() - 1)
        index = model.index(row, 0)
        view.selectionModel().blockSignals(True)  # one details update below, not one per step
        view.setCurrentIndex(index)
        view.selectionModel().blockSignals(False)
        view.scrollTo(index)

    # -- selection and details ----------------------------------------------------------------

    def _current_view(self) -> QListView:
        return self.decided_view if self.tabs.currentIndex() == 1 else self.pending_view

    @staticmethod
    def _title_in(view: QListView) -> str | None:
        index = view.currentIndex()
        return index.data() if index.isValid() else None

    def on_selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self._show_details(self.selected_insight())

    def on_tab_changed(self, _index: int) -> None:
        self._show_details(self.selected_insight())

    def on_double_clicked(self, index: QModelIndex) -> None:
        insight = index.data(InsightRole)
        if isinstance(insight, dict) and insight.get("status") in ("approved", "synced"):
            self.entity_activated.emit(insight["title"])  # an approved insight is an entity now

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.PaletteChange and self._shown is not None:
            # Rich text takes the link colour when it is set: a switch to dark would keep dark-blue links.
            self.evidence_label.clear()  # setText() of the same text would keep the old colour
            self._show_details(self.selected_insight())
        super().changeEvent(event)

    def _show_details(self, insight: dict[str, Any] | None) -> None:
        pending = insight is not None and insight.get("status") == "pending"
        busy = self._deciding is not None
        self.approve_button.setVisible(insight is None or pending)
        self.dismiss_button.setVisible(insight is None or pending)
        stale = insight is not None and bool(insight.get("stale"))
        self.approve_button.setEnabled(pending and not busy and not stale)
        self.dismiss_button.setEnabled(pending and not busy)
        reopenable = insight is not None and insight.get("status") in ("approved", "dismissed")
        self.reopen_button.setVisible(reopenable)
        self.reopen_button.setEnabled(reopenable and not busy)
        self.graph_button.setEnabled(insight is not None and bool(evidence_names(insight)))
        self.preview.show_for(insight)
        if insight is None:
            self._shown = None
            self.hint_label.show()
            for widget in (self.title_label, self.meta_label, self.stale_label, self.explanation_label,
                           self.evidence_heading, self.evidence_label, self.path_heading, self.path_label):
                widget.hide()
            return
        self.hint_label.hide()
        self.title_label.show()
        self.title_label.setText(insight_title(insight))
        self.meta_label.setText(self._meta(insight))
        self.explanation_label.setText(insight_summary(insight))
        self.stale_label.setVisible(stale and pending)
        evidence = (insight.get("evidence") or {})
        self.evidence_label.setText(self._evidence_html(evidence))
        path = self._path_text(evidence)
        self.path_label.setText(path)
        for widget in (self.meta_label, self.explanation_label):
            widget.show()
        self.evidence_heading.setVisible(bool(evidence.get("entities")))
        self.evidence_label.setVisible(bool(evidence.get("entities")))
        self.path_heading.setVisible(bool(path))
        self.path_label.setVisible(bool(path))
        shown = (insight["title"], insight.get("status", ""))
        if shown != self._shown:
            self._shown = shown
            self.decision_label.clear()
            names = evidence_names(insight)
            if names:
                self.evidence_requested.emit(names)

    def _meta(self, insight: dict[str, Any]) -> str:
        confidence = round(float(insight.get("confidence") or 0) * 100)
        parts = [pattern_label(insight.get("pattern", "")),
                 self.tr("confidence {percent} %").format(percent=confidence)]
        if insight.get("status") == "pending":
            parts.append(self.tr("found {age}").format(age=age_text(insight.get("created_at"))))
        else:
            when = age_text(insight.get("decided_at"))
            who = insight.get("decided_by") or ""
            if who == self.core.memory.settings.actor:
                who = self.tr("you")
            status = status_label(insight.get("status", ""))
            parts.append(self.tr("{status} {age} by {who}").format(status=status, age=when, who=who)
                         if who else self.tr("{status} {age}").format(status=status, age=when))
        return " · ".join(parts)

    def _evidence_html(self, evidence: dict[str, Any]) -> str:
        muted = self.palette().color(QPalette.ColorRole.PlaceholderText).name()
        items = []
        for entity in evidence.get("entities") or []:
            name = entity.get("name")
            if not name:
                continue
            label, role = entity.get("label") or "", role_label(entity.get("role") or "")
            extra = ", ".join(x for x in (label, role) if x and not (x is role and role == label.lower()))
            link = f'<a href="entity:{quote(name, safe="")}">{_unbroken(name)}</a>'
            items.append(link + (f"&nbsp;<span style='color: {muted}'>({_unbroken(extra)})</span>"
                                 if extra else ""))
        total = evidence.get("total")
        more = ""
        if isinstance(total, int) and total > len(items):
            more = html.escape(self.tr("and {n} more").format(n=total - len(items)))
        return " &nbsp;•&nbsp; ".join(items) + (f" &nbsp;•&nbsp; {more}" if more else "")

    @staticmethod
    def _path_text(evidence: dict[str, Any]) -> str:
        steps = evidence.get("path") or []
        return "\n".join(f"{s['from']}  —{s['rel']}→  {s['to']}" for s in steps
                         if isinstance(s, dict) and {"from", "rel", "to"} <= s.keys())

    def on_evidence_link(self, href: str) -> None:
        if href.startswith("entity:"):
            self.entity_activated.emit(unquote(href[len("entity:"):]))

    def on_show_in_graph(self) -> None:
        insight = self.selected_insight()
        if insight is not None:
            self.evidence_requested.emit(evidence_names(insight))

    # -- deciding -----------------------------------------------------------------------------

    def _decide(self, action: str) -> None:
        insight = self.selected_insight()
        if self._deciding is not None or insight is None or insight.get("status") != "pending":
            return
        if action == "approve" and insight.get("stale"):
            self.decision_label.setText(self.tr("A stale insight cannot be approved: reflect again or dismiss it."))
            return
        title = insight["title"]
        self._deciding = title
        self._show_details(insight)
        self.core.write(_decide, title, action,
                        done=lambda result: self.on_decided(title, action, result),
                        failed=self.on_decide_failed)

    def on_decided(self, title: str, action: str, _result: dict[str, Any]) -> None:
        self._deciding = None
        message = (self.tr("Approved “{title}”.") if action == "approve"
                   else self.tr("Dismissed “{title}”.")).format(title=title)
        self.status_message.emit(message)
        self._drop_from_pending(title)
        self.refresh()

    def _drop_from_pending(self, title: str) -> None:
        """Take the decided insight out of the list at once; the next one takes its row."""
        row = self.pending_model.row_of(title)
        if row < 0:
            return
        self.pending_model.set_insights([r for r in self.pending_model.rows() if r["title"] != title])
        self._restore(self.pending_view, None, row)
        self._show_details(self.selected_insight())
        remaining = self.pending_model.rowCount()
        self.pending_stack.setCurrentIndex(0 if remaining else 1)
        if remaining != self.pending_count:
            self.pending_count = remaining
            self.pending_count_changed.emit(remaining)

    def on_decide_failed(self, message: str) -> None:
        self._deciding = None
        self.decision_label.setText(message)
        self.status_message.emit(message)
        self._show_details(self.selected_insight())
        self.refresh()

    # -- reflecting ---------------------------------------------------------------------------

    def on_reflect_progress(self, done: int, total: int, text: str) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(done)

    def on_reflected(self, result: dict[str, Any]) -> None:
        self._reflect_finished()
        created = int(result.get("created") or 0)
        stale = int(result.get("stale") or 0)
        if created == 0:
            text = self.tr("No new insights.")
        elif created == 1:
            text = self.tr("1 new insight.")
        else:
            text = self.tr("{n} new insights.").format(n=created)
        if stale:
            text += " " + (self.tr("1 no longer holds.") if stale == 1
                           else self.tr("{n} no longer hold.").format(n=stale))
        self.result_label.setText(text)
        self.status_message.emit(self.tr("Reflect: {result}").format(result=text))
        self.refresh()

    def on_reflect_failed(self, message: str) -> None:
        self._reflect_finished()
        self.result_label.setText(self.tr("Reflect failed: {reason}").format(reason=message))

    def _reflect_finished(self) -> None:
        self.reflecting = False
        self.progress.hide()
        self.progress.setRange(0, 0)
        self.reflect_button.setEnabled(True)
        self.empty_reflect_button.setEnabled(True)


def _reflect(memory: Memory, progress: Progress) -> dict[str, Any]:
    return memory.reflect()


def _decide(memory: Memory, title: str, action: str) -> dict[str, Any]:
    return memory.decide_insight(title, action)


UNBROKEN_UP_TO = 40  # characters: a name this short is never split across two lines


def _unbroken(text: str) -> str:
    """``text`` as HTML that word wrap keeps on one line when it is short (a name, its type)."""
    escaped = html.escape(text)
    return escaped.replace(" ", "&nbsp;") if len(text) <= UNBROKEN_UP_TO else escaped
