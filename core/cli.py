"""``hipocampo`` — the command line.

Every subcommand works on the database from ``--db``, else ``HIPOCAMPO_DB``, else the platform's
user data folder.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core import __version__
from core.brief import DEFAULT_BUDGET
from core.clients import CLIENTS
from core.errors import HipocampoError, InvalidInput, NotFound
from core.memory import Memory
from core.model import Change
from core.search.hybrid import FRESH_AT_MOST
from core.settings import Settings


def _settings(args: argparse.Namespace, **extra: Any) -> Settings:
    return _dropin(args, **extra)[0]


def _existing(args: argparse.Namespace, *, writes: bool = False, **extra: Any) -> Settings:
    """Settings for a command on a memory that must exist already: a missing database is an error,
    not a new empty file. One on a read-only disk or folder is opened read-only, unless the
    command ``writes``."""
    settings = _settings(args, **extra)
    db = Path(settings.db)
    if str(db) == ":memory:" or settings.backend != "sqlite":  # a graph server: no file to find
        return settings
    if not db.exists():
        raise NotFound(
            f"There is no memory at {db}: nothing has been saved there. Check --db (or HIPOCAMPO_DB); "
            "the MCP server, the app or `hipocampo import` create it."
        )
    wal = Path(f"{db}-wal")
    if not writes and db.is_file() and db.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size > 0):
        raise NotFound(  # a command that only reads must not write a schema into it
            f"{db} is an empty file, not a Hipocampo memory: nothing has been saved there. Check --db (or "
            "HIPOCAMPO_DB); the MCP server, the app or `hipocampo import` make it a memory. It was left as it is."
        )
    if os.access(db, os.W_OK) and os.access(db.parent, os.W_OK):
        return settings
    if writes:
        raise InvalidInput(f"{db} is on a read-only location; `hipocampo {args.command}` needs to write to it. "
                           "Copy it somewhere writable (`hipocampo backup DEST` works) and use that.")
    return settings.model_copy(update={"read_only": True})


def _dropin(args: argparse.Namespace, **extra: Any) -> tuple[Settings, Path | None]:
    """Settings, and the official server's file (``MEMORY_FILE_PATH``) when it decides the database."""
    from core.io.official_sync import dropin_settings

    settings, official = dropin_settings(args.db, **extra)
    if Path(settings.db).is_dir():
        raise InvalidInput(f"{settings.db} is a folder; --db names the database file itself "
                           f"(for example {Path(settings.db) / 'memory.db'}).")
    return settings, official


def _dump(value: Any) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False, default=_as_json))


def _as_json(value: Any) -> Any:
    """A ``Change`` (a change_log row) prints as the mapping it reads as."""
    if isinstance(value, Change):
        return value.as_dict()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


# -- status -----------------------------------------------------------------------------------


def cmd_status(args: argparse.Namespace) -> int:
    """Print the database, its health and counts, the embedding model and the hub endpoint."""
    from core.server.tools.engrama import embeddings_info
    from core.server.transports.endpoint import endpoint_file, probe, read_endpoint

    settings = _existing(args)
    with Memory(settings) as memory:
        health = memory.health_check(deep=True)
        labels = memory.count_labels()
        model = embeddings_info(memory)
    hub = read_endpoint()
    live = probe(hub) if hub.get("port") else None
    endpoint = {
        "file": str(endpoint_file()),
        "token": bool(hub.get("token")),
        "running": bool(live),
        "url": hub.get("url") if live else None,
        "db": live.get("db") if live else None,
    }
    if args.json:
        _dump({**health, "labels": labels, "embeddings": model, "endpoint": endpoint})
        return 0 if health["ok"] else 1
    counts = health["counts"]
    print(f"Hipocampo {__version__}")
    if health["backend"] == "sqlite":
        print(
            f"  database     {health.get('path', settings.db)} ({health['backend']}, schema "
            f"{health.get('schema_version')}, integrity {health.get('quick_check')})"
        )
        print(f"  sqlite       {health.get('sqlite_version')}, sqlite-vec {health.get('sqlite_vec_version')}")
    else:
        print(f"  database     {health.get('path')} ({health['backend']})")
        print(f"  server       {health.get('server_version')}")
    print(f"  entities     {counts.get('entities', 0)} ({health.get('archived', 0)} archived)")
    print(f"  observations {counts.get('observations', 0)}")
    print(f"  relations    {counts.get('relations', 0)}")
    print(f"  insights     {counts.get('insights', 0)}")
    if labels:
        top = ", ".join(f"{k} {v}" for k, v in list(labels.items())[:8])
        print(f"  types        {top}")
    print(f"  embeddings   {_describe_embeddings(model)}")
    if live:
        print(f"  hub          running at {endpoint['url']} for {endpoint['db']}")
    else:
        print(f"  hub          not running ({endpoint['file']})")
    return 0 if health["ok"] else 1


