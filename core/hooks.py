"""Client hooks: the brief handed to the assistant when a session starts, and a reminder to save
before it ends, for clients that run commands at those moments (Claude Code; its format is at
code.claude.com/docs/en/hooks).

``hipocampo config claude-code --hooks`` adds three entries to ``~/.claude/settings.json``
(``$CLAUDE_CONFIG_DIR/settings.json``), keeping a dated backup and every other entry:

- ``SessionStart`` (startup, resume, clear, compact) runs ``hipocampo hook session-start``: the brief
  goes to the assistant as ``additionalContext``, and a one-line receipt to the person
  (``systemMessage``: "Hipocampo: brief 612 tokens, 11 of 9500 entities, 3 insights to review").
- ``PreCompact`` runs ``hook pre-compact``: tells the person the brief comes back after compaction,
  and whether anything was saved so far (Claude Code shows nothing of it to the model).
- ``Stop`` runs ``hook stop``: if nothing was saved to memory since the session started, it asks the
  assistant once (``decision: block`` with the reason) to save what it learned; otherwise it only
  says what was saved.

Every hook reads the running hub when there is one (``GET /brief`` with its token: no MCP session,
no second server), else the memory file itself (only read); it finishes within ``DEADLINE_S`` (a
watchdog says so and exits if it would not) and prints a receipt. A failure is said in the
receipt, never silent; the exit code stays 0 so a broken memory never blocks the client.

Other clients: Cursor's and opencode's hook formats could not be verified from their documentation
here, so only Claude Code is offered.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEADLINE_S = 0.95  # the whole hook, interpreter start and imports included, stays within a second
EVENTS = {"SessionStart": "session-start", "PreCompact": "pre-compact", "Stop": "stop"}
MATCHERS = {"SessionStart": "startup|resume|clear|compact", "PreCompact": "manual|auto", "Stop": None}
HOOK_TIMEOUT_S = 5  # what Claude Code is told; ours ends itself well before
REMINDER = ("Before you finish: nothing from this session has been saved to the user's memory (Hipocampo) yet. "
            "If you learned something worth keeping (decisions, preferences, facts about people and projects), "
            "save it now: search_semantic first to reuse names, then create_entities / add_observations / "
            "create_relations. If there is nothing worth keeping, just finish.")


# -- running a hook ---------------------------------------------------------------------------


@dataclass
class Answer:
    """What a hook prints: for the model (``context``), for the person (``receipt``), and a Stop
    hook's request to carry on (``reason``)."""

    receipt: str
    context: str | None = None
    reason: str | None = None


def run_hook(event: str, *, db: Path | None = None, client: str = "claude-code", stdin: Any = None) -> int:
    """Run hook ``event`` (session-start, pre-compact, stop) as ``client`` runs it; always exit 0."""
    given = _read_input(stdin if stdin is not None else sys.stdin)
    done = threading.Event()
    said = threading.Lock()  # one answer only: the hook's, or the watchdog's

    deadline = _deadline()

    def watchdog() -> None:
        if not done.wait(max(0.0, deadline - _since_start())) and said.acquire(blocking=False):
            _emit(event, Answer(f"Hipocampo: the memory did not answer within {deadline:.1f} s; "
                                "no brief this time (is the disk or the app busy?)"))
            sys.stdout.flush()
            os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    try:
        answer = _answer(event, db, given)
    except Exception as exc:  # said, never silent
        answer = Answer(f"Hipocampo: the hook failed ({type(exc).__name__}: {exc})")
    done.set()
    if said.acquire(blocking=False):
        _emit(event, answer)
    return 0


def _deadline() -> float:
    from pydantic import ValidationError

    from core.settings import Settings

    try:
        return Settings().hook_deadline  # HIPOCAMPO_HOOK_DEADLINE (tests on a busy machine; a slow disk)
    except ValidationError:
        return DEADLINE_S


def _since_start() -> float:
    """Seconds since this process started (Linux: from /proc; elsewhere 0, the hook's own time only)."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def _read_input(stream: Any) -> dict[str, Any]:
    """The client's JSON on stdin (session_id, source, stop_hook_active …), or {} when there is none."""
    try:
        if stream.isatty():
            return {}
        if os.name != "nt" and hasattr(stream, "fileno"):  # a client that never closes stdin must not hang us
            ready, _, _ = select.select([stream], [], [], 0.2)
            if not ready:
                return {}
        value = json.loads(stream.read() or "{}")
    except (OSError, ValueError, AttributeError):
        return {}
    return value if isinstance(value, dict) else {}


