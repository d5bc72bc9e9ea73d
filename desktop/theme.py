"""Light and dark: follow the system's colour scheme, or the user's choice (``Settings.theme``).

On macOS and Windows the native style follows the system by itself. On Linux the app uses Fusion
and sets its palette here, because not every desktop (nor the offscreen platform) tells Qt's style
about a dark scheme. Panes read colours from the palette, never hard-coded light-only ones.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

_ROLE = QPalette.ColorRole
_GROUP = QPalette.ColorGroup


def dark_palette() -> QPalette:
    """A calm dark palette (Fusion's roles, tuned for long reading)."""
    palette = QPalette()
    colours = {
        _ROLE.Window: "#1f2227", _ROLE.WindowText: "#e6e8eb", _ROLE.Base: "#16181c",
        _ROLE.AlternateBase: "#1c1f24", _ROLE.ToolTipBase: "#2b2f36", _ROLE.ToolTipText: "#e6e8eb",
        _ROLE.PlaceholderText: "#8a9099", _ROLE.Text: "#e6e8eb", _ROLE.Button: "#2a2e35",
        _ROLE.ButtonText: "#e6e8eb", _ROLE.BrightText: "#ff6b6b", _ROLE.Light: "#3a3f47",
        _ROLE.Midlight: "#30343b", _ROLE.Mid: "#272a30", _ROLE.Dark: "#121417", _ROLE.Shadow: "#000000",
        _ROLE.Highlight: "#3d7bd9", _ROLE.HighlightedText: "#ffffff", _ROLE.Link: "#7fb0ff",
        _ROLE.LinkVisited: "#b39cff",
    }
    for role, value in colours.items():
        palette.setColor(role, QColor(value))
    for role in (_ROLE.WindowText, _ROLE.Text, _ROLE.ButtonText):
        palette.setColor(_GROUP.Disabled, role, QColor("#6b717a"))
    palette.setColor(_GROUP.Disabled, _ROLE.Highlight, QColor("#3a3f47"))
    return palette


# Fusion draws a field's frame in the window colour darkened, which on a dark palette is as dark as
# the field itself: the fields had no visible edge. In dark mode they get one in a lighter grey.
DARK_FIELDS = (
    "QLineEdit, QAbstractSpinBox, QPlainTextEdit, QTextEdit {"
    " border: 1px solid #565d68; border-radius: 3px; background: palette(base); padding: 2px 3px; }"
    " QLineEdit:focus, QAbstractSpinBox:focus, QPlainTextEdit:focus, QTextEdit:focus {"
    " border-color: palette(highlight); }"
    " QLineEdit:disabled, QAbstractSpinBox:disabled { border-color: #3a3f47; }"
)


def wants_dark(theme: str) -> bool:
    if theme == "dark":
        return True
    if theme == "light":
        return False
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply_theme(app: QApplication, theme: str = "system") -> None:
    """Set the palette for ``theme`` ("system", "light" or "dark") and keep following the system."""
    native = not sys.platform.startswith("linux")
    if native and theme == "system":
        return  # the native style follows the system itself
    if wants_dark(theme):
        app.setPalette(dark_palette())
        app.setStyleSheet(DARK_FIELDS)
    else:
        app.setPalette(app.style().standardPalette())
        app.setStyleSheet("")
    hints = QGuiApplication.styleHints()
    if not getattr(app, "_hipocampo_follows_scheme", False):
        app._hipocampo_follows_scheme = True  # type: ignore[attr-defined]  # our mark on the app object
        hints.colorSchemeChanged.connect(lambda _scheme: apply_theme(app, getattr(app, "_hipocampo_theme", "system")))
    app._hipocampo_theme = theme  # type: ignore[attr-defined]  # our mark on the app object
