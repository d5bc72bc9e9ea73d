"""Hipocampo's desktop app: a PySide6 shell over ``core.Memory``."""
