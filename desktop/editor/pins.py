"""The editor's pin controls: always show this entity, or the selected observation, in the session
brief (``Memory.pin``; the brief is what assistants read first, core/brief.py)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QListWidget, QPushButton, QWidget

from desktop.editor.observations import ORIGINAL
from desktop.workers import Core


class PinBar(QWidget):
    """Two toggles: the entity's pin, and the selected saved observation's. ``status`` says what happened."""

    status = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core: Core | None = None
        self.name: str | None = None
        self.pinned_facts: set[str] = set()
        self.observations: QListWidget | None = None
        self.entity_button = QPushButton(self)
        self.entity_button.setCheckable(True)
        self.entity_button.setToolTip(self.tr("Always show this entity in the brief assistants read at the start "
                                              "of each session"))
        self.fact_button = QPushButton(self)
        self.fact_button.setCheckable(True)
        self.fact_button.setToolTip(self.tr("Always show the selected observation in the brief (save it first)"))
        self.entity_button.clicked.connect(self.on_entity_clicked)
        self.fact_button.clicked.connect(self.on_fact_clicked)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.entity_button)
        layout.addWidget(self.fact_button)
        self._show(False)

    def attach(self, core: Core, observations: QListWidget) -> None:
        """Work through ``core``; follow the selection of ``observations`` (the editor's list)."""
        self.core = core
        self.observations = observations
        observations.itemSelectionChanged.connect(self.on_selection_changed)

    def show_entity(self, name: str | None) -> None:
        """The editor opened ``name`` (None: nothing, or a new entity): read its pins."""
        self.name = name
        self.pinned_facts = set()
        self._show(False)
        self.setEnabled(name is not None and self.core is not None)
        if name is not None and self.core is not None:
            self.core.read(_pins_of, name, done=self.on_pins)

    @Slot(object)
    def on_pins(self, found: dict[str, Any]) -> None:
        if found["name"] != self.name:
            return  # another entity was opened meanwhile
        self.pinned_facts = set(found["facts"])
        self._show(found["entity"])

    def selected_fact(self) -> str | None:
        """The one selected observation, as saved (an unsaved or edited one cannot be pinned yet)."""
        if self.observations is None:
            return None
        items = self.observations.selectedItems()
        return items[0].data(ORIGINAL) or None if len(items) == 1 else None

    @Slot()
    def on_selection_changed(self) -> None:
        self._show(self.entity_button.isChecked())

    @Slot()
    def on_entity_clicked(self) -> None:
        self._pin(None, self.entity_button.isChecked())

    @Slot()
    def on_fact_clicked(self) -> None:
        fact = self.selected_fact()
        if fact is not None:
            self._pin(fact, self.fact_button.isChecked())

    def _pin(self, fact: str | None, pinned: bool) -> None:
        if self.core is None or self.name is None:
            return
        name = self.name
        self.core.write(lambda m: m.pin(name, fact, pinned=pinned), done=lambda _: self._pinned(name, fact, pinned),
                        failed=self.on_failed)

    def _pinned(self, name: str, fact: str | None, pinned: bool) -> None:
        if fact is None:
            self.status.emit(self.tr("“{name}” is pinned to the brief.").format(name=name) if pinned
                             else self.tr("“{name}” is no longer pinned.").format(name=name))
        else:
            self.status.emit(self.tr("The observation is pinned to the brief.") if pinned
                             else self.tr("The observation is no longer pinned."))
        self.show_entity(self.name)

    @Slot(str)
    def on_failed(self, message: str) -> None:
        self.status.emit(message)
        self.show_entity(self.name)

    def _show(self, entity_pinned: bool) -> None:
        self.entity_button.setChecked(entity_pinned)
        self.entity_button.setText(self.tr("✓ Pinned to brief") if entity_pinned else self.tr("Pin to brief"))
        fact = self.selected_fact()
        fact_pinned = fact is not None and fact in self.pinned_facts
        self.fact_button.setEnabled(fact is not None)
        self.fact_button.setChecked(fact_pinned)
        self.fact_button.setText(self.tr("Unpin observation") if fact_pinned else self.tr("Pin observation"))


def _pins_of(memory: Any, name: str) -> dict[str, Any]:
    mine = [p for p in memory.pins() if p["name"] == name]
    return {"name": name, "entity": any(p["fact"] is None for p in mine),
            "facts": [p["fact"] for p in mine if p["fact"] is not None]}
