"""The insight review pane: patterns reflect found, approved or dismissed by a person (view, model, words)."""
