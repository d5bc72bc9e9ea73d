"""The official memory server for benchmarks and tests, installed once into the checkout.

``official_command()`` returns the command that runs ``@modelcontextprotocol/server-memory`` with
node directly (no ``npx`` resolution on every start, which would count against its start-up),
installing the package into a git-ignored ``node_modules/`` at the repository root when missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "@modelcontextprotocol/server-memory"
VERSION = "2026.8.31"  # the version Hipocampo is measured and checked against


def package_dir() -> Path:
    return ROOT / "node_modules" / PACKAGE


def official_command() -> list[str] | None:
    """``[node, entry point]`` for the official server, or None when node/npm are missing or the
    install fails."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None:
        return None
    manifest = package_dir() / "package.json"
    if not manifest.exists():
        if npm is None:
            return None
        done = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(ROOT), f"{PACKAGE}@{VERSION}"],
            capture_output=True, text=True, timeout=300,
        )
        if done.returncode != 0 or not manifest.exists():
            return None
    meta = json.loads(manifest.read_text(encoding="utf-8"))
    bin_entry = meta.get("bin")
    entry = next(iter(bin_entry.values())) if isinstance(bin_entry, dict) else bin_entry or meta.get("main")
    return [node, str(package_dir() / entry)] if entry else None


def official_version() -> str:
    manifest = package_dir() / "package.json"
    return json.loads(manifest.read_text(encoding="utf-8"))["version"] if manifest.exists() else "?"
