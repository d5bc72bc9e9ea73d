"""The activity pane: every change, who made it and when; undo from here (view, model, delegate)."""
