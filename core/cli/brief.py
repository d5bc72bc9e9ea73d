"""``brief``, ``pin`` and ``hook``: the session brief, pinning what it should always show, and the hooks
a client such as Claude Code runs."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from core.brief import DEFAULT_BUDGET
from core.cli.common import existing
from core.memory import Memory


def cmd_brief(args: argparse.Namespace) -> int:
    """Print the brief (``--json``: with its size and what it left out; the receipt on stderr)."""

    with Memory(existing(args, embeddings="none")) as memory:
        brief = memory.brief(args.max_tokens)
    if args.json:
        print(json.dumps(brief.as_dict(), indent=2, ensure_ascii=False))
    else:
        print(brief.text)
    print(brief.receipt(), file=sys.stderr)
    return 0


def cmd_pin(args: argparse.Namespace) -> int:
    """Pin (or ``--unpin``) an entity or one of its facts; ``--list`` shows every pin."""

    with Memory(existing(args, writes=not args.list, embeddings="none")) as memory:
        if args.list:
            for pin in memory.pins():
                print(pin["name"] if pin["fact"] is None else f"{pin['name']}: {pin['fact']}")
            return 0
        if args.name is None:
            raise SystemExit("hipocampo pin: give an entity's name (or --list)")
        changed = memory.pin(args.name, args.fact, pinned=not args.unpin)
    what = args.name if args.fact is None else f"{args.fact!r} of {args.name}"
    verb = "Unpinned" if args.unpin else "Pinned"
    print(f"{verb} {what}." if changed else f"{what} was already {'un' if args.unpin else ''}pinned.")
    return 0


def cmd_hook(args: argparse.Namespace) -> int:
    """Run one client hook (reads the client's JSON on stdin); see ``core/hooks.py``."""
    from core.hooks import run_hook

    return run_hook(args.event, db=args.db if "db" in args else None, client=args.client)


def add_brief_parsers(sub: Any, common: argparse.ArgumentParser) -> None:
    """Add ``brief``, ``pin`` and ``hook`` to the ``hipocampo`` parser."""
    brief = sub.add_parser("brief", parents=[common], help="what the memory knows that matters now, in brief")
    brief.add_argument("--max-tokens", type=int, default=DEFAULT_BUDGET, help=f"budget (default {DEFAULT_BUDGET})")
    brief.add_argument("--json", action="store_true", help="with its size and what it left out")
    brief.set_defaults(func=cmd_brief)

    pin = sub.add_parser("pin", parents=[common], help="always show an entity (or one fact) in the brief")
    pin.add_argument("name", nargs="?", default=None, help="the entity's exact name")
    pin.add_argument("fact", nargs="?", default=None, help="one of its observations, word for word")
    pin.add_argument("--unpin", action="store_true", help="take the pin away")
    pin.add_argument("--list", action="store_true", help="list the pins")
    pin.set_defaults(func=cmd_pin)

    hook = sub.add_parser("hook", parents=[common], help="run a client hook (clients run this themselves)")
    hook.add_argument("event", choices=("session-start", "pre-compact", "stop"))
    hook.add_argument("--client", default="claude-code", choices=("claude-code",))
    hook.set_defaults(func=cmd_hook)
