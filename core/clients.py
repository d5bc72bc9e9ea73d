"""The MCP clients Hipocampo knows how to connect: where each keeps its configuration, what to
paste into it, and how to add Hipocampo to it without disturbing anything else.

Every client starts ``hipocampo --db FILE mcp`` over stdio (:func:`server_command`), under the
server name ``memory`` — the official memory server's usual name, so an assistant's habits and
prompts carry over. When ``memory`` is already taken by another server, Hipocampo is added beside
it as ``hipocampo`` instead: other entries are never changed.

User-level configuration files (Claude Code's is documented at code.claude.com/docs/en/mcp: servers
added with ``claude mcp add --scope user`` live under ``mcpServers`` in ``~/.claude.json``):

=============== ============================================================== ===============
client          file                                                            section
=============== ============================================================== ===============
claude-desktop  macOS ``~/Library/Application Support/Claude/``, Windows         ``mcpServers``
                ``%APPDATA%\\Claude\\``, Linux ``$XDG_CONFIG_HOME/Claude/``;
                ``claude_desktop_config.json``
claude-code     ``~/.claude.json`` (``$CLAUDE_CONFIG_DIR/.claude.json`` if set)  ``mcpServers``
cursor          ``~/.cursor/mcp.json``                                           ``mcpServers``
opencode        ``$XDG_CONFIG_HOME/opencode/opencode.json`` (``~/.config/…``)    ``mcp``
=============== ============================================================== ===============
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import shutil
import stat
import sys
import sysconfig
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from core.errors import HipocampoError

CLIENTS = ("claude-desktop", "claude-code", "cursor", "opencode")
TITLES = {"claude-desktop": "Claude Desktop", "claude-code": "Claude Code", "cursor": "Cursor", "opencode": "opencode"}
SERVER_KEY = "memory"  # the official server's usual key: replacing it is a one-line change
FALLBACK_KEY = "hipocampo"  # used when "memory" already names another server
OPENCODE_SCHEMA = "https://opencode.ai/config.json"


class ClientConfigError(HipocampoError):
    """A client's configuration file cannot be updated (it is damaged, or cannot be written)."""


# -- the command every client runs ----------------------------------------------------------------


def server_command(db: Path) -> list[str]:
    """The absolute command line an MCP client should run to start Hipocampo over stdio: the frozen
    app itself when bundled, the ``hipocampo`` script of this installation or virtualenv, else this
    Python with ``-m core.cli``."""
    db_args = ["--db", str(db), "mcp"]
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: the executable serves `mcp` itself
        return [str(Path(sys.executable).absolute()), *db_args]
    script = find_script("hipocampo")
    if script is not None:
        return [str(script), *db_args]
    argv0 = Path(sys.argv[0])
    if argv0.name.startswith("hipocampo") and argv0.is_file():
        return [str(argv0.absolute()), *db_args]
    return [str(Path(sys.executable).absolute()), "-m", "core.cli", *db_args]


def find_script(name: str) -> Path | None:
    """The absolute path of this installation's console script ``name`` (``name.exe`` on Windows), if any."""
    names = (f"{name}.exe", name) if os.name == "nt" else (name,)
    for folder in _script_folders():
        for candidate in names:
            if (folder / candidate).is_file():
                return (folder / candidate).absolute()
    return None


def _script_folders() -> list[Path]:
    # beside the interpreter first: a virtualenv's python is a symlink that must not be resolved
    folders = [Path(sys.executable).parent]
    for scheme in (None, f"{os.name}_user"):
        with contextlib.suppress(KeyError, ValueError):
            path = sysconfig.get_path("scripts", scheme) if scheme else sysconfig.get_path("scripts")
            if path and Path(path) not in folders:
                folders.append(Path(path))
    return folders


# -- where each client keeps its configuration ----------------------------------------------------


def _config_home() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")


