"""``history`` (what changed, newest first) and ``undo``."""

from __future__ import annotations

import argparse

from core.cli.common import dump, existing
from core.errors import NotFound
from core.memory import Memory
from core.model import Change


def cmd_history(args: argparse.Namespace) -> int:
    """Print the change log, newest first: everything, or what happened to one entity."""
    with Memory(existing(args)) as memory:
        rows = (memory.entity_history(args.entity, limit=args.limit) if args.entity
                else memory.history(limit=args.limit))
        deletion = memory.last_deletion(args.entity) if args.entity is not None else None
        lines = [_change_line(memory, r) for r in rows]
    if args.json:
        dump(rows)
        return 0
    if not rows:
        print(f"No changes recorded for {args.entity}." if args.entity else "No changes recorded yet.")
        return 0
    print("\n".join(lines))
    if deletion is not None:
        print(f"{args.entity} is deleted; `hipocampo undo {deletion.id}` (or the MCP tool restore_entity) "
              "brings it back.")
    return 0


def _change_line(memory: Memory, row: Change) -> str:
    return f"#{row.id:<6} {row.at[:19].replace('T', ' ')}  {row.actor:<16} {memory.describe_change(row)}"


def cmd_undo(args: argparse.Namespace) -> int:
    """Undo the newest change (or change CHANGE, or the newest about --entity); say what was undone."""
    with Memory(existing(args, writes=True, actor="cli")) as memory:
        if args.change is not None:
            found = memory.changes_since(args.change - 1, limit=1) if args.change >= 1 else []
            target = found[0] if found and found[0].id == args.change else None
        else:
            target = memory.undoable_change(entity=args.entity)
        if target is None:
            raise NotFound(f"There is no change #{args.change}." if args.change is not None
                           else "There is no change left to undo.")
        row = memory.undo_change(target.id)
        what = memory.describe_change(target)
    if args.json:
        dump({"undone": target, "undo": row})
        return 0
    print(f"Undid #{target.id}: {what} (by {target.actor}, {target.at[:19].replace('T', ' ')}).")
    print(f"Recorded as change #{row.id}; `hipocampo undo {row.id}` redoes it.")
    return 0
