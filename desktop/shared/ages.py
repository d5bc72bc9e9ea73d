"""How long ago something was, in a few words ("just now", "3 days ago"), the same in every pane.

Its words keep the translation context they were first written in (``InsightListModel``)."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import QCoreApplication


def age_text(stamp: str | None, now: datetime | None = None) -> str:
    """How long ago ``stamp`` (ISO 8601) was, in a few words: "just now", "3 days ago"."""
    if not stamp:
        return ""
    try:
        when = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp[:10]
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    seconds = max(0, int(((now or datetime.now(UTC)) - when).total_seconds()))
    if seconds < 60:
        return QCoreApplication.translate("InsightListModel", "just now")
    units = (
        (86400 * 365, QCoreApplication.translate("InsightListModel", "1 year ago"),
         QCoreApplication.translate("InsightListModel", "{n} years ago")),
        (86400 * 30, QCoreApplication.translate("InsightListModel", "1 month ago"),
         QCoreApplication.translate("InsightListModel", "{n} months ago")),
        (86400, QCoreApplication.translate("InsightListModel", "yesterday"),
         QCoreApplication.translate("InsightListModel", "{n} days ago")),
        (3600, QCoreApplication.translate("InsightListModel", "1 hour ago"),
         QCoreApplication.translate("InsightListModel", "{n} hours ago")),
        (60, QCoreApplication.translate("InsightListModel", "1 minute ago"),
         QCoreApplication.translate("InsightListModel", "{n} minutes ago")),
    )
    for size, one, many in units:
        if seconds >= size:
            n = seconds // size
            return one if n == 1 else many.format(n=n)
    return QCoreApplication.translate("InsightListModel", "just now")
