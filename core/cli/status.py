"""``hipocampo status``: the database, its health and counts, the embedding model and the hub."""

from __future__ import annotations

import argparse
from typing import Any

from core import __version__
from core.cli.common import dump, existing
from core.memory import Memory


def cmd_status(args: argparse.Namespace) -> int:
    """Print the database, its health and counts, the embedding model and the hub endpoint."""
    from core.server.tools.engrama import embeddings_info
    from core.server.transports.endpoint import endpoint_file, probe, read_endpoint

    settings = existing(args)
    with Memory(settings) as memory:
        health = memory.health_check(deep=True)
        labels = memory.count_labels(include_archived=False)  # archived records are no type in use
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
        dump({**health, "labels": labels, "embeddings": model, "endpoint": endpoint})
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
    # Insights and carried-out proposals are archived entity rows: records beside the graph, not in it.
    print(f"  entities     {int(counts.get('entities', 0)) - int(health.get('archived', 0))}")
    print(f"  observations {counts.get('observations', 0)}")
    print(f"  relations    {counts.get('relations', 0)}")
    print(f"  insights     {counts.get('insights', 0)}")
    if health.get("upgrading"):
        steps = ", ".join(f"{what.replace('_', ' ')} {done:,} of {total:,}"
                          for what, (done, total) in health["upgrading"].items())
        print(f"  upgrading    {steps} (in the background; searches answer meanwhile)")
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