def config_path(client: str) -> Path:
    """The client's user-level configuration file on this platform (it may not exist yet)."""
    _check(client)
    if client == "claude-desktop":
        if sys.platform == "darwin":
            return Path.home() / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
        if os.name == "nt":
            appdata = os.environ.get("APPDATA") or str(Path.home() / "AppData" / "Roaming")
            return Path(appdata) / "Claude" / "claude_desktop_config.json"
        return _config_home() / "Claude" / "claude_desktop_config.json"
    if client == "claude-code":
        folder = os.environ.get("CLAUDE_CONFIG_DIR")
        return Path(folder).expanduser() / ".claude.json" if folder else Path.home() / ".claude.json"
    if client == "cursor":
        return Path.home() / ".cursor" / "mcp.json"
    return _config_home() / "opencode" / "opencode.json"


def display_path(path: Path) -> str:
    """``path`` with the home folder written ``~``, as people recognise it."""
    with contextlib.suppress(ValueError):
        return str(Path("~") / path.relative_to(Path.home()))
    return str(path)


def _section(client: str) -> str:
    return "mcp" if client == "opencode" else "mcpServers"


def server_entry(client: str, db: Path) -> dict[str, Any]:
    """The entry that starts Hipocampo, in ``client``'s own format."""
    _check(client)
    command = server_command(db)
    if client == "opencode":
        return {"type": "local", "command": command, "enabled": True}
    if client == "claude-code":  # the shape `claude mcp add --scope user` writes
        return {"type": "stdio", "command": command[0], "args": command[1:], "env": {}}
    return {"command": command[0], "args": command[1:]}


# -- what to paste --------------------------------------------------------------------------------


def snippet(client: str, db: Path) -> str:
    """What to paste: the JSON for the client's file, or for Claude Code the command that adds it."""
    entry = server_entry(client, db)
    if client == "claude-code":
        words = ["claude", "mcp", "add", "--scope", "user", SERVER_KEY, "--", entry["command"], *entry["args"]]
        return " ".join(_shell_quote(w) for w in words)
    if client == "opencode":
        return json.dumps({"$schema": OPENCODE_SCHEMA, "mcp": {SERVER_KEY: entry}}, indent=2)
    return json.dumps({"mcpServers": {SERVER_KEY: entry}}, indent=2)


def client_config(client: str, db: Path) -> tuple[str, str]:
    """(where it goes, what to paste) for ``client``."""
    where = display_path(config_path(client))
    if client == "claude-code":
        return f"run in a terminal (it adds the server to {where})", snippet(client, db)
    if client in ("cursor", "opencode"):
        project = ".cursor/mcp.json" if client == "cursor" else "opencode.json"
        return f"{where} (or {project} in a project)", snippet(client, db)
    return where, snippet(client, db)


def _shell_quote(text: str) -> str:
    if os.name != "nt":
        return shlex.quote(text)
    return f'"{text}"' if re.search(r"[\s&|<>^]", text) else text


def _check(client: str) -> None:
    if client not in CLIENTS:
        raise HipocampoError(f"Unknown client {client!r}; choose one of {', '.join(CLIENTS)}.")


# -- adding Hipocampo to a client's file ----------------------------------------------------------


@dataclass(frozen=True)
class InstallResult:
    """What :func:`install_into` did."""

    client: str
    path: Path
    key: str  # the server name Hipocampo has in the file
    action: Literal["created", "added", "updated", "unchanged"]
    backup: Path | None  # the copy saved before the file was changed
    beside: str | None = None  # another server already called "memory", kept as it was


