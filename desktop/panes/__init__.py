"""The main window's panes: graph, search, editor, insights, activity (one widget per file)."""
