"""``merge`` and ``tidy``: memory hygiene on the command line (the rules live in ``core/hygiene``)."""

from __future__ import annotations

import argparse
from typing import Any

from core.cli.common import dump, existing
from core.memory import Memory


def cmd_merge(args: argparse.Namespace) -> int:
    """Merge NAME… into --into: print the preview; with --apply, merge (one change `undo` takes back)."""

    with Memory(existing(args, writes=args.apply, actor="cli")) as memory:
        result = memory.merge_entities(args.names, into=args.into, dry_run=not args.apply)
    if args.json:
        dump(result)
        return 0
    print(result["text"])
    if result["dry_run"]:
        print("Nothing was changed: run again with --apply to merge.")
    else:
        print(f"Merged as change #{result['change_id']}; `hipocampo undo {result['change_id']}` takes it back.")
        for title in result.get("resolved_insights", []):
            print(f"Settled the proposal {title!r} (approved with the merge; undo puts it back to review).")
    return 0


def cmd_tidy(args: argparse.Namespace) -> int:
    """List what hygiene proposes (a dry run), or carry out the ids given with --apply."""

    with Memory(existing(args, writes=bool(args.apply), actor="cli")) as memory:
        result = memory.tidy(apply=args.apply or None)
    if args.json:
        dump(result)
        return 0
    if result["dry_run"]:
        for p in result["proposals"]:
            print(f"- {p['id']}  ({p['label']}, {p['confidence']:.2f})")
            print("  " + (p["preview"].get("text") or str(p["preview"])).replace("\n", "\n  "))
        print(f"{len(result['proposals'])} proposal(s); nothing was changed. "
              "`hipocampo tidy --apply ID` carries one out.")
    else:
        for done in result["applied"]:
            print(f"Applied {done['id']} (change #{done.get('change_id')}).")
    return 0


def add_hygiene_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    """merge and tidy, for ``build_parser``."""
    merge = sub.add_parser("merge", parents=[common], help="merge duplicate entities (a preview unless --apply)")
    merge.add_argument("names", nargs="+", help="the entities to merge into --into")
    merge.add_argument("--into", required=True, help="the entity to keep")
    merge.add_argument("--apply", action="store_true", help="merge now (default: only show what would change)")
    merge.add_argument("--json", action="store_true")
    merge.set_defaults(func=cmd_merge)
    tidy = sub.add_parser("tidy", parents=[common], help="what hygiene proposes (duplicates, repeats); --apply ID")
    tidy.add_argument("--apply", action="append", default=[], metavar="ID", help="carry out this proposal")
    tidy.add_argument("--json", action="store_true")
    tidy.set_defaults(func=cmd_tidy)
