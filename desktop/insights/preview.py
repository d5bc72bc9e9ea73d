"""What approving a hygiene insight will change, shown before it does (the review pane's details).

A merge of duplicates lists the facts it adds and the repeats it drops, the relations it rewires
and drops, the names kept as aliases; repeated facts list what goes and what stays. The preview
is read off the GUI thread through ``Core`` (``Memory.preview_insight``); nothing is written.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from core.hygiene.tidy import KINDS
from core.memory import Memory
from desktop.workers import Core

SHOWN = 8  # items listed per part; the rest are counted
LOAD_KEY = "insight-preview"


class InsightPreview(QWidget):
    """"Approving will…": the exact changes a hygiene insight's approval makes."""

    def __init__(self, core: Core, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.title: str | None = None
        self.preview: dict[str, Any] | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 6, 0, 0)
        self.heading = QLabel(self.tr("Approving will"))
        bold = QFont(self.heading.font())
        bold.setBold(True)
        self.heading.setFont(bold)
        self.body = QLabel()
        self.body.setTextFormat(Qt.TextFormat.PlainText)
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.addWidget(self.heading)
        box.addWidget(self.body)
        self.hide()

    def show_for(self, insight: dict[str, Any] | None) -> None:
        """Show the preview of ``insight`` if it is a pending hygiene insight; else hide."""
        if insight is None or not is_hygiene(insight) or insight.get("status") != "pending":
            self.title = None
            self.hide()
            return
        if insight["title"] == self.title and self.preview is not None:
            self.show()
            return
        self.title = insight["title"]
        self.preview = None
        self.body.setText(self.tr("Working out what will change…"))
        self.show()
        title = self.title
        self.core.read(_preview, title, done=lambda p: self.on_preview(title, p),
                       failed=self.on_preview_failed, key=LOAD_KEY)

    def on_preview(self, title: str, preview: dict[str, Any] | None) -> None:
        if title != self.title:
            return  # another insight was selected meanwhile
        self.preview = preview
        self.body.setText(self.describe(preview) if preview else "")

    def on_preview_failed(self, message: str) -> None:
        self.preview = None
        self.body.setText(self.tr("Cannot tell what will change: {reason}").format(reason=message))

    def describe(self, p: dict[str, Any]) -> str:
        """The preview in the app's words."""
        if p.get("pattern") not in ("duplicate_entities", "repeated_observations"):  # another kind: its own words
            return str(p.get("text") or "\n".join(f"{k}: {v}" for k, v in p.items() if k != "pattern"))
        if p.get("pattern") == "repeated_observations":
            lines = [self.tr("remove %n repeated fact(s) from “{name}”:", "", len(p["delete_observations"]))
                     .format(name=p["entity"])]
            lines += [f"  – {o}" for o in p["delete_observations"][:SHOWN]]
            lines.append(self.tr("keep:"))
            lines += [f"  • {o}" for o in p["kept"][:SHOWN]]
            lines.append(self.tr("One undo brings them back."))
            return "\n".join(lines)
        lines = [self.tr("merge {names} into “{into}”").format(
            names=", ".join(f"“{n}”" for n in p["merged"]), into=p["into"])]
        lines.append(self.tr("add %n fact(s):", "", len(p["add_observations"])))
        lines += [f"  + {o}" for o in p["add_observations"][:SHOWN]] + self._more(p["add_observations"])
        if p["dropped_observations"]:
            lines.append(self.tr("drop %n repeat(s):", "", len(p["dropped_observations"])))
            lines += [self.tr("  – {fact} (repeats “{kept}”)").format(fact=d["observation"], kept=d["repeats"])
                      for d in p["dropped_observations"][:SHOWN]] + self._more(p["dropped_observations"])
        if p["rewire_relations"]:
            lines.append(self.tr("rewire %n relation(s):", "", len(p["rewire_relations"])))
            lines += [f"  {r['was']['from']} —{r['relationType']}→ {r['was']['to']}   ⇒   "
                      f"{r['from']} —{r['relationType']}→ {r['to']}" for r in p["rewire_relations"][:SHOWN]]
            lines += self._more(p["rewire_relations"])
        if p["dropped_relations"]:
            lines.append(self.tr("drop %n relation(s) it would repeat or that would loop:", "",
                                 len(p["dropped_relations"])))
            lines += [f"  – {r['from']} —{r['relationType']}→ {r['to']}" for r in p["dropped_relations"][:SHOWN]]
            lines += self._more(p["dropped_relations"])
        lines.append(self.tr("keep {names} as other names of “{into}”").format(
            names=", ".join(f"“{n}”" for n in p["aliases"]), into=p["into"]))
        lines.append(self.tr("One undo takes the whole merge back."))
        return "\n".join(lines)

    def _more(self, items: list[Any]) -> list[str]:
        return [self.tr("  and {n} more").format(n=len(items) - SHOWN)] if len(items) > SHOWN else []


def is_hygiene(insight: dict[str, Any]) -> bool:
    """Whether approving ``insight`` carries out a tidying (a merge, removing repeats, any kind
    ``core.hygiene.tidy`` has registered): the proposals ``tidy`` lists."""
    return insight.get("pattern") in KINDS


def _preview(memory: Memory, title: str) -> dict[str, Any] | None:
    return memory.preview_insight(title)
