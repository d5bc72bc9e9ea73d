"""The editor's line saying when, by whom and for what an entity was last recalled (the read log)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from desktop.shared.ages import age_text
from desktop.shared.history_view import actor_label

translate = QCoreApplication.translate  # called by this name, so lupdate finds the strings


def recall_text(last: dict[str, Any] | None) -> str:
    """“Last recalled by claude-code 5 min ago, for “facturas””, or that no assistant has yet."""
    if not last:
        return translate("RecallLine", "No assistant has recalled it yet.")
    query = " ".join(str(last.get("query") or "").split())
    if len(query) > 60:
        query = query[:59] + "…"
    who, when = actor_label(last["client"]), age_text(last["at"])
    if query and last.get("tool") != "open_nodes":
        return translate("RecallLine", "Last recalled by {who} {when}, for “{query}”").format(
            who=who, when=when, query=query)
    return translate("RecallLine", "Last recalled by {who} {when}").format(who=who, when=when)
