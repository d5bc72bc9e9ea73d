"""The hub file: where a running Hipocampo HTTP server (the desktop app, or ``hipocampo mcp
--http``) listens, and the bearer token it wants.

``endpoint.json`` in the user's config folder, readable by the user only (0600)::

    {"token": "…", "port": 51234, "pid": 4242, "db": "/home/ada/.local/share/hipocampo/memory.db",
     "url": "http://127.0.0.1:51234/mcp"}

The token is generated once and kept; ``port``, ``pid``, ``db`` and ``url`` are present only while
a hub runs. ``HIPOCAMPO_ENDPOINT_FILE`` points somewhere else (tests, several profiles).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import secrets
from pathlib import Path
from typing import Any

from core.processes import pid_alive
from core.settings import endpoint_path

log = logging.getLogger(__name__)

ENV_ENDPOINT_FILE = "HIPOCAMPO_ENDPOINT_FILE"
MCP_PATH = "/mcp"
HEALTH_PATH = "/health"
HELLO_PATH = "/hello"  # answered without the token: the hub proves it knows it (see hub_proof)
_RUNNING_KEYS = ("port", "pid", "db", "url")


def endpoint_file() -> Path:
    """Where the hub file lives: ``$HIPOCAMPO_ENDPOINT_FILE`` or the user config folder."""
    return endpoint_path()


def read_endpoint(path: Path | None = None) -> dict[str, Any]:
    """The hub file's content, or ``{}`` when it is missing or unreadable."""
    path = path or endpoint_file()
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _write(path: Path, data: dict[str, Any]) -> None:
    """Replace the file atomically, created 0600 from the start (never briefly world-readable)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2)
    with contextlib.suppress(OSError):  # not every file system has POSIX modes (Windows)
        os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def ensure_token(path: Path | None = None) -> str:
    """The hub's bearer token, generated (and saved) the first time."""
    path = path or endpoint_file()
    data = read_endpoint(path)
    token = data.get("token")
    if isinstance(token, str) and len(token) >= 32:
        return token
    token = data["token"] = secrets.token_urlsafe(32)
    _write(path, data)
    return token


def publish(port: int, db: str, *, path: Path | None = None, host: str = "127.0.0.1") -> dict[str, Any]:
    """Record that this process serves ``db`` on ``port``. Returns the file's new content."""
    path = path or endpoint_file()
    data = read_endpoint(path)
    data.setdefault("token", ensure_token(path))
    data.update(port=port, pid=os.getpid(), db=db, url=f"http://{host}:{port}{MCP_PATH}")
    _write(path, data)
    return data


def withdraw(path: Path | None = None) -> None:
    """Forget the running hub (if it is this process); the token stays for the next start."""
    path = path or endpoint_file()
    data = read_endpoint(path)
    if data.get("pid") != os.getpid():
        return
    for key in _RUNNING_KEYS:
        data.pop(key, None)
    _write(path, data)


def hub_proof(token: str, nonce: str, port: int) -> str:
    """What a hub answers to ``nonce``: an HMAC of it under the token, so a client can tell the
    real hub from whatever else listens on its port before it sends the token there."""
    message = f"hipocampo-hub:{port}:{nonce}".encode()
    return hmac.new(token.encode(), message, hashlib.sha256).hexdigest()


def verify_hub(port: int, token: str, *, timeout: float = 1.0) -> bool:
    """True only if whatever listens on ``port`` proves it knows ``token`` (without being sent it)."""
    import httpx  # only when a hub file exists: most starts have none

    nonce = secrets.token_hex(32)
    try:
        response = httpx.get(f"http://127.0.0.1:{port}{HELLO_PATH}", params={"nonce": nonce}, timeout=timeout)
        proof = response.json().get("proof") if response.status_code == 200 else None
    except (httpx.HTTPError, ValueError, AttributeError):
        return False
    return isinstance(proof, str) and hmac.compare_digest(proof, hub_proof(token, nonce, port))


def probe(data: dict[str, Any], *, timeout: float = 1.0) -> dict[str, Any] | None:
    """Ask the hub in ``data`` whether it is alive; its health record, or None if it does not answer.
    The token is sent only after the listener proved it is the hub (``verify_hub``)."""
    port, token = data.get("port"), data.get("token")
    if not isinstance(port, int) or not isinstance(token, str):
        return None
    if not verify_hub(port, token, timeout=timeout):
        return None
    import httpx

    try:
        response = httpx.get(
            f"http://127.0.0.1:{port}{HEALTH_PATH}",
            timeout=timeout,
            headers={"Authorization": f"Bearer {token}"},
        )
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    try:
        health = response.json()
    except ValueError:
        return None
    return health if isinstance(health, dict) and health.get("ok") else None


def live_hub(db: str, *, path: Path | None = None) -> dict[str, Any] | None:
    """The hub file's content if a hub is running *for this database* and answers; else None."""
    data = read_endpoint(path)
    if not data.get("port") or not pid_alive(data.get("pid")):
        return None  # a dead hub: nothing to ask (probe would refuse an impostor anyway)
    health = probe(data)
    if health is None:
        log.info("No Hipocampo hub proves itself at the port in %s; running in-process.", path or endpoint_file())
        return None
    if not _same_file(health.get("db"), db):
        log.info("The hub serves %s, not %s; running in-process.", health.get("db"), db)
        return None
    return data


def running_hub(path: Path | None = None) -> dict[str, Any] | None:
    """The hub the endpoint file names, if another process runs it and it answers; else None."""
    data = read_endpoint(path)
    if not data.get("port") or data.get("pid") == os.getpid() or not pid_alive(data.get("pid")):
        return None
    return data if probe(data) is not None else None


def _same_file(a: Any, b: str) -> bool:
    if not isinstance(a, str):
        return False
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False