def _describe_embeddings(info: dict[str, Any]) -> str:
    text = str(info.get("provider"))
    if info.get("model"):
        text += f": {info['model']}, {info.get('embedded', 0)} of {info.get('entities', 0)} entities embedded"
    if info.get("model_present") is False:
        text += f" (model missing from {info.get('model_dir')})"
    if info.get("error"):
        text += f" ({info['error']})"
    return text


# -- mcp --------------------------------------------------------------------------------------


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve MCP: stdio (bridging to a running hub when there is one), or HTTP with ``--http``."""
    from core.server.transports.stdio import configure_logging, run_stdio  # the MCP SDK is not imported yet (front.py)

    configure_logging()
    settings, official = _dropin(args)
    if not args.http:
        run_stdio(settings, bridge=not args.no_bridge, official=official)
        return 0
    import anyio

    from core.io.official_sync import open_with_official_file
    from core.server.tools.state import start_background
    from core.server.transports.http import refuse_second_hub, serve_http
    from core.server.transports.stdio import stop_on_signals

    refuse_second_hub()  # before loading the model
    with stop_on_signals():  # while it opens; uvicorn takes the signals over while it serves
        memory, sync = open_with_official_file(settings, official)
        with memory:
            start_background(memory)
            if sync is not None:
                sync.start()
            try:
                anyio.run(lambda: serve_http(memory, port=args.port, on_ready=_ready_and_settled))
            except OSError as exc:  # the port is taken, or not ours to bind
                print(
                    f"hipocampo: cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}", file=sys.stderr
                )
                return 2
            finally:
                if sync is not None:
                    sync.stop()
    return 0


# -- import / export --------------------------------------------------------------------------


def _ready_and_settled(info: dict[str, Any]) -> None:
    """The hub accepts connections: say so, then freeze what it was loaded with (``settle_heap``)."""
    from core.processes import settle_heap
    from core.server.transports.http import print_ready

    print_ready(info)
    settle_heap()


def cmd_import(args: argparse.Namespace) -> int:
    """Import files, each as one unit (``--skip-bad-lines`` for a partial import); say what each did."""
    from core.io import ImportRefused, import_path

    reports, refused = [], 0
    with Memory(_settings(args, actor="import")) as memory:
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
        _dump(reports)
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
        _say_pending(status, after_import=True)
    return 1 if refused or any(r["errors"] for r in reports) else 0


def _say_pending(status: dict[str, Any], *, after_import: bool = False) -> None:
    """Tell the user when some entities have no vector yet (search is full text for them)."""
    if status.get("model") is None:
        if not after_import:
            print(f"hipocampo: searching by full text only ({status.get('error')}).", file=sys.stderr)
        return
    pending = status.get("entities", 0) - status.get("embedded", 0)
    if pending <= 0:
        return
    if after_import:
        print(f"{pending:,} entities still need embedding for search by meaning; the MCP server, the app "
              "or `hipocampo reindex` will do it.", file=sys.stderr)
    else:
        print(f"hipocampo: {pending:,} of {status['entities']:,} entities are not embedded yet: a search embeds "
              f"up to {FRESH_AT_MOST} of the newest itself; the others are found by full text only until the "
              "server, the app or `hipocampo reindex` embeds them.", file=sys.stderr)


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

    with Memory(_existing(args)) as memory:
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


# -- search / reflect / backup ----------------------------------------------------------------


def cmd_search(args: argparse.Namespace) -> int:
    """Search by meaning (or by substring with ``--substring``) and print the hits."""
    with Memory(_existing(args)) as memory:
        if args.substring:
            hits = [
                {"name": e.name, "entityType": e.entityType, "observations": getattr(e, "observations", [])}
                for e in memory.search_nodes(args.query, limit=args.limit).entities
            ]
        else:
            hits = memory.search_semantic(args.query, args.limit)
            _say_pending(memory.embedding_status())
    if args.json:
        _dump(hits)
        return 0
    if not hits:
        print("No matches." if args.substring else "No good matches.")
    for hit in hits:
        score = f"  {hit['score']:.3f}" if "score" in hit else ""
        print(f"{hit['name']} ({hit['entityType']}){score}")
        for obs in hit["observations"][:3]:
            print(f"    {obs if len(obs) <= 100 else obs[:99] + '…'}")
        more = hit.get("other_observations", max(0, len(hit["observations"]) - 3))
        if more:
            print(f"    (+{more} more)")
    return 0


def cmd_reflect(args: argparse.Namespace) -> int:
    """Run reflect and print a short summary (``--json``: the whole result)."""
    with Memory(_existing(args, writes=True)) as memory:
        result = memory.reflect(actor="cli")
        pending = memory.insight_counts().get("pending", 0)
    if args.json:
        _dump(result)
        return 0
    print(f"{result['created']} new insights, {result['refreshed']} confirmed again, {result['stale']} gone stale; "
          f"{pending} waiting for review.")
    for insight in result["insights"][:10]:
        print(f"  {insight['title']}  ({insight['pattern']}, confidence {insight['confidence']:.2f})")
    if len(result["insights"]) > 10:
        print(f"  … and {len(result['insights']) - 10} more (--json lists them)")
    if pending:
        print("Review them in the app, or ask your assistant (engrama_surface_insights, engrama_approve_insight).")
    return 0


def cmd_reindex(args: argparse.Namespace) -> int:
    """Embed every entity whose vector is missing, stale, or from another model; resumable."""
    with Memory(_settings(args)) as memory:
        if memory.indexer is None:
            print(f"hipocampo: nothing to do: {memory.embedding_status()['error']}", file=sys.stderr)
            return 2
        if args.all:
            assert memory.vectors is not None and memory.embedder is not None  # an indexer has both
            memory.vectors.prepare(memory.embedder.model_id, memory.embedder.dimensions)
            memory.forget_embeddings()
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            rate = done / max(time.monotonic() - started, 1e-9)
            print(f"\r  {done:,}/{total:,} embedded ({rate:,.0f}/s)", end="", file=sys.stderr, flush=True)

        try:
            stored = memory.embed_pending(progress)
        except KeyboardInterrupt:  # progress is kept per entity: running again resumes
            print("\nInterrupted; run `hipocampo reindex` again to resume.", file=sys.stderr)
            return 130
        status = memory.embedding_status()
    print(f"\n{stored:,} vectors stored; {status['embedded']:,} of {status['entities']:,} entities and "
          f"{status.get('facts_embedded', 0):,} of {status.get('facts', 0):,} facts are current with "
          f"{status['model']}.", file=sys.stderr)
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """Copy the database (consistently, even while in use) into the backups folder, or to DEST."""
    settings = _existing(args)
    dest = args.dest
    if dest is not None and dest.is_dir():
        dest = dest / f"{Path(settings.db).stem}-backup-{datetime.now(UTC):%Y%m%dT%H%M%SZ}.db"
    with Memory(settings) as memory:
        written = memory.backup(dest)
    print(written)
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """Copy the whole memory to another backend (a FalkorDB or Neo4j graph, or a SQLite file); resumable."""
    source = _settings(args, embeddings="none")
    if source.backend == "sqlite":
        source = _existing(args, embeddings="none")
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


# -- history / undo ---------------------------------------------------------------------------


def cmd_history(args: argparse.Namespace) -> int:
    """Print the change log, newest first: everything, or what happened to one entity."""
    with Memory(_existing(args)) as memory:
        rows = (memory.entity_history(args.entity, limit=args.limit) if args.entity
                else memory.history(limit=args.limit))
        deletion = memory.last_deletion(args.entity) if args.entity is not None else None
        lines = [_change_line(memory, r) for r in rows]
    if args.json:
        _dump(rows)
        return 0
    if not rows:
        print(f"No changes recorded for {args.entity}." if args.entity else "No changes recorded yet.")
        return 0
    print("\n".join(lines))
    if deletion is not None:
        print(f"{args.entity} is deleted; `hipocampo undo {deletion['id']}` (or the MCP tool restore_entity) "
              "brings it back.")
    return 0


def _change_line(memory: Memory, row: Mapping[str, Any]) -> str:
    return f"#{row['id']:<6} {str(row['at'])[:19].replace('T', ' ')}  {row['actor']:<16} {memory.describe_change(row)}"


def cmd_undo(args: argparse.Namespace) -> int:
    """Undo the newest change (or change CHANGE, or the newest about --entity); say what was undone."""
    with Memory(_existing(args, writes=True, actor="cli")) as memory:
        if args.change is not None:
            found = memory.changes_since(args.change - 1, limit=1) if args.change >= 1 else []
            target = found[0] if found and found[0]["id"] == args.change else None
        else:
            target = memory.undoable_change(entity=args.entity)
        if target is None:
            raise NotFound(f"There is no change #{args.change}." if args.change is not None
                           else "There is no change left to undo.")
        row = memory.undo_change(target["id"])
        what = memory.describe_change(target)
    if args.json:
        _dump({"undone": target, "undo": row})
        return 0
    print(f"Undid #{target['id']}: {what} (by {target['actor']}, {str(target['at'])[:19].replace('T', ' ')}).")
    print(f"Recorded as change #{row['id']}; `hipocampo undo {row['id']}` redoes it.")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Put a backup (default: the newest) back in place of the database; ``--list`` lists them."""
    settings = _settings(args)
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


