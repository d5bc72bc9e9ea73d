"""The entity editor: name, type, observations, relations and history of one entity.

Nothing is written until Save, which applies every edit at once (``Memory.save_entity``) and is
refused if someone else changed the entity since it was loaded. Changes from others arrive through
``on_changes``: a clean editor reloads quietly; a dirty one shows a banner offering Reload (discard
mine) or Merge (mine re-applied on the fresh state) — it never overwrites silently.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from core.history.changes import touched_names
from core.model import Change
from desktop.editor.draft import Form, Loaded, delta, rebase, save_arguments, validate
from desktop.editor.entity_page import EntityPage
from desktop.editor.message_page import MessagePage
from desktop.editor.reads import load_choices, load_for_editor
from desktop.editor.recall import recall_text
from desktop.shared.ages import age_text
from desktop.shared.history_view import actor_label, describe_change
from desktop.workers import Core

EMPTY, DELETED, EDITING = range(3)
NAME_CHECK_MS = 250
NAMES_MS = 150


class EditorPane(QWidget):
    """Edit one entity; ``open_entity(name)``, ``new_entity()``, ``save()``, ``undo_last()``."""

    entity_activated = Signal(str)
    status_message = Signal(str)
    saved = Signal(str)

    def __init__(self, core: Core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self._loaded: Loaded | None = None
        self._name: str | None = None  # the entity open (None: nothing, or a new one)
        self._new = False
        self._busy = 0  # loads and writes in flight: changes arriving meanwhile wait
        self._pending: list[Change] = []
        self._remote: list[Change] = []  # others' changes while dirty (the banner's)
        self._merge: Any = None  # the delta to re-apply when a merge's load arrives
        self._undoable: Change | None = None
        self._redoable: Change | None = None
        self._name_taken: str | None = None
        self._filling = False
        self._problems: dict[str, str] = {}
        self._typed: set[str] = set()
        self._save_error: tuple[str, str] | None = None  # (field, what Save said) until the next edit
        self._load_seq = 0  # only the newest load is shown

        self.stack = QStackedWidget(self)
        self._build_pages()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.stack)

        self._name_timer = QTimer(self, singleShot=True, interval=NAME_CHECK_MS)
        self._name_timer.timeout.connect(self.on_check_name)
        self._names_timer = QTimer(self, singleShot=True, interval=NAMES_MS)
        self._names_timer.timeout.connect(self.on_fetch_names)
        self._names_prefix = ""
        self.stack.setCurrentIndex(EMPTY)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Ctrl+S saves and Ctrl+Z undoes when a field does not use the key itself. Not QShortcuts:
        the main window's Save and Undo actions have the same keys, and two would cancel out."""
        if event.matches(QKeySequence.StandardKey.Save):
            self.save()
        elif event.matches(QKeySequence.StandardKey.Undo):
            self.undo_last()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    # -- pages --------------------------------------------------------------------------------

    def _build_pages(self) -> None:
        empty = MessagePage(self.tr("Nothing open.\n\nPick an entity in the graph or in search to see and edit "
                                    "its observations, relations and history here, or create a new one."),
                            self.tr("New entity"), parent=self)
        empty.button.clicked.connect(self.new_entity)
        deleted = MessagePage("", self.tr("Restore deleted entity"), self.tr(
            "Bring it back with its observations and the relations to entities that still exist"), self)
        self.deleted_label, self.restore_button = deleted.label, deleted.button
        self.restore_button.clicked.connect(self.restore)
        self.page = page = EntityPage(self)
        page.banner.reload_requested.connect(self.on_reload_clicked)
        page.banner.merge_requested.connect(self.on_merge_clicked)
        page.name_edit.textEdited.connect(self.on_name_edited)
        page.type_edit.textEdited.connect(lambda: self.on_typed("type"))
        page.observations.changed.connect(lambda: self.on_typed("obs"))
        page.relations.changed.connect(lambda: self.on_typed("rel"))
        page.relations.names_wanted.connect(self.on_names_wanted)
        page.relations.entity_activated.connect(self.entity_activated.emit)
        page.save_button.clicked.connect(self.save)
        page.revert_button.clicked.connect(self.revert)
        page.undo_button.clicked.connect(self.undo_last)
        page.delete_button.clicked.connect(lambda: self.delete_entity())
        page.pins.attach(self.core, page.observations.list)
        page.pins.status.connect(self.status_message.emit)
        for widget in (empty, deleted, page):
            self.stack.addWidget(widget)

    # -- the pane contract ----------------------------------------------------------------------

    def open_entity(self, name: str) -> None:
        """Show ``name`` (a dirty editor keeps its edits: it asks first)."""
        if name == self._name and not self._new:
            return
        if self.is_dirty() and not self._confirm_discard():
            return
        self._name, self._new, self._remote = name, False, []
        self.page.banner.hide()
        self._load("open")

    def show_observation(self, name: str, text: str) -> None:
        """Open ``name`` (if it is not open) and scroll to its observation ``text``, selected."""
        self._reveal = text
        if name != self._name or self._new:
            self.open_entity(name)
        if self._busy == 0 and self._name == name:
            self._reveal_now()

    def _reveal_now(self) -> None:
        text, self._reveal = getattr(self, "_reveal", None), None
        if text and self.stack.currentIndex() == EDITING:
            self.page.observations.reveal(text)

    def new_entity(self) -> None:
        """An empty form; Save creates the entity."""
        if self.is_dirty() and not self._confirm_discard():
            return
        self._name, self._new, self._loaded, self._remote = None, True, None, []
        self.page.banner.hide()
        self._fill(Form(name="", entity_type="Generic"))
        self.page.title.setText(self.tr("New entity"))
        self.page.pins.show_entity(None)
        self.page.meta.setText(self.tr("Not saved yet"))
        self.page.history.set_rows([])
        self.stack.setCurrentIndex(EDITING)
        self.page.name_edit.setFocus()
        self._refresh()
        self.core.read(load_choices, done=self._set_choices)

    def is_dirty(self) -> bool:
        """Whether the form holds edits that are not saved."""
        if self.stack.currentIndex() != EDITING:
            return False
        if self._new:
            form = self.form()
            return bool(form.name.strip() or form.observations or form.relations)
        return self._loaded is not None and not delta(self._loaded, self.form()).is_empty()

    def is_busy(self) -> bool:
        return self._busy > 0

    def form(self) -> Form:
        return Form(self.page.name_edit.text().strip(), self.page.type_edit.text().strip(),
                    self.page.observations.items(), self.page.relations.items())

    def on_changes(self, rows: list[Change]) -> None:
        """Someone wrote: reload quietly when clean, offer Reload or Merge when dirty."""
        if self._name is None or self._new:
            return
        version = self._loaded.version if self._loaded is not None else 0
        mine = [r for r in rows if r.id > version and self._name in touched_names([r])]
        if not mine:
            return
        if self._busy:
            self._pending.extend(mine)
            return
        for row in mine:  # follow a rename, so Reload and Merge find the entity under its new name
            if row.op == "rename_entity" and row.before["name"] == self._name:
                self._name = row.after["name"]
        if not self.is_dirty():
            self._load("reload")
            return
        self._remote.extend(mine)
        actors = ", ".join(dict.fromkeys(actor_label(r.actor) for r in self._remote))
        by_id = {r.id: r for r in self._remote}
        what = "; ".join(describe_change(r, by_id) for r in self._remote[-3:])
        deleted = any(r.op == "delete_entity" and r.entity == self._name for r in self._remote)
        self.page.banner.show_change(actors, what, deleted=deleted)
        self._refresh()

    # -- loading ------------------------------------------------------------------------------

    def _load(self, mode: str) -> None:
        assert self._name is not None
        self._busy += 1
        self._load_seq += 1
        seq = self._load_seq
        self.core.read(load_for_editor, self._name,
                       done=lambda data: self.on_loaded(data, mode, seq), failed=self.on_load_failed)

    def on_loaded(self, data: dict[str, Any], mode: str, seq: int) -> None:
        self._busy = max(0, self._busy - 1)
        if seq != self._load_seq:  # another entity was opened meanwhile: its load will show
            return
        self._set_choices(data)
        if data["entity"] is None:
            self._loaded = None
            deletion = data.get("deletion")
            if deletion is not None:
                self.deleted_label.setText(self.tr("“{name}” was deleted by {who}, {when}.").format(
                    name=data["name"], who=actor_label(deletion.actor), when=age_text(deletion.at)))
            else:
                self.deleted_label.setText(self.tr("There is no entity called “{name}”.").format(name=data["name"]))
            self.restore_button.setVisible(deletion is not None)
            self.stack.setCurrentIndex(DELETED)
            self._after_load()
            return
        fresh = Loaded.from_core(data["entity"])
        form = rebase(self._merge, fresh) if mode == "merge" and self._merge is not None else fresh.form()
        self._merge = None
        self._loaded, self._name = fresh, fresh.name
        self._undoable = data.get("undoable")
        self._redoable = data.get("redoable")
        self._fill(form)
        self.page.title.setText(fresh.name)
        self.page.pins.show_entity(fresh.name)
        self.page.meta.setText(self.tr("{type} · created {created} · changed {changed}").format(
            type=fresh.entity_type, created=fresh.created_at[:10], changed=age_text(fresh.updated_at))
            + _also_known_as(data["entity"]))
        self.page.observations.mark_superseded(data.get("superseded") or {})
        self.page.relations.mark_superseded(data.get("superseded_relations") or {})
        self.page.recall.setText(recall_text(data.get("last_recall")))
        self.page.history.set_rows(data.get("history", []))
        self.stack.setCurrentIndex(EDITING)
        self._after_load()

    def _after_load(self) -> None:
        self._refresh()
        self._reveal_now()  # a search result's fact, asked for while this loaded
        pending, self._pending = self._pending, []
        if pending:
            self.on_changes(pending)

    def on_load_failed(self, message: str) -> None:
        self._busy = max(0, self._busy - 1)
        self.status_message.emit(message)
        if self.stack.currentIndex() != EDITING:  # nothing of it shown yet: say why, in place
            self.deleted_label.setText(self.tr("“{name}” could not be read: {reason}").format(
                name=self._name or "", reason=message))
            self.restore_button.hide()
            self.stack.setCurrentIndex(DELETED)
        self._after_load()

    def _set_choices(self, data: dict[str, Any]) -> None:
        self.page.type_choices.setStringList(list(dict.fromkeys([*data["types"], *data["profile_types"]])))
        self.page.relations.type_choices.setStringList(
            list(dict.fromkeys([*data["relation_types"], *data["profile_relations"]])))

    def _fill(self, form: Form) -> None:
        self._typed: set[str] = set()  # the sections the user has edited: only they show problems
        self._filling = True
        self.page.name_edit.setText(form.name)
        self.page.type_edit.setText(form.entity_type)
        self.page.observations.set_items(form.observations)
        self.page.relations.set_items(form.relations)
        self._filling = False
        self._name_taken = None
        self._save_error = None
        self.page.error.hide()

    # -- editing ------------------------------------------------------------------------------

    def on_name_edited(self, _text: str) -> None:
        self._name_taken = None
        self._name_timer.start()
        self.on_typed("name")

    def on_typed(self, section: str) -> None:
        """The user edited ``section`` ("name", "type", "obs", "rel"): its problems may show from now on."""
        if not self._filling:
            self._typed.add(section)
        self.on_form_changed()

    def on_check_name(self) -> None:
        wanted = self.page.name_edit.text().strip()
        own = self._loaded.name if self._loaded is not None else None
        if wanted and wanted != own:
            self.core.read(lambda m, n: m.get_node(n) is not None, wanted, key="editor-name",
                           done=lambda taken: self.on_name_checked(wanted, taken))

    def on_name_checked(self, name: str, taken: bool) -> None:
        if taken and name == self.page.name_edit.text().strip():
            self._name_taken = name
            self._refresh()

    def on_names_wanted(self, prefix: str) -> None:
        self._names_prefix = prefix.strip()
        self._names_timer.start()

    def on_fetch_names(self) -> None:
        prefix = self._names_prefix
        if prefix:
            self.core.read(lambda m, p: [e.name for e in m.search_nodes(p, limit=20).entities], prefix,
                           key="editor-names", done=self.page.relations.name_choices.setStringList)

    def on_form_changed(self) -> None:
        if not self._filling:
            self._save_error = None
            self._refresh()

    def _refresh(self) -> None:
        """Dirty mark, problems next to their fields, which buttons work."""
        editing = self.stack.currentIndex() == EDITING
        dirty = self.is_dirty()
        problems = validate(self.form(), max_name_chars=self.core.memory.settings.max_name_chars) \
            if editing and (dirty or self._new) else {}
        if self._name_taken and "name" not in problems:
            problems["name"] = self.tr("An entity called “{name}” already exists.").format(name=self._name_taken)
        self._problems = problems
        problems = self._shown_problems(problems)
        where, said = self._save_error or ("", "")
        for label, key in ((self.page.name_error, "name"), (self.page.type_error, "type")):
            text = problems.get(key, said if where == key else "")
            label.setText(text)
            label.setVisible(bool(text))
        self.page.observations.show_problems({int(k[4:]): v for k, v in problems.items() if k.startswith("obs:")})
        self.page.relations.show_problems({int(k[4:]): v for k, v in problems.items() if k.startswith("rel:")},
                                     said if where == "relations" else "")
        self.page.dirty_label.setVisible(dirty)
        form = self.form()
        self.page.observations_title.setText(self.tr("Observations ({n})").format(n=len(form.observations)))
        current = sum(1 for r in form.relations if not r.ended_at)
        ended = len(form.relations) - current
        self.page.set_relations_title(self.tr("Relations ({n})").format(n=current) if not ended else
                                      self.tr("Relations ({n}, {ended} ended)").format(n=current, ended=ended))
        self.page.save_button.setEnabled(dirty and not self._problems and not self._busy)
        self.page.revert_button.setEnabled(dirty)
        self.page.delete_button.setEnabled(not self._new and self._loaded is not None)
        can_undo = self._undoable is not None and not dirty and not self._new
        self.page.undo_button.setEnabled(can_undo)
        if dirty:
            self.page.undo_button.setToolTip(self.tr("Save or revert your edits first"))
        elif self._undoable is not None:
            self.page.undo_button.setToolTip(self.tr("Undo: {who} {what} (Ctrl+Z)").format(
                who=actor_label(self._undoable.actor), what=describe_change(self._undoable)))
        else:
            self.page.undo_button.setToolTip(self.tr("Nothing to undo"))

    def _shown_problems(self, problems: dict[str, str]) -> dict[str, str]:
        """The problems of what the user has typed (not of a new, still empty form or row)."""
        in_editor = {f"obs:{self.page.observations.editing_row()}", f"rel:{self.page.relations.editing_row()}"}
        shown = {}
        for key, text in problems.items():
            if key.split(":", 1)[0] not in self._typed or key in in_editor:
                continue
            shown[key] = text
        return shown

    # -- actions ------------------------------------------------------------------------------

    def save(self) -> None:
        """Write every edit at once; refused (with the reason shown) while a field has a problem."""
        if self.stack.currentIndex() != EDITING or self._busy:
            return
        self._refresh()
        if not self.is_dirty():
            return
        if self._problems:
            self._typed |= {"name", "type", "obs", "rel"}  # asked to save: every problem shows
            self._refresh()
            self.page.error.setText(self.tr("Fix the marked fields first; nothing was saved."))
            self.page.error.show()
            return
        form = self.form()
        args = save_arguments(self._loaded, form, delta(self._loaded, form))
        self._busy += 1
        self.page.save_button.setEnabled(False)
        self.core.write(lambda m: m.save_entity(**args), done=self.on_saved, failed=self.on_save_failed)

    def on_saved(self, result: dict[str, Any]) -> None:
        self._busy = max(0, self._busy - 1)
        self._name, self._new, self._remote = result["name"], False, []
        self.page.banner.hide()
        self.saved.emit(result["name"])
        self.status_message.emit(self.tr("Saved {name}.").format(name=result["name"]))
        self._load("reload")

    def on_save_failed(self, message: str) -> None:
        from desktop.shared.plain_words import in_plain_words

        self._busy = max(0, self._busy - 1)
        message = in_plain_words(message)
        if "since you opened it" in message:
            self.page.banner.show_change(self.tr("someone else"), message)
        elif "already exists" in message:
            self._save_error = ("name", message)
        elif "relation" in message or "entity called" in message:
            self._save_error = ("relations", message)
        else:
            self.page.error.setText(message)
            self.page.error.show()
        self.status_message.emit(self.tr("Not saved: {reason}").format(reason=message))
        self.page.save_button.setEnabled(True)
        self._after_load()

    def revert(self) -> None:
        """Discard unsaved edits."""
        if self._new:
            self._new = False
            self._fill(Form("", "Generic"))
            self.stack.setCurrentIndex(EMPTY)
        elif self._loaded is not None:
            self._fill(self._loaded.form())
            self.page.banner.hide()
            self._remote = []
        self._refresh()

    def on_reload_clicked(self) -> None:
        self.page.banner.hide()
        self._remote = []
        self._load("reload")

    def on_merge_clicked(self) -> None:
        self.page.banner.hide()
        self._remote = []
        self._merge = delta(self._loaded, self.form())
        self._load("merge")

    def undo_last(self) -> None:
        """Undo the newest change to this entity (by anyone); only while there are no unsaved edits."""
        if self._name is None or self._new or self._busy:
            return
        if self.is_dirty():
            self.status_message.emit(self.tr("Save or revert your edits before undoing."))
            return
        if self._undoable is None:
            self.status_message.emit(self.tr("Nothing to undo for {name}.").format(name=self._name))
            return
        self._busy += 1
        name = self._name
        self.core.write(lambda m: m.undo_change(entity=name), done=self.on_undone, failed=self.on_write_failed)

    def on_undone(self, row: Change) -> None:
        self._busy = max(0, self._busy - 1)
        if row.entity:
            self._name = row.entity
        undone = self._undoable
        self.status_message.emit(self.tr("Undone: {what}.").format(what=describe_change(undone)) if undone
                                 else self.tr("Undone."))
        self._load("reload")

    def can_redo(self) -> bool:
        return self._redoable is not None and not self._new and not self.is_dirty()

    def redo_last(self) -> None:
        """Redo the change this entity's last undo took back (core: undoing an undo redoes it)."""
        if self._name is None or self._new or self._busy:
            return
        if self.is_dirty():
            self.status_message.emit(self.tr("Save or revert your edits before redoing."))
            return
        if self._redoable is None:
            self.status_message.emit(self.tr("Nothing to redo for {name}.").format(name=self._name))
            return
        self._busy += 1
        change = self._redoable.id
        self.core.write(lambda m: m.undo_change(change), done=self.on_redone, failed=self.on_write_failed)

    def on_redone(self, row: Change) -> None:
        self._busy = max(0, self._busy - 1)
        if row.entity:
            self._name = row.entity
        self.status_message.emit(self.tr("Redone."))
        self._load("reload")

    def restore(self) -> None:
        """Bring back the deleted entity the editor was showing."""
        if self._name is None:
            return
        self._busy += 1
        self.core.write(lambda m, n: m.restore_entity(n), self._name, done=self.on_written,
                        failed=self.on_write_failed)

    def delete_entity(self, *, ask: bool = True) -> None:
        """Delete the open entity, after asking (it can be restored)."""
        if self._loaded is None or self._new:
            return
        name = self._loaded.name
        if ask and QMessageBox.question(
            self, self.tr("Delete entity"),
            self.tr("Delete “{name}” with its observations and relations?\n\nYou can restore it "
                    "afterwards.").format(name=name)) != QMessageBox.StandardButton.Yes:
            return
        self._busy += 1
        self.core.write(lambda m, n: m.delete_entities([n]), name, done=self.on_written, failed=self.on_write_failed)

    def on_written(self, _result: Any) -> None:
        self._busy = max(0, self._busy - 1)
        self._load("reload")

    def on_write_failed(self, message: str) -> None:
        self._busy = max(0, self._busy - 1)
        self.page.error.setText(message)
        self.page.error.show()
        self.status_message.emit(message)
        self._after_load()

    def _confirm_discard(self) -> bool:
        answer = QMessageBox.question(
            self, self.tr("Unsaved changes"),
            self.tr("Discard your unsaved edits to “{name}”?").format(name=self.page.name_edit.text()))
        return answer == QMessageBox.StandardButton.Yes


def _also_known_as(entity: dict[str, Any]) -> str:
    """" · also “Ana_Garcia”, “ana garcia”": the names merged into the entity (they open it too)."""
    aliases = (getattr(entity.get("node"), "props", None) or {}).get("aliases")
    if not isinstance(aliases, list) or not aliases:
        return ""
    names = ", ".join(f"“{a}”" for a in aliases if isinstance(a, str))
    return " · " + EditorPane.tr("also {names}").format(names=names)
