"""The editor's line saying when, by whom and for what an entity was last recalled (the read log)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from desktop.models.insights import age_text
from desktop.panes.history_view import actor_label

# What each MCP read is, in words, after "recalled by … through".
TOOL_WORDS = {"search_nodes": "a search", "search_semantic": "a search by meaning", "open_nodes": "opening it",
              "read_graph": "reading the whole memory", "engrama_search": "a search",
              "engrama_context": "its neighbourhood"}


def _tr(text: str) -> str:
    return QCoreApplication.translate("RecallLine", text)


def recall_text(last: dict[str, Any] | None) -> str:
    """"Last recalled by Claude Code 5 min ago, searching “facturas”" — or that no assistant has yet."""
    if not last:
        return _tr("No assistant has recalled it yet.")
    query = " ".join(str(last.get("query") or "").split())
    if len(query) > 60:
        query = query[:59] + "…"
    who, when = actor_label(last["client"]), age_text(last["at"])
    if query and last.get("tool") != "open_nodes":
        return _tr("Last recalled by {who} {when}, for “{query}”").format(who=who, when=when, query=query)
    return _tr("Last recalled by {who} {when}").format(who=who, when=when)