# -- config -----------------------------------------------------------------------------------

def cmd_config(args: argparse.Namespace) -> int:
    """Print the configuration that starts Hipocampo from ``args.client``; with ``--install``, add it
    to the client's configuration file (a backup is kept beside it)."""
    from core.clients import TITLES, client_config, display_path, install_into

    db = Path(_settings(args).db).expanduser().absolute()
    if args.hooks:  # with --install too: the hooks, then the server entry
        from core.hooks import print_install

        print_install(args.client, db)
        if not args.install:
            return 0
    if args.install:
        result = install_into(args.client, db)
        where = display_path(result.path)
        if result.action == "unchanged":
            print(f"{TITLES[args.client]} already starts Hipocampo ({where}, server {result.key!r}).")
            return 0
        backup = f" (backup: {display_path(result.backup)})" if result.backup else ""
        print(f"{result.action.capitalize()} server {result.key!r} in {where}{backup}.")
        if result.beside:
            print(f"Your existing {result.beside!r} server was kept; remove it to use Hipocampo alone.")
        print(f"Restart {TITLES[args.client]} to load it.")
        return 0
    where, text = client_config(args.client, db)
    print(f"# {args.client}: {where}", file=sys.stderr)
    print(text)
    return 0


# -- parser -----------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from core.io import EXPORT_FORMATS

    parser = argparse.ArgumentParser(prog="hipocampo", description="Local-first memory for AI assistants.")
    parser.add_argument("--version", action="version", version=f"hipocampo {__version__}")
    db_help = "SQLite file (default: $HIPOCAMPO_DB, else beside $MEMORY_FILE_PATH, else the user data folder)"
    parser.add_argument("--db", type=Path, default=None, help=db_help)
    # The same global options after the subcommand (``hipocampo search x --db F``): SUPPRESS keeps
    # a subcommand that was not given one from resetting what came before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=db_help)
    sub = parser.add_subparsers(dest="command", required=True)

    status = sub.add_parser("status", parents=[common], help="database, counts, model, hub")
    status.add_argument("--json", action="store_true", help="machine-readable output")
    status.set_defaults(func=cmd_status)

    mcp = sub.add_parser("mcp", parents=[common], help="run the MCP server (stdio, or HTTP with --http)")
    mcp.add_argument("--http", action="store_true", help="serve Streamable HTTP on 127.0.0.1 as the hub")
    mcp.add_argument("--port", type=int, default=0, help="HTTP port (default: a free one)")
    mcp.add_argument("--no-bridge", action="store_true", help="stdio: never forward to a running hub")
    mcp.set_defaults(func=cmd_mcp)

    imp = sub.add_parser(
        "import", parents=[common],
        help="import memory.jsonl, Engrama .ndjson or engrama.db, MCP Memory v2 .db, notes")
    imp.add_argument("files", type=Path, nargs="+", help="files, or folders of Markdown/text notes")
    imp.add_argument(
        "--format",
        choices=("jsonl", "ndjson", "sqlite", "engrama-db", "markdown"),
        default=None,
        help="default: detected from each file",
    )
    imp.add_argument("--json", action="store_true", help="machine-readable reports")
    imp.add_argument(
        "--skip-bad-lines", action="store_true",
        help="import what can be read and list the rest (default: a file with unreadable records imports nothing)",
    )
    imp.set_defaults(func=cmd_import)

    exp = sub.add_parser("export", parents=[common], help="export the graph")
    exp.add_argument(
        "--format",
        choices=EXPORT_FORMATS,
        default="jsonl",
        help="jsonl (official memory server), ndjson (Engrama), graphml, markdown (a folder)",
    )
    exp.add_argument("--out", type=Path, default=None, help="file (folder for markdown); default: stdout")
    exp.set_defaults(func=cmd_export)

    search = sub.add_parser("search", parents=[common], help="search the memory")
    search.add_argument("query")
    search.add_argument("--limit", type=int, default=10)
    search.add_argument("--substring", action="store_true", help="substring match (search_nodes)")
    search.add_argument("--json", action="store_true")
    search.set_defaults(func=cmd_search)

    reflect = sub.add_parser("reflect", parents=[common], help="look for patterns; propose insights")
    reflect.add_argument("--json", action="store_true", help="the whole result, machine-readable")
    reflect.set_defaults(func=cmd_reflect)

    reindex = sub.add_parser("reindex", parents=[common], help="compute missing or stale embeddings (resumable)")
    reindex.add_argument("--all", action="store_true", help="re-embed every entity, even current ones")
    reindex.set_defaults(func=cmd_reindex)

    backup = sub.add_parser("backup", parents=[common], help="copy the database, safely while it is in use")
    backup.add_argument(
        "dest", type=Path, nargs="?", default=None, help="file or folder (default: the backups folder beside it)"
    )
    backup.set_defaults(func=cmd_backup)

    migrate = sub.add_parser("migrate", parents=[common],
                             help="copy the whole memory to another backend (resumable, verified)")
    migrate.add_argument("--to", required=True, choices=["sqlite", "falkordb", "neo4j"],
                         help="the backend to move to")
    migrate.add_argument("--target-db", type=Path, default=None, help="the SQLite file to create (--to sqlite)")
    migrate.add_argument("--graph-url", default=None, help="the server (default: $HIPOCAMPO_GRAPH_URL)")
    migrate.add_argument("--graph-name", default=None, help="the graph on it (default: $HIPOCAMPO_GRAPH_NAME)")
    migrate.set_defaults(func=cmd_migrate)

    history = sub.add_parser("history", parents=[common], help="what changed, newest first (one entity, or all)")
    history.add_argument("entity", nargs="?", default=None, help="an entity's name (former names work too)")
    history.add_argument("--limit", type=int, default=50)
    history.add_argument("--json", action="store_true", help="the change_log rows, with before and after")
    history.set_defaults(func=cmd_history)

    undo = sub.add_parser("undo", parents=[common], help="undo the last change, or a given one")
    undo.add_argument("change", type=int, nargs="?", default=None, help="a change number from `hipocampo history`")
    undo.add_argument("--entity", default=None, help="the newest change about this entity")
    undo.add_argument("--json", action="store_true")
    undo.set_defaults(func=cmd_undo)

    add_hygiene_parsers(sub, common)  # merge, tidy

    restore = sub.add_parser("restore", parents=[common], help="put a backup back (the file as it was is kept)")
    restore.add_argument("backup", type=Path, nargs="?", default=None, help="backup file (default: the newest)")
    restore.add_argument("--list", action="store_true", help="list the backups, newest first")
    restore.add_argument("--force", action="store_true",
                         help="restore even a backup with no entities over a memory that has some")
    restore.set_defaults(func=cmd_restore)

    config = sub.add_parser("config", parents=[common], help="print the setup for an MCP client, or --install it")
    config.add_argument("client", choices=CLIENTS)
    config.add_argument("--install", action="store_true",
                        help="add Hipocampo to the client's configuration file (keeps a backup)")
    config.add_argument("--hooks", action="store_true",
                        help="claude-code: install the session hooks (brief at start, save reminders; keeps a backup)")
    config.set_defaults(func=cmd_config)
    add_brief_parsers(sub, common)  # brief, pin, hook
    return parser