def _emit(event: str, answer: Answer) -> None:
    """Claude Code's JSON output (exit 0): additionalContext for SessionStart, decision for Stop."""
    out: dict[str, Any] = {"systemMessage": answer.receipt}
    if event == "session-start" and answer.context:
        out["hookSpecificOutput"] = {"hookEventName": "SessionStart", "additionalContext": answer.context}
    if event == "stop" and answer.reason:
        out["decision"] = "block"
        out["reason"] = answer.reason
    sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _answer(event: str, db: Path | None, given: dict[str, Any]) -> Answer:
    state = _Session(str(given.get("session_id") or "default"))
    got = read_brief(db, brief=event == "session-start")
    if got is None:
        return Answer("Hipocampo: no memory yet at this path; nothing to brief (it starts with the first save).")
    latest = int(got["latest_change_id"])
    where = "from the app" if got.get("via") == "hub" else "from the file"
    if event == "session-start":
        state.save(start=latest, reminded=False)
        return Answer(f"{got['receipt']} ({where})", context=got["brief"])
    start = state.load().get("start", latest)
    saved = latest - int(start)
    if event == "pre-compact":
        return Answer(f"Hipocampo: {saved} change{'s' if saved != 1 else ''} saved this session; "
                      "the brief comes back after compaction.")
    if saved > 0 or given.get("stop_hook_active") or state.load().get("reminded"):
        return Answer(f"Hipocampo: {saved} change{'s' if saved != 1 else ''} saved this session.")
    state.save(start=start, reminded=True)
    return Answer("Hipocampo: nothing saved this session yet; asked the assistant to save what it learned.",
                  reason=REMINDER)


def read_brief(db: Path | None, *, brief: bool = True) -> dict[str, Any] | None:
    """The brief (unless ``brief`` is False) and the newest change id, from the running hub for ``db``
    if any, else the file (only read; None when there is no memory there yet). Never starts a server."""
    from core.settings import Settings

    settings = Settings(db=db) if db is not None else Settings()  # the installed hook always names --db
    if settings.backend == "sqlite":
        from core.server.transports.endpoint import live_hub

        hub = live_hub(str(settings.db))
        if hub is not None:
            return {**_from_hub(hub), "via": "hub"}
        if not Path(settings.db).expanduser().exists():
            return None
        from core.storage.peek import brief_stamp, latest_change_id

        if not brief:  # the Stop and PreCompact hooks only need this one number
            latest = latest_change_id(settings.db)
            if latest is not None:
                return {"latest_change_id": latest, "via": "file"}
        else:  # the brief built last time, while nothing it depends on has changed: no engine to load
            stamp = brief_stamp(settings.db)
            cache = _BriefCache(settings.db)
            kept = cache.get(stamp) if stamp is not None else None
            if kept is not None:
                return {**kept, "via": "file"}
    from core.memory import Memory

    with Memory(settings.model_copy(update={"embeddings": "none", "backup_keep": 0})) as memory:
        made = memory.brief()
        built = {"brief": made.text, "receipt": made.receipt(), "latest_change_id": memory.latest_change_id()}
    if settings.backend == "sqlite" and brief and stamp is not None:
        cache.put(stamp, built)
    return {**built, "via": "file"}


def _from_hub(hub: dict[str, Any]) -> dict[str, Any]:
    import httpx

    from core.server.transports.hook_route import BRIEF_PATH

    response = httpx.get(f"http://127.0.0.1:{hub['port']}{BRIEF_PATH}", timeout=DEADLINE_S,
                         headers={"Authorization": f"Bearer {hub['token']}"})
    response.raise_for_status()
    answer: dict[str, Any] = response.json()
    return answer


class _BriefCache:
    """The brief a hook built from a file, kept (readable by the user only) under what it depends on."""

    def __init__(self, db: Path) -> None:
        import hashlib

        import platformdirs

        key = hashlib.blake2b(str(Path(db).expanduser().absolute()).encode(), digest_size=12).hexdigest()
        self.path = Path(platformdirs.user_cache_dir("hipocampo", appauthor=False)) / "briefs" / f"{key}.json"

    def get(self, stamp: str) -> dict[str, Any] | None:
        try:
            value = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return value.get("brief") if isinstance(value, dict) and value.get("stamp") == stamp else None

    def put(self, stamp: str, brief: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):  # without it the next hook builds the brief again, that is all
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump({"stamp": stamp, "brief": brief}, fh, ensure_ascii=False)
            os.replace(tmp, self.path)


class _Session:
    """What a hook remembers about one client session between its calls (a small JSON file)."""

    def __init__(self, session_id: str) -> None:
        import platformdirs

        safe = "".join(c for c in session_id if c.isalnum() or c in "-_")[:80] or "default"
        self.path = Path(platformdirs.user_cache_dir("hipocampo", appauthor=False)) / "sessions" / f"{safe}.json"

    def load(self) -> dict[str, Any]:
        try:
            value = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return value if isinstance(value, dict) else {}

    def save(self, **values: Any) -> None:
        with contextlib.suppress(OSError):  # a session without its note only loses the Stop reminder
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(values), encoding="utf-8")


