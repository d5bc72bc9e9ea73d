"""The entity editor pane (``EditorPane``) and its parts: the draft, the observation list, the
relation table and the conflict banner."""

from desktop.editor.pane import EditorPane

__all__ = ["EditorPane"]
