"""Approving an insight whose kind marks something on an entity (a superseded fact, a superseded
relation): the approval and the mark are one ``approve_insight`` change in one atomic write, so one
undo takes both back and the insight is pending again (``core.reflect.lifecycle.approve_in``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.errors import NotFound
from core.reflect import lifecycle

APPROVE_OP = "approve_insight"  # the change grouping an approval and what it did (undone whole)


def approve_marking(host: Any, title: str, entity: str, key: str, patch: Mapping[str, Any], actor: str) -> int:
    """Approve the insight ``title`` and write ``patch`` (``{key: {…, "ended_at": None}}``, the end
    filled with the approval's moment) into the props of ``entity`` under ``key``: one
    ``approve_insight`` change in one atomic write, so one undo takes the mark back and puts the
    insight back to review. Returns the change's id."""
    def work(s: Any) -> int:
        lifecycle.approve_in(s, title, actor)
        node = s.entity(entity)
        if node is None:
            raise NotFound(f"The entity {entity!r} of {title!r} no longer exists. Dismiss the insight. "
                           "Nothing was changed.")
        marked = dict(node.props.get(key) or {})
        marked.update({k: {**v, "ended_at": v.get("ended_at") or s.now} for k, v in patch.items()})
        s.update_entity(entity, {"entityType": node.type, "props": node.props},
                        {"entityType": node.type, "props": {**node.props, key: marked}})
        # ``name``: the entity it concerns (``core.history.changes.touches``: its editor undoes it too)
        done = s.finish(APPROVE_OP, title, {"insight": title, "name": entity})
        assert done is not None
        return int(done)
    done: int = host.graph.run_edit(work, actor)
    return done
