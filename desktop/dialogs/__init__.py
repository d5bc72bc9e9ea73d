"""Dialogs: first run, settings, import, crash — one per file."""