def install_into(client: str, db: Path, *, path: Path | None = None) -> InstallResult:
    """Add (or refresh) Hipocampo's server entry in ``client``'s configuration file.

    The file is created when missing. Otherwise a timestamped copy is saved beside it first, every
    other key keeps its value and its place, and the new file replaces the old in one step. A file
    that is not a JSON object is refused with :class:`ClientConfigError` and left untouched. Running
    it again changes nothing."""
    _check(client)
    path = path or config_path(client)
    original = _read(path)
    data: dict[str, Any] = json.loads(original) if original and original.strip() else {}
    if not isinstance(data, dict):
        raise ClientConfigError(
            f"{display_path(path)} does not hold a JSON object, so Hipocampo cannot add itself to it. "
            "It was left untouched; paste the snippet by hand instead."
        )
    if original is None and client == "opencode":
        data["$schema"] = OPENCODE_SCHEMA
    servers = data.setdefault(_section(client), {})
    if not isinstance(servers, dict):
        raise ClientConfigError(
            f"In {display_path(path)}, {_section(client)!r} is not a JSON object. It was left untouched; "
            "fix it or paste the snippet by hand."
        )
    key, beside = _choose_key(servers)
    wanted = server_entry(client, db)
    previous = servers.get(key)
    if isinstance(previous, dict):  # keep what the user added (env, timeouts…); replace what starts it
        servers[key] = {**previous, **{k: v for k, v in wanted.items() if v != {} or k not in previous}}
    else:
        servers[key] = wanted
    if previous == servers[key]:
        return InstallResult(client, path, key, "unchanged", None, beside)
    text = json.dumps(data, indent=_indent_of(original), ensure_ascii=False)
    if original is None or original.endswith("\n"):
        text += "\n"
    backup = _backup(path) if original is not None else None
    _write_atomic(path, text)
    action: Literal["created", "added", "updated"] = (
        "created" if original is None else ("updated" if previous is not None else "added"))
    return InstallResult(client, path, key, action, backup, beside)


def is_hipocampo_entry(entry: Any) -> bool:
    """Whether a server entry starts Hipocampo (so it may be refreshed in place)."""
    if not isinstance(entry, dict):
        return False
    command = entry.get("command")
    words = [*(command if isinstance(command, list) else [command]), *(entry.get("args") or [])]
    return any(isinstance(w, str) and ("hipocampo" in Path(w).name.lower() or w == "core.cli") for w in words)


def _choose_key(servers: dict[str, Any]) -> tuple[str, str | None]:
    if SERVER_KEY not in servers or is_hipocampo_entry(servers[SERVER_KEY]):
        return SERVER_KEY, None
    return FALLBACK_KEY, SERVER_KEY


def _read(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise ClientConfigError(f"Cannot read {display_path(path)}: {exc}. It was left untouched.") from exc
    try:
        if text.strip():
            json.loads(text)
    except ValueError as exc:
        raise ClientConfigError(
            f"{display_path(path)} is not valid JSON ({exc}), so Hipocampo did not change it. "
            "Fix the file (or paste the snippet by hand) and try again."
        ) from exc
    return text


def _indent_of(text: str | None) -> int | str | None:
    """The indentation the file already uses, so a rewrite looks like the original."""
    if text and text.strip() and "\n" not in text.strip():
        return None  # all on one line: keep it so
    match = re.search(r"^[{\[][ \t]*\r?\n([ \t]+)\S", text or "", re.MULTILINE)
    if not match:
        return 2
    unit = match.group(1)
    return len(unit) if set(unit) == {" "} else unit


def _backup(path: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    backup = path.with_name(f"{path.name}.hipocampo-backup-{stamp}")
    try:
        shutil.copy2(path, backup)
    except OSError as exc:
        raise ClientConfigError(f"Cannot save a backup of {display_path(path)} ({exc}); it was not changed.") from exc
    return backup


def _write_atomic(path: Path, text: str) -> None:
    """Write beside the file, then replace it in one step: a crash leaves the old file or the new."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o600
        tmp = path.with_name(f".{path.name}.{os.getpid()}.hipocampo-tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
            with contextlib.suppress(OSError):  # keep the original's permissions (no POSIX modes on Windows)
                os.chmod(tmp, mode)
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
    except OSError as exc:
        raise ClientConfigError(f"Cannot write {display_path(path)}: {exc}. It was left as it was.") from exc
