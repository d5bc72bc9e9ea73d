"""The graph pane: the memory as a picture (view, items, layout, data read off the GUI thread)."""
