"""Finding the memories a person switching to Hipocampo already has, with what each holds.

Looked for, all under the home folder (``HOME`` / ``XDG_CONFIG_HOME``, so tests can point it at a
scratch folder):

* the official memory server's file: every ``MEMORY_FILE_PATH`` in the client configurations
  Hipocampo knows (``core.clients``), ``$MEMORY_FILE_PATH`` itself, and the server's default file
  (``memory.jsonl``, or the older ``memory.json``, beside its code in npx's cache: ``~/.npm/_npx``,
  on Windows ``%LOCALAPPDATA%\\npm-cache\\_npx``);
* MCP Memory v2's database, ``~/.config/opencode/mcp-memory/memory.db``;
* Engrama's database, ``$ENGRAMA_DB_PATH`` or ``~/.engrama/engrama.db``.

Each found file comes with its counts, read without changing it. Nothing is imported here: the
caller offers them, and imports the chosen ones the usual way (``core.io.preview_import``).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.clients import CLIENTS, TITLES, config_path
from core.errors import HipocampoError

OFFICIAL, MCP_MEMORY_V2, ENGRAMA = "official", "mcp-memory-v2", "engrama"
SOURCE_TITLES = {OFFICIAL: "Official memory server", MCP_MEMORY_V2: "MCP Memory v2", ENGRAMA: "Engrama"}
_OFFICIAL_PACKAGE = Path("node_modules") / "@modelcontextprotocol" / "server-memory" / "dist"
_MAX_CONFIG_BYTES = 16 * 1024 * 1024  # a client config bigger than this is not read


@dataclass(frozen=True)
class FoundMemory:
    """A memory file another tool keeps: what wrote it, where, and how much it holds."""

    source: str  # OFFICIAL, MCP_MEMORY_V2 or ENGRAMA
    path: Path
    entities: int
    relations: int
    insights: int = 0
    via: str = ""  # where it was found: a client's name, an environment variable, "default"

    @property
    def title(self) -> str:
        return SOURCE_TITLES[self.source]

    def as_dict(self) -> dict[str, Any]:
        return {"source": self.source, "path": str(self.path), "entities": self.entities,
                "relations": self.relations, "insights": self.insights, "via": self.via}


def find_memories(exclude: Path | None = None) -> list[FoundMemory]:
    """Every other tool's memory file on this account that holds something, each file once.

    ``exclude``: the Hipocampo database in use (never offered as a source of itself)."""
    seen: set[Path] = set()
    if exclude is not None:
        seen.add(_key(exclude))
    found: list[FoundMemory] = []
    for source, path, via in _candidates():
        key = _key(path)
        if key in seen or not path.is_file():
            continue
        seen.add(key)
        counted = _count(source, path, via)
        if counted is not None and (counted.entities or counted.relations):
            found.append(counted)
    return found


def _key(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except OSError:
        return path.expanduser().absolute()


def _home() -> Path:
    return Path(os.environ.get("HOME") or Path.home())


def _candidates() -> Iterator[tuple[str, Path, str]]:
    env = os.environ.get("MEMORY_FILE_PATH")
    if env and Path(env).expanduser().is_absolute():
        yield OFFICIAL, Path(env).expanduser(), "MEMORY_FILE_PATH"
    for client in CLIENTS:
        for value in _memory_file_paths(config_path(client)):
            yield OFFICIAL, value, TITLES[client]
    caches = [_home() / ".npm" / "_npx"]  # npm's cache on Linux and macOS; on Windows under LOCALAPPDATA
    if os.environ.get("LOCALAPPDATA"):
        caches.append(Path(os.environ["LOCALAPPDATA"]) / "npm-cache" / "_npx")
    for npx in caches:
        with contextlib.suppress(OSError):
            for cache in sorted(npx.iterdir()) if npx.is_dir() else []:
                for name in ("memory.jsonl", "memory.json"):
                    yield OFFICIAL, cache / _OFFICIAL_PACKAGE / name, "default"
    config_home = Path(os.environ.get("XDG_CONFIG_HOME") or _home() / ".config")
    yield MCP_MEMORY_V2, config_home / "opencode" / "mcp-memory" / "memory.db", "default"
    if _home() / ".config" != config_home:
        yield MCP_MEMORY_V2, _home() / ".config" / "opencode" / "mcp-memory" / "memory.db", "default"
    engrama = os.environ.get("ENGRAMA_DB_PATH")
    if engrama:
        yield ENGRAMA, Path(engrama).expanduser(), "ENGRAMA_DB_PATH"
    yield ENGRAMA, _home() / ".engrama" / "engrama.db", "default"


def _memory_file_paths(config: Path) -> list[Path]:
    """Every absolute ``MEMORY_FILE_PATH`` set anywhere in a client's JSON configuration."""
    try:
        if not config.is_file() or config.stat().st_size > _MAX_CONFIG_BYTES:
            return []
        data = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return []  # unreadable: nothing to offer from it
    out: list[Path] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            value = item.get("MEMORY_FILE_PATH")
            if isinstance(value, str) and value.strip():
                path = Path(value.strip()).expanduser()
                if path.is_absolute():
                    out.append(path)
            stack.extend(v for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, (dict, list)))
    return out


def _count(source: str, path: Path, via: str) -> FoundMemory | None:
    """The file's counts, or None if it is not the kind of file its place promises."""
    try:
        if source == OFFICIAL:
            entities, relations = _count_lines(path)
            return FoundMemory(source, path, entities, relations, via=via)
        if source == MCP_MEMORY_V2:
            from core.storage.sqlite.foreign import ForeignGraph

            with ForeignGraph(path) as graph:
                entities, relations = graph.counts()
            return FoundMemory(source, path, entities, relations, via=via)
        from core.storage.sqlite.engrama_db import EngramaDatabase

        with EngramaDatabase(path) as db:
            counts = db.counts()
        return FoundMemory(source, path, counts["nodes"] - counts["insights"], counts["edges"],
                           insights=counts["insights"], via=via)
    except (HipocampoError, OSError):
        return None


def _count_lines(path: Path) -> tuple[int, int]:
    """Entity and relation lines of an official memory file (other lines are not counted)."""
    entities = relations = 0
    with path.open("rb") as fh:
        for raw in fh:
            if b'"type"' not in raw:
                continue
            try:
                kind = json.loads(raw).get("type")
            except (ValueError, AttributeError):
                continue
            entities += kind == "entity"
            relations += kind == "relation"
    return entities, relations