# merge and tidy: hygiene on the command line (the rules live in core/hygiene).


def cmd_merge(args: argparse.Namespace) -> int:
    """Merge NAME… into --into: print the preview; with --apply, merge (one change `undo` takes back)."""

    with Memory(_existing(args, writes=args.apply, actor="cli")) as memory:
        result = memory.merge_entities(args.names, into=args.into, dry_run=not args.apply)
    if args.json:
        _dump(result)
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

    with Memory(_existing(args, writes=bool(args.apply), actor="cli")) as memory:
        result = memory.tidy(apply=args.apply or None)
    if args.json:
        _dump(result)
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


# brief, pin and hook: the session brief on the command line, pinning what it should always show, and
# the hooks a client such as Claude Code runs.


def cmd_brief(args: argparse.Namespace) -> int:
    """Print the brief (``--json``: with its size and what it left out; the receipt on stderr)."""
    from core.memory import Memory

    with Memory(_existing(args, embeddings="none")) as memory:
        brief = memory.brief(args.max_tokens)
    if args.json:
        print(json.dumps(brief.as_dict(), indent=2, ensure_ascii=False))
    else:
        print(brief.text)
    print(brief.receipt(), file=sys.stderr)
    return 0


def cmd_pin(args: argparse.Namespace) -> int:
    """Pin (or ``--unpin``) an entity or one of its facts; ``--list`` shows every pin."""
    from core.memory import Memory

    with Memory(_existing(args, writes=not args.list, embeddings="none")) as memory:
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


def main(argv: list[str] | None = None) -> int:
    from core.processes import share_malloc_arenas
    from core.storage.errors import as_storage_error

    share_malloc_arenas()  # before any thread: a smaller resident heap for the servers
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except HipocampoError as exc:
        print(f"hipocampo: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # ``hipocampo export | head``: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so the final flush at exit does not complain
        return 141  # 128 + SIGPIPE, as a shell reports a pipe's writer that stopped early
    except Exception as exc:  # SQLite's own errors (a damaged or busy file) read as advice, not a traceback
        storage = as_storage_error(exc, str(getattr(args, "db", None) or Settings().db))
        if storage is None:
            raise
        print(f"hipocampo: {storage}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM for ``mcp`` (128 + the signal's number)
        return int(getattr(exc, "exit_code", 130))


if __name__ == "__main__":
    sys.exit(main())
