"""The memory's files: ``import``, ``export``, ``backup``, ``restore`` and ``migrate`` (to another backend)."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.cli.common import dump, existing, say_pending, settings_of
from core.memory import Memory


def cmd_import(args: argparse.Namespace) -> int:
    """Import files, each as one unit (``--skip-bad-lines`` for a partial import); say what each did."""
    from core.io import ImportRefused, import_path

    reports, refused = [], 0
    with Memory(settings_of(args, actor="import")) as memory:
        memory.auto_backup("import")  # refuses a damaged file before anything is read
        for path in args.files:
            progress = _progress_printer(path) if sys.stderr.isatty() and not args.json else _quiet
            try:
                reports.append(import_path(memory, path, format=args.format, progress=progress,
                                           skip_bad_lines=args.skip_bad_lines).as_dict())
            except ImportRefused as exc:
                refused += 1
                print(f"hipocampo: {exc}", file=sys.stderr)
                reports.append({**exc.report.as_dict(), "refused": True})
        status = memory.embedding_status()
    if args.json:
        dump(reports)
    else:
        for r in reports:
            if r.get("refused"):
                continue
            print(
                f"{r['source']} ({r['format']}): {r['entities_imported']} entities new, "
                f"{r['entities_merged']} updated, {r['relations_imported']} relations new, "
                f"{r['skipped']} already there, {r['errors']} skipped as unreadable"
            )
            for detail in r["merge_details"][:20]:
                print(f"  merged: {detail}")
            for detail in r["error_details"][:20]:
                print(f"  skipped: {detail}")
        say_pending(status, after_import=True)
    return 1 if refused or any(r["errors"] for r in reports) else 0


def _quiet(done: int, total: int) -> None:
    pass


def _progress_printer(path: Path) -> Any:
    def show(done: int, total: int) -> None:
        pct = 100 * done // total if total else 100
        print(f"\r{path.name}: {pct:3d}%", end="" if done < total else "\n", file=sys.stderr, flush=True)

    return show


def cmd_export(args: argparse.Namespace) -> int:
    """Export the graph to stdout or ``--out``."""
    from core.io import export_graph

    with Memory(existing(args)) as memory:
        damage = memory.damage()
        if damage is not None:
            counts = _export_salvage(memory, args, damage)
        else:
            counts = export_graph(memory, args.format, args.out if args.out is not None else sys.stdout)
    if args.out is not None:
        print(f"{args.out}: " + ", ".join(f"{v} {k}" for k, v in counts.items()), file=sys.stderr)
    return 0


def _export_salvage(memory: Memory, args: argparse.Namespace, damage: str) -> dict[str, int]:
    """A damaged file: write what can still be read, as official JSONL, and say what was lost."""
    print(f"hipocampo: {damage}", file=sys.stderr)
    print("hipocampo: exporting what can still be read (as memory.jsonl lines).", file=sys.stderr)
    found = memory.salvage()
    out = args.out.open("w", encoding="utf-8", newline="\n") if args.out is not None else sys.stdout
    try:
        for e in found["entities"]:
            out.write(json.dumps({"type": "entity", **e}, ensure_ascii=False) + "\n")
        for r in found["relations"]:
            out.write(json.dumps({"type": "relation", **r}, ensure_ascii=False) + "\n")
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"hipocampo: {found['unreadable']} rows (or gaps between rows) could not be read.", file=sys.stderr)
    return {"entities": len(found["entities"]), "relations": len(found["relations"])}


def cmd_backup(args: argparse.Namespace) -> int:
    """Copy the database (consistently, even while in use) into the backups folder, or to DEST."""
    settings = existing(args)
    dest = args.dest
    if dest is not None and dest.is_dir():
        dest = dest / f"{Path(settings.db).stem}-backup-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.db"
    with Memory(settings) as memory:
        written = memory.backup(dest)
    print(written)
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Put a backup (default: the newest) back in place of the database; ``--list`` lists them."""
    settings = settings_of(args)
    if args.list:
        found = Memory.backups_of(settings.db)
        for path in found:
            print(path)
        if not found:
            print(f"No backups of {settings.db} yet.", file=sys.stderr)
        return 0
    emptied = False
    chosen = args.backup or next(iter(Memory.backups_of(settings.db)), None)
    if args.force and chosen is not None and chosen.is_file():
        from core.storage.sqlite.backups import would_empty

        emptied = would_empty(settings.db, chosen)
    restored, aside = Memory.restore_backup(settings.db, args.backup, keep=max(settings.backup_keep, 1),
                                            force=args.force)
    if emptied:
        print(f"Warning (--force): {restored} holds no entities; the memory at {settings.db} is now empty.",
              file=sys.stderr)
    print(f"Restored {settings.db} from {restored}.", file=sys.stderr)
    print(f"The file as it was is kept in {aside}.", file=sys.stderr)
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """Copy the whole memory to another backend (a FalkorDB or Neo4j graph, or a SQLite file); resumable."""
    source = settings_of(args, embeddings="none")
    if source.backend == "sqlite":
        source = existing(args, embeddings="none")
    update: dict[str, Any] = {"backend": args.to}
    for key in ("graph_url", "graph_name"):
        if getattr(args, key) is not None:
            update[key] = getattr(args, key)
    if args.target_db is not None:
        update["db"] = args.target_db
    target = source.model_copy(update=update)
    same = (target.backend == "sqlite" and Path(target.db) == Path(source.db)) or (
        target.backend != "sqlite" and (target.graph_url, target.graph_name) == (source.graph_url, source.graph_name))
    if target.backend == source.backend and same:
        print("hipocampo: the target is the memory itself; name another with --target-db or --graph-name",
              file=sys.stderr)
        return 2

    def progress(kind: str, done: int, total: int) -> None:
        print(f"{kind}: {done:,}/{total:,}", file=sys.stderr)

    with Memory(source) as memory:
        report = memory.migrate_to(target, progress)
    print(json.dumps(report, indent=2))
    return 0 if report["verified"] else 1
