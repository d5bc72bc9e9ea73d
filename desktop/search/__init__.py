"""The search pane: exact and by-meaning search with snippets (view, model, delegate)."""