# -- installing them --------------------------------------------------------------------------


def settings_path() -> Path:
    """Claude Code's user settings file (``$CLAUDE_CONFIG_DIR/settings.json``, else ``~/.claude/``)."""
    folder = os.environ.get("CLAUDE_CONFIG_DIR")
    return (Path(folder).expanduser() if folder else Path.home() / ".claude") / "settings.json"


def hook_command(db: Path, event: str) -> str:
    """The shell command Claude Code runs for ``event``: the bundled app itself when frozen, else
    this Python with ``-m core.hooks`` (lighter to start than the whole command line)."""
    if getattr(sys, "frozen", False):
        words = [str(Path(sys.executable).absolute()), "--db", str(db), "hook", EVENTS[event]]
    else:
        words = [str(Path(sys.executable).absolute()), "-m", "core.hooks", "--db", str(db), EVENTS[event]]
    return " ".join(shlex.quote(w) for w in words) if os.name != "nt" else " ".join(
        f'"{w}"' if " " in w else w for w in words)


def is_our_hook(group: Any) -> bool:
    """Whether a settings.json hook group is one of Hipocampo's (so it is refreshed, not added twice)."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return False
    return any(isinstance(h, dict) and isinstance(h.get("command"), str) and (
        "core.hooks" in h["command"] or (" hook " in h["command"] and "hipocampo" in h["command"].lower()))
        for h in group["hooks"])


@dataclass(frozen=True)
class HooksInstalled:
    path: Path
    action: str  # created, added, updated, unchanged
    backup: Path | None


def install_hooks(db: Path, *, path: Path | None = None) -> HooksInstalled:
    """Add (or refresh) Hipocampo's three hooks in Claude Code's settings, keeping everything else
    and a dated backup of the file; a file that is not a JSON object is refused and left as it was."""
    from core.clients import ClientConfigError, _backup, _indent_of, _read, _write_atomic, display_path

    path = path or settings_path()
    original = _read(path)
    data: Any = json.loads(original) if original and original.strip() else {}
    hooks = data.setdefault("hooks", {}) if isinstance(data, dict) else None
    if not isinstance(hooks, dict):
        raise ClientConfigError(f"{display_path(path)} (or its 'hooks') is not a JSON object, so Hipocampo cannot "
                                "add its hooks. It was left untouched.")
    before = json.dumps(hooks, sort_keys=True)
    found = False
    for event in EVENTS:
        groups = hooks.setdefault(event, [])
        if not isinstance(groups, list):
            raise ClientConfigError(f"In {display_path(path)}, hooks.{event} is not a list. It was left untouched.")
        ours: dict[str, Any] = {"hooks": [{"type": "command", "command": hook_command(db, event),
                                           "timeout": HOOK_TIMEOUT_S}]}
        if MATCHERS[event]:
            ours = {"matcher": MATCHERS[event], **ours}
        at = next((i for i, g in enumerate(groups) if is_our_hook(g)), None)
        found = found or at is not None
        if at is None:
            groups.append(ours)
        else:
            groups[at] = ours
    if json.dumps(hooks, sort_keys=True) == before:
        return HooksInstalled(path, "unchanged", None)
    text = json.dumps(data, indent=_indent_of(original), ensure_ascii=False) + "\n"
    backup = _backup(path) if original is not None else None
    _write_atomic(path, text)
    return HooksInstalled(path, "created" if original is None else ("updated" if found else "added"), backup)


def print_install(client: str, db: Path) -> int:
    """``hipocampo config CLIENT --hooks``: install the hooks, and say what was done."""
    from core.clients import display_path
    from core.errors import InvalidInput

    if client != "claude-code":
        raise InvalidInput(f"Hooks are offered for claude-code only: {client}'s hook format could not be "
                           "verified from its documentation. Its MCP entry works without them.")
    done = install_hooks(db)
    where = display_path(done.path)
    if done.action == "unchanged":
        print(f"Claude Code already runs Hipocampo's hooks ({where}).")
        return 0
    backup = f" (backup: {display_path(done.backup)})" if done.backup else ""
    print(f"{done.action.capitalize()} Hipocampo's SessionStart, PreCompact and Stop hooks in {where}{backup}.")
    print("New Claude Code sessions start with the brief; restart running ones to load the hooks.")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m core.hooks [--db FILE] EVENT``: what the installed hooks run."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m core.hooks", description="Run one of Hipocampo's client hooks.")
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("event", choices=tuple(EVENTS.values()))
    args = parser.parse_args(argv)
    return run_hook(args.event, db=args.db)


if __name__ == "__main__":
    sys.exit(main())
